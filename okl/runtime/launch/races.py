"""The runtime half of the race checker: fill a race-checked kernel's hidden arguments, run it
in the @inner order asked for, and turn its report into okl.RaceError and okl.RaceWarning.

The translation (okl.transforms.races) appended one element count per pointer parameter and
an ``int64`` report to the kernel's parameters.  The report's layout (race_shadow.h):

    [0] 1: a race was found (-1: the shadow state could not be allocated)
    [1] @inner order: 0 ascending, 1 reversed, 2 a permutation seeded by [2]
    [3] region  [4] element index  [5..8] this access: site, kind, thread, block
    [9..12] the earlier access: site, kind, thread, block
    [24 + site] region << 40 | 1 + the first element that site read before any thread of
                the block wrote it (0: none)

Thread and block keys pack three 21-bit counters (axis 0 lowest): a thread's iteration index
on each @inner axis, a block's @outer iterators.
"""

from __future__ import annotations

import os
import random
import threading
import warnings
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass

import numpy as np

from ... import env
from ...errors import ArgumentError, LaunchError, RaceError, RaceWarning
from .checked import element_count
from .spec import KernelSpec

READ, WRITE, ATOMIC = 1, 2, 4
WARN = 24  # the report's first per-site slot
ORDERS = ("ascending", "reverse", "shuffle")

#: race-checked code keeps its shadow state in one static per compiled file: launches under
#: the checker run one at a time, whichever thread or Device makes them
LOCK = threading.RLock()


@dataclass(frozen=True)
class Order:
    """The order a block's @inner iterations run in under the checker."""

    kind: str = "ascending"
    seed: int | None = None  # shuffle: None draws a new seed per launch (named in reports)

    def describe(self, seed: int | None) -> str:
        if self.kind == "shuffle":
            return f"@inner order shuffled with seed {seed} (check_races='shuffle:{seed}')"
        return f"@inner order {'reversed' if self.kind == 'reverse' else 'ascending'}"


def requested(props: dict) -> Order | None:
    """``Device(mode, check_races=...)`` or OKL_CHECK_RACES: True/1 (ascending @inner order,
    the answer is the unchecked one), "reverse", "shuffle" or "shuffle:SEED"; None if off."""
    if "check_races" in props:
        value = props.pop("check_races")
        where = "check_races"
    else:
        value = os.environ.get("OKL_CHECK_RACES", "").strip()
        where = "OKL_CHECK_RACES"
        word = env.as_flag(value)  # the yes/no words of every okl switch (okl.env)
        if word is not None:
            value = word
    if value is None or value is False or value in ("", "0"):
        return None
    if value is True or value in ("1", "ascending"):
        return Order()
    text = str(value)
    kind, _, seed = text.partition(":")
    if kind in ORDERS[1:] and (not seed or kind == "shuffle" and seed.isdecimal()):
        return Order(kind, int(seed) if seed else None)
    raise ArgumentError(f"{where}={value!r}: give True (or 1), 'reverse', 'shuffle' or "
                        "'shuffle:SEED' (a non-negative integer)")


class RaceChecker:
    """One race-checked kernel's report buffer and the hidden arguments that go with it."""

    def __init__(self, device, spec: KernelSpec, order: Order):
        self.spec = spec
        self.order = order
        self.seed: int | None = None
        self.pointers = [(k, p) for k, p in enumerate(spec.params[:spec.user_params])
                         if p.is_pointer]
        self.report = device.zeros(spec.race_ints, np.int64)
        self.warned: set[int] = set()

    def hidden(self, args) -> list:
        head: np.ndarray = np.zeros(self.spec.race_ints, np.int64)
        head[1] = ORDERS.index(self.order.kind)
        if self.order.kind == "shuffle":
            self.seed = self.order.seed if self.order.seed is not None else \
                random.randrange(2 ** 31)
            head[2] = self.seed
        self.report.set(head)
        return [element_count(args[k], p) for k, p in self.pointers] + [self.report]

    @contextmanager
    def launching(self) -> Iterator[None]:
        with LOCK:
            yield
            self._read()

    def _read(self) -> None:
        report = self.report.get()
        self._warn(report)
        if report[0] == 0:
            return
        if report[0] < 0:
            raise LaunchError(f"kernel '{self.spec.name}': the race checker could not allocate "
                              "its shadow state (about 140 bytes per element of every array "
                              "argument): check smaller arrays")
        raise RaceError(describe(self.spec, report, self.order.describe(self.seed)))

    def _warn(self, report: np.ndarray) -> None:
        sites, regions = self.spec.race_sites, self.spec.race_regions
        for s in np.flatnonzero(report[WARN:WARN + len(sites)]):
            if s in self.warned:
                continue
            self.warned.add(int(s))
            file, line, col = sites[s][:3]
            value = int(report[WARN + s])
            name, kind, dims = regions[value >> 40]
            index = (value & ((1 << 40) - 1)) - 1
            what = f"{name}{_subscript(index, dims)} (@shared)" if kind == "shared" else \
                f"{name} (@exclusive)"
            # shown at the .okl line (a warnings filter can name the file)
            warnings.warn_explicit(
                f"{file}:{line}:{col}: {what} is read before any @inner iteration of this "
                f"@outer iteration wrote it (kernel '{self.spec.name}'): on a GPU it holds "
                "whatever was there", RaceWarning, file, line)


def describe(spec: KernelSpec, report: np.ndarray, order: str) -> str:
    """The RaceError message: both accesses, their threads and blocks, and what to do."""
    sites, regions = spec.race_sites, spec.race_regions
    name, kind, dims = regions[int(report[3])]
    element = f"{name}{_subscript(int(report[4]), dims)}"
    mine, theirs = [int(v) for v in report[5:9]], [int(v) for v in report[9:13]]
    here, there = sites[mine[0]], sites[theirs[0]]
    same_block = mine[3] == theirs[3]
    me = _thread(here[4], mine[2])
    them = _thread(there[4], theirs[2])
    outer = here[5] if here[5] is not None else there[5]  # a function's site has no loops
    block = _block(outer, mine[3])
    if same_block:
        who = f"another @inner iteration ({me} vs {them}) of @outer {block}"
        why = "with no barrier between"
        if kind == "global":
            why += " (the barriers okl inserts after @inner loops that use @shared memory " \
                   "order @shared memory only)"
        fix = "put a @barrier between the two accesses" + \
            ("" if kind == "shared" else ", or make each iteration touch its own elements")
    else:
        who = f"another @outer iteration ({block} vs {_block(outer, theirs[3])}, " \
              f"{me} vs {them})"
        why = "(different @outer iterations run concurrently and no barrier orders them)"
        fix = "make each @outer iteration write its own elements, or use @atomic on every " \
              "access of a shared total"
    if (mine[1] | theirs[1]) & ATOMIC:
        fix = "make every access of the element @atomic, or read it in a later launch"
    return (f"{here[0]}:{here[1]}:{here[2]}: race: {element} {_verb(mine[1])} here and "
            f"{_verb(theirs[1], past=True)} at {there[0]}:{there[1]}:{there[2]} by {who} "
            f"{why} (kernel '{spec.name}'; {order}); {fix}")


def _verb(kind: int, past: bool = False) -> str:
    if kind & ATOMIC:
        return "updated atomically" if past else "is updated atomically"
    if kind & WRITE:
        return "written" if past else "is written"
    return "read" if past else "is read"


def _unpack(key: int) -> list[int]:
    out = []
    for axis in range(3):
        v = (key >> (21 * axis)) & 0x1FFFFF
        out.append(v - (1 << 21) if v >= 1 << 20 else v)
    return out


def _thread(loops: list | None, key: int) -> str:
    """``t=5`` (or ``j=1, i=2``) from a thread's iteration indices per axis; in a function
    the kernel calls (no loops known), the indices."""
    index = _unpack(key)
    if loops is None:
        used = [i for i in index if i] or [0]
        return f"@inner index {used[0]}" if len(used) == 1 and index[0] == used[0] else \
            f"@inner index ({', '.join(map(str, index))})"
    if not loops:
        return "thread 0"
    parts = []
    for axis, name, start, step, increasing in loops:
        k = index[axis]
        if start is None or step is None:
            parts.append(f"{name} at iteration {k}")
        else:
            parts.append(f"{name}={start + k * step if increasing else start - k * step}")
    return ", ".join(parts)


def _block(loops: list | None, key: int) -> str:
    values = _unpack(key)
    if loops is None:  # both accesses in functions the kernel calls
        return f"index {values[0]}" if not any(values[1:]) else \
            f"index ({', '.join(map(str, values))})"
    parts = [f"{name}={values[axis]}" for axis, name, *_ in loops]
    return ", ".join(parts) if parts else "0"


def _subscript(index: int, dims: list[int]) -> str:
    """``[5]``, or ``[1][2]`` for a @shared array of known dimensions."""
    if len(dims) > 1 and all(dims):
        out = []
        for d in reversed(dims):
            out.append(index % d)
            index //= d
        return "".join(f"[{i}]" for i in reversed(out))
    return f"[{index}]"
