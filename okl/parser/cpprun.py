"""Run cpp as a subprocess under a time limit and an output-size limit.

Macro expansion can grow exponentially (``#define B A A`` repeated), so cpp's output goes
to temporary files whose size is watched while it runs; cpp is killed when it passes
:data:`okl.limits.CPP_OUTPUT_BYTES` or :data:`okl.limits.CPP_SECONDS`, and the caller gets
a located error instead of a hang or gigabytes of text in memory.
"""

from __future__ import annotations

import os
import signal
import subprocess
import tempfile
import time
from dataclasses import dataclass

from .. import limits
from ..errors import Diagnostic, SourceLoc, TranslationError

#: First and longest pause between checks of a running cpp: a small file takes a few ms.
_FIRST_POLL, _LAST_POLL = 0.001, 0.05


@dataclass
class CppOutput:
    returncode: int
    stdout: bytes
    stderr: bytes


def run_cpp(args: list[str], data: bytes, cwd: str, where: SourceLoc) -> CppOutput:
    """Run ``args`` with ``data`` on stdin in ``cwd``; raise TranslationError at ``where``
    when cpp runs too long or prints too much."""
    seconds, cap = limits.CPP_SECONDS.value, int(limits.CPP_OUTPUT_BYTES)
    with tempfile.TemporaryFile() as out, tempfile.TemporaryFile() as err:
        # its own process group: `cpp` is a driver that runs `cc1`, and killing the driver
        # alone leaves cc1 running on (seen: an orphaned macro bomb at 16 GB)
        proc = subprocess.Popen(args, stdin=subprocess.PIPE, stdout=out, stderr=err, cwd=cwd,
                                start_new_session=True)
        try:
            try:
                proc.stdin.write(data)
                proc.stdin.close()
            except BrokenPipeError:  # cpp stopped early (a fatal error): its stderr says why
                pass
            exceeded = _watch(proc, out.fileno(), err.fileno(), seconds, cap)
        finally:
            if proc.poll() is None:
                _kill_group(proc)
        if exceeded is not None:
            raise TranslationError(diagnostics=[Diagnostic(
                "error", f"preprocessing stopped: more than {exceeded}", where,
                hint="a macro probably expands to itself many times over; if the input is "
                     "meant to be this large, raise the limit with the environment variable "
                     "named here")])
        out.seek(0)
        err.seek(0)
        return CppOutput(proc.returncode, out.read(), err.read())


def _kill_group(proc: subprocess.Popen) -> None:
    try:
        os.killpg(proc.pid, signal.SIGKILL)
    except (ProcessLookupError, PermissionError):
        proc.kill()
    proc.wait()


def _watch(proc: subprocess.Popen, out: int, err: int, seconds: float, cap: int) -> str | None:
    """Wait for ``proc``; the limit it passed, described, or None when it finished in time."""
    deadline = time.monotonic() + seconds
    delay = _FIRST_POLL
    while True:
        try:
            proc.wait(timeout=delay)
            return None
        except subprocess.TimeoutExpired:
            pass
        if os.fstat(out).st_size + os.fstat(err).st_size > cap:
            return (f"{cap} {limits.CPP_OUTPUT_BYTES.what} "
                    f"(limit set by {limits.CPP_OUTPUT_BYTES.env})")
        if time.monotonic() > deadline:
            return f"{seconds:g} {limits.CPP_SECONDS.what} (limit set by {limits.CPP_SECONDS.env})"
        delay = min(delay * 2, _LAST_POLL)
