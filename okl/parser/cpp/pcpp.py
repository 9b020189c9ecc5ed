"""A stand-in for GCC's ``cpp`` where there is none: pcpp (pure Python) behind cpp's command
line and output conventions.

okl.parser.cpp.preprocess runs ``cpp -dD -undef -nostdinc -std=c99 -D... -I... -H -`` as a
subprocess (under okl.parser.cpp.run's time and size limits).  When no ``cpp`` is on PATH and
``OKL_CPP`` names none, it runs ``python -m okl.parser.cpp.pcpp`` with the same arguments
instead, and this module makes pcpp speak as cpp does:

* output: ``# N "file"`` line markers, ``#define``/``#undef`` lines kept (cpp's ``-dD``:
  okl tracks macros for ``#pragma`` expansion and "in expansion of macro" notes);
  ``#line N "file"`` in the input (okl's own, see ``_prepare``) renumbers what follows;
* stderr: ``file:line:col: error: ...`` messages and, for ``-H``, one ``. path`` line per
  file included.

Why a subprocess and not pcpp in-process: the same limits then apply (a macro bomb is killed
after ``OKL_MAX_CPP_SECONDS``), and the rest of the front end needs no second code path.
What differs from cpp: pcpp's macro expansion follows the standard but is not GCC's in every
corner (e.g. no repairs of OCCA's lenient ``#if X=1``: cpp_repairs reads GCC's messages),
spacing inside expanded lines is pcpp's, and it is 4-6x slower (okl/parser/cpp/preprocess.py).
"""

from __future__ import annotations

import io
import os
import re
import sys

#: (pattern texts: compiled by ``re`` in the pcpp process, which alone reads them)
_LINE = r'^\s*#\s*line\s+(\d+)\s+"((?:\\.|[^"\\])*)"\s*$'
_MARKER = r'^# (\d+) "((?:\\.|[^"\\])*)"'


def available() -> bool:
    """Whether pcpp can be imported (``pip install pcpp``)."""
    try:
        import pcpp  # noqa: F401
    except ImportError:
        return False
    return True


def command() -> list[str]:
    """The argv prefix that runs this module in the current interpreter."""
    return [sys.executable, "-m", "okl.parser.cpp.pcpp"]


def preprocessor_command() -> list[str]:
    """The preprocessor okl runs: ``OKL_CPP`` (a cpp executable; ``pcpp`` picks pcpp), else
    ``cpp`` from PATH, else pcpp.  Raises OKLError when there is none, saying how to get
    one."""
    from ...errors import OKLError

    wanted = os.environ.get("OKL_CPP", "").strip()
    if wanted.lower() == "pcpp":
        if available():
            return command()
        raise OKLError("OKL_CPP=pcpp but pcpp is not installed: pip install pcpp")
    found = which(wanted or "cpp")
    if found is not None:
        return [found]
    if wanted:
        raise OKLError(f"OKL_CPP={wanted} is not an executable; unset it to use cpp from PATH "
                       "or pcpp")
    if available():
        return command()
    raise OKLError("no C preprocessor found: install gcc's cpp (apt-get install cpp) or pcpp "
                   "(pip install pcpp), or set OKL_CPP to a cpp executable")


def which(name: str) -> str | None:
    """``shutil.which(name)``, without importing shutil where it can: shutil loads zlib, bz2
    and lzma when imported, 4.5 ms of CPU, and every translation looks for cpp (issue 30).
    The same search as shutil's on POSIX: ``name`` itself when it has a folder part, else the
    first executable file ``name`` in the folders of PATH (``os.confstr("CS_PATH")``
    without PATH; none for an empty PATH).  Elsewhere (PATHEXT, the current folder)
    shutil's own."""
    if os.name != "posix":
        import shutil

        return shutil.which(name)
    if os.path.dirname(name):
        return name if _executable(name) else None
    path = os.environ.get("PATH")
    if path is None:
        try:
            path = os.confstr("CS_PATH")
        except (AttributeError, ValueError):
            path = os.defpath
    if not path:
        return None
    for folder in dict.fromkeys(path.split(os.pathsep)):
        candidate = os.path.join(folder, name)
        if _executable(candidate):
            return candidate
    return None


def _executable(path: str) -> bool:
    return os.path.exists(path) and os.access(path, os.F_OK | os.X_OK) and \
        not os.path.isdir(path)


def describe() -> str:
    """Which preprocessor translations use, for ``oklc info``."""
    from ...errors import OKLError

    then = ("" if os.environ.get("OKL_CPP", "").strip()
            else "; okl's own (okl/parser/cpp/inline.py) first, this one where it declines")
    try:
        cmd = preprocessor_command()
    except OKLError as e:
        return f"none ({e})"
    return _described(cmd) + then


def _described(cmd: list[str]) -> str:
    if cmd[0] == sys.executable and cmd[-1] == __name__:
        import pcpp

        why = "OKL_CPP=pcpp" if os.environ.get("OKL_CPP") else "no cpp on PATH"
        return f"pcpp {getattr(pcpp, '__version__', '?')} (pure Python; {why})"
    return f"cpp ({cmd[0]})"


def _make_preprocessor(deps: list[str], messages: list[str]):
    from pcpp import Preprocessor
    from pcpp.parser import Action, OutputDirective

    class CppLike(Preprocessor):
        def on_error(self, file, line, msg):
            messages.append(f"{file}:{line}:1: error: {msg}")
            self.return_code += 1

        def on_file_open(self, is_system_include, includepath):
            handle = super().on_file_open(is_system_include, includepath)
            deps.append(includepath)
            return handle

        def on_include_not_found(self, is_malformed, is_system_include, curdir, includepath):
            where = self.lastdirective
            what = "malformed #include" if is_malformed else \
                f"{includepath}: No such file or directory"
            messages.append(f"{where.source}:{where.lineno}:1: fatal error: {what}")
            self.return_code += 1
            raise OutputDirective(Action.IgnoreAndRemove)

        def on_directive_handle(self, directive, toks, ifpassthru, precedingtoks):
            super().on_directive_handle(directive, toks, ifpassthru, precedingtoks)
            return None if directive.value in ("define", "undef") else True  # cpp -dD

        def on_directive_unknown(self, directive, toks, ifpassthru, precedingtoks):
            if directive.value in ("error", "warning"):
                text = "".join(t.value for t in toks).strip()
                messages.append(f"{directive.source}:{directive.lineno}:1: {directive.value}: "
                                f"#{directive.value} {text}")
                if directive.value == "error":
                    self.return_code += 1
                return True
            return None  # #pragma, #line: passed through

    p = CppLike()
    p.line_directive = "#"
    return p


def preprocess(args: list[str], data: str) -> tuple[str, str, int]:
    """cpp's (stdout, stderr, exit status) for ``args`` and stdin text ``data``."""
    deps: list[str] = []
    messages: list[str] = []
    p = _make_preprocessor(deps, messages)
    show_includes = False
    it = iter(args)
    for arg in it:
        if arg == "-I":
            p.add_path(next(it))
        elif arg.startswith("-I"):
            p.add_path(arg[2:])
        elif arg.startswith("-D"):
            name, eq, value = arg[2:].partition("=")
            p.define(f"{name} {value if eq else '1'}")
        elif arg.startswith("-U"):
            p.undef(arg[2:])
        elif arg == "-H":
            show_includes = True
        # -dD -undef -nostdinc -std=c99 and the input name "-": what this module does anyway
    name = "<stdin>"
    p.parse(data, name)
    out = io.StringIO()
    p.write(out)
    lines = _line_map(data)
    stdout = _renumber(out.getvalue(), name, lines)
    messages = [_message(m, name, lines) for m in messages]
    if show_includes:
        messages[:0] = [f". {os.path.relpath(d)}" for d in dict.fromkeys(deps)]
    return stdout, "".join(m + "\n" for m in messages), 1 if p.return_code else 0


def _message(message: str, name: str, lines: list[tuple[int, str, int]]) -> str:
    """A message about the main input, renumbered by its ``#line`` directives."""
    head = f"{name}:"
    if not message.startswith(head):
        return message
    number, _, rest = message[len(head):].partition(":")
    file, line = _place(lines, name, int(number))
    return f'{file}:{line}:{rest}'


def _line_map(data: str) -> list[tuple[int, str, int]]:
    """The input's ``#line N "file"`` directives: (physical line, file, N)."""
    out = []
    line_re = re.compile(_LINE)
    for i, raw in enumerate(data.split("\n"), 1):
        if "line" in raw:
            m = line_re.match(raw)
            if m:
                out.append((i, m.group(2), int(m.group(1))))
    return out


def _place(lines: list[tuple[int, str, int]], name: str, physical: int) -> tuple[str, int]:
    """Where physical line ``physical`` of the input is, after its ``#line`` directives."""
    for at, file, n in reversed(lines):
        if at < physical:
            return file, n + physical - at - 1
    return name, physical


def _renumber(text: str, name: str, lines: list[tuple[int, str, int]]) -> str:
    """Apply the input's ``#line N "file"`` directives (which pcpp passes through as text) to
    pcpp's own markers for the main input, as cpp would have numbered them."""
    out = []
    current = name
    marker_re, line_re = re.compile(_MARKER), re.compile(_LINE)
    for raw in text.split("\n"):
        m = marker_re.match(raw)
        if m:
            current = m.group(2)
            if current == name:
                file, line = _place(lines, name, int(m.group(1)))
                raw = f'# {line} "{file}"'
        elif current == name and "line" in raw:
            m = line_re.match(raw)
            if m:
                raw = f'# {m.group(1)} "{m.group(2)}"'
        out.append(raw)
    return "\n".join(out)


def main() -> int:
    data = sys.stdin.buffer.read().decode("utf-8", "surrogateescape")
    stdout, stderr, code = preprocess(sys.argv[1:], data)
    sys.stdout.buffer.write(stdout.encode("utf-8", "surrogateescape"))
    sys.stderr.write(stderr)
    return code


if __name__ == "__main__":
    sys.exit(main())
