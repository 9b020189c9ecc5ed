"""Macros given from Python or the command line (``defines={"p_N": 8}``, ``-D p_N=8``): each
checked once and turned into the text the preprocessor gets.

Why one place: the runtime's memo, its cache keys, okl.mpi's agreement between ranks and the
preprocessor each turned a define into text their own way, so ``{1: 2}`` failed as "argument
of type 'int' is not iterable", ``{"A": [1]}`` translated but could not be built
("unhashable type: 'list'") and ``{"A": None}`` defined A as the word None.
"""

from __future__ import annotations

import re

from ...errors import OKLError

#: a macro name, optionally with parameters as -D takes them: ``N``, ``IDX(i, j)``
_NAME = re.compile(r"[A-Za-z_]\w*(\([ \t]*(?:[A-Za-z_]\w*(?:[ \t]*,[ \t]*[A-Za-z_]\w*)*"
                   r"(?:[ \t]*,[ \t]*\.\.\.)?|\.\.\.)?[ \t]*\))?")


class DefineError(OKLError, TypeError):
    """A define whose name is not a macro name or whose value cannot be macro text."""


def define_texts(defines) -> dict[str, str]:
    """``{name: text}`` of ``defines`` (a mapping, or None), in their order; raises
    DefineError naming the first bad entry and what is accepted."""
    if defines is None:
        return {}
    if not hasattr(defines, "items"):
        raise DefineError(f"defines must be a dict of macro name -> value, got "
                          f"{type(defines).__name__}")
    return {_name(name): define_text(name, value) for name, value in defines.items()}


def define_text(name, value) -> str:
    """The macro text of one value: a string as written; an integer, float or bool (True is
    1, as -DNAME gives) as C reads it."""
    if isinstance(value, bool):
        return "1" if value else "0"
    if isinstance(value, str):
        text = value
    elif _is_number(value):
        text = repr(int(value)) if _is_integral(value) else repr(float(value))
        if text in ("inf", "-inf", "nan"):
            raise DefineError(f"define {name!r}: {text} has no C spelling; give the text "
                              "(e.g. 'INFINITY' with <math.h>)")
    else:
        raise DefineError(f"define {name!r}: a {type(value).__name__} value; give a str, "
                          "int, float or bool (the text the macro stands for)")
    if "\n" in text or "\r" in text or "\0" in text:
        raise DefineError(f"define {name!r}: its text {text!r} spans lines; a macro given "
                          "with -D is one line (use a header for longer ones)")
    return text


def _name(name) -> str:
    if not isinstance(name, str) or not _NAME.fullmatch(name):
        raise DefineError(f"define name {name!r} is not a macro name (letters, digits and _, "
                          "not starting with a digit, e.g. 'p_N')")
    return name


def _is_number(value) -> bool:
    """An int or a float, or another number (numpy's): ``numbers`` is imported only for the
    others (``oklc translate`` gives strings; the module costs 1 % of that command)."""
    if type(value) in (int, float):
        return True
    from numbers import Real

    return isinstance(value, Real)


def _is_integral(value) -> bool:
    if type(value) in (int, float):
        return type(value) is int
    from numbers import Integral

    return isinstance(value, Integral)
