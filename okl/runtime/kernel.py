"""okl.Kernel: a built kernel; calling it checks every argument, then launches.

Made by ``Device.build_kernel``; the backend supplies the launch (and, where it can, one
generated function that checks and launches), this module the argument binding and checks.
"""

from __future__ import annotations

import weakref
from collections.abc import Callable
from operator import attrgetter
from typing import TYPE_CHECKING, Any

from ..errors import OKLError
from .launch.args import bind_args, make_converters
from .launch.checked import Checker
from .launch.races import RaceChecker
from .launch.spec import KernelSpec
from .properties import kernel_properties
from .stream import launch_on, takes_stream

if TYPE_CHECKING:  # no import at run time: tune is loaded by the first Device.tune
    from .tune import TuneResult


class Kernel:
    """A built kernel. Calling it checks every argument, then launches.

    ``translation_hit``: the backend source came from the cache; ``build_hit``: the binary
    did (None where the backend keeps its own binary cache: CUDA, HIP);
    ``cache_hit``: both, as far as okl's cache goes.
    """

    cache_hit = False
    translation_hit = False
    build_hit: bool | None = False
    build_seconds = 0.0
    #: what Device.tune found (okl.runtime.tune.TuneResult) when this kernel is its winner
    tuning: TuneResult | None = None
    #: the okl.Program this kernel belongs to (every build and load makes one)
    program: Any = None

    def __init__(self, device, spec: KernelSpec, module, source: str):
        self.device = device
        self.spec = spec
        self.name = spec.name
        self.source = source
        self._module = module  # the backend's built code, for ``properties``
        # checked mode and the race checker: the params past the user's are hidden, filled
        # by the Checker and the RaceChecker (in that order)
        self._checker = Checker(device, spec) if spec.check_ints else None
        self._races = RaceChecker(device, spec, device.check_races) \
            if spec.race_ints and device.check_races else None
        hidden = self._checker is not None or self._races is not None
        self.params = spec.params[:spec.user_params] if hidden else spec.params
        backend = device.backend
        self._convert = make_converters(spec.params, spec.name, expected_kind=backend.kind,
                                        expected_device=backend.identity,
                                        describe=backend.describe)
        # A backend may check, convert and launch in one generated function (its ``caller``,
        # None where that cannot be set up), called as the kernel is; messages are those of
        # the converters above.
        caller = getattr(backend, "caller", None)
        fast = caller(self, module) if caller is not None else None
        if fast is None:
            self._launch = backend.launcher(self, module)
            self._call = self._checked_launch
        else:
            self._call = self._fast_call = lambda args: fast(*args)
            self._fast = fast
        self._route()

    def __repr__(self) -> str:
        sig = ", ".join(f"{p.c_type} {p.name}" for p in self.params)
        return f"okl.Kernel({self.name}({sig}), mode={self.device.mode!r})"

    @property
    def signature(self) -> str:
        """The kernel's C signature, e.g. ``saxpy(const int n, ...)``: what argument errors
        quote."""
        return f"{self.name}({', '.join(f'{p.c_type} {p.name}' for p in self.params)})"

    @property
    def properties(self) -> dict:
        """What the compiled binary uses where the backend reports it (registers, shared and
        local memory, work-group sizes); see okl/runtime/properties.py."""
        return kernel_properties(self)

    def save(self, path) -> None:
        """Write this kernel as an ahead-of-time bundle that ``Device.load_kernel`` loads
        with no compiler (``Program.save``; okl.runtime.bundle)."""
        if self.program is None:
            raise OKLError(f"okl.Kernel {self.name} was not built by a Device: nothing to save")
        self.program.save(path, kernel=self.name)

    #: the backend's generated launch function, and its call with the arguments as a tuple
    _fast: Callable[..., Any] | None = None
    _fast_call: Callable[[tuple], Any] | None = None

    def _route(self) -> None:
        """Choose what a call runs: the backend's generated function itself, when nothing
        stands between it and the caller (no checked mode, no set_run_dims check), else
        ``_enter``.  (A call reaches the instance's ``_entry`` through the ``__call__``
        property: one Python frame less per launch than a ``__call__`` method that calls
        on, about 0.1 us.)"""
        direct = self._fast is not None and self._checker is None and \
            self._races is None and self._call is self._fast_call
        self._entry = self._fast if direct else self._enter

    __call__ = property(attrgetter("_entry"), doc="Check every argument, then launch.")

    def _enter(self, *args, **kwargs):
        if kwargs or len(args) != len(self.params):
            if "stream" in kwargs and takes_stream(self.params):  # the launch on that stream
                launch_on(weakref.ref(self), args, kwargs)
                return
            args = bind_args(args, kwargs, self.params, self.name)
        checker, races = self._checker, self._races
        if checker is None and races is None:
            self._call(args)
            return
        hidden = checker.hidden(args) if checker is not None else []
        if races is None:
            self._call(list(args) + hidden)
        else:
            with races.launching():  # reads the report after the launch: RaceError
                self._call(list(args) + hidden + races.hidden(args))
        if checker is not None:
            checker.raise_if_failed()

    #: (outer, inner) as given to set_run_dims, or None
    run_dims: tuple | None = None

    def set_run_dims(self, outer=None, inner=None) -> None:
        """OCCA's setRunDims, checked: ``outer``/``inner`` (1 to 3 sizes each) must equal the
        launch sizes okl computes from the kernel's loops (on GPU modes; an ArgumentError
        otherwise, now for constant sizes, else at each launch).  Every kernel that builds
        has computable sizes in okl, so this states them rather than replacing them; see
        okl.runtime.launch.rundims.  ``set_run_dims(None, None)`` clears them."""
        from .launch.rundims import set_run_dims
        set_run_dims(self, outer, inner)

    def _checked_launch(self, args) -> None:
        values = [c(a) for c, a in zip(self._convert, args, strict=True)]
        launch = self.__dict__.get("_launch")
        if launch is None:  # the general path, made when first needed beside a fast one
            launch = self._launch = self.device.backend.launcher(self, self._module)
        launch(args, values)
