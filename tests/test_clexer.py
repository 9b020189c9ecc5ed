"""okl.parser.clexer.FastLexer reads exactly the tokens (and errors) pycparser's CLexer reads,
and okl.parser.cparse's buffered parser builds the same trees (and errors) as the plain one."""

from __future__ import annotations

import io
from pathlib import Path

import pytest
from pycparser import c_lexer, c_parser

from okl.errors import Diagnostics, TranslationError
from okl.parser import clexer
from okl.parser.attributes import extract_tokens, tokenize
from okl.parser.clexer import FAST_PATH, PUNCTUATORS, FastLexer
from okl.parser.cparse import PARSER, TYPEDEF_NAMES, _BufferedParser, _Parser
from okl.parser.cpp.preprocess import Expanded, preprocess

ROOT = Path(__file__).resolve().parent.parent
FILES = sorted((ROOT / "tests").rglob("*.okl")) + sorted((ROOT / "benchmarks").rglob("*.okl"))

TRICKY = [
    "int a=0,b=00,c=012,d=0x1F,e=0b101,f=1'000,g=10u,h=7LL,i=1.5,j=.5,k=1e3,l=0.;",
    "x = a...b; y = a.b.c; z = s->t; w = 1.f; v = 2.e-3;",
    "L\"wide\" u8\"utf\" u\"16\" U\"32\" L'c' u8'c' u'c' U'c' 'a' '\\n' \"s\\\"q\"",
    "Lx u8x ux Ux $dollar _x9 x$y",
    "a<<=b>>=c<<d>>e<=f>=g==h!=i&&j||k++--l->m",
    "a*=b/=c%=d+=e-=f&=g|=h^=i ~j ?k :l ::m",
    "[[deprecated]] int f(void); int a[ [1] ]; [ \n [x]]",
    "a / b /* c */ d // e\n f",
    "#pragma omp parallel for\nint x;\n#line 7 \"f.c\"\nint y;\n# 3 \"g.h\" 1\nz",
    "int\ta;\f\vb\n\n\n   c;",
    "'unterminated\nx '' 'ab' '\\q' \"bad\\q\" 09 1a 0x",
    "@kernel void k(@restrict float *x) { for (int i = 0; i < 8; ++i; @outer) {} }",
    "x\\\ny  `backtick`",
    "", "   ", "\n", "0", "a", ".",
    # decimal floats (FastLexer's) and their neighbours (CLexer's)
    "1.0 0.5f .5 5. 1.e3 1.5e-3f 2E+10L 1e5 00.5 09.5 1.0l 3.25F x=1.0;y=.5)",
    "1.0df 1.5dd 2.0DL 1.0fl 1.5e 1.5e+ 1..2 1.0.0 .5.5 1.0e5.3 1'0.5 1.0'5 1.0x 1.0$",
    "1.0é 1.0\"s\" 0x1.8p3 1.0_ 0.e 7.f; a[1.5] f(.25,2.)",
]


def tokens(lexer_class, text: str, *, read_ahead: bool = False, known=None):
    """(type, value, line, column, file) of every token and the errors reported; with
    ``read_ahead``, FastLexer.tokens() first (given the attribute scan's tokens ``known``)
    and token() for what it leaves."""
    errors = []
    lex = lexer_class(lambda msg, line, col: errors.append((msg, line, col)))
    lex.input(text, "f.okl")
    ahead = lex.tokens(known) if read_ahead else []
    if read_ahead:
        assert not errors  # read-ahead stops before an error: token() reports it
    out = [tok for tok in ahead if tok is not None]
    if None not in ahead:
        for _ in range(len(text) + 10):
            tok = lex.token()
            if tok is None:
                break
            out.append(tok)
    return [(t.type, t.value, t.lineno, t.column, t.filename) for t in out], errors


# pyproject asks for the pycparser these compare against; under another release FastLexer is
# CLexer itself (test_fast_path_refuses_another_layout shows that choice is made).
same_pycparser = pytest.mark.skipif(not FAST_PATH, reason="installed pycparser's lexer is "
                                    "laid out differently: FastLexer is CLexer there")


def test_fast_path_refuses_another_layout(monkeypatch):
    from dataclasses import make_dataclass

    old_token = make_dataclass("Token", ["type", "value", "lineno", "column"], slots=True)
    monkeypatch.setattr(c_lexer, "Token", old_token, raising=False)
    assert not clexer._fast_path_fits()
    monkeypatch.delattr(c_lexer, "Token", raising=False)
    assert not clexer._fast_path_fits()


@same_pycparser
def test_punctuators_are_pycparsers():
    assert PUNCTUATORS == {t.literal: t.tok_type for t in c_lexer._fixed_tokens}


@same_pycparser
@pytest.mark.parametrize("text", TRICKY)
def test_tricky_text(text):
    assert tokens(FastLexer, text, read_ahead=True) == tokens(c_lexer.CLexer, text)


@same_pycparser
@pytest.mark.parametrize("path", FILES, ids=lambda p: str(p.relative_to(ROOT)))
def test_kernel_files(path):
    text = path.read_text(encoding="utf-8", errors="replace")
    assert tokens(FastLexer, text, read_ahead=True) == tokens(c_lexer.CLexer, text)


#: texts where the attribute scan's tokens and CLexer's differ, or CLexer counts lines
#: its own way
KNOWN_TRICKY = [
    "a\r\nb", "x\u00a0y", "#line 5\nx y\n", "int a; # 7 \"q.c\"\nb c", "a... b", "f(a::b)",
    "x[[y]] z[ [1]]", "a/*b*/c", "a//b\nc", "x$y $z 1$ L'a' Lx\"s\"", "1.0x2 3.5e+2f 00 7u",
    "#pragma unroll\nfor(;;) {}\n#pragma omp x\n y", "  #pragma a\nb", "`x` \\\nz",
    "#ifndef X\n#include <a.h>\nvoid f(void);",
]


@same_pycparser
@pytest.mark.parametrize("text", TRICKY + KNOWN_TRICKY)
def test_known_tokens_tricky(text):
    """FastLexer.tokens given the attribute scan's tokens of the text reads what CLexer
    reads (and stops before the same errors)."""
    for variant in (text, text + "\n  "):
        assert tokens(FastLexer, variant, read_ahead=True, known=tokenize(variant)) == \
            tokens(c_lexer.CLexer, variant)


@same_pycparser
@pytest.mark.parametrize("path", FILES, ids=lambda p: str(p.relative_to(ROOT)))
def test_known_tokens_files(path):
    """The same on every kernel file as the parser gets it (attributes blanked, their tokens
    still among the known ones), and with the last character of a token in the middle
    changed to one CLexer rejects."""
    text, known = expanded(path, with_tokens=True)
    assert tokens(FastLexer, text, read_ahead=True, known=known) == \
        tokens(c_lexer.CLexer, text)
    longer = [t for t in known if len(t.text) > 1 and text.startswith(t.text, t.start)]
    if longer:
        t = longer[len(longer) // 2]
        at = t.start + len(t.text) - 1
        cut = text[:at] + "`" + text[at + 1:]
        assert tokens(FastLexer, cut, read_ahead=True, known=known) == \
            tokens(c_lexer.CLexer, cut)


def parsed(parser_class, text: str) -> str:
    """The tree as text with every coordinate, or the parse error."""
    p = parser_class()
    p.typedef_names = TYPEDEF_NAMES
    try:
        ast = p.parse(text, filename="okl")
    except c_parser.ParseError as e:
        return f"{type(e).__name__}: {e}"
    out = io.StringIO()
    ast.show(buf=out, attrnames=True, nodenames=True, showcoord=True)
    return out.getvalue()


#: what the benchmark kernels need defined to parse
BENCH_DEFINES = {"dfloat": "double", "dlong": "int", "p_Nq": 8, "p_cubNq": 9, "p_Np": 56,
                 "p_NblockV": 4, "p_B": 256, "p_R": 10, "p_BX": 16, "p_BY": 16, "p_Idx": "int",
                 "p_U": 32, "p_DOTB": 256}


def expanded(path: Path, with_tokens: bool = False):
    """The text that okl parses: preprocessed (the source itself where cpp refuses it) with
    the attributes blanked (and, ``with_tokens``, the attribute scan's tokens of it)."""
    source = path.read_text(encoding="utf-8", errors="replace")
    defines = dict(BENCH_DEFINES)
    if path.with_suffix(".defines").exists():
        for line in path.with_suffix(".defines").read_text().splitlines():
            name, _, value = line.split("#", 1)[0].strip().partition("=")
            if name:
                defines[name] = value or "1"
    try:
        text = preprocess(source, str(path), mode="serial", defines=defines)
    except TranslationError:
        lines = [(str(path), k + 1) for k in range(source.count("\n") + 1)]
        text = Expanded(source, lines)
    blanked, _attrs, known = extract_tokens(text, Diagnostics())
    return (blanked, known) if with_tokens else blanked


@pytest.mark.skipif(PARSER is not _BufferedParser, reason="installed pycparser's parser is "
                    "laid out differently: okl parses without the buffer there")
@pytest.mark.parametrize("path", FILES, ids=lambda p: str(p.relative_to(ROOT)))
def test_buffered_parser(path):
    """Every kernel file, and the same with a token dropped or a character that the lexer
    rejects put in (errors at and after a lexer error)."""
    text = expanded(path)
    middle = len(text) // 2
    for variant in (text, text[:middle] + " ` " + text[middle:],
                    text[:middle] + text[middle:].replace(";", "", 1), text + "\n}"):
        assert parsed(_BufferedParser, variant) == parsed(_Parser, variant)


def test_pycparser_load_defers_and_changes_nothing_else():
    """okl.parser.pycparser_load (what ``oklc`` imports pycparser with): c_lexer's patterns
    compile at their first use and subprocess loads at its first use, re.compile is
    re.compile again afterwards, and the lexer reads what it read (in a fresh process: the
    test's own process has imported pycparser long ago)."""
    import subprocess
    import sys

    script = """
import re, sys
compile_ = re.compile
from okl.parser.pycparser_load import DeferredPattern, load
load()
from pycparser import c_lexer
import pycparser
assert re.compile is compile_
assert "subprocess" not in sys.modules
assert isinstance(c_lexer._regex_master, DeferredPattern)
from okl.parser.clexer import FastLexer
out = []
lexer = FastLexer(lambda *e: out.append(e))
lexer.input("int x = 1.5f + 0x1F; char *s = \\"q\\";", "f")
lexer.tokens()
assert isinstance(c_lexer._regex_master, re.Pattern)  # compiled at its first use
import subprocess
assert subprocess.Popen and pycparser.check_output(["true"]) == b""
load()  # a second call does nothing
print("ok")
"""
    run = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True,
                         cwd=ROOT, timeout=120)
    assert run.returncode == 0 and run.stdout.strip() == "ok", run.stderr


def test_dataclass_signature_is_inspects():
    """okl.parser.pycparser_load's stand-in ``inspect`` writes the ``__doc__`` of a dataclass
    without one as ``inspect.signature`` does, or leaves it to ``inspect``; for pycparser's
    own dataclasses (what ``oklc`` makes with it) it writes it itself."""
    import dataclasses
    import inspect
    import typing

    from pycparser import c_ast

    from okl.parser.pycparser_load import dataclass_signature

    mine = [cls for module in (c_lexer, c_parser, c_ast) for cls in vars(module).values()
            if isinstance(cls, type) and dataclasses.is_dataclass(cls)
            and cls.__module__ == module.__name__]
    assert mine and all(dataclass_signature(c) is not None for c in mine)

    class Meta(type):
        pass

    @dataclasses.dataclass
    class Plain:
        a: int
        b: str | None = None
        c: list = dataclasses.field(default_factory=list)
        d: Plain | None = None
        e: float = dataclasses.field(default=1.5, kw_only=True)
        f: int = dataclasses.field(default=0, init=False)

    # this file's annotations are strings: these classes get the objects themselves
    real = dataclasses.make_dataclass(
        "Real", [("a", int), ("b", str | None), ("c", Meta, dataclasses.field(default=Meta)),
                 ("d", float, dataclasses.field(default=0.5, kw_only=True))])
    generic = dataclasses.make_dataclass(
        "Generic", [("a", list[int]), ("b", typing.Optional[int], None)],  # noqa: UP045
        frozen=True, slots=True)

    @dataclasses.dataclass
    class WithNew:
        a: int

        def __new__(cls, *args, **kwargs):
            return super().__new__(cls)

    @dataclasses.dataclass
    class WithMeta(metaclass=Meta):
        a: int

    @dataclasses.dataclass
    class Bare:
        pass

    for cls in [*mine, Plain, real, generic, WithNew, WithMeta, Bare]:
        text = dataclass_signature(cls)
        assert text is None or text == str(inspect.signature(cls)), cls
    assert None not in (dataclass_signature(Plain), dataclass_signature(real))
    assert dataclass_signature(Bare) == "() -> None"
    assert None is dataclass_signature(generic) is dataclass_signature(WithNew) is \
        dataclass_signature(WithMeta)


def test_defer_inspect_keeps_inspect_unloaded_and_docs_unchanged():
    """``oklc``'s start (okl.parser.pycparser_load.defer_inspect, then load): dataclasses and
    pycparser are imported without ``inspect``, pycparser's classes get the ``__doc__`` they
    get anyway, and ``import inspect`` afterwards is the real module."""
    import subprocess
    import sys

    script = """
import sys
from okl.parser.pycparser_load import defer_inspect, load
defer_inspect()
load()
import dataclasses
from pycparser import c_lexer
from okl.translation import translate
translate("@kernel void k(int *x) { for (int i = 0; i < 4; ++i; @tile(2, @outer, @inner)) "
          "{ x[i] = i; } }", "cuda")
print("inspect" in sys.modules, "ast" in sys.modules)
print(c_lexer.Token.__doc__, c_lexer._RegexRule.__doc__)
import inspect
print(inspect.signature is not dataclasses.inspect.signature, hasattr(inspect, "getsource"))
"""
    run = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True,
                         cwd=ROOT, timeout=120)
    assert run.returncode == 0, run.stderr
    expected = subprocess.run(
        [sys.executable, "-c", "from pycparser import c_lexer\n"
         "print(c_lexer.Token.__doc__, c_lexer._RegexRule.__doc__)"],
        capture_output=True, text=True, cwd=ROOT, timeout=120)
    assert run.stdout.splitlines() == ["False False", expected.stdout.strip(), "True True"]


#: operands of one token before every kind of token that may follow one (the buffered
#: parser makes such an operand's node itself where nothing after it can extend it)
OPERANDS = [
    "void f(int a, int b, int *p) { a = b; a = 1; a = 0x1F; a = 010; a = 1.5f; a = 'c'; }",
    "void f(int a, int b, int *p) { a = b + 1 * 2 - b / 3 % 4 << 1 >> 2 & 3 | 4 ^ 5; }",
    "void f(int a, int b, int *p) { g(a, 1, b); g(); g(a); a = p[b]; a = p[1]; p[a]++; a--; }",
    "void f(int a, int b, int *p) { a = a ? b : 1; a = (b); a = (int) b; a = sizeof b; }",
    "void f(int a, int b, int *p) { a = b < 1 && b > 2 || !b; a += b; a <<= 1; a = -b; }",
    "struct s { int x; } t; void f(int a, int b, int *p) { a = t.x; a = (&t)->x; }",
    "void f(int a, int b, int *p) { switch (a) { case 1: a = b; break; default: a = 2; } }",
    "int v[] = {1, 2, 3}; int w[2][2] = {{1, 2}, {3, 4}}; struct s { int x : 3; } u = {.x = 1};",
    "typedef int T; void f(int a, int b, int *p) { T c = a; a = (T) b; a = (T){1}.x; }",
    "void f(int a, int b, int *p) { a = b ++ + 1; a = 1 [p]; a = b (1); a = b, b = 1; }",
    "void f(int a, int b, int *p) { a = 1u + 2UL + 3ll + 0b11 + 08; a = 1.0 ; a = b }",
]


@pytest.mark.skipif(PARSER is not _BufferedParser, reason="installed pycparser's parser is "
                    "laid out differently: okl parses without the buffer there")
@pytest.mark.parametrize("text", OPERANDS)
def test_buffered_parser_operands(text):
    assert parsed(_BufferedParser, text) == parsed(_Parser, text)
