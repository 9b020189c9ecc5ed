"""okl.parser.cpp.run: cc1 started directly prints what GCC's cpp driver prints."""

from __future__ import annotations

import os
import shutil
from pathlib import Path

import pytest

from okl.errors import SourceLoc
from okl.parser.cpp import run as cpprun

ROOT = Path(__file__).resolve().parent.parent
CPP = shutil.which("cpp")
SOURCES = {
    "bk5": (ROOT / "benchmarks" / "kernels" / "bk5.okl").read_bytes(),
    "error": b"#if 1\n#error stop here\n#endif\nint x;\n",
    "missing include": b'#include "no_such_header.h"\nint x;\n',
    "bad define": b"#define F(x x\nint y;\n",
}
OPTIONS = ["-D__OKL__=1", '-DOKL_MODE="CUDA"', "-Ddfloat=double", "-Dp_Nq=8", "-I", "/tmp"]


def run(head, tail, data):
    out = cpprun.run_cpp([*head, *OPTIONS, *tail], data, str(ROOT), SourceLoc("x", 1, 1))
    return out.returncode, out.stdout, out.stderr


@pytest.mark.skipif(CPP is None or cpprun._compiler_proper(CPP) is None,
                    reason="needs GCC's cpp")
@pytest.mark.parametrize("name", SOURCES)
def test_cc1_prints_what_the_driver_prints(name):
    assert cpprun.cpp_command([CPP])[0][0].endswith("cc1")
    driver = run([CPP, *cpprun.CPP_OPTIONS], ["-"], SOURCES[name])
    assert run(*cpprun.cpp_command([CPP]), SOURCES[name]) == driver


@pytest.mark.skipif(CPP is None, reason="needs cpp")
def test_a_wrapper_script_is_run_as_it_is(tmp_path):
    script = tmp_path / "my-cpp"
    script.write_text(f'#!/bin/sh\nexec {CPP} "$@"\n')
    os.chmod(script, 0o755)
    head, tail = cpprun.cpp_command([str(script)])
    assert head[0] == str(script) and tail == ["-"]


def test_a_kernel_named_by_a_path_with_dots_gets_located_cpp_errors(tmp_path, monkeypatch):
    """cpp's -H lines start with dots; a message about "./k.okl" or "../k.okl" does too and
    was taken for one: the error lost its place ("preprocessor failed") and OCCA's
    ``#if X=1`` was not repaired for such paths."""
    import okl
    (tmp_path / "sub").mkdir()
    (tmp_path / "sub" / "k.okl").write_text(
        "#if OKL_X=1\n#include \"missing.h\"\n#endif\n@kernel void k(float *x) {\n"
        "  for (int b = 0; b < 4; ++b; @outer) { for (int t = 0; t < 4; ++t; @inner) {"
        " x[t] = 1; } }\n}\n")
    monkeypatch.chdir(tmp_path / "sub")
    for name in ("./k.okl", "../sub/k.okl"):
        with pytest.raises(okl.TranslationError) as info:
            okl.translate_file(name, "serial", defines={"OKL_X": 1})
        errors = [d for d in info.value.diagnostics if d.severity == "error"]
        assert [(d.loc.line, "missing.h" in d.message) for d in errors] == [(2, True)], \
            [str(d) for d in errors]


@pytest.mark.skipif(os.name != "posix", reason="shutil.which itself is used elsewhere")
def test_which_finds_what_shutil_finds(tmp_path: Path, monkeypatch):
    """okl.parser.cpp.pcpp.which (no shutil import on the translate path) searches as
    shutil.which does: PATH in order, executable files only, folder parts, empty PATH."""
    from okl.parser.cpp.pcpp import which

    for folder, mode in (("a", 0o644), ("b", 0o755), ("c", 0o755)):
        (tmp_path / folder).mkdir()
        (tmp_path / folder / "tool").write_text("#!/bin/sh\n")
        (tmp_path / folder / "tool").chmod(mode)
    (tmp_path / "d" / "tool").mkdir(parents=True)  # a folder is no executable
    paths = [os.pathsep.join(str(tmp_path / f) for f in order)
             for order in (["a", "b", "c"], ["d", "c", "b"], ["a", "d"], ["c", "c"])]
    for path in [*paths, "", os.environ.get("PATH", "")]:
        monkeypatch.setenv("PATH", path)
        for name in ("tool", "cpp", "sh", str(tmp_path / "b" / "tool"),
                     str(tmp_path / "a" / "tool"), "no-such-tool"):
            assert which(name) == shutil.which(name), (path, name)
    monkeypatch.delenv("PATH")
    assert which("sh") == shutil.which("sh")
