"""Reading kernel files: bytes to text under one policy, and file errors as okl errors.

Policy: source is UTF-8.  Old kernels with Latin-1 comments (an author's name, a degree
sign) are common and OCCA accepts them, so a file that is not valid UTF-8 is read as
Latin-1 (every byte is a character; nothing is lost or changed) with a warning at the first
byte that is not UTF-8.  The same holds for included headers, which cpp reads: its output is
decoded line by line (see preprocess._collect).  A file okl cannot read at all (missing, a
folder, no permission, too large) is an :class:`OKLError` naming the file.
"""

from __future__ import annotations

import os
import stat

from .. import limits
from ..errors import Diagnostic, OKLError, SourceLoc

#: what diagnostics call source that has no file: text given to a function (okl.translate,
#: Device.build_kernel_from_string) and ``-`` on the command line, as CPython and GCC do
STRING_NAME = "<string>"
STDIN_NAME = "<stdin>"


class SourceFileError(OKLError):
    """An input file cannot be read: one diagnostic, ``PATH: error: cannot read: REASON``,
    whatever the reason (missing, a folder, no permission, too large) and whichever command
    or function read it, as GCC names the file before the error."""

    def __init__(self, path: str, reason: str) -> None:
        self.path, self.reason = path, reason
        super().__init__(diagnostics=[Diagnostic("error", f"cannot read: {reason}",
                                                 SourceLoc(path, 0, 0))])

    def __reduce__(self):  # pickled between processes (check -j, MPI ranks) by its fields
        return type(self), (self.path, self.reason)


def read_source(path: str | os.PathLike) -> bytes:
    """The bytes of ``path``, at most :data:`okl.limits.SOURCE_BYTES` of them."""
    name = os.fspath(path)
    cap = int(limits.SOURCE_BYTES)
    try:
        # O_NONBLOCK: opening a FIFO waits for a writer, which may never come; its type is
        # then seen before a byte is read (a FIFO, /dev/zero or a terminal is refused)
        fd = os.open(name, os.O_RDONLY | getattr(os, "O_NONBLOCK", 0))
    except OSError as e:
        raise SourceFileError(name, e.strerror or str(e)) from None
    kind = not_a_file(os.fstat(fd).st_mode)
    if kind:
        os.close(fd)
        raise SourceFileError(name, f"{kind}, not a regular file")
    with os.fdopen(fd, "rb") as f:
        os.set_blocking(fd, True)
        try:
            data = f.read(cap + 1)
        except OSError as e:
            raise SourceFileError(name, e.strerror or str(e)) from None
    return within_limit(data, name)


def not_a_file(mode: int) -> str:
    """What a file of ``mode`` is when it is not a regular file (else ""): okl reads only
    regular files, since a FIFO or a device can block forever or never end."""
    for test, what in ((stat.S_ISDIR, "a directory"), (stat.S_ISFIFO, "a FIFO (named pipe)"),
                       (stat.S_ISCHR, "a character device"), (stat.S_ISBLK, "a block device"),
                       (stat.S_ISSOCK, "a socket")):
        if test(mode):
            return what
    return "" if stat.S_ISREG(mode) else "not a regular file"


def within_limit(data: bytes, name: str) -> bytes:
    """``data``, read with one byte more than :data:`okl.limits.SOURCE_BYTES` allows, if it
    is within the limit."""
    cap = int(limits.SOURCE_BYTES)
    if len(data) > cap:
        raise SourceFileError(name, f"larger than {cap} {limits.SOURCE_BYTES.what} (set "
                                    f"{limits.SOURCE_BYTES.env} to raise the limit)")
    return data


def decode(data: bytes, filename: str) -> tuple[str, Diagnostic | None]:
    """``data`` as text: UTF-8, else Latin-1 with a warning located at the first bad byte."""
    try:
        return data.decode("utf-8"), None
    except UnicodeDecodeError as e:
        text = data.decode("latin-1")
        return text, not_utf8_warning(text, e.start, filename, data[e.start])


def not_utf8_warning(text: str, offset: int, filename: str, byte: int) -> Diagnostic:
    """The warning for a file read as Latin-1; ``offset`` is the bad byte's index in ``text``."""
    line = text.count("\n", 0, offset) + 1
    start = text.rfind("\n", 0, offset) + 1
    end = text.find("\n", offset)
    loc = SourceLoc(filename, line, offset - start + 1, text[start:end if end >= 0 else None])
    return Diagnostic("warning", f"byte 0x{byte:02x} is not UTF-8: the file is read as Latin-1",
                      loc, hint="convert the file to UTF-8, e.g. iconv -f latin1 -t utf-8")
