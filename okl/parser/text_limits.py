"""Limits on the preprocessed text, checked before anything parses it.

pycparser and the passes after it take time proportional to the tokens and recurse on the
nesting of parentheses, brackets and braces; Python's ``int()`` of a megabyte of digits takes
gigabytes.  One scan of the expanded text counts tokens, tracks nesting and measures literals
against :mod:`okl.limits`, and stops at the first limit passed with an error located there.
"""

from __future__ import annotations

import itertools
import re

from .. import limits
from ..errors import Diagnostic, TranslationError
from .cpp.preprocess import Expanded

#: The tokens of the exact scan (a pattern text: compiled by ``re`` for the rare text that
#: :func:`_within` cannot clear)
_SCAN = (r"""(?P<number>\.?\d(?:[eEpP][+-]|[\w.])*)|(?P<word>[A-Za-z_]\w*)"""
         r"""|(?P<string>"(?:\\.|[^"\\\n])*"|'(?:\\.|[^'\\\n])*')"""
         r"""|(?P<open>[(\[{])|(?P<close>[)\]}])|\S""")


#: What is not a bracket outside a string literal (the scan's tokens cannot hold a bracket
#: or a quote otherwise), removed to measure the nesting without looking at every token.
_NOT_BRACKET = re.compile(r"""[^()\[\]{}"']+|"(?:\\.|[^"\\\n])*"|'(?:\\.|[^'\\\n])*'|["']""")
_DEPTH = {"(": 1, "[": 1, "{": 1, ")": -1, "]": -1, "}": -1}


def check_bounds(expanded: Expanded) -> None:
    """Raise TranslationError at the first token of ``expanded`` that passes a limit."""
    max_tokens, max_depth = int(limits.TOKENS), int(limits.NESTING)
    max_number, max_token = int(limits.NUMBER_CHARS), int(limits.TOKEN_CHARS)
    if _within(expanded.text, max_tokens, max_depth, max_number, max_token):
        return
    depth = 0
    for count, m in enumerate(re.finditer(_SCAN, expanded.text), 1):
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


def _within(text: str, max_tokens: int, max_depth: int, max_number: int,
            max_token: int) -> bool:
    """Whether ``text`` is certainly within every limit, found without the per-token loop
    (a third of a ms for a small kernel): no more tokens than characters, no longer token
    than the text, no digit followed by half as many characters of a number as the number
    limit (a number's parts after its first digit are one or two characters long), and the
    nesting from the brackets outside string literals.  False means "maybe not": the exact
    scan then finds where."""
    if len(text) > max_tokens or len(text) > max_token or \
            re.search(rf"\d(?:[eEpP][+-]|[\w.]){{{(max_number - 1) // 2}}}", text):
        return False
    brackets = _NOT_BRACKET.sub("", text)
    return max(itertools.accumulate(map(_DEPTH.__getitem__, brackets)), default=0) <= max_depth


def _fail(expanded: Expanded, offset: int, limit: limits.Limit, text: str, value: int) -> None:
    line = expanded.text.count("\n", 0, offset) + 1
    col = offset - expanded.text.rfind("\n", 0, offset)
    raise TranslationError(diagnostics=[Diagnostic(
        "error", f"{text} {value} {limit.what}", expanded.locate(line, col),
        hint=f"okl limits its input so that it can check untrusted kernels; set {limit.env} "
             "to raise the limit")])
