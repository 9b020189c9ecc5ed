"""What ``oklc``'s commands share that needs no click: the reporter of diagnostics and
errors, the command's output, its input, the handling of every failure and the exit status.

``oklc --version`` and a plain ``oklc translate`` run from here without importing click
(okl.entry): click and what it loads cost about 15 ms of CPU, a fifth of what a translation
from the command line may cost (issue 30).  The click app (okl.cli) runs every command
through the same pieces, so the two paths print the same bytes and exit the same way.
"""

from __future__ import annotations

import errno
import os
import sys

TYPE_CHECKING = False  # typing itself is not imported: ``oklc --version`` would pay for it
if TYPE_CHECKING:  # okl.errors is loaded where used: ``oklc --version`` needs none of it
    from collections.abc import Callable
    from typing import Any, NoReturn

    from .errors import Diagnostic, OKLError

PROG = "oklc"
COLORS = ("auto", "always", "never")
FORMATS = ("text", "json", "sarif")


def echo(text: str = "", nl: bool = True, err: bool = False, color: bool | None = None
         ) -> None:
    """Write ``text`` to stdout (stderr with ``err``) and flush, as ``click.echo`` does: ANSI
    styles are removed where ``color`` is False, or None and the stream is no terminal; a
    stream whose encoding is ASCII (a misconfigured locale) gets UTF-8."""
    stream = sys.stderr if err else sys.stdout
    if stream is None:  # no standard stream at all (pythonw)
        return
    if nl:
        text += "\n"
    if "\033" in text and not (_isatty(stream) if color is None else color):
        text = _strip_ansi(text)
    if text and _is_ascii(getattr(stream, "encoding", None)) and hasattr(stream, "buffer"):
        stream.flush()
        stream.buffer.write(text.encode("utf-8", "replace"))
        stream.buffer.flush()
        return
    stream.write(text)
    stream.flush()


def style_error(color: bool) -> str:
    """``error:`` in bold red where ``color`` (click.style's sequence), else plain."""
    return "\033[31m\033[1merror:\033[0m" if color else "error:"


def _isatty(stream) -> bool:
    try:
        return bool(stream.isatty())
    except (AttributeError, ValueError):  # no isatty, or closed
        return False


def _strip_ansi(text: str) -> str:
    import re

    # an ECMA-48 control sequence: ESC [, parameter bytes, intermediate bytes, a final byte
    return re.sub("\033\\[[0-?]*[ -/]*[@-~]", "", text)


def _is_ascii(encoding: str | None) -> bool:
    import codecs

    try:
        return codecs.lookup(encoding or "ascii").name == "ascii"
    except LookupError:
        return False


class Reporter:
    """Where diagnostics and errors go and how they look: text (coloured or not) as they
    come, or, for ``json`` and ``sarif``, one document on stderr when the command ends (as
    GCC's ``-fdiagnostics-format=json`` does), so that stdout keeps only the command's
    output."""

    def __init__(self) -> None:
        self.reset()

    def reset(self) -> None:
        """The state a command starts with (one command per :func:`finish`)."""
        self.color = "auto"
        self.format = "text"
        self.collected: list[Diagnostic] = []

    def colored(self) -> bool:
        """Colour on stderr: ``always``; ``auto`` only on a terminal and without NO_COLOR
        (https://no-color.org: any non-empty value)."""
        if self.color == "always":
            return True
        if self.color == "never" or os.environ.get("NO_COLOR", ""):
            return False
        return bool(getattr(sys.stderr, "isatty", lambda: False)())

    def diagnostic(self, d: Diagnostic) -> None:
        if self.format == "text":
            color = self.colored()
            echo(d.render(color), err=True, color=color)
        else:
            self.collected.append(d)

    def diagnostics(self, items: list[Diagnostic], count: bool = False) -> None:
        for d in items:
            self.diagnostic(d)
        if count and self.format == "text":
            n = sum(1 for d in items if d.severity == "error")
            echo(f"{n} error(s)", err=True)

    def error(self, message: str) -> None:
        """An error with no place in a source file: ``oklc: error: message``."""
        if self.format == "text":
            color = self.colored()
            echo(f"{PROG}: {style_error(color)} {message}", err=True, color=color)
        else:
            from .errors import Diagnostic

            self.collected.append(Diagnostic("error", message))

    def flush(self) -> None:
        """Print the collected document (json, sarif); nothing for text."""
        if self.format == "text":
            return
        import json

        items, self.collected = self.collected, []
        if self.format == "json":
            text = json.dumps([d.to_json() for d in items], indent=1)
        else:
            text = json.dumps(sarif(items), indent=1)
        echo(text, err=True)


def sarif(items: list[Diagnostic]) -> dict:
    """A SARIF 2.1.0 log of ``items`` (what GitHub code scanning and editors read); a hint
    goes to the result's ``properties``."""
    from .version import __version__

    results = []
    for d in items:
        result: dict[str, Any] = {"level": d.severity if d.severity in ("error", "warning",
                                                                      "note") else "error",
                                  "message": {"text": d.message}}
        if d.loc is not None and d.loc.line == 0:  # the file as a whole: no region
            result["locations"] = [{"physicalLocation": {
                "artifactLocation": {"uri": d.loc.file}}}]
        elif d.loc is not None:
            result["locations"] = [{"physicalLocation": {
                "artifactLocation": {"uri": d.loc.file},
                "region": {"startLine": max(d.loc.line, 1),
                           "startColumn": max(d.loc.col, 1)}}}]
        if d.hint:
            result["properties"] = {"hint": d.hint}
        results.append(result)
    return {"$schema": "https://json.schemastore.org/sarif-2.1.0.json", "version": "2.1.0",
            "runs": [{"tool": {"driver": {"name": PROG, "version": __version__,
                                          "informationUri": "https://libocca.org"}},
                      "results": results}]}


#: the reporter of the command that runs now (reset by :func:`finish` for each command)
REPORT = Reporter()


class Failure(Exception):
    """A command failed for a reason already worded for the user (``oklc: error: ...``)."""


def finish(command: Callable[[], int | None]) -> NoReturn:
    """Run ``command`` and exit with its status, with okl's one error style: every failure
    is ``oklc: error: ...`` on stderr (or a JSON/SARIF record), exit status 1, no Python
    traceback for an operating-system error (an unreadable input, a missing output folder,
    a full disk).  ``command`` may exit itself (``sys.exit``); a click usage error has been
    reported and turned into its exit status before it gets here (okl.cli)."""
    REPORT.reset()
    code: Any = 0
    try:
        code = command() or 0
        _flush_stdout()
    except SystemExit as e:
        code = e.code
    except KeyboardInterrupt:  # as click reports an interrupt (okl.cli: click.Abort)
        echo(err=True)
        REPORT.error("interrupted")
        code = 130
    except Failure as e:
        REPORT.error(str(e))
        code = 1
    except OSError as e:
        code = _os_error(e)
    except Exception as e:
        from .errors import OKLError

        if not isinstance(e, OKLError):
            raise
        _report_okl_error(e)
        code = 1
    try:
        REPORT.flush()
    except OSError:
        pass
    sys.exit(code)


def _flush_stdout() -> None:
    """Flush stdout now, inside the error handling: a full disk or closed pipe shows up at
    the flush, and Python's own flush at exit would print a traceback-like message."""
    try:
        sys.stdout.flush()
    except OSError as e:
        raise _StdoutError(e) from None


class _StdoutError(OSError):
    def __init__(self, cause: OSError) -> None:
        super().__init__(cause.errno, cause.strerror)


def _os_error(e: OSError) -> int:
    """Report an operating-system error in one line; a reader that went away (``oklc ... |
    head``) is not an error of ours: exit quietly, as cat does."""
    if isinstance(e, _StdoutError) or e.errno == errno.EPIPE:
        _silence_stdout()
    if e.errno == errno.EPIPE:
        return 1
    if isinstance(e, _StdoutError):
        REPORT.error(f"cannot write to standard output: {e.strerror}")
    else:
        what = f"{e.filename}: " if e.filename else ""
        REPORT.error(f"{what}{e.strerror or e}")
    return 1


def _silence_stdout() -> None:
    """Point stdout at /dev/null so the interpreter's final flush of what could not be
    written fails no more (Python's documented remedy for SIGPIPE)."""
    try:
        fd = sys.stdout.fileno()
    except (AttributeError, OSError, ValueError):
        return  # not a real file (click's test runner)
    devnull = os.open(os.devnull, os.O_WRONLY)
    os.dup2(devnull, fd)
    os.close(devnull)


def _report_okl_error(e: OKLError) -> None:
    from .parser.source import SourceFileError

    if e.diagnostics:  # a file that cannot be read is one line, with no count of errors
        REPORT.diagnostics(e.diagnostics, count=not isinstance(e, SourceFileError))
    else:
        REPORT.error(str(e))


def defines(items: tuple[str, ...]) -> dict[str, str]:
    """``-D`` values as a dict: ``N=V``, or ``N`` for ``N=1``."""
    out = {}
    for item in items:
        name, _, value = item.partition("=")
        out[name] = value if _ else "1"
    return out


def read_input(path: str) -> tuple[bytes, str]:
    """The bytes of FILE and the name diagnostics give it: ``-`` is standard input, named
    ``<stdin>`` as GCC names it."""
    from . import limits
    from .parser.source import STDIN_NAME, read_source, within_limit

    if path != "-":
        return read_source(path), path
    data = sys.stdin.buffer.read(int(limits.SOURCE_BYTES) + 1)
    return within_limit(data, STDIN_NAME), STDIN_NAME


class Output:
    """What a command prints: to stdout, or with ``-o FILE`` to that file (``-`` is stdout).
    Errors opening or writing it (a missing folder, a full disk) are one-line errors naming
    the file."""

    def __init__(self, path: str | None) -> None:
        self.path = None if path in (None, "-") else path
        self.parts: list[str] = []

    def echo(self, text: str = "", nl: bool = True) -> None:
        if self.path is None:
            try:
                echo(text, nl=nl)
            except OSError as e:
                if e.errno == errno.EPIPE:
                    raise
                raise _StdoutError(e) from None
        else:
            self.parts.append(text + ("\n" if nl else ""))

    def close(self) -> None:
        if self.path is None:
            return
        try:
            with open(self.path, "w", encoding="utf-8") as f:
                f.write("".join(self.parts))
        except OSError as e:
            raise Failure(f"cannot write {self.path}: {e.strerror or e}") from None


def translate(file: str, mode: str, defines: dict[str, str], includes: tuple[str, ...],
              output: str | None, launcher: bool, launcher_only: bool, no_line: bool) -> None:
    """``oklc translate``: FILE ('-': standard input) in MODE's source code (with
    ``launcher``, its launch plan after it; with ``launcher_only``, the plan alone)."""
    from .parser.pycparser_load import load

    load()  # before anything imports pycparser
    from .translation import translate as run_translate

    source, name = read_input(file)
    result = run_translate(source, mode, defines=defines, include_dirs=includes,
                           filename=name, line_directives=not no_line,
                           bounds_plans=False)  # the runtime's: nothing here prints them
    REPORT.diagnostics(result.diagnostics)
    if launcher_only:
        text = result.launcher()
    else:
        text = result.source
        if launcher:
            text += "\n/* launch plan\n" + result.launcher() + "*/\n"
    out = Output(output)
    out.echo(text, nl=False)
    out.close()
