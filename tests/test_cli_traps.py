"""The smaller command-line traps of issue 31, each as a user meets it: OCCA's command names,
shell completion, ``check``'s JSON, unreadable files, the names of sourceless input, the
vector sizes in ``check -r``'s summary, and ``printf`` without ``<stdio.h>`` on the CPU."""

from __future__ import annotations

import errno
import json
import os
import pickle
import re
import subprocess
import sys
from pathlib import Path

import pytest
from click.testing import CliRunner

import okl
from okl.check import kind_of
from okl.cli import main
from okl.errors import Diagnostic
from okl.parser.source import SourceFileError

ROOT = Path(__file__).resolve().parent.parent

GOOD = """\
@kernel void k(int n, float *x) {
  for (int i = 0; i < n; ++i; @tile(4, @outer, @inner)) { x[i] = i; }
}
"""
#: an error with a note (the other @inner loop), so that the JSON shapes differ if the notes
#: are dropped on one path
BAD = """\
@kernel void k(float *x) {
  for (int b = 0; b < 4; ++b; @outer) {
    for (int i = 0; i < 4; ++i; @inner(0)) {
      for (int j = 0; j < 4; ++j; @inner(0)) { x[j] = 1; }
    }
  }
}
"""


def run(*args: str, input: str | None = None, env: dict | None = None):
    return CliRunner().invoke(main, list(args), input=input, env=env)


def python_m_okl(*args: str, env: dict | None = None) -> subprocess.CompletedProcess:
    """``python -m okl ARGS`` in a fresh process: through okl.entry, as a shell runs oklc."""
    return subprocess.run([sys.executable, "-m", "okl", *args], capture_output=True, text=True,
                          env={**os.environ, "PYTHONPATH": str(ROOT), **(env or {})},
                          timeout=60)


# -- 1. OCCA's command names, and typos --------------------------------------------------------

@pytest.mark.parametrize("occa, equivalent", [
    ("compile", "oklc build"), ("modes", "oklc info"), ("env", "oklc info -v"),
    ("clear", "oklc cache clear"), ("version", "oklc --version"),
])
def test_occa_commands_name_their_okl_equivalent(occa: str, equivalent: str):
    r = run(occa, "x.okl")
    assert r.exit_code == 2
    [line] = r.stderr.splitlines()
    assert line.startswith(f"oklc: error: No such command '{occa}': OCCA's 'occa {occa}' is "
                           f"'{equivalent}")
    assert "Did you mean" not in line  # not click's guess ('compile' -> 'compare')


def test_typos_get_close_matches_at_every_level():
    r = run("chek")
    assert r.exit_code == 2 and "No such command 'chek'; did you mean 'check'" in r.stderr
    r = run("cache", "clean")
    assert r.exit_code == 2 and r.stderr.splitlines() == [
        "oklc: error: No such command 'clean'; did you mean 'clear'? (see 'oklc cache --help')"]
    r = run("frobnicate")
    assert r.exit_code == 2 and "did you mean" not in r.stderr
    # OCCA's names are OCCA's top-level commands only
    r = run("cache", "compile")
    assert r.exit_code == 2 and "OCCA" not in r.stderr


def test_unknown_commands_pass_the_fast_path_to_click(tmp_path: Path):
    """okl.entry answers `translate` and `--version` itself; everything else reaches click."""
    r = python_m_okl("version")
    assert r.returncode == 2 and "'oklc --version'" in r.stderr and "Traceback" not in r.stderr
    (tmp_path / "k.okl").write_text(GOOD)
    r = python_m_okl("translate", "-m", "serial", str(tmp_path / "k.okl"))  # as OCCA's
    assert r.returncode == 0 and "_okl_entry_k" in r.stdout


# -- 2. shell completion -----------------------------------------------------------------------

def completion(words: str, cword: int) -> list[str]:
    r = python_m_okl(env={"_OKLC_COMPLETE": "bash_complete", "COMP_WORDS": words,
                          "COMP_CWORD": str(cword)})
    assert r.returncode == 0, r.stderr
    return r.stdout.splitlines()


def test_completion_answers_commands_and_modes():
    assert completion("oklc tr", 1) == ["plain,translate"]
    commands = {line.split(",", 1)[1] for line in completion("oklc ", 1)}
    assert {"check", "translate", "build", "info", "cache"} <= commands
    # past the fast path: a translate command line is completed, not run
    modes = {line.split(",", 1)[1] for line in completion("oklc translate -m ", 3)}
    assert {"serial", "openmp", "opencl", "cuda", "hip"} <= modes


def test_completion_is_documented_for_bash_zsh_and_fish():
    page = (ROOT / "docs" / "cli.rst").read_text(encoding="utf-8")
    for shell, line in (("bash", 'eval "$(_OKLC_COMPLETE=bash_source oklc)"'),
                        ("zsh", 'eval "$(_OKLC_COMPLETE=zsh_source oklc)"'),
                        ("fish", "_OKLC_COMPLETE=fish_source oklc | source")):
        assert line in page, shell
        # the documented variable gives that shell's script, which asks oklc back
        script = run(env={"_OKLC_COMPLETE": f"{shell}_source"}).output
        assert f"_OKLC_COMPLETE={shell}_complete" in script, shell


# -- 3. check's JSON: one shape, one stream each ------------------------------------------------

def test_check_json_is_the_diagnostics_format(tmp_path: Path):
    (tmp_path / "good.okl").write_text(GOOD)
    (tmp_path / "bad.okl").write_text(BAD)
    files = [str(tmp_path / "good.okl"), str(tmp_path / "bad.okl")]
    new = run("check", "-m", "serial", "--diagnostics-format=json", *files)
    old = run("check", "-m", "serial", "--json", *files)
    assert new.exit_code == old.exit_code == 1
    assert (old.stdout, old.stderr) == (new.stdout, new.stderr)  # the deprecated alias
    report = json.loads(new.stdout)
    assert [(f["ok"], f["errors"], f["kernels"]) for f in report["files"]] == \
        [(True, 0, ["k"]), (False, 1, [])]
    assert report["summary"]["with_errors"] == 1
    diagnostics = json.loads(new.stderr)
    # the same records as any other command gives for the file, notes included
    translated = run("translate", "-m", "serial", "--diagnostics-format=json", files[1])
    assert diagnostics == json.loads(translated.stderr)
    assert diagnostics[0]["notes"] and diagnostics[0]["line"] == 4


# -- 4. a file that cannot be read: one message everywhere -------------------------------------

def unreadable(tmp_path: Path) -> list[tuple[Path, str]]:
    """Paths okl cannot read, each with a word its reason says."""
    folder = tmp_path / "folder.okl"
    folder.mkdir()
    cases = [(tmp_path / "missing.okl", os.strerror(errno.ENOENT)), (folder, "directory")]
    if os.geteuid() != 0:  # root reads whatever the mode bits say
        locked = tmp_path / "locked.okl"
        locked.write_text(GOOD)
        locked.chmod(0)
        cases.append((locked, os.strerror(errno.EACCES)))
    return cases


@pytest.mark.parametrize("command", [
    ["check"], ["check", "-j", "2", "{good}"], ["translate", "-m", "serial"],
    ["build", "-m", "serial", "{path}", "k"], ["compare", "-a", "[4]", "{path}", "k"],
])
def test_unreadable_input_is_one_message_in_every_command(tmp_path: Path, command):
    good = tmp_path / "good.okl"
    good.write_text(GOOD)
    for path, reason in unreadable(tmp_path):
        args = [a.format(path=path, good=good) for a in command]
        if "{path}" not in command:
            args.append(str(path))
        r = run(*args)
        assert r.exit_code == 1
        first = r.stderr.splitlines()[0]
        assert first.startswith(f"{path}: error: cannot read: ") and reason in first, args


def test_unreadable_input_in_json_python_and_spec_files(tmp_path: Path):
    missing = tmp_path / "missing.okl"
    r = run("--diagnostics-format=json", "translate", "-m", "serial", str(missing))
    [d] = json.loads(r.stderr)
    assert (d["file"], d["line"], d["column"]) == (str(missing), None, None)
    assert d["message"] == f"cannot read: {os.strerror(errno.ENOENT)}"
    r = run("--diagnostics-format=sarif", "translate", "-m", "serial", str(missing))
    [result] = json.loads(r.stderr)["runs"][0]["results"]
    assert result["locations"][0]["physicalLocation"] == {
        "artifactLocation": {"uri": str(missing)}}  # no made-up line
    with pytest.raises(okl.OKLError) as caught:
        okl.Device("serial").build_kernel(missing, "k")
    assert str(caught.value) == f"{missing}: error: cannot read: {os.strerror(errno.ENOENT)}"
    # between processes (check -j, MPI ranks) it stays itself
    again = pickle.loads(pickle.dumps(caught.value))
    assert type(again) is SourceFileError and str(again) == str(caught.value)
    # compare's argument spec, and standard input over the size limit
    (tmp_path / "k.okl").write_text(GOOD)
    r = run("compare", str(tmp_path / "k.okl"), "k", "-a", str(tmp_path / "spec.json"))
    assert r.stderr.splitlines() == [
        f"{tmp_path / 'spec.json'}: error: cannot read: {os.strerror(errno.ENOENT)}"]
    r = run("check", "-", input=GOOD, env={"OKL_MAX_SOURCE_BYTES": "16"})
    assert r.exit_code == 1
    assert r.stderr.startswith("<stdin>: error: cannot read: larger than 16 bytes")


# -- 5. one name for each kind of sourceless input ----------------------------------------------

def test_sourceless_input_is_string_or_stdin():
    with pytest.raises(okl.TranslationError, match=r"^<string>:1:2: error: #error here"):
        okl.translate("#error here\n", "serial")
    with pytest.raises(okl.TranslationError, match=r"^<string>:1:2: error: #error here"):
        okl.Device("serial").build_kernel_from_string("#error here\n", "k")
    for command in (["check"], ["translate", "-m", "cuda"]):
        r = run(*command, "-", input="#error here\n")
        assert r.stderr.startswith("<stdin>:1:2: error: #error here"), command
    # no module names it otherwise (a third name would come back with new code)
    third = [str(p.relative_to(ROOT)) for p in (ROOT / "okl").rglob("*.py")
             if '"<input>"' in p.read_text(encoding="utf-8")]
    assert not third


# -- 6. check -r's summary says the sizes -------------------------------------------------------

def test_summary_keeps_the_sizes_of_three_component_vectors(tmp_path: Path):
    for vector in ("double3", "float3"):
        (tmp_path / f"{vector}.okl").write_text(GOOD.replace("int n,", f"{vector} v, int n,"))
    r = run("check", "-r", "-m", "opencl", str(tmp_path))
    assert r.exit_code == 1
    assert "OpenCL stores each double3 in 32 bytes, CUDA and C in 24 bytes" in r.stdout
    assert "OpenCL stores each float3 in 16 bytes, CUDA and C in 12 bytes" in r.stdout
    assert not re.search(r"\bN bytes|in N\b", r.stdout), r.stdout
    # other numbers are still particulars
    assert kind_of(Diagnostic("error", "two [@inner] loops on one path use axis 1 [cuda]")) \
        == "two [@inner] loops on one path use axis N"


# -- 7. printf without <stdio.h> ---------------------------------------------------------------

PRINTF = """\
@kernel void hello(int n, int *x) {
  for (int i = 0; i < n; ++i; @tile(4, @outer, @inner)) {
    x[i] = i;
    printf("okl %d of %d\\n", i, n);
  }
}
"""


@pytest.mark.parametrize("mode", ["serial", "openmp"])
def test_printf_without_stdio_builds_and_prints_on_the_cpu(mode, tmp_path, monkeypatch, capfd):
    r = run("check", "-", input=PRINTF)
    assert r.exit_code == 0 and r.stderr == ""
    monkeypatch.setenv("OKL_CACHE_DIR", str(tmp_path))  # a real build, not a cached one
    dev = okl.Device(mode)
    x = dev.zeros(8, dtype="int32")
    dev.build_kernel_from_string(PRINTF, "hello")(8, x)
    dev.finish()
    lines = capfd.readouterr().out.splitlines()  # out at the launch's end, not at exit
    expected = [f"okl {i} of 8" for i in range(8)]
    assert (lines if mode == "serial" else sorted(lines)) == expected
    assert list(x.get()) == list(range(8))
