"""``oklc --version`` and a plain ``oklc translate`` run without click (okl.entry, issue 30):
the fast path must read a command line as click does, or leave it to click; print the same
bytes and exit the same way; and load none of what it was written to avoid (checked by the
modules a run imports: timings are the benchmarks' business, benchmarks/translate_time.py)."""

from __future__ import annotations

import os
import random
import subprocess
import sys
from pathlib import Path

import pytest
from click.testing import CliRunner

from okl import console, entry
from okl.cli import main

ROOT = Path(__file__).resolve().parent.parent
KERNEL = """\
#define N 16
@kernel void k(const int n, float *x) {
  for (int i = 0; i < n; ++i; @tile(N, @outer, @inner)) {
    if (i < n) x[i] = 2.0f * x[i] + 0.5;
  }
}
"""
BAD = "@kernel void k(float *x) { x[0] = 1; }\n"


@pytest.fixture
def kernels(tmp_path: Path) -> Path:
    (tmp_path / "k.okl").write_text(KERNEL)
    (tmp_path / "bad.okl").write_text(BAD)
    return tmp_path


def _click_params(argv: list[str], monkeypatch) -> dict | None:
    """What the click app passes to console.translate for ``argv`` (and the reporter's colour
    and format then), or None where click refuses the command line or runs no translate."""
    seen: dict = {}

    def record(file, mode, defines, includes, output, launcher, launcher_only, no_line):
        seen.update(file=file, mode=mode, defines=defines, includes=includes, output=output,
                    launcher=launcher, launcher_only=launcher_only, no_line=no_line,
                    color=console.REPORT.color, format=console.REPORT.format)

    monkeypatch.setattr(console, "translate", record)
    result = CliRunner().invoke(main, argv)
    monkeypatch.undo()
    return seen if result.exit_code == 0 and seen else None


def _fast_params(argv: list[str]) -> dict | None:
    """The same, as okl.entry reads ``argv``."""
    p = entry.parse_translate(argv)
    if p is None:
        return None
    return {"file": p["file"], "mode": p["mode"], "defines": console.defines(p["defines"]),
            "includes": p["includes"], "output": p["output"], "launcher": p["launcher"],
            "launcher_only": p["launcher_only"], "no_line": p["no_line"],
            "color": (p["color"] or "auto").lower(),
            "format": (p["diagnostics_format"] or "text").lower()}


#: command lines the fast path must take (the forms scripts and build systems write)
COMMON = [
    ["translate", "-m", "cuda", "k.okl"],
    ["translate", "-m", "cuda", "k.okl", "-D", "p_Nq=8", "-D", "dfloat=double"],
    ["translate", "--mode=CUDA", "-Dp_N=4", "-DX", "-I", "inc", "-Iinc2", "-o", "out.cu", "k.okl"],
    ["translate", "k.okl", "--mode", "OpenMP", "--define", "A=1", "--include=inc", "--no-line"],
    ["translate", "-m", "serial", "--launcher", "-", "-o", "-"],
    ["translate", "-mhip", "-l", "k.okl", "--output=x.hip"],
    ["--color", "never", "translate", "-m", "opencl", "k.okl", "--diagnostics-format=json"],
    ["--diagnostics-format", "SARIF", "translate", "-m", "cuda", "--colour=Always", "k.okl"],
    ["translate", "-m", "cuda", "-D", "-x", "-o", "-", "k.okl"],  # a value may start with '-'
    ["translate", "-m", "serial", "-m", "cuda", "k.okl"],  # the last value wins
]
#: command lines only click may answer (help, errors, forms the fast path does not read)
CLICKS = [
    [], ["--version", "translate"], ["translate"], ["translate", "-m", "cuda"],
    ["translate", "k.okl"], ["translate", "-m", "metal", "k.okl"], ["translate", "-h"],
    ["translate", "-m", "cuda", "k.okl", "--help"], ["translate", "-m", "cuda", "a", "b"],
    ["translate", "-m", "cuda", "--", "k.okl"], ["translate", "-m", "cuda", "-lD", "x", "k"],
    ["translate", "-m", "cuda", "--launcher=1", "k.okl"], ["translate", "-m", "cuda", "-D"],
    ["translate", "-m", "cuda", "--mod", "cuda", "k.okl"], ["check", "-m", "cuda", "k.okl"],
    ["translate", "-m", "cuda", "--color", "green", "k.okl"], ["-m", "cuda", "translate", "k"],
    ["--color", "never", "--version"], ["translate", "-m", "cuda", "-x", "k.okl"],
]


@pytest.mark.parametrize("argv", COMMON)
def test_common_command_lines_take_the_fast_path_as_click_reads_them(argv, monkeypatch):
    fast = _fast_params(argv)
    assert fast is not None
    assert fast == _click_params(argv, monkeypatch)


@pytest.mark.parametrize("argv", CLICKS)
def test_other_command_lines_are_clicks(argv):
    assert entry.parse_translate(argv) is None


def _spell(rng: random.Random, names: list[str], value: str | None) -> list[str]:
    """One option with its value in one of the spellings click reads."""
    name = rng.choice(names)
    if value is None:
        return [name]
    if name.startswith("--"):
        return [f"{name}={value}"] if rng.random() < 0.5 else [name, value]
    return [f"{name}{value}"] if rng.random() < 0.5 and value else [name, value]


def test_random_command_lines_read_as_click_reads_them(monkeypatch):
    """Options, values and files in random orders and spellings, now and then with a word
    that does not belong: wherever the fast path reads a command line, click reads the same
    parameters from it."""
    rng = random.Random(30)
    values = ["cuda", "Serial", "OPENMP", "metal", "", "A=1", "-x", "=", "dir", "-", "k.okl"]
    options = [(["-D", "--define"], True), (["-I", "--include"], True),
               (["-o", "--output"], True), (["--launcher"], False),
               (["-l", "--launcher-only"], False), (["--no-line"], False),
               (["--color", "--colour"], True), (["--diagnostics-format"], True),
               (["-m", "--mode"], True)]
    junk = ["--", "-x", "-lm", "--launcher=1", "-h", "x.okl", "--mod", "-D"]
    fast = 0
    for _ in range(300):
        parts = [_spell(rng, ["-m", "--mode"], rng.choice(["cuda", "HIP", "serial", "x"])),
                 [rng.choice(["k.okl", "-", "a b.okl"])]]
        for names, takes in rng.sample(options, rng.randint(0, 5)):
            value = rng.choice(values) if takes else None
            if names[0] == "--color":
                value = rng.choice(["auto", "Never", "ALWAYS", "blue"])
            elif names[0] == "--diagnostics-format":
                value = rng.choice(["text", "JSON", "sarif", "xml"])
            parts.append(_spell(rng, names, value))
        rng.shuffle(parts)
        if rng.random() < 0.3:
            parts.insert(rng.randrange(len(parts) + 1), [rng.choice(junk)])
        argv = ["translate"] + [word for part in parts for word in part]
        if rng.random() < 0.2:
            argv[:0] = _spell(rng, ["--color", "--diagnostics-format"], rng.choice(
                ["never", "Json", "auto", "blue"]))
        mine = _fast_params(argv)
        if mine is not None:
            fast += 1
            assert mine == _click_params(argv, monkeypatch), argv
    assert fast > 100  # the test saw the fast path at work


def test_the_fast_paths_options_are_the_click_commands():
    """entry.TRANSLATE and entry.GROUP name every option of okl.cli's translate command and
    group (help and --version aside), with the same parameter, value and repetition."""
    def table(params) -> dict:
        out = {}
        for p in params:
            if p.param_type_name != "option" or p.name in ("help", "version"):
                continue
            for name in p.opts + p.secondary_opts:
                out[name] = (p.name, not p.is_flag, p.multiple)
        return out

    assert table(main.commands["translate"].params) == entry.TRANSLATE
    assert table(main.params) == entry.GROUP


def _run(argv: list[str], cwd: Path, fast: bool, stdin: bytes | None = None):
    """``oklc ARGV`` in a fresh process: the console script's entry (okl.entry), or the click
    app itself."""
    call = "from okl.entry import main" if fast else "from okl.cli import main"
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    env.pop("NO_COLOR", None)
    return subprocess.run([sys.executable, "-c", f"{call}; main()", *argv], cwd=cwd, env=env,
                          input=stdin, capture_output=True, timeout=120)


@pytest.mark.parametrize("argv", [
    ["--version"],
    ["translate", "-m", "cuda", "k.okl"],
    ["translate", "-m", "openmp", "k.okl", "--launcher", "--no-line"],
    ["translate", "-m", "serial", "-l", "k.okl"],
    ["translate", "-m", "cuda", "bad.okl"],
    ["translate", "-m", "cuda", "--color", "always", "bad.okl"],
    ["--diagnostics-format", "json", "translate", "-m", "hip", "bad.okl"],
    ["translate", "-m", "cuda", "--diagnostics-format=sarif", "missing.okl"],
    ["translate", "-m", "opencl", "k.okl", "-o", "no/such/folder/k.cl"],
    ["translate", "-m", "cuda", "-"],
])
def test_the_fast_path_prints_what_click_prints(argv, kernels: Path):
    stdin = KERNEL.encode() if "-" in argv else None
    fast, slow = _run(argv, kernels, True, stdin), _run(argv, kernels, False, stdin)
    assert (fast.returncode, fast.stdout, fast.stderr) == \
        (slow.returncode, slow.stdout, slow.stderr)
    assert fast.stdout or fast.stderr  # the command printed something to compare


def test_output_file_is_the_same(kernels: Path):
    for fast in (True, False):
        out = kernels / f"k{fast}.cu"
        assert _run(["translate", "-m", "cuda", "k.okl", "-o", out.name], kernels,
                    fast).returncode == 0
    assert (kernels / "kTrue.cu").read_bytes() == (kernels / "kFalse.cu").read_bytes()


def _modules_after(argv: list[str], cwd: Path) -> tuple[set[str], str]:
    """The modules a run of ``oklc ARGV`` imported, and what kind of object pycparser's
    lexer holds as its regex of literals by the end."""
    script = (  # the fast paths end with os._exit, after running what atexit holds
        "import atexit, os, sys, threading\n"
        "atexit.register(print, 'atexit ran', file=sys.stderr)\n"
        "def report(status, exit=os._exit):\n"
        "    lexer = sys.modules.get('pycparser.c_lexer')\n"
        "    kind = type(lexer._regex_master).__name__ if lexer else '-'\n"
        "    assert atexit._ncallbacks() == 0, 'an atexit function would not run'\n"
        "    assert threading.active_count() == 1, 'a thread would be cut off'\n"
        "    print(kind, ' '.join(sorted(sys.modules)), file=sys.stderr, flush=True)\n"
        "    exit(status)\n"
        "os._exit = report\n"
        "from okl.entry import main\n"
        "main()\n")
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    run = subprocess.run([sys.executable, "-c", script, *argv], cwd=cwd, env=env,
                         capture_output=True, text=True, timeout=120)
    assert run.returncode == 0, run.stderr
    assert "atexit ran" in run.stderr.splitlines()
    kind, _, names = run.stderr.strip().splitlines()[-1].partition(" ")
    return set(names.split()), kind


def test_version_loads_only_the_version(kernels: Path):
    modules, _ = _modules_after(["--version"], kernels)
    okl_modules = {m for m in modules if m.split(".")[0] == "okl"}
    assert okl_modules == {"okl", "okl.entry", "okl.console", "okl.version"}
    assert not modules & {"click", "typing", "dataclasses", "inspect", "pycparser", "json",
                          "hashlib"}


def test_translate_loads_no_click_and_defers_what_it_does_not_use(kernels: Path):
    """No click, no runtime, no numpy; pycparser without subprocess (okl's preprocessor
    reads this kernel: no cpp runs) and with its lexer's regex still uncompiled (okl's lexer
    reads every token of it); no cpp-subprocess modules and no shutil; dataclasses without
    inspect (okl.parser.pycparser_load.defer_inspect)."""
    for mode in ("serial", "cuda"):
        modules, kind = _modules_after(["translate", "-m", mode, "k.okl"], kernels)
        assert not {m for m in modules if m.split(".")[0] in ("click", "numpy")}
        assert not {m for m in modules if m.startswith(("okl.runtime", "okl.cli"))}
        assert not modules & {"subprocess", "shutil", "json", "okl.parser.cpp.run",
                              "okl.parser.cpp.repairs", "inspect"}
        assert kind == "DeferredPattern"
