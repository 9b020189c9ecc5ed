"""Which CPU features a serial/openmp library may use, and whether this CPU has them.

A library built with ``-march=native`` (okl's default) or ``-mavx2`` runs only on CPUs with
the instruction-set extensions the compiler was allowed to use: elsewhere it dies of SIGILL
in the middle of a launch.  An ahead-of-time bundle (okl.runtime.bundle) therefore records
them when it is built, and loading refuses a CPU that lacks any, naming them.

What the compiler may use is what it predefines under the build's flags (``cc -march=native
-dM -E``: ``__AVX2__``, ``__FMA__``, ``__ARM_FEATURE_SVE``...); the names the kernel's CPU
reports are the ``flags`` (x86) or ``Features`` (Arm) of ``/proc/cpuinfo``.  A macro counts
when its name, spelt as the kernel spells it, is one of the building CPU's own flags: the
check then needs no table of every extension, and a macro okl cannot match to a flag is
left out rather than refusing every CPU.  Where ``/proc/cpuinfo`` is absent (macOS, Windows)
nothing is recorded and only the machine (x86_64, arm64) is compared.
"""

from __future__ import annotations

import functools
import re
import subprocess

from .toolrun import run_tool

#: macro spellings whose /proc/cpuinfo name differs
_ALIASES = {"pclmul": "pclmulqdq", "rdrnd": "rdrand", "sse3": "pni", "bmi": "bmi1",
            "lzcnt": "abm", "neon": "asimd"}
_MACRO = re.compile(r"#define __(?:ARM_FEATURE_|ARM_)?([A-Z0-9_]+?)__? 1$")


@functools.cache
def host_features() -> frozenset[str] | None:
    """This CPU's feature flags as the kernel reports them, or None where it does not."""
    try:
        with open("/proc/cpuinfo", encoding="utf-8") as f:
            for line in f:
                key, _, value = line.partition(":")
                if key.strip() in ("flags", "Features"):
                    return frozenset(value.split())
    except OSError:
        pass
    return None


def candidates(macro: str) -> set[str]:
    """The /proc/cpuinfo names a feature macro's name (``AVX512VNNI``) may have."""
    name = macro.lower()
    out = {name, _ALIASES.get(name, name)}
    if name.startswith("avx512") and len(name) > 6:
        out.add("avx512_" + name[6:])
    return out


def compiled_for(command: list[str], flags: list[str]) -> list[str]:
    """The features of this CPU that a compiler run as ``command`` with ``flags`` may use
    (sorted /proc/cpuinfo names); [] where the compiler or /proc/cpuinfo cannot tell."""
    here = host_features()
    if not here or not command:
        return []
    arch = [f for f in flags if f.startswith("-m")]  # -march=, -mavx2, -mno-avx...
    try:
        r = run_tool([*command, *arch, "-dM", "-E", "-x", "c", "-"], input="", timeout=60)
    except (OSError, subprocess.TimeoutExpired):
        return []
    found = set()
    for line in r.stdout.splitlines():
        m = _MACRO.match(line.strip())
        if m:
            found |= candidates(m.group(1)) & here
    return sorted(found)


def missing(features: list[str]) -> list[str]:
    """Those of ``features`` this CPU lacks ([] where it cannot tell)."""
    here = host_features()
    if here is None:
        return []
    return sorted(set(features) - here)
