"""Running a mode's compiler: a time limit, and nothing left behind when a build fails.

A compiler that hangs (a license check, a stuck NFS include, a pathological kernel) used to
hang ``build_kernel`` for ever; a build is now stopped after ``OKL_BUILD_TIMEOUT`` seconds
(default 600), with the whole process group, since a driver such as ``gcc`` leaves ``cc1``
and ``as`` running when only it is killed.  The same happens when the caller is interrupted
(Ctrl-C) or anything else goes wrong: no compiler keeps running after build_kernel returns
or raises.  Every tool okl runs for a CPU mode (the build, the ``--version`` and OpenMP
probes, the native caller's build) goes through :func:`run_tool`: its own session, so that a
terminal's Ctrl-C reaches okl alone and okl decides what stops, and on any exception SIGTERM
to the group, a short grace (:data:`GRACE` seconds) for it to exit, SIGKILL to whatever is
left, and the reaped tool; the exception (KeyboardInterrupt) then goes on to the caller.

A failed build's generated source is what its BuildError points to; it is kept under a name
made from its contents (``okl-failed-build-<hash>.c`` in the temporary directory), so building
a broken kernel again and again rewrites one file instead of leaving a folder per attempt.
"""

from __future__ import annotations

import hashlib
import os
import shlex
import signal
import subprocess
import tempfile
import time

from ... import env
from ...errors import BuildError
from ...processes import signal_group

#: seconds a compiler may run when OKL_BUILD_TIMEOUT is unset
DEFAULT_TIMEOUT = 600.0
#: seconds a stopped tool's process group has between SIGTERM and SIGKILL
GRACE = 0.5


def build_timeout() -> float:
    """``OKL_BUILD_TIMEOUT`` in seconds (read at every compiler call), else the default: a
    positive finite number of seconds, at most a week (okl.env.number's one reading)."""
    return env.number("OKL_BUILD_TIMEOUT", DEFAULT_TIMEOUT, integer=False,
                      maximum=7 * 24 * 3600.0, what="seconds a compiler may run")


def run_compiler(cmd: list[str], cwd: str, what: str) -> subprocess.CompletedProcess:
    """Run ``cmd`` in ``cwd`` capturing its output, stopped (with every process it started)
    after :func:`build_timeout` seconds or when this thread is interrupted.  A timeout is a
    BuildError that names ``what`` (e.g. "serial build"), the command, and how to allow more
    time.  OSError (no such program) goes to the caller."""
    timeout = build_timeout()
    try:
        return run_tool(cmd, cwd=cwd, timeout=timeout)
    except subprocess.TimeoutExpired:
        raise BuildError(
            f"{what} timed out: the compiler ran for more than {timeout:g} s and was stopped:\n"
            f"  {shlex.join(cmd)}\n"
            "  allow it more time with OKL_BUILD_TIMEOUT=<seconds> (default "
            f"{DEFAULT_TIMEOUT:.0f})",
            command=cmd, returncode=None, log=f"timed out after {timeout:g} s") from None


def run_tool(cmd: list[str], *, timeout: float, cwd: str | None = None,
             input: str | None = None) -> subprocess.CompletedProcess:
    """``subprocess.run(cmd, capture_output=True, text=True)`` in a session of its own,
    stopped with every process it started (:func:`_stop`) on a timeout -- then
    subprocess.TimeoutExpired -- or on any exception, KeyboardInterrupt included, which
    goes on.  OSError (no such program) goes to the caller."""
    proc = None
    try:  # a Ctrl-C may come as soon as Popen returns
        proc = subprocess.Popen(cmd, cwd=cwd, stdin=subprocess.DEVNULL if input is None else
                                subprocess.PIPE, stdout=subprocess.PIPE,
                                stderr=subprocess.PIPE, text=True, start_new_session=True)
        out, err = proc.communicate(input, timeout=timeout)
    except BaseException:  # a timeout, KeyboardInterrupt...: no tool outlives the call
        if proc is not None:
            _stop(proc)
        raise
    return subprocess.CompletedProcess(cmd, proc.returncode, out, err)


def _stop(proc: subprocess.Popen) -> None:
    """Stop the tool's process group (it leads one: start_new_session): SIGTERM, up to
    :data:`GRACE` seconds for the tool to exit (:func:`_await_exit` does not reap it, so the
    group stays its own), then SIGKILL for the group -- also when a second Ctrl-C cuts the
    grace short -- and reap the tool."""
    try:
        signal_group(proc, signal.SIGTERM)
        _await_exit(proc, GRACE)
    finally:
        signal_group(proc, signal.SIGKILL)  # what ignored SIGTERM, or has not exited yet
        for stream in (proc.stdin, proc.stdout, proc.stderr):
            if stream is not None:
                stream.close()
        proc.wait()


def _await_exit(proc: subprocess.Popen, seconds: float) -> None:
    """Wait up to ``seconds`` for the tool to exit, without reaping it."""
    deadline = time.monotonic() + seconds
    while True:
        try:
            if os.waitid(os.P_PID, proc.pid, os.WEXITED | os.WNOHANG | os.WNOWAIT) is not None:
                return
        except ChildProcessError:  # reaped already
            return
        if time.monotonic() >= deadline:
            return
        time.sleep(0.01)


def keep_source(source: str, suffix: str) -> str:
    """Save a failed build's generated source where its BuildError can point: one file per
    distinct source in the temporary directory, rewritten by a later failure of the same."""
    digest = hashlib.sha256(source.encode("utf-8", "surrogatepass")).hexdigest()[:16]
    path = os.path.join(tempfile.gettempdir(), f"okl-failed-build-{digest}{suffix}")
    fd, tmp = tempfile.mkstemp(prefix="okl-failed-build-", suffix=".tmp",
                               dir=tempfile.gettempdir())
    try:
        with os.fdopen(fd, "w", encoding="utf-8", errors="surrogatepass") as f:
            f.write(source)
        os.replace(tmp, path)  # whole, even with a concurrent failure of the same source
    except BaseException:
        if os.path.exists(tmp):
            os.unlink(tmp)
        raise
    return path
