"""Which modes execution tests run on: OKL_TEST_MODES (e.g. "cuda,hip,opencl" on a GPU
machine), else every mode that works here.  A mode asked for but unavailable is a visible
skip with the reason, never a silent pass."""

from __future__ import annotations

import contextlib
import os

import pytest

import okl
import okl.modes

ALL = okl.modes.MODES
GPU = ("cuda", "hip")  # the modes that need a GPU (opencl also runs on CPUs)


def requested() -> tuple[str, ...]:
    env = os.environ.get("OKL_TEST_MODES", "")
    return tuple(m.strip() for m in env.split(",") if m.strip()) if env else ALL


def params(modes=ALL) -> list:
    """The requested ones of ``modes`` as pytest params, GPU modes marked ``gpu``."""
    want = requested()
    return [pytest.param(m, marks=pytest.mark.gpu) if m in GPU else m
            for m in modes if m in want]


def skip_unless_available(mode: str) -> None:
    info = {b.name: b for b in okl.backends()}[mode]
    if not info.available:
        mark = "GPU " if mode in GPU else ""
        pytest.skip(f"{mark}mode {mode} unavailable here: {info.reason}")


@contextlib.contextmanager
def private_cache(root):
    """``OKL_CACHE_DIR=root`` with okl's cache, logging and checking switches unset, for a
    test module: its builds never touch the user's cache, and the caller's environment
    changes no result."""
    with pytest.MonkeyPatch.context() as mp:
        mp.setenv("OKL_CACHE_DIR", str(root))
        for name in ("OKL_VERBOSE", "OKL_NO_CACHE", "OKL_CACHE_READONLY", "OKL_CHECK_BOUNDS"):
            mp.delenv(name, raising=False)
        yield root


def device_memo():
    """A ``device(mode)``: one Device per mode (skipping with the reason if unavailable).
    A module with a private cache makes its own, so that its Devices use that cache."""
    devices: dict[str, okl.Device] = {}

    def device(mode: str) -> okl.Device:
        if mode not in devices:
            skip_unless_available(mode)
            devices[mode] = okl.Device(mode)
        return devices[mode]
    return device


#: one Device per mode for the whole session
device = device_memo()
