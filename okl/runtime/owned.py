"""The checks that a stream, event or graph argument is one of okl's and belongs to the
device that runs the work: one wording for okl.runtime.stream and okl.runtime.graph (which
cannot import each other: a stream makes graphs, a graph launches on streams)."""

from __future__ import annotations

from ..errors import ArgumentError

#: where an okl object of each kind comes from, for the messages
_MADE = {"Stream": "dev.stream()", "Event": "s.record()"}


def which(device) -> str:
    """A device as messages name it (two Devices of one mode are told apart by address)."""
    return f"{device!r} at {id(device):#x}"


def check_device(device, obj, what: str) -> None:
    if obj.device is not device:
        raise ArgumentError(f"{what} belongs to {which(obj.device)}, not to "
                            f"{which(device)}: use streams and events of the device that runs "
                            "the work (make them with dev.stream() and s.record() of that "
                            "device)")


def need(obj, kind: type, what: str) -> None:
    if not isinstance(obj, kind):
        raise ArgumentError(f"{what} takes an okl.{kind.__name__} (from "
                            f"{_MADE[kind.__name__]}), got {type(obj).__name__} {obj!r:.60}")
