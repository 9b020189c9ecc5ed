"""``okl.compare``: one kernel run on several modes from copies of the same inputs, every
array compared afterwards -- okl's promise that one source gives one answer everywhere,
checked in one call.

Each mode gets its own copy of every array argument; after the launch every array (inputs
too: a kernel that writes an argument it should only read shows up) is read back and
compared with the first mode's, floats within ``rtol``/``atol``, everything else exactly.
The report names, per array, whether the modes agree and the first element that differs
(its index, each mode's value).  A mode that cannot run here is listed as skipped with the
reason, never counted as agreeing.

``oklc compare FILE KERNEL --args SPEC`` is the command-line form (okl.cli); its spec
describes the arguments as JSON (see :func:`arguments_from_spec`).
"""

from __future__ import annotations

import os
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np

from .errors import ArgumentError, BackendUnavailableError, OKLError


@dataclass
class ArrayResult:
    """One array argument across the modes that ran."""

    index: int  # the argument's position (0-based)
    name: str  # the kernel parameter's name
    agree: bool
    #: the first element that differs from the first mode: its index and every mode's value
    first: tuple[tuple[int, ...], dict[str, object]] | None = None
    differing: int = 0  # how many elements differ
    max_abs: float = 0.0  # the largest absolute difference (floats)


@dataclass
class Comparison:
    """What :func:`compare` found; ``ok``: at least two modes ran and every array agrees."""

    kernel: str
    modes: list[str]
    skipped: dict[str, str] = field(default_factory=dict)  # mode -> why it did not run
    arrays: list[ArrayResult] = field(default_factory=list)
    rtol: float = 0.0
    atol: float = 0.0

    @property
    def ok(self) -> bool:
        return len(self.modes) >= 2 and all(a.agree for a in self.arrays)

    def __bool__(self) -> bool:
        return self.ok

    def __str__(self) -> str:
        lines = [f"kernel '{self.kernel}' on {', '.join(self.modes) or 'no mode'} "
                 f"(rtol {self.rtol:g}, atol {self.atol:g}; compared with {self.modes[0]})"
                 if self.modes else f"kernel '{self.kernel}': no mode ran"]
        for mode, why in self.skipped.items():
            lines.append(f"  {mode}: skipped ({why})")
        for a in self.arrays:
            head = f"  argument {a.index + 1} '{a.name}': "
            if a.agree:
                lines.append(head + "agrees")
                continue
            assert a.first is not None
            where, values = a.first
            index = "".join(f"[{i}]" for i in where)
            shown = ", ".join(f"{m} {v!r}" for m, v in values.items())
            many = a.differing != 1
            lines.append(head + f"DIFFERS at {a.name}{index} ({shown}); {a.differing} "
                         f"element{'s differ' if many else ' differs'}"
                         + (f", largest difference {a.max_abs:.3g}" if a.max_abs else ""))
        if len(self.modes) < 2:
            lines.append("  fewer than two modes ran: nothing was compared")
        return "\n".join(lines)


def compare(source, kernel: str, args: Sequence, modes: Sequence[str] | None = None, *,
            rtol: float = 1e-5, atol: float = 0.0, defines: dict | None = None,
            include_dirs=(), devices: dict | None = None) -> Comparison:
    """Run ``kernel`` of ``source`` (a path to an .okl file, or OKL text) on every mode in
    ``modes`` (default: every mode that runs here) with copies of ``args`` (numpy arrays and
    scalars, as the kernel takes them) and compare every array afterwards.

    ``devices`` maps a mode to the okl.Device to use for it (e.g. an OpenCL device of your
    choice); others are made with defaults.  Build errors are raised (the same for every
    mode, or a mode's own: either way there is nothing to compare)."""
    from .runtime.device import Device, backends

    text_source = not isinstance(source, os.PathLike) and (
        "\n" in str(source) or "@kernel" in str(source))
    # a folder or an unreadable file is read (SourceFileError: PATH: error: cannot read: ...)
    if not text_source and not Path(source).exists():
        raise ArgumentError(f"okl.compare: no such kernel file {str(source)!r} (pass a path or "
                            "the OKL source text)")
    usable = {b.name: b for b in backends()}
    wanted = list(modes) if modes is not None else [m for m, b in usable.items() if b.available]
    result = Comparison(kernel, [], rtol=rtol, atol=atol)
    outputs: dict[str, list[np.ndarray]] = {}
    params = None
    for mode in wanted:
        info = usable.get(mode)
        if info is None:
            raise ArgumentError(f"okl.compare: unknown mode {mode!r}; modes: "
                                f"{', '.join(usable)}")
        if not info.available:
            result.skipped[mode] = info.reason
            continue
        try:
            dev = (devices or {}).get(mode) or Device(mode)
        except BackendUnavailableError as e:
            result.skipped[mode] = str(e)
            continue
        if text_source:
            built = dev.build_kernel_from_string(str(source), kernel, defines=defines,
                                                 include_dirs=include_dirs)
        else:
            built = dev.build_kernel(source, kernel, defines=defines, include_dirs=include_dirs)
        params = built.params
        moved = [dev.asarray(np.array(a, copy=True)) if is_array(a) else a for a in args]
        built(*moved)
        dev.finish()
        outputs[mode] = [m.get() for a, m in zip(args, moved, strict=True) if is_array(a)]
        result.modes.append(mode)
    if params is None:  # no mode ran
        return result
    first = result.modes[0]
    positions = [k for k, a in enumerate(args) if is_array(a)]
    for slot, k in enumerate(positions):
        arrays = {m: outputs[m][slot] for m in result.modes}
        result.arrays.append(_compare_one(k, params[k].name if k < len(params) else f"#{k}",
                                          arrays, first, rtol, atol))
    return result


def is_array(a) -> bool:
    """An argument compare copies and compares (a scalar is passed as it is)."""
    return isinstance(a, np.ndarray) and a.ndim > 0


def _compare_one(index: int, name: str, arrays: dict[str, np.ndarray], first: str,
                 rtol: float, atol: float) -> ArrayResult:
    ref = arrays[first]
    bad = np.zeros(ref.shape, bool)
    biggest = 0.0
    for mode, got in arrays.items():
        if mode == first:
            continue
        differs, largest = _differs(ref, got, rtol, atol)
        bad |= differs
        biggest = max(biggest, largest)
    count = int(bad.sum())
    if not count:
        return ArrayResult(index, name, True)
    where = tuple(int(i) for i in np.unravel_index(int(np.flatnonzero(bad)[0]), ref.shape))
    values: dict[str, object] = {m: a[where].item() if a.dtype.fields is None else a[where]
                                 for m, a in arrays.items()}
    return ArrayResult(index, name, False, (where, values), count, biggest)


def _differs(ref: np.ndarray, got: np.ndarray, rtol: float, atol: float):
    """Per element: differs?  And the largest absolute difference of floats."""
    if ref.dtype.fields is not None:
        out = np.zeros(ref.shape, bool)
        largest = 0.0
        for f in ref.dtype.names or ():
            d, m = _differs(ref[f], got[f], rtol, atol)
            out |= d.reshape(ref.shape + (-1,)).any(axis=-1) if d.shape != ref.shape else d
            largest = max(largest, m)
        return out, largest
    if np.issubdtype(ref.dtype, np.floating) or np.issubdtype(ref.dtype, np.complexfloating):
        same_nan = np.isnan(ref) & np.isnan(got)
        close = np.isclose(got, ref, rtol=rtol, atol=atol) | same_nan
        diff = np.abs(got.astype(np.complex128 if np.iscomplexobj(ref) else np.float64) - ref)
        finite = diff[np.isfinite(diff) & ~close]
        return ~close, float(finite.max()) if finite.size else 0.0
    return ref != got, 0.0


# -- the command line's argument spec --------------------------------------------------------
def arguments_from_spec(spec: dict, seed: int = 0) -> list:
    """The arguments a JSON spec describes, in order.  Each entry is a number (a scalar, as
    the kernel's parameter takes it) or an object for an array::

        {"dtype": "float32", "shape": [64, 16], "fill": "random"}   # uniform in [0, 1)
        {"dtype": "int32", "shape": 64, "fill": "random", "low": 0, "high": 10}
        {"dtype": "float64", "shape": 8, "fill": 0}                 # zeros (or any number)
        {"dtype": "int32", "shape": 8, "fill": "arange"}
        {"dtype": "float32", "values": [1, 2, 3]}                    # given values

    The spec is ``{"args": [...], "defines": {...}, "seed": N}``; random arrays come from
    numpy's default generator seeded with ``seed`` (the spec's, else the one given)."""
    if not isinstance(spec, dict) or not isinstance(spec.get("args"), list):
        raise OKLError('the argument spec must be a JSON object with an "args" list')
    rng = np.random.default_rng(spec.get("seed", seed))
    out: list = []
    for k, entry in enumerate(spec["args"]):
        where = f"argument {k + 1} of the spec"
        if isinstance(entry, bool) or isinstance(entry, (int, float)):
            out.append(entry)
            continue
        if not isinstance(entry, dict):
            raise OKLError(f"{where}: give a number or an object with dtype and shape "
                           f"(or values), not {entry!r}")
        try:
            dtype = np.dtype(entry.get("dtype", "float64"))
        except TypeError as e:
            raise OKLError(f"{where}: dtype {entry.get('dtype')!r}: {e}") from None
        if "values" in entry:
            out.append(np.asarray(entry["values"], dtype=dtype))
            continue
        shape = entry.get("shape")
        if isinstance(shape, int):
            shape = (shape,)
        if not isinstance(shape, (list, tuple)) or not all(
                isinstance(s, int) and s >= 0 for s in shape):
            raise OKLError(f"{where}: shape must be a count or a list of counts, not {shape!r}")
        fill = entry.get("fill", 0)
        if fill == "random":
            if np.issubdtype(dtype, np.integer):
                array = rng.integers(entry.get("low", 0), entry.get("high", 100), size=shape)
            else:
                array = rng.random(size=shape)
            out.append(array.astype(dtype))
        elif fill == "arange":
            out.append(np.arange(int(np.prod(shape)), dtype=dtype).reshape(shape))
        elif isinstance(fill, (int, float)):
            out.append(np.full(shape, fill, dtype=dtype))
        else:
            raise OKLError(f"{where}: fill must be \"random\", \"arange\" or a number, not "
                           f"{fill!r}")
    return out
