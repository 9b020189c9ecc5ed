"""Graphs: work captured from a stream once and launched again as one unit.

    with s.capture() as g:      # s: a stream of one's own (dev.stream()), cuda
        k1(...); k2(...)        # queued into g, not run
    g.launch()                  # runs k1, k2 (on the current stream; or g.launch(stream=t))

Why: a solver's iteration is a dozen small launches, and on several GPUs the host's Python
queueing them (kernels, NCCL calls, events) takes as long as the GPU takes to run them, so
the GPU waits for the host.  A captured iteration is one launch for the host (CUDA graphs,
through CuPy's ``Stream.begin_capture``), and the GPU starts each kernel of it without the
host's help.

What a capture holds is what CUDA's stream capture holds: the kernels, copies, NCCL calls
and cross-stream waits queued on ``s`` and on the streams that waited for one of its events
inside the block (those must be joined back to ``s`` -- ``s.wait(t.record())`` -- before
the block ends).  Each launch of the graph runs them with the same arguments: the values of
scalars and the addresses of memory at capture time.  So a graph suits work whose changing
inputs live in device memory; the Memory objects it uses must stay alive as long as it is
launched (okl does not track them, as CuPy does not).  Inside the block nothing may wait for
the device (``Memory.get``, ``finish``, a blocking copy): CUDA refuses it, and okl ends the
capture and says so.

On CUDA: the cuda driver provides ``graph_begin(h)``, ``graph_end(h)`` (the graph, or
raises) and ``graph_launch(g, h)`` -- for cuda, and for hip where it runs on NVIDIA GPUs
through the same CuPy; ROCm's CuPy has no stream capture, and hip there refuses by name.
Other modes refuse ``capture``: their launches run at once (serial, openmp) or have no
graphs that okl drives (opencl).
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

from ..errors import ArgumentError, LaunchError
from .owned import check_device, need


class Graph:
    """Work captured from a stream (``with s.capture() as g``); ``g.launch()`` runs it."""

    def __init__(self, device: Any, stream: Any):
        self.device = device
        self.stream = stream  # where it was captured
        self.handle: Any = None  # the driver's graph, once the capture has ended
        self._released = ""  # why, once release() has freed it

    def __repr__(self) -> str:
        state = "released" if self._released else \
            "captured" if self.handle is not None else "capturing"
        return f"okl.Graph({state}, {self.device!r})"

    def release(self, why: str = "the graph was released (Graph.release)") -> None:
        """Free the driver's graph now, not when the object is collected; a later
        ``launch`` raises ArgumentError saying ``why``.  What the graph holds is let go
        with it: okl.mpi.Communicator.close releases the graphs that captured its calls
        first, as NCCL frees a communicator only once no graph holds its calls."""
        handle, self.handle = self.handle, None
        self._released = why
        if handle is not None:
            handle.destroy()

    def launch(self, stream: Any = None) -> None:
        """Queue the captured work on ``stream`` (an okl.Stream of the graph's device;
        default: the device's current stream).  The host does not wait."""
        if self._released:
            raise ArgumentError(f"Graph.launch: {self._released}")
        if self.handle is None:
            raise ArgumentError("Graph.launch: the capture has not ended; launch the graph "
                                "after its `with s.capture() as g:` block")
        if stream is None:
            stream = self.device.current_stream
        need(stream, type(self.stream), "Graph.launch: stream=")  # (okl.Stream)
        check_device(self.device, stream, "Graph.launch: the stream")
        self.device.backend.graph_launch(self.handle, stream.handle)


#: the captures whose blocks are running, by the driver's capture id
_CAPTURES: dict[int, Graph] = {}


@contextmanager
def capture(stream: Any) -> Iterator[Graph]:
    """``with stream.capture() as g``: see the module."""
    device = stream.device
    begin = getattr(device.backend, "graph_begin", None)
    if begin is None:
        raise ArgumentError(f"Stream.capture: mode {device.mode!r} has no graphs (cuda has); "
                            "queue the work directly")
    if stream.default:
        raise ArgumentError("Stream.capture: the device's default stream cannot be captured "
                            "(CUDA's legacy stream); capture a stream of your own: "
                            "s = dev.stream(); with s.capture() as g: ...")
    graph = Graph(device, stream)
    backend = device.backend
    end = backend.graph_end
    with stream:
        begin(stream.handle)
        ident = backend.stream_capture_id(stream.handle)
        _CAPTURES[ident] = graph
        try:
            try:
                yield graph
            except BaseException as e:
                try:
                    end(stream.handle)
                except Exception:  # invalidated: most likely by what raised (see _failed)
                    raise _failed(e) from e
                raise
            try:
                graph.handle = end(stream.handle)
            except Exception as e:
                raise _failed(e) from e
        finally:
            del _CAPTURES[ident]


def capturing_graph(stream: Any) -> Graph | None:
    """The Graph that work queued on ``stream`` now goes into: the capture begun on it, or
    the one it joined by waiting for a capturing stream's event; None when it captures
    nothing (or on a backend without graphs)."""
    ask = getattr(stream.device.backend, "stream_capture_id", None)
    if ask is None or not _CAPTURES:
        return None
    return _CAPTURES.get(ask(stream.handle))


def _failed(cause: BaseException) -> LaunchError:
    return LaunchError(
        f"Stream.capture: the capture failed ({type(cause).__name__}: {cause}).  Inside "
        "`with s.capture()` only queue work: nothing that waits for the device (Memory.get, "
        "finish, a blocking copy), and every other stream that waited for one of s's events "
        "must be joined back to s (s.wait(t.record())) before the block ends")
