"""Diagnostics and the exception hierarchy.

Every problem okl finds in user input becomes a :class:`Diagnostic` that knows the original
``file:line:col`` (through macro expansion and ``#include``), renders like a C compiler's
message (the line, a caret, notes), and travels inside an :class:`OKLError` so that the
Python API and ``oklc`` report the same text.
"""

from __future__ import annotations

from dataclasses import field

from .record import record


@record(frozen=True)
class SourceLoc:
    """A position in an original source file (1-based line and column); line 0 is the
    file as a whole (it cannot be read), printed ``file: error: ...`` with no line."""

    file: str
    line: int
    col: int
    text: str = ""  # the whole source line, for the caret display
    #: when the token came out of a macro: (macro name, where the macro is defined or None)
    expansion: tuple[str, SourceLoc | None] | None = None

    def __str__(self) -> str:
        # a name with a newline (from `#line 1 "x\n"`) must not split a diagnostic's line
        name = self.file if self.file.isprintable() else \
            self.file.encode("unicode_escape").decode("ascii")
        return name if self.line == 0 else f"{name}:{self.line}:{self.col}"


@record
class Diagnostic:
    """One error, warning or note, with optional notes pointing at related places."""

    severity: str  # "error" | "warning" | "note"
    message: str
    loc: SourceLoc | None = None
    notes: list[Diagnostic] = field(default_factory=list)
    hint: str = ""  # what to do about it, printed after the caret

    def render(self, color: bool = False) -> str:
        """The message as a C compiler prints it; ``color`` adds the ANSI colours GCC and
        Clang use (bold place, red error, magenta warning, cyan note, green caret), which
        ``oklc`` asks for on a terminal only (``--color``, ``NO_COLOR``)."""
        paint = _paint if color else _plain
        head = paint(BOLD, f"{self.loc}: ") if self.loc else ""
        out = [f"{head}{paint(SEVERITY_STYLES.get(self.severity, BOLD), self.severity + ':')} "
               f"{self.message}"]
        if self.loc and self.loc.text:
            line = self.loc.text.rstrip("\n").expandtabs(1)
            out.append(f"  {line}")
            out.append("  " + " " * max(self.loc.col - 1, 0) + paint(CARET, "^"))
        if self.hint:
            out.append(f"  hint: {self.hint}")
        if self.loc and self.loc.expansion:
            name, where = self.loc.expansion
            tag = paint(SEVERITY_STYLES["note"], "note:")
            if where is None:
                out.append(f"{tag} in expansion of macro '{name}' (predefined)")
            elif where.line == 0:  # given on the command line: where.text is the option
                out.append(f"{tag} in expansion of macro '{name}' ({where.text})")
            else:
                out.append(Diagnostic("note", f"in expansion of macro '{name}'",
                                      where).render(color))
        out.extend(n.render(color) for n in self.notes)
        return "\n".join(out)

    def to_json(self) -> dict:
        """The fields tools read (``oklc --diagnostics-format=json``, ``oklc check --json``):
        file, line, column (1-based; None when the diagnostic has no place), severity,
        message, hint (None when there is none), and the notes in the same form."""
        loc = self.loc
        placed = loc if loc is not None and loc.line > 0 else None  # line 0: the whole file
        out: dict[str, object] = {
            "file": loc.file if loc else None, "line": placed.line if placed else None,
            "column": placed.col if placed else None, "severity": self.severity,
            "message": self.message, "hint": self.hint or None}
        if self.notes:
            out["notes"] = [n.to_json() for n in self.notes]
        return out

    def __str__(self) -> str:
        return self.render()


#: ANSI styles of rendered diagnostics (GCC's defaults)
BOLD, CARET = "1", "1;32"
SEVERITY_STYLES = {"error": "1;31", "fatal error": "1;31", "warning": "1;35", "note": "1;36"}


def _paint(style: str, text: str) -> str:
    return f"\033[{style}m{text}\033[0m"


def _plain(style: str, text: str) -> str:
    return text


class OKLError(Exception):
    """Base of every error okl raises on purpose; carries diagnostics when it has them."""

    def __init__(self, message: str = "", diagnostics: list[Diagnostic] | None = None):
        self.diagnostics = list(diagnostics or [])
        if not message and self.diagnostics:
            message = "\n".join(d.render() for d in self.diagnostics)
        super().__init__(message)


class TranslationError(OKLError):
    """The OKL source is invalid (syntax, attribute use, loop structure) or cannot be lowered."""


class BuildError(OKLError):
    """A backend compiler rejected generated code; carries the command, exit code and log."""

    def __init__(self, message: str, *, command=None, returncode=None, log: str = "",
                 source_path: str | None = None):
        self.command = command
        self.returncode = returncode
        self.log = log
        self.source_path = source_path
        super().__init__(message)


class ArgumentError(OKLError, TypeError):
    """A kernel launch argument does not match its parameter (checked before launch)."""


class ShapeError(OKLError, ValueError):
    """A shape or count no buffer can have: negative, or more dimensions than okl.Memory
    takes (a ValueError, as numpy's is)."""


class AllocationError(OKLError, MemoryError):
    """A buffer larger than the device can give (the bytes asked for and the limit are in
    the message), or an allocation the device refused.  A MemoryError, as numpy's and
    CuPy's are (okl.runtime.allocation)."""


class BackendUnavailableError(OKLError):
    """The requested mode cannot run here; the message says why and how to fix it."""


class BundleError(OKLError):
    """An ahead-of-time bundle (``oklc build -o``, ``Program.save``) cannot be loaded here:
    not a bundle, damaged, or built for another mode, device, CPU or okl version; the message
    says which and how to get one that fits (okl.runtime.bundle)."""


class LaunchError(OKLError):
    """The runtime failed to launch a kernel."""


class RaceError(LaunchError):
    """The race checker (``Device(mode, check_races=True)``) saw two accesses of one element
    that a GPU may run in either order; the message names both, at their .okl lines."""


class RaceWarning(UserWarning):
    """The race checker saw a read of @shared or @exclusive storage that no thread of the
    block has written yet: often a bug, sometimes meant (a value read and then overwritten)."""


class Diagnostics:
    """Collects diagnostics across a whole file so all errors are reported in one run."""

    def __init__(self) -> None:
        self.items: list[Diagnostic] = []

    def error(self, message: str, loc: SourceLoc | None = None, *, notes=(), hint: str = ""):
        self.items.append(Diagnostic("error", message, loc, list(notes), hint))

    def warning(self, message: str, loc: SourceLoc | None = None, *, notes=(), hint: str = ""):
        self.items.append(Diagnostic("warning", message, loc, list(notes), hint))

    @property
    def errors(self) -> list[Diagnostic]:
        return [d for d in self.items if d.severity == "error"]

    @property
    def warnings(self) -> list[Diagnostic]:
        return [d for d in self.items if d.severity == "warning"]

    def raise_if_errors(self) -> None:
        if self.errors:
            ordered = sorted(self.items, key=_order)
            raise TranslationError(diagnostics=ordered)


def note(message: str, loc: SourceLoc | None) -> Diagnostic:
    return Diagnostic("note", message, loc)


def _order(d: Diagnostic):
    if d.loc is None:
        return ("", 0, 0)
    return (d.loc.file, d.loc.line, d.loc.col)
