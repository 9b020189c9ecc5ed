"""Helpers shared by the front-end tests (tests/test_frontend_*.py)."""

from __future__ import annotations

import textwrap

from pycparser import c_ast, c_generator

import okl
from okl.ctree import walk
from okl.model.kernel import Program


def analyze(source: str, **kw) -> Program:
    return okl.analyze(textwrap.dedent(source), kw.pop("filename", "t.okl"), **kw)


def errors(source: str, **kw) -> list[str]:
    """The messages of every error the front end reports for ``source``."""
    try:
        analyze(source, **kw)
    except okl.TranslationError as e:
        return [d.message for d in e.diagnostics if d.severity == "error"]
    raise AssertionError("the source was accepted")


def c(node: c_ast.Node) -> str:
    """A node as C text (pycparser's CGenerator)."""
    return c_generator.CGenerator().visit(node)


def attrs_on(program: Program, node: c_ast.Node) -> list[str]:
    return [repr(a) for a in program.attrs.of(node)]


def nodes(program: Program, kind: type, where: c_ast.Node | None = None) -> list:
    return [n for n in walk(where or program.ast) if isinstance(n, kind)]


def loops(kernel) -> dict[str, object]:
    """The kernel's @outer/@inner loops by iterator name (names must be unique)."""
    out = {}
    for loop in kernel.loops():
        assert loop.iterator not in out, f"two loops use {loop.iterator}"
        out[loop.iterator] = loop
    return out
