"""Which modes execution tests run on: OKL_TEST_MODES (e.g. "cuda,hip,opencl" on a GPU
machine), else every mode that works here.  A mode asked for but unavailable is a visible
skip with the reason, never a silent pass."""

from __future__ import annotations

import os

import pytest

import okl

ALL = ("serial", "openmp", "opencl", "cuda", "hip")
GPU = ("cuda", "hip")


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


_devices: dict[str, okl.Device] = {}


def device(mode: str) -> okl.Device:
    """One Device per mode for the whole session (skip with the reason if unavailable)."""
    if mode not in _devices:
        skip_unless_available(mode)
        _devices[mode] = okl.Device(mode)
    return _devices[mode]
