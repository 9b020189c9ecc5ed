"""``oklc`` behaves like the compilers and tools it sits beside (issue 19): ``-`` for stdin
and stdout, one-line ``oklc: error:`` for every failure, one option set across commands,
colour only where wanted, machine-readable diagnostics, ``python -m okl``; and packaging:
a pure-Python preprocessor when ``cpp`` is missing, complete metadata."""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest
from click.testing import CliRunner

from okl.cli import main
from okl.console import Reporter

ROOT = Path(__file__).resolve().parent.parent

KERNEL = """\
#ifndef N
#error N is not defined
#endif
#include "inc.h"
@kernel void k(float *x) {
  for (int i = 0; i < N; ++i; @tile(2, @outer, @inner)) { x[i] = SCALE * i; }
}
"""
BAD = "@kernel void k(float *x) { x[0] = 1; }\n"


@pytest.fixture
def kernel_dir(tmp_path: Path) -> Path:
    (tmp_path / "inc").mkdir()
    (tmp_path / "inc" / "inc.h").write_text("#define SCALE 2\n")
    (tmp_path / "k.okl").write_text(KERNEL)
    (tmp_path / "bad.okl").write_text(BAD)
    return tmp_path


def oklc(*args: str, stdin: bytes | None = None, stdout=subprocess.PIPE,
         env: dict | None = None, cwd: Path | None = None) -> subprocess.CompletedProcess:
    """``python -m okl ARGS`` in a fresh process (what a shell user runs)."""
    full_env = {**os.environ, "PYTHONPATH": str(ROOT), **(env or {})}
    return subprocess.run([sys.executable, "-m", "okl", *args], input=stdin, stdout=stdout,
                          stderr=subprocess.PIPE, env=full_env, cwd=cwd, timeout=120)


def run(*args: str, input: str | None = None):
    return CliRunner().invoke(main, list(args), input=input)


# -- python -m okl ---------------------------------------------------------------------------

def test_python_m_okl_is_oklc():
    r = oklc("--version")
    assert r.returncode == 0 and r.stdout.decode().startswith("oklc, version")
    r = oklc("--help")
    assert r.returncode == 0 and b"Usage: oklc" in r.stdout
    for command in (b"check", b"translate", b"build", b"info", b"cache"):
        assert command in r.stdout


# -- '-' is stdin and stdout ------------------------------------------------------------------

def test_stdin_and_stdout_dash(kernel_dir: Path):
    source = (kernel_dir / "k.okl").read_bytes()
    r = oklc("translate", "-m", "cuda", "-D", "N=8", "-I", "inc", "-", "-o", "-",
             stdin=source, cwd=kernel_dir)
    assert r.returncode == 0, r.stderr
    assert b'#line 5 "<stdin>"' in r.stdout and b"__global__" in r.stdout
    r = run("check", "-m", "serial", "-D", "N=4", "-I", str(kernel_dir / "inc"), "-",
            input=KERNEL)
    assert r.exit_code == 0 and "<stdin>: ok (1 kernel(s): k)" in r.stdout
    r = run("check", "-m", "serial", "-", input=BAD)
    assert r.exit_code == 1 and r.stderr.startswith("<stdin>:1:14: error:")


# -- OS errors ---------------------------------------------------------------------------------

@pytest.mark.parametrize("where", ["missing-dir", "dev-full-file", "dev-full-stdout"])
def test_output_errors_are_one_line(kernel_dir: Path, where: str):
    args = ["translate", "-m", "serial", "-D", "N=4", "-I", "inc", "k.okl"]
    if where == "dev-full-stdout":
        if not os.path.exists("/dev/full"):
            pytest.skip("no /dev/full")
        with open("/dev/full", "wb") as full:
            r = oklc(*args, stdout=full, cwd=kernel_dir)
        expected = "oklc: error: cannot write to standard output: No space left on device"
    elif where == "dev-full-file":
        if not os.path.exists("/dev/full"):
            pytest.skip("no /dev/full")
        r = oklc(*args, "-o", "/dev/full", cwd=kernel_dir)
        expected = "oklc: error: cannot write /dev/full: No space left on device"
    else:
        out = kernel_dir / "no" / "such" / "k.c"
        r = oklc(*args, "-o", str(out), cwd=kernel_dir)
        expected = f"oklc: error: cannot write {out}: No such file or directory"
    assert r.returncode == 1
    assert r.stderr.decode().strip() == expected


def test_closed_pipe_is_quiet(kernel_dir: Path):
    """``oklc translate ... | head -1``: the reader left; no traceback and no error line."""
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    cmd = f"{sys.executable} -m okl translate -m serial -D N=4 -I inc k.okl --launcher | head -1"
    r = subprocess.run(["sh", "-c", cmd], cwd=kernel_dir, env=env, capture_output=True,
                       timeout=120)
    assert r.stderr == b"", r.stderr


def test_unreadable_input_is_one_line(tmp_path: Path):
    r = oklc("translate", "-m", "serial", str(tmp_path / "no.okl"))
    assert r.returncode == 1
    assert r.stderr.decode().strip() == \
        f"{tmp_path / 'no.okl'}: error: cannot read: No such file or directory"


# -- one option set, case-insensitive modes -----------------------------------------------------

@pytest.mark.parametrize("mode", ["CUDA", "OpenMP", "Serial", "hip", "OpenCL"])
def test_check_and_translate_share_options(kernel_dir: Path, mode: str):
    inc = str(kernel_dir / "inc")
    out = kernel_dir / "out.txt"
    r = run("check", "-m", mode, "-D", "N=4", "-I", inc, str(kernel_dir / "k.okl"),
            "-o", str(out))
    assert r.exit_code == 0, r.output
    assert "ok (1 kernel(s): k)" in out.read_text() and r.stdout == ""
    r = run("translate", "--mode", mode, "--define", "N=4", "--include", inc,
            str(kernel_dir / "k.okl"), "--output", str(out))
    assert r.exit_code == 0, r.output
    assert "2 * i" in out.read_text().replace("(", "").replace(")", "")


def test_build_shares_options(kernel_dir: Path, tmp_path: Path, monkeypatch):
    monkeypatch.setenv("OKL_CACHE_DIR", str(tmp_path / "cache"))
    out = kernel_dir / "k.oklb"  # build -o writes the bundle; the report stays on stdout
    r = run("build", str(kernel_dir / "k.okl"), "k", "-m", "SERIAL", "-D", "N=4", "-I",
            str(kernel_dir / "inc"), "-o", str(out))
    assert r.exit_code == 0, r.output
    assert re.match(r"k \(serial, .*\): [\d.]+ ms, cache miss", r.stdout)
    assert out.read_bytes().startswith(b"PK") and f"wrote {out}" in r.stdout
    r = run("build", "-", "k", "-m", "serial", "-D", "N=4", "-I", str(kernel_dir / "inc"),
            input=KERNEL)
    assert r.exit_code == 0, r.output


# -- one error style ---------------------------------------------------------------------------

@pytest.mark.parametrize("args, message", [
    (["translate", "--bogus"], "No such option '--bogus' (see 'oklc translate --help')"),
    (["translate", "-m", "metal", "k.okl"], "Invalid value for '-m' / '--mode'"),
    (["translate", "k.okl"], "Missing option '-m' / '--mode'"),
    (["frobnicate"], "No such command 'frobnicate'"),
])
def test_usage_errors_in_oklc_style(args: list[str], message: str):
    r = run(*args)
    assert r.exit_code == 2
    lines = r.stderr.splitlines()
    assert len(lines) == 1 and lines[0].startswith("oklc: error: ") and message in lines[0]
    assert "Usage:" not in r.output and "Error:" not in r.output


def test_okl_errors_in_oklc_style(kernel_dir: Path):
    r = run("build", str(kernel_dir / "k.okl"), "nope", "-m", "serial", "-D", "N=4",
            "-I", str(kernel_dir / "inc"))
    assert r.exit_code == 1 and r.stderr.startswith("oklc: error: no @kernel named 'nope'")


# -- colour ------------------------------------------------------------------------------------

def test_color_never_auto_always(kernel_dir: Path):
    bad = str(kernel_dir / "bad.okl")
    r = run("check", "-m", "serial", bad)  # auto, and the test runner's stderr is no terminal
    assert r.exit_code == 1 and "\x1b[" not in r.stderr
    for args in (["--color=always", "check"], ["check", "--color=always"],
                 ["check", "--colour", "always"]):
        r = run(*args, "-m", "serial", bad)
        assert "\x1b[1;31merror:\x1b[0m" in r.stderr and "\x1b[1;32m^" in r.stderr, args
    r = run("check", "--color=never", "-m", "serial", bad)
    assert "\x1b[" not in r.stderr
    r = run("--color=always", "translate", "-m", "serial", str(kernel_dir / "none.okl"))
    assert r.stderr.startswith("\x1b[1m") and "\x1b[1;31merror:\x1b[0m cannot read:" in r.stderr
    r = run("--color=always", "compare", str(kernel_dir / "k.okl"), "k", "-a", "{not json")
    assert r.stderr.startswith("oklc: \x1b[31m\x1b[1merror:")


def test_color_auto_follows_the_terminal_and_no_color(monkeypatch):
    class Stream:
        def __init__(self, tty: bool) -> None:
            self.tty = tty

        def isatty(self) -> bool:
            return self.tty

    report = Reporter()
    monkeypatch.setattr(sys, "stderr", Stream(True))
    monkeypatch.delenv("NO_COLOR", raising=False)
    assert report.colored()
    monkeypatch.setenv("NO_COLOR", "1")
    assert not report.colored()
    report.color = "always"  # an explicit option wins over NO_COLOR (no-color.org)
    assert report.colored()
    monkeypatch.setattr(sys, "stderr", Stream(False))
    report.color = "auto"
    monkeypatch.delenv("NO_COLOR")
    assert not report.colored()


# -- machine-readable diagnostics --------------------------------------------------------------

def test_diagnostics_format_json(kernel_dir: Path):
    r = run("check", "-m", "serial", "--diagnostics-format=json", str(kernel_dir / "bad.okl"))
    assert r.exit_code == 1
    [d] = json.loads(r.stderr)
    assert {k: d[k] for k in ("line", "column", "severity")} == \
        {"line": 1, "column": 14, "severity": "error"}
    assert d["file"].endswith("bad.okl") and "@outer" in d["message"] and d["hint"]
    # errors that have no place in a file are records too, and stdout keeps the output alone
    r = run("--diagnostics-format", "json", "translate", "-m", "serial", "none.okl")
    [d] = json.loads(r.stderr)
    assert (d["file"], d["line"]) == ("none.okl", None) and d["message"].startswith("cannot read:")
    r = run("translate", "-m", "serial", "--diagnostics-format=json", "-D", "N=4", "-I",
            str(kernel_dir / "inc"), str(kernel_dir / "k.okl"))
    assert r.exit_code == 0 and json.loads(r.stderr) == [] and "void" in r.stdout


def test_diagnostics_format_sarif(kernel_dir: Path):
    r = run("translate", "-m", "cuda", "--diagnostics-format=sarif", str(kernel_dir / "bad.okl"))
    assert r.exit_code == 1
    log = json.loads(r.stderr)
    assert log["version"] == "2.1.0" and log["runs"][0]["tool"]["driver"]["name"] == "oklc"
    [result] = log["runs"][0]["results"]
    assert result["level"] == "error" and result["properties"]["hint"]
    region = result["locations"][0]["physicalLocation"]["region"]
    assert region == {"startLine": 1, "startColumn": 14}


# -- --launcher appends, -l prints the launcher alone ------------------------------------------

def test_launcher_and_launcher_only(kernel_dir: Path):
    args = ["translate", "-m", "cuda", "-D", "N=4", "-I", str(kernel_dir / "inc"),
            str(kernel_dir / "k.okl")]
    both = run(*args, "--launcher").stdout
    alone = run(*args, "-l").stdout
    assert "__global__" in both and "/* launch plan" in both
    assert alone.startswith("kernel k(float * x)") and "__global__" not in alone
    assert alone in both
    assert run(*args, "--launcher-only").stdout == alone


# -- packaging: a preprocessor without cpp -----------------------------------------------------

def test_pcpp_stands_in_when_cpp_is_missing(kernel_dir: Path, tmp_path: Path):
    """No cpp on PATH: translation still works (pcpp) and ``oklc info`` says which is used."""
    empty = tmp_path / "empty-path"
    empty.mkdir()
    env = {"PATH": str(empty), "OKL_CPP": ""}
    r = oklc("translate", "-m", "cuda", "-D", "N=4", "-I", "inc", "k.okl", env=env,
             cwd=kernel_dir)
    assert r.returncode == 0, r.stderr
    assert b"2 * i" in r.stdout.replace(b"(", b"").replace(b")", b"")
    r = oklc("info", env=env)
    assert r.returncode == 0, r.stderr
    assert re.search(rb"preprocessor: pcpp [\d.]+ \(pure Python; no cpp on PATH\)", r.stdout)
    r = oklc("check", "-m", "serial", "-", stdin=b"#error boom\n", env=env)
    assert r.returncode == 1 and r.stderr.startswith(b"<stdin>:1:1: error: #error boom")


def test_pcpp_translates_the_golden_kernels_as_cpp_does(monkeypatch):
    """Every golden kernel gives the same tokens through pcpp as through cpp (line markers
    aside; spacing inside lines is pcpp's)."""
    sys.path.insert(0, str(ROOT / "tests"))
    from golden_support import cases, translate_case

    def tokens(text: str | None):
        if text is None:
            return None
        return re.findall(r"\w+|\S", re.sub(r"#line[^\n]*\n", "", text))

    found = 0
    for case in cases():
        monkeypatch.delenv("OKL_CPP", raising=False)
        cpp = translate_case(case, "cuda")
        monkeypatch.setenv("OKL_CPP", "pcpp")
        pcpp = translate_case(case, "cuda")
        assert tokens(cpp.output) == tokens(pcpp.output), case
        assert (cpp.errors is None) == (pcpp.errors is None), (case, pcpp.errors)
        found += 1
    assert found >= 100


def test_no_preprocessor_at_all_is_said_everywhere(monkeypatch, tmp_path: Path):
    import okl
    from okl.parser.cpp import pcpp as pcpprun

    monkeypatch.setenv("PATH", str(tmp_path))
    monkeypatch.delenv("OKL_CPP", raising=False)
    monkeypatch.setattr(pcpprun, "available", lambda: False)
    for b in okl.backends():
        assert not b.available and "no C preprocessor found" in b.reason
    with pytest.raises(okl.OKLError, match="pip install pcpp"):
        okl.translate(BAD, "serial")
    assert pcpprun.describe().startswith("none (no C preprocessor found")
    monkeypatch.setenv("OKL_CPP", str(tmp_path / "no-cpp"))
    with pytest.raises(okl.OKLError, match="OKL_CPP=.*is not an executable"):
        okl.translate(BAD, "serial")


# -- packaging: metadata ------------------------------------------------------------------------

def test_project_metadata():
    import tomllib

    project = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]
    assert project["license"] == "MIT" and project["license-files"] == ["LICENSE"]
    assert "MIT License" in (ROOT / "LICENSE").read_text()
    assert project["urls"] and project["classifiers"]
    assert (ROOT / "okl" / "py.typed").exists()
    extras = project["optional-dependencies"]
    assert extras["cuda12"] == ["cupy-cuda12x>=13.0"] and extras["cuda13"][0].startswith(
        "cupy-cuda13x") and extras["cuda"] == ["okl[cuda12]"]
    assert extras["rocm"][0].startswith("cupy-rocm-")
    assert any(r.startswith("pyopencl") for r in extras["pocl"])
    assert not any("cuda-python" in r for rs in extras.values() for r in rs)
    assert any(r.startswith("pcpp") for r in project["dependencies"])
    # nothing is declared that nothing imports
    assert not any(r.startswith("hypothesis") for rs in extras.values() for r in rs)
    used = subprocess.run(["grep", "-rlE", r"^\s*(import|from) hypothesis", "okl", "tests",
                           "benchmarks"], cwd=ROOT, capture_output=True, text=True).stdout
    assert used == ""


def test_wheel_metadata_and_no_licence_deprecation(tmp_path: Path):
    import shutil
    import zipfile

    src = tmp_path / "src"
    shutil.copytree(ROOT, src, ignore=shutil.ignore_patterns(
        ".git", "build", "*.egg-info", "__pycache__", ".pytest_cache", ".ruff_cache", "tests",
        "benchmarks", ".venv"))
    r = subprocess.run([sys.executable, "-m", "pip", "wheel", "--no-deps",
                        "--no-build-isolation", "-v", "-w", str(tmp_path), str(src)],
                       capture_output=True, text=True, timeout=300)
    assert r.returncode == 0, r.stderr
    assert "SetuptoolsDeprecationWarning" not in r.stdout + r.stderr  # the licence table
    (wheel,) = tmp_path.glob("okl-*.whl")
    with zipfile.ZipFile(wheel) as z:
        names = z.namelist()
        meta = z.read(next(n for n in names if n.endswith(".dist-info/METADATA"))).decode()
    assert "okl/py.typed" in names and "okl/__main__.py" in names
    assert any(n.endswith(".dist-info/licenses/LICENSE") for n in names)
    assert "License-Expression: MIT" in meta
    for extra in ("cuda", "cuda12", "cuda13", "rocm", "opencl", "pocl"):
        assert f"Provides-Extra: {extra}\n" in meta
