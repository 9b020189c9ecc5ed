"""``kernel.set_run_dims(outer=(...), inner=(...))``: OCCA's setRunDims, checked.

In OCCA, a kernel whose launcher cannot work out its launch sizes needs them set by hand.  In
okl there is no such kernel: code around the @outer loops that the Python launcher cannot run
(reads of device memory, calls, ...) is a translation error, so every kernel that builds has
launch sizes okl computes from its arguments at each launch.  ``set_run_dims`` is therefore a
checked statement of those sizes, for code ported from OCCA (and a guard that a kernel keeps
the grid the caller expects): the dims passed must equal the computed ones -- axes beyond
those given count as 1 -- and a mismatch is an okl.ArgumentError (when the computed sizes are
constants, at the call of set_run_dims; otherwise at each launch, which then costs a run of
the kernel's host code in Python, some microseconds).  The launch uses the computed sizes,
which are the same.  Never does okl launch a grid other than the one the loops describe: the
generated GPU code has no guards for extra threads.

GPU modes (cuda, hip, opencl) check; serial and openmp run the loops as written in C and have
no grid, so there only the form of the dims is checked.  A kernel whose host code launches
several device kernels (several top-level @outer loops) has one grid per device kernel and
is refused.  ``set_run_dims(None, None)`` (or no arguments) goes back to unchecked launches.
Kernels are shared: ``dev.build_kernel`` returns the same object for the same source, so the
setting applies to every holder of that kernel.
"""

from __future__ import annotations

import operator

from ...errors import ArgumentError
from .gpu import env_names
from .hostrun import compile_function, host_launches


def _dims(value, what: str, name: str) -> tuple[int, ...]:
    if hasattr(value, "__index__"):
        value = (value,)
    try:
        dims = tuple(operator.index(n) for n in value)
    except TypeError:
        raise ArgumentError(f"{name}.set_run_dims: {what} must be a tuple of 1 to 3 integers, "
                            f"got {value!r}") from None
    if not 1 <= len(dims) <= 3 or any(n < 1 for n in dims):
        raise ArgumentError(f"{name}.set_run_dims: {what} must be 1 to 3 positive integers, "
                            f"got {dims!r}")
    return dims


def _padded(dims) -> tuple[int, ...]:
    return tuple(dims) + (1,) * (3 - len(dims))


def _mismatch(name: str, outer, inner, got_outer, got_inner, when: str) -> ArgumentError:
    return ArgumentError(
        f"{name}: set_run_dims(outer={tuple(outer)}, inner={tuple(inner)}) does not match the "
        f"sizes of the kernel's loops {when}: outer={tuple(got_outer)}, "
        f"inner={tuple(got_inner)}; okl launches what the loops describe -- fix the dims "
        "passed, or clear them with set_run_dims(None, None)")


def set_run_dims(kernel, outer, inner) -> None:
    name = kernel.name
    if outer is None and inner is None:
        _unwrap(kernel)
        kernel.run_dims = None
        return
    if outer is None or inner is None:
        raise ArgumentError(f"{name}.set_run_dims: give both outer and inner (or neither, to "
                            "clear them)")
    outer, inner = _dims(outer, "outer", name), _dims(inner, "inner", name)
    spec = kernel.spec
    if not spec.device_kernels:  # serial, openmp: no grid to compare with
        _unwrap(kernel)
        kernel.run_dims = (outer, inner)
        return
    if len(spec.device_kernels) != 1:
        raise ArgumentError(f"{name}.set_run_dims: the kernel launches "
                            f"{len(spec.device_kernels)} device kernels (one per top-level "
                            "@outer loop), each with its own sizes; set_run_dims applies to "
                            "kernels of one @outer loop nest")
    want = (_padded(outer), _padded(inner))
    d = spec.device_kernels[0]
    if env_names([d.dims_src]) == set():  # constant sizes: checked now
        got = compile_function(d.dims_src, "_dims", f"<okl grid of {d.name}>")({})
        if (_padded(got[0]), _padded(got[1])) != want:
            raise _mismatch(name, outer, inner, got[0], got[1], "(constants)")
        _unwrap(kernel)
        kernel.run_dims = (outer, inner)
        return
    _unwrap(kernel)
    call = kernel._call
    params = spec.params
    convert = kernel._convert

    def checked(args):
        values = [None if p.is_pointer else _value(c(a))
                  for p, c, a in zip(params, convert, args, strict=True)]
        for _, got_outer, got_inner, _ in host_launches(spec, values):
            if (_padded(got_outer), _padded(got_inner)) != want:
                raise _mismatch(name, outer, inner, got_outer, got_inner,
                                "for these arguments")
        call(args)

    kernel.__dict__["_call_without_run_dims"] = call
    kernel._call = checked
    kernel._route()
    kernel.run_dims = (outer, inner)


def _unwrap(kernel) -> None:
    """Back to the launch without the check of an earlier set_run_dims."""
    call = kernel.__dict__.pop("_call_without_run_dims", None)
    if call is not None:
        kernel._call = call
        kernel._route()


def _value(v):
    return v.item() if v.dtype.fields is None else v
