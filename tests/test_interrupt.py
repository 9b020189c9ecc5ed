"""Ctrl-C (SIGINT) during a build and during a serial/openmp kernel (issue 32).

Each case runs okl in a child Python and sends it SIGINT once it is busy: a build stops its
compiler's whole process group (a fake compiler that ignores SIGTERM and starts a child)
and leaves no ``okl-build-*`` folder; a kernel stops at its next @outer iteration, on the
native and the Python launch path, and raises KeyboardInterrupt within about a second;
another thread's kernel, or one launched under a SIGINT handler of the user's own, runs whole.
"""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from tests import modes

ROOT = Path(__file__).resolve().parent.parent

FAKE_CC = """\
#!/bin/sh
# a C compiler that never finishes: it ignores SIGTERM, starts a child that does too, and
# says where both are once they run
case " $* " in *" --version "*) echo "fakecc 1.0"; exit 0;; esac
trap '' TERM
sleep 300 &
echo $! > "$FAKE_DIR/child.pid"
echo $$ > "$FAKE_DIR/cc.tmp" && mv "$FAKE_DIR/cc.tmp" "$FAKE_DIR/cc.pid"
wait
"""

BUILD = """\
import signal, sys
signal.signal(signal.SIGINT, signal.default_int_handler)  # whatever the parent ignores
import okl
okl.Device("serial").build_kernel(sys.argv[1], "fill")
print("built", flush=True)
"""

KERNELS = """\
@kernel void fill(const int n, float *out) {
  for (int b = 0; b < n; ++b; @outer) {
    for (int t = 0; t < 4; ++t; @inner) { out[4 * b + t] = (float) b; }
  }
}

// each @outer iteration a chain of `work` multiplications; out: 2048 longs
@kernel void spin(const long n, const int work, long *out) {
  for (long b = 0; b < n; ++b; @outer) {
    for (int t = 0; t < 2; ++t; @inner) {
      long acc = b;
      for (int k = 0; k < work; ++k) { acc = acc * 6364136223846793005L + 1442695040888963407L; }
      out[2 * (b & 1023) + t] = acc;
    }
  }
}

// the same work (its result in junk), then out[2 * b + t] = b: whether every iteration ran
@kernel void slow_fill(const int n, const int work, long *out, long *junk) {
  for (int b = 0; b < n; ++b; @outer) {
    for (int t = 0; t < 2; ++t; @inner) {
      long acc = b;
      for (int k = 0; k < work; ++k) { acc = acc * 6364136223846793005L + 1442695040888963407L; }
      junk[2 * b + t] = acc;
      out[2 * b + t] = b;
    }
  }
}
"""

LAUNCH = """\
import os, signal, sys, threading, time
signal.signal(signal.SIGINT, signal.default_int_handler)  # whatever the parent ignores
import numpy as np
import okl
dev = okl.Device(sys.argv[2])
fill = dev.build_kernel(sys.argv[1], "fill")
spin = dev.build_kernel(sys.argv[1], "spin")
out = np.zeros(2048, np.int64)
spin(10, 10, out)  # the launch path warmed up (the native caller built)
done = []
def other():
    a = np.zeros(400, np.float32)
    fill(100, a)
    done.append(a.tolist() == [float(i // 4) for i in range(400)])
t = threading.Thread(target=other)
t.start()
t.join()
assert done == [True], "a launch from another thread"
print("started", flush=True)
t0 = time.monotonic()
try:
    spin(10 ** 8, 10 ** 4, out)  # minutes on 2 cores; skipped iterations cost a load each
    print("not interrupted", flush=True)
except KeyboardInterrupt:
    print(f"interrupted {time.monotonic() - t0:.3f}", flush=True)
assert signal.getsignal(signal.SIGINT) is signal.default_int_handler
a = np.zeros(400, np.float32)
fill(100, a)  # a whole launch again
assert a.tolist() == [float(i // 4) for i in range(400)]
try:  # Python's own handler is back at the C level: a SIGINT now is KeyboardInterrupt
    os.kill(os.getpid(), signal.SIGINT)
    time.sleep(5)
except KeyboardInterrupt:
    print("restored", flush=True)
# Ctrl-C while another thread's kernel runs: the main thread gets it, the kernel runs whole
slow = dev.build_kernel(sys.argv[1], "slow_fill")
res = np.zeros(400, np.int64)
junk = np.zeros(400, np.int64)
finished = threading.Event()  # not Thread.join: Ctrl-C in join() can mark the thread ended
def background():
    slow(200, 12 * 10 ** 5, res, junk)  # half a second or more
    finished.set()
threading.Thread(target=background, daemon=True).start()
print("waiting", flush=True)
try:
    while not finished.wait(0.01):
        pass
    print("main not interrupted", flush=True)
except KeyboardInterrupt:
    print("main-interrupted", flush=True)
finished.wait()
print("thread-complete" if res.tolist() == [b // 2 for b in range(400)] else "thread-cut-short")
# a SIGINT handler of the user's own: the kernel runs whole, the handler runs after it
got = []
signal.signal(signal.SIGINT, lambda sig, frame: got.append(sig))
res[:] = 0
print("custom", flush=True)
slow(200, 12 * 10 ** 5, res, junk)
deadline = time.monotonic() + 5
while not got and time.monotonic() < deadline:
    time.sleep(0.01)
print("custom-complete" if res.tolist() == [b // 2 for b in range(400)] and got == [2]
      else f"custom-wrong {got}")
"""


def _env(tmp: Path, **extra: str) -> dict[str, str]:
    env = dict(os.environ)
    for name in ("OKL_VERBOSE", "OKL_NO_CACHE", "OKL_CACHE_READONLY", "OKL_CHECK_BOUNDS",
                 "OKL_NATIVE_CALL", "CC"):
        env.pop(name, None)
    env.update({"PYTHONPATH": str(ROOT), "OKL_CACHE_DIR": str(tmp / "cache"), **extra})
    return env


def _alive(pid: int) -> bool:
    """A process that still runs (a zombie waiting for its parent's wait has stopped)."""
    try:
        with open(f"/proc/{pid}/stat") as f:
            return f.read().rpartition(")")[2].split()[0] != "Z"
    except FileNotFoundError:
        return False


def _wait_for(path: Path, proc: subprocess.Popen, seconds: float) -> None:
    deadline = time.monotonic() + seconds
    while not path.exists():
        assert proc.poll() is None, f"the child ended early:\n{proc.communicate()}"
        assert time.monotonic() < deadline, f"{path.name} never appeared"
        time.sleep(0.02)


def test_ctrl_c_stops_the_compiler_and_its_children(tmp_path: Path):
    fake = tmp_path / "fakecc"
    fake.write_text(FAKE_CC)
    fake.chmod(0o755)
    kernel = tmp_path / "k.okl"
    kernel.write_text(KERNELS)
    private_tmp = tmp_path / "tmp"
    private_tmp.mkdir()
    env = _env(tmp_path, CC=str(fake), FAKE_DIR=str(tmp_path), TMPDIR=str(private_tmp))
    proc = subprocess.Popen([sys.executable, "-c", BUILD, str(kernel)], env=env,
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    try:
        _wait_for(tmp_path / "cc.pid", proc, 60)
        compiler = int((tmp_path / "cc.pid").read_text())
        child = int((tmp_path / "child.pid").read_text())
        assert _alive(compiler) and _alive(child)
        os.kill(proc.pid, signal.SIGINT)
        out, err = proc.communicate(timeout=20)
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.communicate()
    assert proc.returncode == -signal.SIGINT, (proc.returncode, out, err)
    assert "KeyboardInterrupt" in err and "built" not in out
    deadline = time.monotonic() + 5
    while (_alive(compiler) or _alive(child)) and time.monotonic() < deadline:
        time.sleep(0.02)
    assert not _alive(compiler), "the compiler outlived the interrupted build"
    assert not _alive(child), "the compiler's child outlived the interrupted build"
    assert not list(private_tmp.glob("okl-build-*")), list(private_tmp.iterdir())


@pytest.mark.parametrize("native", ["1", "0"], ids=["native", "python"])
@pytest.mark.parametrize("mode", modes.params(("serial", "openmp")))
def test_ctrl_c_stops_a_running_kernel(tmp_path_factory, mode: str, native: str):
    modes.skip_unless_available(mode)
    tmp = tmp_path_factory.getbasetemp() / "interrupt"  # one cache: each kernel built once
    tmp.mkdir(exist_ok=True)
    kernel = tmp / "k.okl"
    kernel.write_text(KERNELS)
    env = _env(tmp, OKL_NATIVE_CALL=native, OMP_NUM_THREADS="2")
    proc = subprocess.Popen([sys.executable, "-c", LAUNCH, str(kernel), mode], env=env,
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    try:
        said = []
        for cue in ("started", "waiting", "custom"):  # each time a kernel runs
            while not said or said[-1] != cue:
                said.append(proc.stdout.readline().strip())
                assert said[-1], (said, proc.communicate(timeout=20))
            time.sleep(0.2 if cue == "started" else 0.1)  # inside the kernel
            os.kill(proc.pid, signal.SIGINT)
        out, err = proc.communicate(timeout=20)
        out = " ".join(w for w in said if w not in ("started", "waiting", "custom")) + " " + out
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.communicate()
    assert proc.returncode == 0, (out, err)
    words = out.split()
    assert words[0] == "interrupted", out
    assert float(words[1]) < 2.5, f"KeyboardInterrupt only after {words[1]} s"
    assert words[2:] == ["restored", "main-interrupted", "thread-complete",
                         "custom-complete"], out
