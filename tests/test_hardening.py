"""Untrusted input: resource limits, files that are not UTF-8 or cannot be read, file names
that would inject directives, tile sizes out of range, block sizes the device cannot run."""

from __future__ import annotations

import time

import pytest
from click.testing import CliRunner

import okl
from okl.cli import main
from okl.parser.linemarker import quote, unescape
from okl.runtime.device import _check_block_size
from okl.runtime.launch.spec import DeviceKernelSpec, KernelSpec

KERNEL = ("@kernel void k(float *x) {\n"
          "  for (int b = 0; b < 4; ++b; @outer) for (int t = 0; t < 4; ++t; @inner) x[t] = V;\n"
          "}\n")


def kernel(value: str = "0") -> str:
    return KERNEL.replace("V", value)


def first_error(source: str | bytes, **kw) -> okl.Diagnostic:
    with pytest.raises(okl.OKLError) as info:
        okl.analyze(source, "in.okl", **kw)
    return next(d for d in info.value.diagnostics if d.severity == "error")


# -- resource limits ---------------------------------------------------------------------------

def macro_chain(depth: int) -> str:
    lines = ["#define M0 x"] + [f"#define M{i} M{i - 1} M{i - 1}" for i in range(1, depth + 1)]
    return "\n".join(lines) + "\n" + kernel(f"M{depth}")


def test_exponential_macros_stop_at_the_token_limit_with_a_location():
    d = first_error(macro_chain(16))
    assert "more than 50000 tokens" in d.message and "OKL_MAX_TOKENS" in d.hint
    assert (d.loc.file, d.loc.line) == ("in.okl", 19)


def test_cpp_is_killed_at_the_output_limit(monkeypatch):
    monkeypatch.setenv("OKL_MAX_CPP_OUTPUT_BYTES", "100000")
    start = time.perf_counter()
    d = first_error(macro_chain(26))  # 2^26 tokens: minutes of cpp without the limit
    assert time.perf_counter() - start < 5
    assert "preprocessing stopped" in d.message and "OKL_MAX_CPP_OUTPUT_BYTES" in d.message
    assert (d.loc.file, d.loc.line) == ("in.okl", 1)


def test_cpp_is_killed_at_the_time_limit(monkeypatch):
    monkeypatch.setenv("OKL_MAX_CPP_SECONDS", "0.2")
    monkeypatch.setenv("OKL_MAX_CPP_OUTPUT_BYTES", str(1 << 40))
    d = first_error(macro_chain(30))
    assert "0.2 seconds of preprocessing" in d.message


@pytest.mark.parametrize("value, message", [
    ("1" * 300, "a number has more than 256"),
    ("(" * 300 + "1" + ")" * 300, "nests too deeply: more than 256"),
    ('"' + "s" * 70000 + '"[0]', "a token has more than 65536"),
])
def test_parsing_limits_are_located_errors(value, message):
    d = first_error(kernel(value))
    assert message in d.message and d.loc.line == 2


def test_source_size_limit(monkeypatch):
    monkeypatch.setenv("OKL_MAX_SOURCE_BYTES", "100")
    assert "larger than 100 bytes" in first_error(kernel()).message


def test_limits_leave_ordinary_kernels_alone():
    assert okl.analyze(kernel("(((1)))"), "in.okl").kernels[0].name == "k"


# -- encodings and file errors -----------------------------------------------------------------

def test_latin1_file_is_read_with_a_warning(tmp_path):
    path = tmp_path / "lat.okl"
    path.write_bytes(b"// caf\xe9\n" + kernel().encode())
    program = okl.analyze_file(path)
    [w] = program.warnings
    assert "0xe9 is not UTF-8" in w.message and (w.loc.line, w.loc.col) == (1, 7)
    r = CliRunner().invoke(main, ["check", "-m", "serial", str(path)])
    assert r.exit_code == 0 and "read as Latin-1" in r.stderr


def test_latin1_header_is_read_with_a_warning(tmp_path):
    (tmp_path / "h.h").write_bytes(b'#define NAME "\xe9t\xe9"\n')
    path = tmp_path / "k.okl"
    path.write_text('#include "h.h"\n' + kernel("sizeof(NAME)"))
    t = okl.translate_file(path, "serial")
    [w] = t.diagnostics
    assert w.loc.file.endswith("h.h") and "read as Latin-1" in w.message
    assert '"\xe9t\xe9"' in t.source


@pytest.mark.parametrize("api", [
    lambda p: okl.analyze_file(p), lambda p: okl.translate_file(p, "serial"),
    lambda p: okl.Device("serial").build_kernel(p, "k")])
def test_unreadable_files_are_okl_errors_naming_the_file(tmp_path, api):
    for path in (tmp_path / "missing.okl", tmp_path):
        with pytest.raises(okl.OKLError) as caught:
            api(path)
        assert str(caught.value).startswith(f"{path}: error: cannot read: ")


def test_cli_unreadable_file(tmp_path):
    r = CliRunner().invoke(main, ["translate", "-m", "serial", str(tmp_path / "no.okl")])
    assert r.exit_code == 1
    assert r.stderr.strip() == f"{tmp_path / 'no.okl'}: error: cannot read: " \
                               "No such file or directory"


# -- file names in #line directives ------------------------------------------------------------

NAMES = ['evil\n#error injected\n.okl', 'q"uote.okl', "back\\slash.okl", "tab\there.okl"]


@pytest.mark.parametrize("name", NAMES)
def test_file_names_cannot_inject_directives(tmp_path, name):
    path = tmp_path / name
    path.write_text(kernel())
    for mode in ("serial", "cuda", "opencl"):
        source = okl.translate_file(path, mode).source
        assert "\n#error" not in source
        assert f"#line 2 {quote(str(path))}" in source
    with pytest.raises(okl.OKLError) as info:
        okl.translate(kernel("@"), "serial", filename=str(path))
    assert info.value.diagnostics[0].loc.file == str(path)


def test_quote_round_trips():
    for name in [*NAMES, "\x01\x7f\u00e9"]:
        assert unescape(quote(name)[1:-1]) == name


# -- tile sizes and block sizes ----------------------------------------------------------------

@pytest.mark.parametrize("size, message", [
    ("4294967296", "between 1 and 2147483647"), ("2147483648", "between 1 and 2147483647"),
    ("1.5", "not an integer constant expression"), ("N", "not an integer constant")])
def test_tile_sizes(size, message):
    source = (f"@kernel void k(const int N, float *x) {{\n  for (int i = 0; i < N; ++i; "
              f"@tile({size}, @outer, @inner)) x[i] = 0;\n}}\n")
    d = first_error(source)
    assert message in d.message and (d.loc.line, d.loc.col) == (2, 31)


def test_block_size_over_the_device_limit_is_a_build_error():
    spec = KernelSpec("k", [], device_kernels=[DeviceKernelSpec("_okl_k_0", [], "", 2048,
                                                                "k.okl:2:3")])
    with pytest.raises(okl.BuildError, match="k.okl:2:3: error: .* 2048 threads per block, "
                                             "more than the 1024 of GPU"):
        _check_block_size(spec, 1024, "GPU")
    _check_block_size(spec, 4096, "GPU")
    _check_block_size(spec, None, "CPU")


def test_known_block_size_of_a_translation():
    from okl.runtime.launch.spec import specs_of

    source = ("@kernel void k(const int N, float *x) {\n  for (int i = 0; i < N; ++i; "
              "@tile(2048, @outer, @inner)) x[i] = 0;\n}\n")
    [spec] = specs_of(okl.translate(source, "cuda", filename="k.okl"))
    [dk] = spec.device_kernels
    assert (dk.threads, dk.threads_loc) == (2048, "k.okl:2:3")


def test_pragma_macros_expand_once_like_cpp():
    """Fuzz finding: a macro naming itself twice in a #pragma argument doubled 32 times."""
    source = ("#define N (N * N)\n@kernel void k(float *x) {\n"
              "  for (int b = 0; b < 4; ++b; @outer) {\n"
              "    for (int t = 0; t < 4; ++t; @inner) {\n"
              "      #pragma unroll N\n      for (int i = 0; i < 2; ++i) x[t] += i;\n"
              "    }\n  }\n}\n")
    began = time.perf_counter()
    result = okl.translate(source, "cuda")
    assert time.perf_counter() - began < 5
    assert "#pragma unroll (N * N)" in result.source


def test_deep_host_expressions_are_said_not_raised(tmp_path):
    """A thousand-term sum before the @outer loops: its launch plan prints, and a build is
    refused with an OKLError saying what to do (Python's parser refuses the generated host
    code's nesting), never a RecursionError or a SyntaxError."""
    terms = " + ".join(["n"] * 3000)
    path = tmp_path / "deep.okl"
    path.write_text(f"@kernel void k(int n, float *a) {{\n  int m = {terms};\n"
                    "  for (int i = 0; i < m; ++i; @outer) {\n"
                    "    for (int j = 0; j < 1; ++j; @inner) { a[i] = 0; }\n  }\n}\n")
    r = CliRunner().invoke(main, ["translate", "-m", "cuda", "--launcher", str(path)])
    assert r.exit_code == 0 and "_okl_launch(0)" in r.output, r.output[-500:]
    with pytest.raises(okl.OKLError, match="nests too deeply"):
        okl.Device("serial").build_kernel(path, "k")
