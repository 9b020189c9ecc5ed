"""Streams and events: ``s = dev.stream()``, ``with s:``, ``e = s.record()``, ``s.wait(e)``,
``dev.elapsed(e0, e1)``.

A stream is an in-order queue of work on one Device; launches (and copies that follow the
current stream) inside ``with s:`` go to ``s``, and the previous stream is current again after
the block, also when it raises.  Work on different streams may run concurrently: order it
with events (``s2.wait(s1.record())``) or wait for it (``s.finish()``, ``dev.finish()``)
before using its results elsewhere.

This module is backend-neutral; each driver provides the hooks it calls (declared with the
rest of a driver's interface in okl.runtime.drivers.driver.Driver):

``stream_default()``  the handle of the stream a Device starts with;
``stream_new()``      a new handle (``stream_new_high()``, where a driver has it: one of
                      high priority, for ``dev.stream(priority="high")``);
``stream_current()``  the handle launches use now (what ``with`` restores);
``stream_use(h)``     make launches use handle h;
``stream_finish(h)``  wait for everything queued on h;
``stream_wait(h, ev, eh)``  make h wait (on the device) for event ev recorded on handle eh;
``event_record(h)``   an event handle marking the current end of h;
``event_finish(ev)``  wait for it;
``event_seconds(e0, e1)``  seconds from e0 to e1 (both finished).

cuda/hip: a ``cupy.cuda.Stream`` per stream (the default one is CuPy's current stream when
the Device's stream is first asked for, normally the null stream), events are
``cupy.cuda.Event``; making a stream current makes its CuPy stream current on the device,
which okl's launch path reads.  opencl: one ``CommandQueue`` per stream, events are markers,
timed by the queue's profiling.  serial/openmp: work runs synchronously on the host, so a
stream is in order by construction: an event is the ``time.perf_counter()`` of its record.

The current stream is the Device's (one per Device, not per thread).
"""

from __future__ import annotations

import sys
from typing import TYPE_CHECKING

from ..errors import ArgumentError
from .owned import check_device as _check_device
from .owned import need as _need

if TYPE_CHECKING:
    from .graph import Graph


class Stream:
    """An in-order queue of work on one Device (``dev.stream()``; ``dev.current_stream``)."""

    def __init__(self, device, handle, *, default: bool = False):
        self.device = device
        self.handle = handle  # the backend's: cupy Stream, pyopencl CommandQueue, None
        self.default = default
        self._outer: list[tuple] = []  # per `with` entered: (okl stream, backend handle)

    def __repr__(self) -> str:
        kind = "default stream" if self.default else f"stream at {id(self):#x}"
        return f"okl.Stream({kind} of {self.device!r})"

    def __enter__(self) -> Stream:
        device = self.device
        self._outer.append((device.current_stream, device.backend.stream_current()))
        device.set_stream(self)
        return self

    def __exit__(self, *exc) -> None:
        stream, handle = self._outer.pop()
        device = self.device
        device.backend.stream_use(handle)
        device._stream = stream

    def finish(self) -> None:
        """Wait until everything queued on this stream has run."""
        self.device.backend.stream_finish(self.handle)

    @property
    def capturing(self) -> bool:
        """Whether work queued on this stream now goes into a graph (``capture``; a stream
        joined into another's capture too) instead of running: the driver's
        ``stream_capturing`` says, and a backend without graphs never captures."""
        ask = getattr(self.device.backend, "stream_capturing", None)
        return ask is not None and ask(self.handle)

    @property
    def graph(self) -> Graph | None:
        """The okl.Graph that work queued on this stream now goes into (its own capture, or
        one it was joined into), else None -- for a library that must know which graphs
        hold its work (okl.mpi.Communicator releases them when it closes)."""
        from .graph import capturing_graph
        return capturing_graph(self)

    def capture(self):
        """``with s.capture() as g:`` -- the work queued in the block is captured into an
        okl.Graph instead of run; ``g.launch()`` runs it, as often as wanted (cuda; see
        okl.runtime.graph)."""
        from .graph import capture
        return capture(self)

    def record(self, event: Event | None = None) -> Event:
        """An Event marking this point of the stream (``event``: an okl.Event of this
        device to record again, instead of a new one)."""
        if event is None:
            event = Event(self.device)
        else:
            _need(event, Event, "Stream.record")
            _check_device(self.device, event, "Stream.record: the event")
        event.handle = self.device.backend.event_record(self.handle)
        event.stream = self
        return event

    def wait(self, event: Event) -> None:
        """Work queued on this stream from now on starts after ``event`` has happened (the
        host does not wait)."""
        _need(event, Event, "Stream.wait")
        _check_device(self.device, event, "Stream.wait: the event")
        if event.stream is None:
            raise ArgumentError("Stream.wait: the event was never recorded; record it first "
                                "(e = s.record(), or s.record(e))")
        self.device.backend.stream_wait(self.handle, event.handle, event.stream.handle)


class Event:
    """A point in a stream (``s.record()``): ``e.finish()`` waits for it; ``s.wait(e)``
    orders another stream after it; ``dev.elapsed(e0, e1)`` times the work between two."""

    def __init__(self, device):
        self.device = device
        self.stream: Stream | None = None  # where it was last recorded; None: never
        self.handle = None

    def __repr__(self) -> str:
        state = "not recorded" if self.stream is None else "recorded"
        return f"okl.Event({state}, {self.device!r})"

    @property
    def recorded(self) -> bool:
        """Whether the event was recorded on a stream (``s.record()``)."""
        return self.stream is not None

    def finish(self) -> None:
        """Wait until the stream has reached this event (at once if never recorded)."""
        if self.stream is not None:
            self.device.backend.event_finish(self.handle)


# -- a launch's stream= ----------------------------------------------------------------------

def takes_stream(params) -> bool:
    """Whether ``kernel(..., stream=s)`` names the launch's stream: yes, unless the kernel has
    a parameter called ``stream`` (then the keyword is that argument, as always; use
    ``with s:`` for such a kernel)."""
    return all(p.name != "stream" for p in params)


def launch_on(kernel_ref, args: tuple, kwargs: dict) -> None:
    """``kernel(*args, stream=s, **kwargs)``: the launch on okl.Stream ``s`` (None: the current
    stream), as CuPy's ``kernel(..., stream=s)`` and PyOpenCL's queue argument; the device's
    current stream is the same before and after (the switch lasts the launch, as ``with s:``
    does).  The generated callers come here only when a ``stream`` keyword is given, so a
    call without one pays nothing.  ``kernel_ref``: a weak reference to the okl.Kernel (its
    callers do not keep it alive)."""
    kernel = kernel_ref()
    stream = kwargs.pop("stream")
    if kernel is None:  # only a kept ``k.__call__`` can outlive its kernel
        raise ArgumentError("the okl.Kernel of this call was collected; keep a reference to "
                            "the kernel to launch it with stream=")
    if stream is None:
        kernel(*args, **kwargs)
        return
    _need(stream, Stream, f"kernel {kernel.name!r}: stream=")
    _check_device(kernel.device, stream, f"kernel {kernel.name!r}: the stream")
    with stream:
        kernel(*args, **kwargs)


# -- what Device calls ---------------------------------------------------------------------

def streams_of(device) -> list[Stream]:
    """The device's streams, the default one first (made on first use)."""
    streams = device.__dict__.get("_streams")
    if streams is None:
        default = Stream(device, device.backend.stream_default(), default=True)
        streams = device.__dict__["_streams"] = [default]
        device.__dict__.setdefault("_stream", default)
    return streams


#: Device.stream's priorities
PRIORITIES = ("normal", "high")


def new_stream(device, priority: str = "normal") -> Stream:
    """A new stream; ``priority="high"`` from a driver that has ``stream_new_high`` (cuda:
    the device's greatest stream priority), else a normal one (CPU modes run work as it
    comes; OpenCL has no portable queue priority)."""
    if priority not in PRIORITIES:
        raise ArgumentError(f"Device.stream: priority={priority!r} is not one of "
                            f"{', '.join(map(repr, PRIORITIES))}")
    backend = device.backend
    high = getattr(backend, "stream_new_high", None) if priority == "high" else None
    stream = Stream(device, high() if high is not None else backend.stream_new())
    streams_of(device).append(stream)
    return stream


def set_stream(device, stream) -> None:
    _need(stream, Stream, "Device.set_stream")
    _check_device(device, stream, "Device.set_stream: the stream")
    device.backend.stream_use(stream.handle)
    device._stream = stream


def finish_all(device) -> None:
    """Wait for every stream of the device; then forget the streams nobody else holds (they
    have no work left and can get none)."""
    streams = streams_of(device)
    for stream in streams:
        stream.finish()
    del stream  # not a reference that counts below
    current = device.__dict__.get("_stream")
    # references: the list, the loop variable, getrefcount's argument (CPython)
    keep = [s for s in streams if s.default or s is current or s._outer or
            sys.getrefcount(s) > 3]
    if len(keep) != len(streams):
        streams[:] = keep


def elapsed(device, start, end) -> float:
    """Seconds from event ``start`` to event ``end`` (waits for both)."""
    for name, e in (("start", start), ("end", end)):
        _need(e, Event, f"Device.elapsed ({name})")
        _check_device(device, e, f"Device.elapsed: the {name} event")
        if e.stream is None:
            raise ArgumentError(f"Device.elapsed: the {name} event was never recorded; "
                                "record it with s.record() (or s.record(e)) first")
    backend = device.backend
    backend.event_finish(end.handle)
    backend.event_finish(start.handle)
    seconds = float(backend.event_seconds(start.handle, end.handle))
    if seconds < 0:
        raise ArgumentError(f"Device.elapsed: the end event was reached {-seconds:.3g} s "
                            "before the start event; pass them in order, "
                            "dev.elapsed(earlier, later)")
    return seconds
