"""pycparser, imported without two costs that okl's translations do not need.

* pycparser's c_lexer compiles one regex of two dozen alternatives (every kind of literal and
  number, and error patterns) when it is imported: 7.5 ms of CPU, a twelfth of ``oklc
  translate`` (issue 30).  okl's own lexer (okl.parser.clexer) reads identifiers,
  punctuators and plain decimal numbers itself, so most kernels never reach that regex.
  While :func:`load` imports pycparser, ``re.compile`` answers c_lexer's calls with a
  :class:`DeferredPattern`, which compiles the pattern at its first use and then takes its
  own place in c_lexer's globals (its small patterns too: most serve ``[[`` attributes and
  directives); every other call (another module, another thread) gets ``re.compile``'s own
  answer.
* pycparser's ``__init__`` imports ``subprocess`` (and with it ``signal``, ``threading``,
  ``selectors``, ``locale``: 7 ms) for ``parse_file(use_cpp=True)``, which okl never calls
  (okl runs cpp itself, and only where its own preprocessor declines).  Where nothing has
  imported ``subprocess`` yet, pycparser gets a stand-in module whose ``check_output``, or
  any other name, imports the real one at its first use.

* ``dataclasses`` imports ``inspect`` (and with it ``ast``, ``dis``, ``tokenize``,
  ``linecache``: 23 million instructions, 7 % of ``oklc translate``) for one call: the
  ``__doc__`` it writes for a class without one, ``Name(field: type, ...)`` from
  ``inspect.signature``.  pycparser's lexer has three such classes.  :func:`defer_inspect`
  imports ``dataclasses`` with a stand-in ``inspect`` whose ``signature`` writes that text
  itself for a plain dataclass (the generated ``__init__``'s parameters, annotations and
  defaults, spelt as ``inspect`` spells them) and asks the real module for anything else,
  as it does for any other name.  tests/test_clexer.py compares both on every dataclass of
  pycparser and on harder cases.

Nothing changes but when the work is done.  Only the ``oklc`` program calls :func:`load`
and :func:`defer_inspect` (okl.entry, okl.console), before anything imports pycparser or
dataclasses: a program may arrange its own start so, but a library that others import should
not touch ``re`` or ``sys.modules``, so ``okl.translate`` from Python imports them as they
are.
"""

from __future__ import annotations

import re
import sys
import types
from typing import Any

MODULE = "pycparser.c_lexer"


class DeferredPattern:
    """A compiled pattern's stand-in that compiles it at the first attribute asked of it
    (``match``, ``pattern``, ...) and puts the compiled pattern in its own place in the
    module globals that hold it."""

    __slots__ = ("_pattern", "_flags", "_scope", "_compiled", "_compile")

    def __init__(self, pattern: str, flags: int, scope: dict[str, Any], compile_) -> None:
        self._pattern, self._flags, self._scope = pattern, flags, scope
        self._compiled: re.Pattern | None = None
        self._compile = compile_

    def __getattr__(self, name: str) -> Any:
        compiled = self._compiled
        if compiled is None:
            compiled = self._compiled = self._compile(self._pattern, self._flags)
            for key, value in list(self._scope.items()):
                if value is self:
                    self._scope[key] = compiled
        return getattr(compiled, name)


def load() -> None:
    """Import pycparser (see above); nothing where c_lexer is imported already."""
    if MODULE in sys.modules:
        return
    compile_ = re.compile

    def deferring(pattern, flags=0):
        scope = sys._getframe(1).f_globals
        if scope.get("__name__") == MODULE and isinstance(pattern, str):
            return DeferredPattern(pattern, flags, scope, compile_)
        return compile_(pattern, flags)

    stand_in = None if "subprocess" in sys.modules else _subprocess_stand_in()
    re.compile = deferring
    try:
        import pycparser.c_lexer  # noqa: F401
    finally:
        re.compile = compile_
        if stand_in is not None and sys.modules.get("subprocess") is stand_in:
            del sys.modules["subprocess"]


def _subprocess_stand_in() -> types.ModuleType:
    """A module in the place of ``subprocess`` that imports the real one for any name asked
    of it (pycparser's ``from subprocess import check_output`` asks for a function that
    does so when it is called)."""
    stand_in = types.ModuleType("subprocess", "stands for subprocess until it is used")

    def real() -> types.ModuleType:
        if sys.modules.get("subprocess") is stand_in:
            del sys.modules["subprocess"]
        import subprocess

        return subprocess

    def check_output(*args: Any, **kwargs: Any) -> Any:
        return real().check_output(*args, **kwargs)

    def __getattr__(name: str) -> Any:
        if name.startswith("__"):  # what the import system asks of any module (__path__)
            raise AttributeError(name)
        return getattr(real(), name)

    stand_in.check_output = check_output  # type: ignore[attr-defined]
    stand_in.__getattr__ = __getattr__  # type: ignore[method-assign]
    sys.modules["subprocess"] = stand_in
    return stand_in


def defer_inspect() -> None:
    """Import ``dataclasses`` with the stand-in ``inspect`` of :func:`_inspect_stand_in` (see
    the module); nothing where either module is imported already."""
    if "dataclasses" in sys.modules or "inspect" in sys.modules:
        return
    stand_in = sys.modules["inspect"] = _inspect_stand_in()
    try:
        import dataclasses  # noqa: F401  # binds the stand-in as its ``inspect``
    finally:
        if sys.modules.get("inspect") is stand_in:
            del sys.modules["inspect"]


def _inspect_stand_in() -> types.ModuleType:
    """A module in the place of ``inspect`` for ``dataclasses``: its ``signature`` gives the
    text of :func:`dataclass_signature` where that knows it, and every name (``signature``
    elsewhere too) is the real module's, imported at its first use."""
    stand_in = types.ModuleType("inspect", "stands for inspect until it is used")

    def real() -> types.ModuleType:
        import importlib

        return importlib.import_module("inspect")

    def signature(obj: Any, *args: Any, **kwargs: Any) -> Any:
        text = None if args or kwargs else dataclass_signature(obj)
        return real().signature(obj, *args, **kwargs) if text is None else text

    def __getattr__(name: str) -> Any:
        if name.startswith("__"):
            raise AttributeError(name)
        return getattr(real(), name)

    stand_in.signature = signature  # type: ignore[attr-defined]
    stand_in.__getattr__ = __getattr__  # type: ignore[method-assign]
    return stand_in


def dataclass_signature(cls: Any) -> str | None:
    """``str(inspect.signature(cls))`` for a class whose signature is its own plain
    ``__init__`` (what ``dataclasses`` asks for, of the class it is making), or None where
    anything else could decide it: a metaclass, a ``__new__``, a ``__signature__``, an
    ``__init__`` that is no plain function or takes ``*args``/``**kwargs``, an annotation
    that ``inspect`` spells with more care (typing's, ``list[int]``)."""
    if type(cls) is not type or "__signature__" in vars(cls) or any(
            "__new__" in vars(base) for base in cls.__mro__[:-1]):
        return None
    init = vars(cls).get("__init__")
    if type(init) is not types.FunctionType or "__wrapped__" in vars(init) or \
            "__signature__" in vars(init):
        return None
    code = init.__code__
    if code.co_flags & 0x0C or code.co_posonlyargcount:  # *args, **kwargs, positional-only
        return None
    positional = code.co_argcount
    names = code.co_varnames[:positional + code.co_kwonlyargcount]
    given = init.__defaults__ or ()
    defaults = dict(zip(names[positional - len(given):positional], given, strict=True))
    defaults.update(init.__kwdefaults__ or {})
    notes = init.__annotations__
    parts = []
    for k, name in enumerate(names[1:], start=1):  # not self
        if k == positional:
            parts.append("*")  # before the first keyword-only parameter
        text = name
        if name in notes:
            spelt = _annotation(notes[name])
            if spelt is None:
                return None
            text = f"{name}: {spelt}"
        if name in defaults:
            text += f" = {defaults[name]!r}" if name in notes else f"={defaults[name]!r}"
        parts.append(text)
    out = f"({', '.join(parts)})"
    if "return" in notes:
        spelt = _annotation(notes["return"])
        if spelt is None:
            return None
        out += f" -> {spelt}"
    return out


def _annotation(note: Any) -> str | None:
    """``inspect.formatannotation(note)`` for a class or anything shown by its ``repr`` (a
    string, None, ``int | None``); None for typing's and ``types.GenericAlias``'s, which
    ``inspect`` rewrites."""
    if getattr(note, "__module__", None) == "typing" or isinstance(note, types.GenericAlias):
        return None
    if isinstance(note, type):
        if note.__module__ == "builtins":
            return note.__qualname__
        return f"{note.__module__}.{note.__qualname__}"
    return repr(note)
