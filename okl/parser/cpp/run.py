"""Run cpp as a subprocess under a time limit and an output-size limit.

Macro expansion can grow exponentially (``#define B A A`` repeated), so cpp's output is read
from pipes as it comes and counted; cpp is killed when it passes
:data:`okl.limits.CPP_OUTPUT_BYTES` or :data:`okl.limits.CPP_SECONDS`, and the caller gets
a located error instead of a hang or gigabytes of text in memory.

The pipes are served by one ``select`` loop that wakes when cpp writes or exits.  (Output
to temporary files watched by polling, the earlier way, slept 1, 2, 4... ms between looks:
about 2 ms lost per file after a cpp run of 3-4 ms, a tenth of a whole translate.)
"""

from __future__ import annotations

import functools
import os
import selectors
import shlex
import signal
import subprocess
import time
from typing import IO

from ... import limits
from ...errors import Diagnostic, SourceLoc, TranslationError
from ...processes import signal_group
from ...record import record

#: Bytes asked of a pipe per read, and written to cpp's stdin per write (a pipe's capacity).
_CHUNK = 1 << 16
#: The options of every cpp run; the caller adds -D and -I options.
CPP_OPTIONS = ("-dD", "-undef", "-nostdinc", "-std=c99", "-H")


def cpp_command(command: list[str]) -> tuple[list[str], list[str]]:
    """The command line of a run of the preprocessor ``command`` (a cpp executable, or
    pcpp's runner, okl.parser.cpp.pcpp) as (head, tail): the caller's options go between.

    GCC's ``cpp`` is a driver that starts the compiler proper, ``cc1 -E``, with the options
    translated, and does nothing else for preprocessing: starting cc1 directly saves the
    driver's exec and setup, about 1 of the 4 ms of a cpp run (a quarter of okl's
    translate time on the benchmark kernels).  The driver itself says how it would start
    cc1 (``-###``), once per process and cpp executable.  Any other preprocessor (clang's
    cpp, a wrapper script: only an executable binary is asked; pcpp) is run as it is."""
    proper = _compiler_proper(command[0]) if len(command) == 1 else None
    if proper is None:
        return [*command, *CPP_OPTIONS], ["-"]
    return list(proper), []


@functools.lru_cache(maxsize=8)
def _compiler_proper(cpp: str) -> tuple[str, ...] | None:
    """``cc1 -E ... -`` as GCC's driver ``cpp`` would run it with :data:`CPP_OPTIONS`
    (stdin as input), or None when ``cpp`` is not GCC's driver."""
    try:
        with open(cpp, "rb") as f:
            if f.read(4) != b"\x7fELF":  # a script may do more than start cpp
                return None
        said = subprocess.run([cpp, "-###", *CPP_OPTIONS, "-"], stdin=subprocess.DEVNULL,
                              capture_output=True, text=True, timeout=limits.CPP_SECONDS.value)
    except (OSError, subprocess.SubprocessError, UnicodeDecodeError):
        return None
    commands = [line for line in said.stderr.splitlines() if line.startswith(" ")]
    if said.returncode != 0 or len(commands) != 1:
        return None
    try:
        argv = shlex.split(commands[0])
    except ValueError:
        return None
    if not argv or os.path.basename(argv[0]) != "cc1" or not os.path.isabs(argv[0]) or \
            argv[1:3] != ["-E", "-quiet"] or "-" not in argv or not os.access(argv[0], os.X_OK):
        return None
    return tuple(argv)


@record
class CppOutput:
    returncode: int
    stdout: bytes
    stderr: bytes


def run_cpp(args: list[str], data: bytes, cwd: str, where: SourceLoc) -> CppOutput:
    """Run ``args`` with ``data`` on stdin in ``cwd``; raise TranslationError at ``where``
    when cpp runs too long or prints too much."""
    seconds, cap = limits.CPP_SECONDS.value, int(limits.CPP_OUTPUT_BYTES)
    # its own process group: `cpp` is a driver that runs `cc1`, and killing the driver
    # alone leaves cc1 running on (seen: an orphaned macro bomb at 16 GB)
    proc = subprocess.Popen(args, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, cwd=cwd, start_new_session=True)
    stdin, stdout, stderr = proc.stdin, proc.stdout, proc.stderr
    assert stdin is not None and stdout is not None and stderr is not None  # PIPE, each
    try:
        out, err, exceeded = _exchange((stdin, stdout, stderr), data,
                                       time.monotonic() + seconds, cap)
        if exceeded is None:
            proc.wait()  # both pipes are closed: cpp has exited or is about to
    finally:
        if proc.poll() is None:
            _kill_group(proc)
        for pipe in (stdin, stdout, stderr):
            if not pipe.closed:
                pipe.close()
    if exceeded == "bytes":
        raise _stopped(f"{cap} {limits.CPP_OUTPUT_BYTES.what} "
                       f"(limit set by {limits.CPP_OUTPUT_BYTES.env})", where)
    if exceeded == "seconds":
        raise _stopped(f"{seconds:g} {limits.CPP_SECONDS.what} "
                       f"(limit set by {limits.CPP_SECONDS.env})", where)
    return CppOutput(proc.returncode, b"".join(out), b"".join(err))


def _exchange(pipes: tuple[IO[bytes], IO[bytes], IO[bytes]], data: bytes, deadline: float,
              cap: int) -> tuple[list[bytes], list[bytes], str | None]:
    """Feed ``data`` to cpp (``pipes``: its stdin, stdout and stderr) and collect what it
    prints until it closes both outputs; the limit it passed ("bytes" or "seconds"), or
    None."""
    stdin, stdout, stderr = pipes
    chunks: dict[int, list[bytes]] = {stdout.fileno(): [], stderr.fileno(): []}
    printed = 0
    view, sent = memoryview(data), 0
    with selectors.DefaultSelector() as sel:
        if data:
            sel.register(stdin, selectors.EVENT_WRITE)
        else:
            stdin.close()
        sel.register(stdout, selectors.EVENT_READ)
        sel.register(stderr, selectors.EVENT_READ)
        while sel.get_map():
            left = deadline - time.monotonic()
            if left <= 0:
                return [], [], "seconds"
            for key, _ in sel.select(left):
                pipe = key.fileobj
                assert not isinstance(pipe, int)  # registered as file objects
                if pipe is stdin:
                    try:
                        sent += os.write(pipe.fileno(), view[sent:sent + _CHUNK])
                    except BrokenPipeError:  # cpp stopped early: its stderr says why
                        sent = len(view)
                    if sent >= len(view):
                        sel.unregister(pipe)
                        pipe.close()
                    continue
                chunk = os.read(pipe.fileno(), _CHUNK)
                if not chunk:
                    sel.unregister(pipe)
                    continue
                printed += len(chunk)
                if printed > cap:
                    return [], [], "bytes"
                chunks[pipe.fileno()].append(chunk)
    return chunks[stdout.fileno()], chunks[stderr.fileno()], None


def _stopped(what: str, where: SourceLoc) -> TranslationError:
    return TranslationError(diagnostics=[Diagnostic(
        "error", f"preprocessing stopped: more than {what}", where,
        hint="a macro probably expands to itself many times over; if the input is "
             "meant to be this large, raise the limit with the environment variable "
             "named here")])


def _kill_group(proc: subprocess.Popen) -> None:
    if not signal_group(proc, signal.SIGKILL):
        proc.kill()
    proc.wait()
