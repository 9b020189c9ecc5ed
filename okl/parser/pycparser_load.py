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

Nothing changes but when the work is done.  Only the ``oklc`` program calls :func:`load`
(okl.console), before anything imports pycparser: a program may arrange its own start so,
but a library that others import should not touch ``re`` or ``sys.modules``, so
``okl.translate`` from Python imports pycparser as it is.
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
