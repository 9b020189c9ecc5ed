"""Stopping a tool okl started together with every process it started in turn.

okl runs its tools (the C preprocessor, C compilers, ``mpiexec`` in the tests) in a session
of their own (``start_new_session=True``), so each leads a process group: ``cpp`` is a
driver that runs ``cc1``, a compiler driver runs its passes, and signalling the driver
alone leaves them running on (seen: an orphaned macro bomb growing to 16 GB).  This module
sits on the lowest floor so that the preprocessor (okl.parser) and the runtime's build
drivers share it."""

from __future__ import annotations

import os
import subprocess


def signal_group(proc: subprocess.Popen, sig: int) -> bool:
    """``sig`` to the process group ``proc`` leads; False where it could not be sent (the
    group is gone, or not ours to signal).  The group stays ``proc``'s own as long as
    ``proc`` is not reaped, so no other process can get the signal."""
    try:
        os.killpg(proc.pid, sig)
    except (ProcessLookupError, PermissionError):
        return False
    return True
