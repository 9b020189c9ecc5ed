"""Golden translation corpus (tests/golden/<feature>/): every case, every backend, the launcher.

The expected files are the specification: each was reviewed by eye for the right semantics on
its backend (see tests/golden_support.py for the layout).  ``pytest --update-golden`` rewrites
them from the compiler's current output -- review the diff before committing it.
"""

from __future__ import annotations

import pytest

try:  # `python -m pytest` from the repository root
    from tests import golden_support as gs
except ImportError:  # plain `pytest`: tests/ itself is on sys.path
    import golden_support as gs

CASES = gs.cases()


@pytest.fixture
def update(request) -> bool:
    return bool(request.config.getoption("--update-golden"))


def _write(path, text: str | None) -> None:
    if text is None:
        path.unlink(missing_ok=True)
    else:
        path.write_text(text, encoding="utf-8")


def _read(path) -> str | None:
    return path.read_text(encoding="utf-8") if path.exists() else None


def test_corpus_is_not_empty():
    assert len(CASES) >= 65, f"only {len(CASES)} golden cases"


@pytest.mark.parametrize("mode", gs.MODES)
@pytest.mark.parametrize("case", CASES, ids=lambda c: c.id)
def test_translation(case: gs.Case, mode: str, update: bool):
    result = gs.translate_case(case, mode)
    out_path, err_path, warn_path = (case.output_path(mode), case.error_path(mode),
                                     case.warning_path(mode))
    if update:
        _write(out_path, result.output)
        _write(err_path, result.errors)
        _write(warn_path, result.warnings or None)
        return
    expected_out, expected_err = _read(out_path), _read(err_path)
    assert expected_out is not None or expected_err is not None, (
        f"{case.id}: no expected {out_path.name} or {err_path.name}; run pytest "
        "--update-golden and review the new files")
    assert expected_out is None or expected_err is None, (
        f"{case.id}: both {out_path.name} and {err_path.name} exist")
    if expected_err is not None:
        assert result.errors is not None, (
            f"{case.id} [{mode}] translated, but {err_path.name} expects errors:\n"
            f"{expected_err}")
        assert result.errors == expected_err
        return
    assert result.errors is None, f"{case.id} [{mode}] failed:\n{result.errors}"
    assert result.output == expected_out
    assert result.warnings == (_read(warn_path) or "")


@pytest.mark.parametrize("case", CASES, ids=lambda c: c.id)
def test_launcher(case: gs.Case, update: bool):
    """The launch plan is data the runtime evaluates; every backend must agree on it."""
    plans = {mode: gs.translate_case(case, mode).launcher for mode in gs.MODES}
    plans = {mode: plan for mode, plan in plans.items() if plan is not None}
    path = case.path(gs.LAUNCHER_SUFFIX)
    distinct = set(plans.values())
    assert len(distinct) <= 1, f"{case.id}: launch plans differ between modes: {plans}"
    text = distinct.pop() if distinct else None
    if update:
        _write(path, text)
        return
    assert text == _read(path)
