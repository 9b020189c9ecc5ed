"""The mpiexec the MPI tests start jobs with: the one beside this Python (pip's mpich, the MPI
that mpi4py loads), else PATH's; the test is skipped without mpi4py or any mpiexec."""

from __future__ import annotations

import shutil
import sys
from pathlib import Path

import pytest


def mpiexec() -> str:
    pytest.importorskip("mpi4py", reason="mpi4py is not installed (pip install -e .[test])")
    here = Path(sys.executable).with_name("mpiexec")
    exe = str(here) if here.exists() else shutil.which("mpiexec")
    if exe is None:
        pytest.skip("no mpiexec found (pip install mpich)")
    return exe
