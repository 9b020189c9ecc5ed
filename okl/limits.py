"""Resource limits on input, in one place, so that a service can check untrusted kernels.

Without them a few hundred bytes can take minutes and gigabytes: a chain of 24 macros that
each expand the previous one twice makes cpp print 2^24 tokens; a 2^18-term expression takes
the front end (about 75 us per token, measured on a 2-core VM) over 30 s; a megabyte-long
integer literal takes gigabytes in the constant evaluator.  Every limit below is far above
what hand-written or generated kernels need (the largest kernel in benchmarks/ expands to a
few thousand tokens) and gives a located error naming the limit and the variable that raises
it.  Each value can be overridden with the environment variable in its comment, read when a
file is checked (so a test or a service can change it at run time).
"""

from __future__ import annotations

from . import env
from .record import record


@record(frozen=True)
class Limit:
    """One limit: its default value and the environment variable that overrides it."""

    env: str
    default: float
    what: str  # what is limited, for the error message: "seconds of preprocessing", ...
    #: the largest value the variable may take: beyond it the limit would break what it
    #: guards (a read of that many bytes allocates them at once; a timeout past
    #: threading.TIMEOUT_MAX overflows) instead of just being high
    maximum: float = 1 << 40

    @property
    def value(self) -> float:
        """The limit now: the variable's value, or the default when it is unset or empty.
        A value that is not a positive number in range (``nan``, ``inf``, ``0``, ``-1``, a
        fraction of a count) raises :class:`okl.env.EnvironmentValueError` naming the
        variable, instead of being ignored or disabling the limit."""
        return env.number(self.env, self.default, integer=isinstance(self.default, int),
                          maximum=self.maximum, what=self.what)

    def __int__(self) -> int:
        return int(self.value)


#: Bytes of one source file (the kernel itself, before preprocessing).
SOURCE_BYTES = Limit("OKL_MAX_SOURCE_BYTES", 4 << 20, "bytes of source", 1 << 30)
#: Seconds cpp may run (it is killed after that).
CPP_SECONDS = Limit("OKL_MAX_CPP_SECONDS", 5.0, "seconds of preprocessing", 1e6)
#: Bytes cpp may print (it is killed after that): macro expansion can grow exponentially.
CPP_OUTPUT_BYTES = Limit("OKL_MAX_CPP_OUTPUT_BYTES", 8 << 20, "bytes of preprocessed text")
#: Tokens after preprocessing: the front end's time is proportional to them (about 4 s for
#: this many on a 2-core VM; a syntax error then allows one re-parse to find more errors).
TOKENS = Limit("OKL_MAX_TOKENS", 50_000, "tokens after preprocessing")
#: Depth of nested parentheses, brackets and braces (the parser and passes recurse on it).
NESTING = Limit("OKL_MAX_NESTING", 256, "levels of nested (), [] and {}")
#: Characters of one numeric literal (no C type holds more than about 70 digits).
NUMBER_CHARS = Limit("OKL_MAX_NUMBER_CHARS", 256, "characters in a numeric literal")
#: Characters of one token otherwise (identifiers, string literals).
TOKEN_CHARS = Limit("OKL_MAX_TOKEN_CHARS", 65536, "characters in one token")
