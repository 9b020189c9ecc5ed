"""Which OpenCL device okl uses: a device that cannot build is skipped with its own reason, a
GPU wins over a CPU, an explicit choice (props or OKL_OPENCL_DEVICE) wins over both.

The real platforms of this machine are used where the test is about them (the probe, the
failure path of a real build); a platform that fails (as the pyopencl wheel's PoCL does on
CPUs newer than its LLVM) is simulated by recording a failed probe for it, and the order of
preference by stand-in devices, since no test machine has every kind of device.
"""

from __future__ import annotations

import pytest
from click.testing import CliRunner

import okl
from okl.cli import main
from okl.runtime.drivers import clselect

cl = pytest.importorskip("pyopencl")

GENERIC = "cannot build a kernel: error: unknown target CPU 'generic'"


@pytest.fixture(autouse=True)
def fresh_probes(monkeypatch):
    """Each test sees its own probe record (the real one is kept for the rest of the suite)."""
    monkeypatch.setattr(clselect, "_probed", dict(clselect._probed))
    monkeypatch.delenv(clselect.ENV, raising=False)


def real() -> list[clselect.Candidate]:
    try:
        return clselect.candidates()
    except clselect.SelectionError as e:
        pytest.skip(f"no OpenCL device here: {e}")


def fail_all_but(keep: set[tuple[int, int]]) -> None:
    for c in real():
        if (c.platform_index, c.device_index) not in keep:
            clselect._probed[(c.platform_index, c.device_index)] = GENERIC


def test_the_chosen_device_builds_and_runs_the_probe_kernel():
    chosen = clselect.choose()
    assert clselect.probe(chosen) == ""
    assert okl.Device("opencl").backend.cl_device == chosen.device


def test_a_failing_build_is_reported_with_the_compilers_own_error(monkeypatch):
    c = real()[0]
    monkeypatch.setattr(clselect, "PROBE_SOURCE", "__kernel void okl_probe(__global int *o) {"
                        " o[0] = okl_no_such_function(1); }\n")
    reason = clselect._probe(c)
    assert reason.startswith("cannot build a kernel: ")
    assert "okl_no_such_function" in reason or "error" in reason.lower()


def test_when_no_device_can_build_opencl_is_unavailable_with_the_reason():
    fail_all_but(set())
    opencl = {b.name: b for b in okl.backends()}["opencl"]
    assert not opencl.available
    assert "unknown target CPU 'generic'" in opencl.reason
    assert "pocl-opencl-icd" in opencl.reason  # what to do
    with pytest.raises(okl.BackendUnavailableError, match="unknown target CPU"):
        okl.Device("opencl")
    assert okl.Device("auto").mode != "opencl"


def test_a_device_that_cannot_build_is_skipped_for_the_next():
    cands = real()
    if len(cands) < 2:  # two PoCLs after install.sh; say so where a machine has fewer
        pytest.skip(f"needs two OpenCL devices to skip one for the other; found {cands}")
    last = cands[-1]
    fail_all_but({(last.platform_index, last.device_index)})
    assert clselect.choose() == last
    assert okl.Device("opencl").backend.cl_device == last.device
    result = CliRunner().invoke(main, ["info"])
    assert result.exit_code == 0, result.output
    assert f"skipped: {GENERIC}" in result.output
    assert f"{last}\n      used" in result.output


def test_an_explicit_device_that_cannot_build_is_refused_not_replaced():
    c = real()[0]
    clselect._probed[(c.platform_index, c.device_index)] = GENERIC
    with pytest.raises(okl.BackendUnavailableError, match="asked for cannot run"):
        okl.Device("opencl", platform_id=c.platform_index, device_id=c.device_index)


def test_environment_variable_selects_by_index_or_name(monkeypatch):
    cands = real()
    c = cands[-1]
    monkeypatch.setenv(clselect.ENV, f"{c.platform_index}:{c.device_index}")
    assert clselect.choose() == c
    others = [o.platform_text.lower() for o in cands if o.platform_index != c.platform_index]
    piece = next((w for w in c.platform_text.split()  # e.g. "3.0-rc2": in no other platform
                  if not any(w.lower() in o for o in others)), None)
    if piece is not None:
        monkeypatch.setenv(clselect.ENV, piece)
        assert clselect.choose().platform_index == c.platform_index
    monkeypatch.setenv(clselect.ENV, "no-such-platform")
    opencl = {b.name: b for b in okl.backends()}["opencl"]
    assert not opencl.available and "OKL_OPENCL_DEVICE='no-such-platform'" in opencl.reason
    # props win over the variable
    assert okl.Device("opencl", platform_id=c.platform_index).backend.cl_device == c.device
    for odd in ("\u00b2", "0:\u00b2"):  # a digit to str.isdigit, not to int(): no ValueError
        monkeypatch.setenv(clselect.ENV, odd)
        with pytest.raises(clselect.SelectionError, match="matches no OpenCL device"):
            clselect.choose()


# -- order of preference, on stand-in devices ------------------------------------------------

class _Platform:
    def __init__(self, name, version):
        self.name, self.version, self.vendor = name, version, name


class _Device:
    def __init__(self, name, kind):
        self.name, self.type = name, kind


def _stand_ins(monkeypatch, rows):
    """rows: (platform name, device name, device type, probe result) per platform."""
    cands = [clselect.Candidate(i, 0, _Platform(p, f"OpenCL 3.0 {p} 1.0"), _Device(d, t))
             for i, (p, d, t, _) in enumerate(rows)]
    monkeypatch.setattr(clselect, "candidates", lambda: cands)
    monkeypatch.setattr(clselect, "_probed",
                        {(c.platform_index, 0): row[3] for c, row in zip(cands, rows,
                                                                          strict=True)})
    return cands


def test_a_working_gpu_wins_over_an_earlier_cpu(monkeypatch):
    cpu, gpu = _stand_ins(monkeypatch, [("PoCL", "cpu0", cl.device_type.CPU, ""),
                                        ("NVIDIA CUDA", "H200", cl.device_type.GPU, "")])
    assert clselect.choose() == gpu
    assert clselect.choose(platform_id=0) == cpu
    monkeypatch.setenv(clselect.ENV, "pocl")
    assert clselect.choose() == cpu


def test_a_broken_gpu_leaves_the_cpu(monkeypatch):
    cpu, gpu = _stand_ins(monkeypatch, [("PoCL", "cpu0", cl.device_type.CPU, ""),
                                        ("Vendor", "gpu0", cl.device_type.GPU, GENERIC)])
    assert clselect.choose() == cpu
    statuses = dict(clselect.survey())
    assert statuses[cpu] == "used"
    assert statuses[gpu] == f"skipped: {GENERIC}"


def test_every_reason_is_listed_when_nothing_works(monkeypatch):
    _stand_ins(monkeypatch, [("A", "a0", cl.device_type.CPU, "cannot build a kernel: one"),
                             ("B", "b0", cl.device_type.CPU, "cannot build a kernel: two")])
    with pytest.raises(clselect.SelectionError) as err:
        clselect.choose()
    assert "0:0 CPU 'a0'" in str(err.value) and ": one" in str(err.value)
    assert "1:0 CPU 'b0'" in str(err.value) and ": two" in str(err.value)


def test_an_unwritable_pocl_cache_is_named_not_an_install_hint(tmp_path):
    """PoCL lists no devices when it cannot make its cache folder; okl named a missing
    installation.  (/proc refuses new folders even to root.)"""
    import subprocess
    import sys

    script = ("import okl\n"
              "info = {b.name: b for b in okl.backends()}['opencl']\n"
              "print(info.available, info.reason)\n")
    env = {**__import__("os").environ, "POCL_CACHE_DIR": "/proc/okl-no-such-folder",
           "OKL_CACHE_DIR": str(tmp_path)}
    env.pop(clselect.ENV, None)
    run = subprocess.run([sys.executable, "-c", script], env=env, capture_output=True,
                         text=True, timeout=120)
    if "PoCL" not in run.stdout and "True" in run.stdout:
        pytest.skip("the OpenCL device here is not PoCL's")
    assert run.stdout.startswith("False"), run.stdout + run.stderr
    assert "POCL_CACHE_DIR (/proc/okl-no-such-folder) cannot be created or written" \
        in run.stdout
