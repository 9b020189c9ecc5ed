"""Limits on the preprocessed text, checked before anything parses it.

pycparser and the passes after it take time proportional to the tokens and recurse on the
nesting of parentheses, brackets and braces; Python's ``int()`` of a megabyte of digits takes
gigabytes.  One scan of the expanded text counts tokens, tracks nesting and measures literals
against :mod:`okl.limits`, and stops at the first limit passed with an error located there.
"""

from __future__ import annotations

import re

from .. import limits
from ..errors import Diagnostic, TranslationError
from .preprocess import Expanded

_SCAN = re.compile(r"""(?P<number>\.?\d(?:[eEpP][+-]|[\w.])*)|(?P<word>[A-Za-z_]\w*)"""
                   r"""|(?P<string>"(?:\\.|[^"\\\n])*"|'(?:\\.|[^'\\\n])*')"""
                   r"""|(?P<open>[(\[{])|(?P<close>[)\]}])|\S""")


def check_bounds(expanded: Expanded) -> None:
    """Raise TranslationError at the first token of ``expanded`` that passes a limit."""
    max_tokens, max_depth = int(limits.TOKENS), int(limits.NESTING)
    max_number, max_token = int(limits.NUMBER_CHARS), int(limits.TOKEN_CHARS)
    depth = 0
    for count, m in enumerate(_SCAN.finditer(expanded.text), 1):
        kind = m.lastgroup
        limit = None
        if count > max_tokens:
            limit = limits.TOKENS, "the kernel has more than", max_tokens
        elif kind == "open":
            depth += 1
            if depth > max_depth:
                limit = limits.NESTING, "the code nests too deeply: more than", max_depth
        elif kind == "close":
            depth -= 1
        elif kind == "number" and m.end() - m.start() > max_number:
            limit = limits.NUMBER_CHARS, "a number has more than", max_number
        elif m.end() - m.start() > max_token:
            limit = limits.TOKEN_CHARS, "a token has more than", max_token
        if limit is not None:
            _fail(expanded, m.start(), *limit)


def _fail(expanded: Expanded, offset: int, limit: limits.Limit, text: str, value: int) -> None:
    line = expanded.text.count("\n", 0, offset) + 1
    col = offset - expanded.text.rfind("\n", 0, offset)
    raise TranslationError(diagnostics=[Diagnostic(
        "error", f"{text} {value} {limit.what}", expanded.locate(line, col),
        hint=f"okl limits its input so that it can check untrusted kernels; set {limit.env} "
             "to raise the limit")])
