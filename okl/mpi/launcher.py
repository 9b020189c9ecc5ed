"""okl.mpi's launcher check: a job whose launcher and MPI library do not belong together is
an error, not N copies of a one-rank run (issue 33 item 3).  Its own module so that every part
of okl.mpi (the collective builds, the Communicator) can run it without importing the other.
"""

from __future__ import annotations

import os
from typing import Any

from ..errors import OKLError


class LauncherMismatchError(OKLError):
    """The launcher started this process as one of several ranks, but the MPI library that
    mpi4py loaded sees a job of one: the launcher and the library do not belong together."""


#: what a launcher tells each process it starts: (variable, what it holds, launcher); a size
#: above 1, or a rank above 0, means "one of several ranks".  Slurm's SLURM_NTASKS is not
#: here: a batch script's own shell has it too, and a serial step in it is a job of one.
LAUNCHER_VARIABLES = (
    ("PMI_SIZE", "size", "a PMI launcher (MPICH's or Intel MPI's mpiexec/Hydra, srun --mpi=pmi2)"),
    ("PMI_RANK", "rank", "a PMI launcher (MPICH's or Intel MPI's mpiexec/Hydra, srun --mpi=pmi2)"),
    ("OMPI_COMM_WORLD_SIZE", "size", "Open MPI's mpirun/mpiexec"),
    ("OMPI_COMM_WORLD_RANK", "rank", "Open MPI's mpirun/mpiexec"),
    ("PMIX_RANK", "rank", "a PMIx launcher (Open MPI 5's prterun, srun --mpi=pmix)"),
    ("MV2_COMM_WORLD_SIZE", "size", "MVAPICH's mpirun_rsh"),
    ("SLURM_PROCID", "rank", "Slurm's srun"),
)

_LAUNCHER_CHECKED = False


def _mpi():
    """mpi4py's MPI module, imported only when okl.mpi is used."""
    try:
        from mpi4py import MPI
    except ImportError as e:
        raise OKLError(f"okl.mpi needs mpi4py ({e}): pip install mpi4py, with an MPI library "
                       "(your system's MPI, or pip install mpich)") from None
    return MPI


def launched_as(environ=os.environ) -> tuple[str, str, int] | None:
    """(variable, launcher, value) of the first launcher variable saying this process is one
    of several ranks, or None when none does (or none is set)."""
    for variable, kind, launcher in LAUNCHER_VARIABLES:
        text = environ.get(variable, "").strip()
        if text.isdecimal() and int(text) > (1 if kind == "size" else 0):
            return variable, launcher, int(text)
    return None


def check_launcher(MPI: Any = None, environ=os.environ) -> None:
    """Refuse a job whose launcher and MPI library do not belong together.

    Why: ``mpiexec -n 4`` of one MPI with mpi4py loading another starts four processes that
    each see ``COMM_WORLD`` of size 1 and rank 0: each then solves the whole problem, all on
    GPU 0, and nothing fails -- the job only runs 4x too long (seen on a 4-GPU host with
    MPICH's mpiexec and the image's Open MPI).  The launcher's own variables tell the truth,
    so a world of one under a launcher that started several is an error that names both
    sides and the fix.  Every okl.mpi function that takes a communicator checks, once per
    process."""
    global _LAUNCHER_CHECKED
    if _LAUNCHER_CHECKED:
        return
    MPI = MPI or _mpi()
    if MPI.COMM_WORLD.Get_size() == 1:
        found = launched_as(environ)
        if found is not None:
            variable, launcher, value = found
            library = " ".join(MPI.Get_library_version().split()[:4]).rstrip(",")
            raise LauncherMismatchError(
                f"this process was started as one of several MPI ranks ({variable}={value}, "
                f"set by {launcher}), but the MPI library mpi4py loaded ({library}) sees a "
                "job of 1 rank: each process would compute the whole problem alone.  Start "
                "the job with the mpiexec of the library mpi4py uses (for the pip mpich "
                "wheel, the mpiexec beside this Python), or point mpi4py at the launcher's "
                "library: MPI4PY_LIBMPI=/path/to/libmpi.so (and MPI4PY_MPIABI=mpich or "
                "openmpi for an ABI other than the one mpi4py was built for); "
                "python -c 'import mpi4py; print(mpi4py.get_config())' shows what mpi4py "
                "was built with")
    _LAUNCHER_CHECKED = True
