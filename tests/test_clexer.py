"""okl.parser.clexer.FastLexer reads exactly the tokens (and errors) pycparser's CLexer reads."""

from __future__ import annotations

from pathlib import Path

import pytest
from pycparser import c_lexer

from okl.parser import clexer
from okl.parser.clexer import FAST_PATH, PUNCTUATORS, FastLexer

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
]


def tokens(lexer_class, text: str):
    errors = []
    lex = lexer_class(lambda msg, line, col: errors.append((msg, line, col)))
    lex.input(text, "f.okl")
    out = []
    for _ in range(len(text) + 10):
        tok = lex.token()
        if tok is None:
            break
        out.append((tok.type, tok.value, tok.lineno, tok.column, tok.filename))
    return out, errors


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
    assert tokens(FastLexer, text) == tokens(c_lexer.CLexer, text)


@same_pycparser
@pytest.mark.parametrize("path", FILES, ids=lambda p: str(p.relative_to(ROOT)))
def test_kernel_files(path):
    text = path.read_text(encoding="utf-8", errors="replace")
    assert tokens(FastLexer, text) == tokens(c_lexer.CLexer, text)
