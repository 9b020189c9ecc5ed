"""Golden error corpus (tests/golden/errors/): ``oklc check`` on bad kernels, output compared.

Layout (see tests/golden/errors/README.md)::

    <case>.okl    the kernel
    <case>.args   optional: extra ``oklc check`` arguments (-D N=V, -I DIR), shell syntax
    <case>.err    the exact stderr of ``oklc check <case>.okl <args>`` run in this folder

Cases named ``warn_*`` are valid kernels whose expected output is only warnings: they must
exit 0; every other case must exit 1.  ``pytest --update-golden`` rewrites the .err files from
the current output -- review every changed message by eye before committing it.
"""

from __future__ import annotations

import shlex
from pathlib import Path

import pytest
from click.testing import CliRunner

from okl.cli import main

ERRORS_DIR = Path(__file__).resolve().parent / "golden" / "errors"
CASES = sorted(p.stem for p in ERRORS_DIR.glob("*.okl"))


def run_check(case: str, monkeypatch) -> tuple[int, str, str]:
    args_file = ERRORS_DIR / f"{case}.args"
    extra = shlex.split(args_file.read_text()) if args_file.exists() else []
    monkeypatch.chdir(ERRORS_DIR)  # so every path in the output is relative to the folder
    result = CliRunner().invoke(main, ["check", f"{case}.okl", *extra])
    if result.exception is not None and not isinstance(result.exception, SystemExit):
        raise result.exception
    return result.exit_code, result.stdout, result.stderr


def test_corpus_size():
    assert len(CASES) >= 45, f"only {len(CASES)} error cases"
    assert any(c.startswith("warn_") for c in CASES)


@pytest.mark.parametrize("case", CASES)
def test_check_output(case: str, monkeypatch, request):
    code, out, err = run_check(case, monkeypatch)
    expected_path = ERRORS_DIR / f"{case}.err"
    if request.config.getoption("--update-golden"):
        expected_path.write_text(err, encoding="utf-8")
    assert expected_path.exists(), f"{expected_path.name} is missing: run pytest --update-golden"
    expected = expected_path.read_text(encoding="utf-8")
    assert err == expected
    if case.startswith("warn_"):
        assert code == 0, err
        assert "warning:" in err and "error:" not in err
        assert out.startswith(f"{case}.okl: ok")
    else:
        assert code == 1, err
        assert out == ""
        assert "error:" in err
