"""The fast part of the misuse and hostile-environment suite (issue 32, benchmarks/hostile.py).

Each probe runs in its own process with a timeout, a private cache, TMPDIR and HOME, exactly
as ``python -m benchmarks.hostile`` runs it; here only the probes that take about a second
(sizes, limits, environment values, file types, the front-end cases) on serial, plus the
opencl-specific ones, four at a time.  A probe passes unless it ends in a traceback, a crash,
a hang, a wrong answer, a lost file of the user's or something left behind; a refusal that
does not say what to do fails too.  The slow probes (threads, Ctrl-C, hanging compilers,
planted caches) run in the full suite.
"""

from __future__ import annotations

from concurrent.futures import ThreadPoolExecutor

import pytest

from benchmarks import hostile

#: what the issue's Done-when allows none of ("skip": the mode is not available here)
FAILING = ("traceback", "crash", "hang", "wrong", "lost", "leak", "unhelpful")
#: fast probes that are about OpenCL itself, run on opencl too
OPENCL = ("size-2**32x2**32", "kernel-name-1000", "asarray-0d", "overlap-two-devices",
          "fe-view-offsets", "pocl-cache-unwritable", "opencl-device-superscript",
          "fe-struct-pointer-arg")

PAIRS = [(p, m) for p, m in hostile.select(["serial", "opencl"], fast=True)
         if m != "opencl" or p.name in OPENCL]


@pytest.fixture(scope="module")
def results() -> dict[tuple[str, str], hostile.Result]:
    with ThreadPoolExecutor(4) as pool:
        done = list(pool.map(lambda pair: hostile.run_probe(*pair), PAIRS))
    return {(r.probe, r.mode): r for r in done}


def test_every_fast_probe_is_selected():
    names = {p.name for p, _ in PAIRS}
    assert names == {p.name for p in hostile.PROBES if p.fast}
    assert set(OPENCL) <= names


@pytest.mark.parametrize("name, mode", [(p.name, m) for p, m in PAIRS])
def test_probe(results, name, mode):
    r = results[(name, mode)]
    assert r.outcome in hostile.OUTCOMES
    assert r.outcome not in FAILING, f"{name} on {mode}: {r.outcome}: {r.evidence}"


def test_the_classifier_sees_what_it_must(tmp_path):
    """The suite itself: a traceback, a signal, a hang and a refusal without a hint are each
    seen as such (a suite that called everything ok would prove nothing)."""
    cases = {
        "traceback": "def main():\n    raise ValueError('not okl')\n",
        "crash": "def main():\n    os.kill(os.getpid(), signal.SIGSEGV)\n",
        "hang": "def main():\n    time.sleep(30)\n",
        "unhelpful": "def main():\n    refused('no')\n",
        "wrong": "def main():\n    emit('WRONG', 'two plus two is five')\n",
        "ok": "def main():\n    refused('use a smaller size')\n",
    }
    for want, body in cases.items():
        probe = hostile.Probe(f"self-{want}", "the classifier", body, modes="any", timeout=3)
        assert hostile.run_probe(probe, "any").outcome == want, want
