"""Shared pytest configuration for the okl test suite."""

from __future__ import annotations


def pytest_addoption(parser) -> None:
    parser.addoption(
        "--update-golden",
        action="store_true",
        default=False,
        help="rewrite expected files of golden tests from the current output instead of "
        "comparing (review the diff before committing it)",
    )



def pytest_configure(config) -> None:
    """Every run fuzzes with a fresh seed (tests/test_fuzz.py), chosen here so that the
    summary can log it: a CI failure can be replayed even when its output was cut."""
    import os
    import secrets

    os.environ.setdefault("OKL_FUZZ_SEED", str(secrets.randbits(32)))


def pytest_terminal_summary(terminalreporter) -> None:
    import os

    terminalreporter.write_line(
        f"okl fuzz: OKL_FUZZ_SEED={os.environ['OKL_FUZZ_SEED']} "
        f"OKL_FUZZ_ITERATIONS={os.environ.get('OKL_FUZZ_ITERATIONS', 'default')}")
