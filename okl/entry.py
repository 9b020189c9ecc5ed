"""The ``oklc`` console script and ``python -m okl``.

``oklc --version`` and a plain ``oklc translate`` run here without loading click, whose
import costs about 15 ms of CPU: as much as ``oklc --version`` may cost in all beyond
Python's own start, and a fifth of what a translation from the command line may (issue 30).
Every other command line goes to the click app (okl.cli), which parses it, prints help and
reports what is wrong with it.

The fast path reads only command lines whose meaning it knows for certain: the options of
:data:`TRANSLATE` and :data:`GROUP`, spelt as click reads them (``-m cuda``, ``-mcuda``,
``--mode cuda``, ``--mode=cuda``; a value may start with ``-``; a repeated option keeps its
last value, a repeatable one all of them in order), one FILE, a valid mode and colour and
format names.  Anything else -- help, an unknown or misspelt option, a missing value, a bad
choice, ``--``, bundled flags, shell completion, Windows' wildcard expansion -- goes to click,
which answers as it always has.  tests/test_entry.py holds this table to okl.cli's options
and compares the two parsers on many command lines.
"""

from __future__ import annotations

import os
import sys

TYPE_CHECKING = False  # typing itself is not imported: ``oklc --version`` would pay for it
if TYPE_CHECKING:
    from collections.abc import Callable
    from typing import Any, NoReturn

#: ``oklc translate``'s options: option -> (parameter, takes a value, repeatable); ``-h`` and
#: ``--help`` are click's
TRANSLATE: dict[str, tuple[str, bool, bool]] = {
    "-m": ("mode", True, False), "--mode": ("mode", True, False),
    "-D": ("defines", True, True), "--define": ("defines", True, True),
    "-I": ("includes", True, True), "--include": ("includes", True, True),
    "-o": ("output", True, False), "--output": ("output", True, False),
    "--launcher": ("launcher", False, False),
    "-l": ("launcher_only", False, False), "--launcher-only": ("launcher_only", False, False),
    "--no-line": ("no_line", False, False),
    "--color": ("color", True, False), "--colour": ("color", True, False),
    "--diagnostics-format": ("diagnostics_format", True, False),
}
#: the options ``oklc`` itself takes before a command (``--version`` alone is answered first)
GROUP = {name: TRANSLATE[name] for name in ("--color", "--colour", "--diagnostics-format")}


def main(args: list[str] | None = None, prog_name: str | None = None) -> NoReturn:
    """Run ``oklc`` on ``args`` (default: the command line) and exit with its status."""
    argv = sys.argv[1:] if args is None else list(args)
    if os.name != "nt" and "_OKLC_COMPLETE" not in os.environ:  # else click's work
        if argv == ["--version"]:
            _version()
        from .parser.pycparser_load import defer_inspect

        defer_inspect()  # before okl.modes imports dataclasses
        params = parse_translate(argv)
        if params is not None:
            import gc

            # one translation, then the process ends: the collector would only walk the
            # objects that importing made, again and again (3 % of the instructions)
            gc.disable()
            _translate(params)
    from .cli import main as app

    app.main(args, prog_name)
    raise AssertionError("okl.cli.main returned")  # for type checkers: it exits


def _version() -> NoReturn:
    from .console import PROG, echo
    from .version import __version__

    _run(lambda: echo(f"{PROG}, version {__version__}"))


def parse_translate(argv: list[str]) -> dict[str, Any] | None:
    """The parameters of ``oklc [OPTIONS] translate ...`` as click would pass them to the
    command (and the group's colour and format), or None where click must read ``argv``."""
    from .console import COLORS, FORMATS
    from .modes import MODES

    before: dict[str, Any] = {}
    i = 0
    while i < len(argv) and _is_option(argv[i]):
        taken = _option(argv, i, GROUP, before)
        if taken is None:
            return None
        i += taken
    if i == len(argv) or argv[i] != "translate":
        return None
    i += 1
    params: dict[str, Any] = {"defines": [], "includes": []}
    files = []
    while i < len(argv):
        if not _is_option(argv[i]):
            files.append(argv[i])
            i += 1
            continue
        taken = _option(argv, i, TRANSLATE, params)
        if taken is None:
            return None
        i += taken
    if len(files) != 1:
        return None
    params["file"] = files[0]
    for name, choices in (("mode", MODES), ("color", COLORS), ("diagnostics_format", FORMATS)):
        for given in (before, params):  # click.Choice(case_sensitive=False)
            if name in given:
                match = {c.casefold(): c for c in choices}.get(given[name].casefold())
                if match is None:
                    return None
                given[name] = match
    if "mode" not in params:
        return None
    # the command's --color and --diagnostics-format come after the group's: they win
    for name in ("color", "diagnostics_format"):
        params.setdefault(name, before.get(name))
    for name in ("output", "launcher", "launcher_only", "no_line"):
        params.setdefault(name, None if name == "output" else False)
    params["defines"], params["includes"] = tuple(params["defines"]), tuple(params["includes"])
    return params


def _is_option(arg: str) -> bool:
    """What click's parser takes for an option (a lone ``-`` is standard input)."""
    return arg[:1] == "-" and len(arg) > 1


def _option(argv: list[str], i: int, table: dict[str, tuple[str, bool, bool]],
            params: dict[str, Any]) -> int | None:
    """Read the option at ``argv[i]`` into ``params``: how many items it took, or None for
    anything :data:`TRANSLATE` does not describe (``--``, an unknown option, a flag with a
    value, bundled short flags, a missing value)."""
    arg = argv[i]
    if arg.startswith("--"):
        name, eq, value = arg.partition("=")
        attached = value if eq else None
    else:
        name, attached = arg[:2], (arg[2:] or None)
    spec = table.get(name)
    if spec is None:
        return None
    dest, takes_value, repeatable = spec
    if not takes_value:
        if attached is not None:
            return None
        params[dest] = True
        return 1
    taken = 1
    if attached is None:
        if i + 1 == len(argv):
            return None
        attached, taken = argv[i + 1], 2
    if repeatable:
        params[dest].append(attached)
    else:
        params[dest] = attached
    return taken


def _translate(params: dict[str, Any]) -> NoReturn:
    from . import console

    def command() -> None:
        if params["color"] is not None:
            console.REPORT.color = params["color"].lower()
        if params["diagnostics_format"] is not None:
            console.REPORT.format = params["diagnostics_format"].lower()
        console.translate(params["file"], params["mode"], console.defines(params["defines"]),
                          params["includes"], params["output"], params["launcher"],
                          params["launcher_only"], params["no_line"])

    _run(command)


def _run(command: Callable[[], int | None]) -> NoReturn:
    """okl.console.finish's run of ``command``, then the end of the process without
    Python's teardown, which frees one by one every object that the imports made: 11 ms of
    CPU, a tenth of ``oklc translate``.  What the teardown would do that matters is done
    here: ``atexit`` functions run (okl's fast paths register none, but a site's
    ``sitecustomize`` or a ``.pth`` file may have), stdout and stderr flushed, the exit status
    as ``sys.exit`` gives it.  The fast paths start no thread, so no thread is left to join
    (tests/test_entry.py checks both)."""
    import atexit

    from .console import finish

    try:
        finish(command)
    except SystemExit as e:
        code = e.code
    if code is None:
        status = 0
    elif isinstance(code, int):
        status = code
    else:  # as the interpreter reports sys.exit("message")
        print(code, file=sys.stderr)
        status = 1
    atexit._run_exitfuncs()
    for stream in (sys.stdout, sys.stderr):
        try:
            stream.flush()
        except (OSError, ValueError):  # closed, or a reader gone: finish has said so
            pass
    os._exit(status)
