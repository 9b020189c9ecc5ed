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
