"""Graphs: ``with s.capture() as g:`` then ``g.launch()`` (okl.runtime.graph).

On cuda (marked ``gpu``; skipped visibly where there is none): captured work runs only when
launched, as often as launched, on the stream given, with work forked to other streams and
joined back; what may not be captured (a read-back) ends the capture with an okl error and
leaves the stream usable.  Everywhere else: a named refusal, not a traceback.
"""

from __future__ import annotations

import numpy as np
import pytest
from modes import params as _params
from modes import private_cache, skip_unless_available

import okl

SOURCE = r"""
@kernel void addOne(const int n, float *a) {
  for (int i = 0; i < n; ++i; @tile(64, @outer, @inner)) {
    a[i] += 1.0f;
  }
}

@kernel void twiceInto(const int n, const float *a, float *b) {
  for (int i = 0; i < n; ++i; @tile(64, @outer, @inner)) {
    b[i] = 2.0f * a[i];
  }
}
"""


@pytest.fixture(scope="module", autouse=True)
def module_cache(tmp_path_factory):
    with private_cache(tmp_path_factory.mktemp("okl-cache")) as root:
        yield root


@pytest.mark.parametrize("mode", _params(("serial", "openmp", "opencl")))
def test_capture_is_refused_where_there_are_no_graphs(mode):
    skip_unless_available(mode)
    dev = okl.Device(mode)
    s = dev.stream()
    with pytest.raises(okl.ArgumentError, match=f"mode '{mode}' has no graphs"):
        with s.capture():
            pass
    assert dev.current_stream is not s  # nothing left current


def _cuda():
    skip_unless_available("cuda")
    dev = okl.Device("cuda")
    return dev, dev.build_kernel_from_string(SOURCE, "addOne"), \
        dev.build_kernel_from_string(SOURCE, "twiceInto")


@pytest.mark.gpu
def test_captured_work_runs_when_launched_and_each_time():
    dev, add_one, _ = _cuda()
    n = 1000
    a = dev.zeros(n, np.float32)
    s = dev.stream()
    with s.capture() as g:
        assert s.capturing
        add_one(n, a)
        add_one(n, a)
    assert "captured" in repr(g) and not s.capturing
    s.finish()
    np.testing.assert_array_equal(a.get(), 0)  # captured, not run
    for _ in range(3):
        g.launch(s)
    s.finish()
    np.testing.assert_array_equal(a.get(), 6)
    other = dev.stream()
    with other:
        g.launch()  # the current stream
    other.finish()
    np.testing.assert_array_equal(a.get(), 8)


@pytest.mark.gpu
def test_work_forked_to_another_stream_and_joined_is_captured():
    dev, add_one, twice = _cuda()
    n = 4096
    a, b = dev.zeros(n, np.float32), dev.zeros(n, np.float32)
    s, t = dev.stream(), dev.stream()
    assert t.graph is None
    with s.capture() as g:
        assert s.graph is g and t.graph is None
        add_one(n, a)
        t.wait(s.record())
        assert t.graph is g  # joined into s's capture
        twice(n, a, b, stream=t)
        s.wait(t.record())
        add_one(n, a)
    assert s.graph is None and t.graph is None
    g.launch(s)
    s.finish()
    np.testing.assert_array_equal(b.get(), 2)
    np.testing.assert_array_equal(a.get(), 2)
    g.launch(s)
    s.finish()
    np.testing.assert_array_equal(b.get(), 6)
    g.release()
    with pytest.raises(okl.ArgumentError, match="was released"):
        g.launch(s)


@pytest.mark.gpu
def test_a_read_back_inside_a_capture_is_an_okl_error_and_the_stream_lives_on():
    dev, add_one, _ = _cuda()
    n = 100
    a = dev.zeros(n, np.float32)
    s = dev.stream()
    with pytest.raises(okl.LaunchError, match="only queue work"):
        with s.capture():
            add_one(n, a)
            a.get()
    assert dev.current_stream is not s
    with s:
        add_one(n, a)
    s.finish()
    np.testing.assert_array_equal(a.get(), 1)


@pytest.mark.gpu
def test_what_cannot_be_captured_or_launched_is_refused_by_name():
    dev, add_one, _ = _cuda()
    with pytest.raises(okl.ArgumentError, match="default stream cannot be captured"):
        with dev.current_stream.capture():
            pass
    s = dev.stream()
    with pytest.raises(okl.ArgumentError, match="capture has not ended"):
        with s.capture() as g:
            g.launch(s)
    other = okl.Device("cuda")
    a = dev.zeros(4, np.float32)
    with s.capture() as g:
        add_one(4, a)
    with pytest.raises(okl.ArgumentError, match="belongs to"):
        g.launch(other.stream())
    with pytest.raises(okl.ArgumentError, match="okl.Stream"):
        g.launch("s")


def test_the_communicator_refuses_what_a_capture_cannot_hold():
    """okl.mpi.Communicator inside ``s.capture()``: the MPI modes (the host waits) and, with
    NCCL, a first message to or from a peer or a first all-reduce (NCCL connects on first
    use) are refused before anything starts -- alike on every rank, since the ranks' calls
    match; what ran once uncaptured may be captured.  (The logic alone, with stand-in
    streams: the real captures are GPU tests in test_distributed and test_benchparanumal_mpi.)"""
    from types import SimpleNamespace

    from okl.mpi.communicator import Communicator, CommunicatorError

    class Graph:  # (a stand-in: hashable, as okl.Graph)
        pass

    graph = Graph()

    def stream(capturing: bool):
        return SimpleNamespace(capturing=capturing, graph=graph if capturing else None)

    def communicator(mode: str):
        c = SimpleNamespace(mode=mode, _connected=set(), _graphs=set())
        c._held_by = lambda s: Communicator._held_by(c, s)
        return c

    check = Communicator._capturable
    host = communicator("host")
    with pytest.raises(CommunicatorError, match="mode 'host' waits on the host"):
        check(host, stream(True), "exchange", [("send", 1)])
    check(host, stream(False), "exchange", [("send", 1)])
    cpu = okl.Device("serial").stream()
    assert cpu.capturing is False  # a backend without graphs never captures
    check(host, cpu, "allreduce", [("allreduce", -1)])
    nccl = communicator("nccl")
    with pytest.raises(CommunicatorError, match="first message to rank 1 cannot be captured"):
        check(nccl, stream(True), "exchange", [("send", 1)])
    check(nccl, stream(False), "exchange", [("send", 1), ("recv", 3)])
    assert not nccl._graphs
    check(nccl, stream(True), "exchange", [("send", 1), ("recv", 3)])  # ran once: captured
    assert nccl._graphs == {graph}  # close() releases it before NCCL's communicator
    with pytest.raises(CommunicatorError, match="first message from rank 2"):
        check(nccl, stream(True), "exchange", [("send", 1), ("recv", 2)])
    with pytest.raises(CommunicatorError, match="first all-reduce cannot be captured"):
        check(nccl, stream(True), "allreduce", [("allreduce", -1)])


def test_a_released_graph_says_why_when_launched():
    """Graph.release frees the driver's graph at once (its ``destroy``) and a later launch is
    an ArgumentError with the reason -- the communicator's close() relies on it.  (The logic
    alone, with a stand-in driver graph: the real one is in the GPU tests above.)"""
    from types import SimpleNamespace

    from okl.runtime.graph import Graph

    dev = okl.Device("serial")
    s = dev.stream()
    freed = []
    g = Graph(dev, s)
    g.handle = SimpleNamespace(destroy=lambda: freed.append(True))
    assert "captured" in repr(g)
    g.release("the communicator is closed")
    assert freed == [True] and g.handle is None and "released" in repr(g)
    with pytest.raises(okl.ArgumentError, match="Graph.launch: the communicator is closed"):
        g.launch(s)
    g.release()  # again: nothing left to free
    assert freed == [True]
