"""One reading of the environment variables okl takes: yes/no switches and numeric limits.

Each module used to read its own switch its own way, and they disagreed: ``OKL_CHECK_BOUNDS``
took anything but empty or ``0`` as on, so ``OKL_CHECK_BOUNDS=false`` turned checked mode
*on*, while ``OKL_NO_CACHE`` and ``OKL_CACHE_READONLY`` read ``false``, ``no`` and ``off`` as
off; a numeric limit set to ``nan`` or ``1e400`` raised a bare ``ValueError`` or
``OverflowError`` from deep inside a build, and ``0`` or ``-1`` silently disabled the limit.
Here a switch takes ``1/0``, ``true/false``, ``yes/no`` or ``on/off`` (any case, spaces
around ignored; empty is the same as unset), a limit takes a finite number in its range, and
anything else is an :class:`EnvironmentValueError` that names the variable, the value and
what it accepts: a typo in a job script stops the job instead of silently choosing for it.

Values are read at every call, so a program (or a test) that changes the environment while
running is obeyed.
"""

from __future__ import annotations

import math
import os

from .errors import OKLError

YES = ("1", "true", "yes", "on")
NO = ("0", "false", "no", "off")


class EnvironmentValueError(OKLError, ValueError):
    """An environment variable okl reads holds a value okl cannot use; the message names the
    variable, the value and the values it accepts.  A ValueError too, for callers that
    already catch that around a build."""


def _shown(text: str) -> str:
    """The value as the message quotes it: control characters escaped, a long one cut."""
    return repr(text if len(text) <= 60 else text[:57] + "...")


def _figure(value: float) -> str:
    return str(int(value)) if value == int(value) else f"{value:g}"


def as_flag(text: str) -> bool | None:
    """``text`` as a yes/no word (True or False), or None when it is not one (empty included):
    for variables that take other words besides (OKL_CHECK_RACES's ``reverse``)."""
    word = text.strip().lower()
    return True if word in YES else False if word in NO else None


def flag(name: str, default: bool = False) -> bool:
    """The yes/no switch ``name``: ``default`` when unset or empty; raises
    :class:`EnvironmentValueError` for any other word."""
    text = os.environ.get(name, "")
    if not text.strip():
        return default
    value = as_flag(text)
    if value is None:
        raise EnvironmentValueError(
            f"{name}={_shown(text)} is not a yes/no value: set it to 1, true, yes or on to "
            f"turn it on, to 0, false, no or off to turn it off, or unset it "
            f"(default: {'on' if default else 'off'})")
    return value


def number(name: str, default: float, *, integer: bool, maximum: float, what: str) -> float:
    """The positive limit ``name`` (``default`` when unset or empty): a finite number from
    above 0 to ``maximum``; a whole number when ``integer`` (``1e5`` is one).  Zero and
    negative values are refused rather than read as "no limit", which is what they silently
    did: a limit that is off should be asked for by a large value, in sight."""
    text = os.environ.get(name, "")
    if not text.strip():
        return default
    try:
        value = float(text)
    except ValueError:
        value = math.nan
    if integer and math.isfinite(value) and value != int(value):
        value = math.nan
    if not (0 < value <= maximum):  # also refuses nan, inf and 1e400 (which float reads as inf)
        kind = "a whole number" if integer else "a number"
        raise EnvironmentValueError(
            f"{name}={_shown(text)} is not a usable limit ({what}): give {kind} greater than 0 "
            f"and at most {_figure(maximum)}, or unset it for the default {_figure(default)}")
    return int(value) if integer else value
