"""The MPI tests' jobs: the mpiexec they start (the one beside this Python -- pip's mpich, the
MPI that mpi4py loads -- else PATH's; the test is skipped without mpi4py or any mpiexec), and
one job run to its end or failed as a hang."""

from __future__ import annotations

import shutil
import signal
import subprocess
import sys
from pathlib import Path

import pytest

from okl.processes import signal_group


def mpiexec() -> str:
    pytest.importorskip("mpi4py", reason="mpi4py is not installed (pip install -e .[test])")
    here = Path(sys.executable).with_name("mpiexec")
    exe = str(here) if here.exists() else shutil.which("mpiexec")
    if exe is None:
        pytest.skip("no mpiexec found (pip install mpich)")
    return exe


def run(cmd: list[str], *, env: dict, cwd, timeout: float) -> tuple[int, str]:
    """(exit code, output) of an mpiexec job; the test fails, and the job's whole process
    group is killed, if it does not finish in ``timeout`` seconds (a rank hangs)."""
    proc = subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True,
                            env=env, cwd=cwd, start_new_session=True)
    try:
        out, _ = proc.communicate(timeout=timeout)
    except subprocess.TimeoutExpired:
        signal_group(proc, signal.SIGKILL)  # the process group of the mpiexec started here
        proc.communicate()
        pytest.fail(f"{' '.join(cmd)} did not finish in {timeout} s: a rank hangs")
    return proc.returncode, out
