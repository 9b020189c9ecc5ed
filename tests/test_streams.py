"""Streams and events: ``dev.stream()``, ``with s:``, ``dev.set_stream``, ``dev.current_stream``,
``s.finish()``, ``dev.finish()``, ``s.record()``, ``e.finish()``, ``s.wait(e)`` and
``dev.elapsed(e0, e1)`` on every mode present (cuda and hip are marked ``gpu`` and skip
visibly where they are unavailable; OKL_TEST_MODES narrows the modes as elsewhere).

Each test makes Devices of its own, so a stream left current by a failing test cannot leak
into another; the kernels come from a cache directory of the module's own.
"""

from __future__ import annotations

import pathlib
import re
import time

import numpy as np
import pytest
from modes import GPU, private_cache, skip_unless_available
from modes import params as _params

import okl

EVERY = _params(("serial", "openmp", "opencl", "cuda", "hip"))
HOST = _params(("serial", "openmp"))

# b = a + 1, slowly: each element goes round `reps` times (x*0.5 + a*0.5 is exactly a), so a
# reader on another stream that did not wait would likely see b before it is written
SLOW = r"""
@kernel void slowAddOne(const int n, const int reps, const float *a, float *b) {
  for (int i = 0; i < n; ++i; @tile(64, @outer, @inner)) {
    float x = a[i];
    for (int r = 0; r < reps; ++r) {
      x = x * 0.5f + a[i] * 0.5f;
    }
    b[i] = x + 1.0f;
  }
}

@kernel void twice(const int n, const float *b, float *c) {
  for (int i = 0; i < n; ++i; @tile(64, @outer, @inner)) {
    c[i] = 2.0f * b[i];
  }
}

@kernel void twoPasses(const int n, float *b) {
  for (int i = 0; i < n; ++i; @tile(64, @outer, @inner)) {
    b[i] = i;
  }
  for (int i = 0; i < n; ++i; @tile(64, @outer, @inner)) {
    b[i] += 1;
  }
}
"""


@pytest.fixture(scope="module", autouse=True)
def module_cache(tmp_path_factory):
    """Keep the whole module away from the user's cache."""
    with private_cache(tmp_path_factory.mktemp("okl-cache")) as root:
        yield root


def new_device(mode: str, **props) -> okl.Device:
    skip_unless_available(mode)
    return okl.Device(mode, **props)


def _n(mode: str) -> int:
    return 1 << 20 if mode in GPU else 1 << 12


def _backend_current(dev):
    """What the backend launches on now: CuPy's current stream, the OpenCL queue, None."""
    return dev.backend.stream_current()


# -- the current stream ------------------------------------------------------------------------

@pytest.mark.parametrize("mode", EVERY)
def test_default_stream_and_with_block_restores(mode):
    dev = new_device(mode)
    default = dev.current_stream
    assert isinstance(default, okl.Stream) and default.default
    assert dev.current_stream is default  # the same object every time
    s1, s2 = dev.stream(), dev.stream()
    assert not s1.default and s1 is not s2
    with s1 as entered:
        assert entered is s1 and dev.current_stream is s1
        if mode != "serial" and mode != "openmp":
            assert _backend_current(dev) is s1.handle or _backend_current(dev) == s1.handle
        with s2:
            assert dev.current_stream is s2
            with s1:  # the same stream again, nested
                assert dev.current_stream is s1
            assert dev.current_stream is s2
        assert dev.current_stream is s1
        with pytest.raises(RuntimeError, match="inside"):
            with s2:
                assert dev.current_stream is s2
                raise RuntimeError("inside")
        assert dev.current_stream is s1
        if mode != "serial" and mode != "openmp":
            assert _backend_current(dev) == s1.handle
    assert dev.current_stream is default
    if mode != "serial" and mode != "openmp":
        assert _backend_current(dev) == default.handle


@pytest.mark.parametrize("mode", EVERY)
def test_set_stream_and_with_block(mode):
    dev = new_device(mode)
    default, s = dev.current_stream, dev.stream()
    dev.set_stream(s)
    assert dev.current_stream is s
    t = dev.stream()
    with t:
        dev.set_stream(default)  # inside a block: the block's exit restores s all the same
        assert dev.current_stream is default
    assert dev.current_stream is s
    dev.set_stream(default)
    assert dev.current_stream is default


@pytest.mark.parametrize("mode", _params(("cuda", "hip")))
def test_gpu_stream_is_cupys_current_stream(mode):
    dev = new_device(mode)
    import cupy

    did = dev.backend.device_id
    before = cupy.cuda.get_current_stream(did)
    s = dev.stream()
    assert isinstance(s.handle, cupy.cuda.Stream)
    with s:
        assert cupy.cuda.get_current_stream(did) == s.handle
    assert cupy.cuda.get_current_stream(did) == before


# -- launches on streams -----------------------------------------------------------------------

@pytest.mark.parametrize("mode", EVERY)
def test_launches_on_two_streams(mode):
    dev = new_device(mode)
    n = _n(mode)
    slow = dev.build_kernel_from_string(SLOW, "slowAddOne")
    x = np.arange(n, dtype=np.float32)
    a = dev.asarray(x)
    b1, b2 = dev.zeros(n, np.float32), dev.zeros(n, np.float32)
    s1, s2 = dev.stream(), dev.stream()
    with s1:
        slow(n, 50, a, b1)
    with s2:
        slow(n, 10, b1, b2)  # may race with s1 (no event): only b1 is checked before finish
    dev.finish()
    np.testing.assert_array_equal(b1.get(), x + 1)
    with s2:
        slow(n, 10, b1, b2)
    s2.finish()
    np.testing.assert_array_equal(b2.get(), x + 2)


@pytest.mark.parametrize("mode", EVERY)
def test_wait_orders_a_reader_after_the_writer(mode):
    dev = new_device(mode)
    n = _n(mode)
    slow = dev.build_kernel_from_string(SLOW, "slowAddOne")
    twice = dev.build_kernel_from_string(SLOW, "twice")
    x = np.arange(n, dtype=np.float32)
    a = dev.asarray(x)
    s1, s2 = dev.stream(), dev.stream()
    for _ in range(3):
        b, c = dev.zeros(n, np.float32), dev.zeros(n, np.float32)
        dev.finish()
        with s1:
            slow(n, 2000 if mode in GPU else 200, a, b)
            written = s1.record()
        s2.wait(written)
        with s2:
            twice(n, b, c)
        s2.finish()
        np.testing.assert_array_equal(c.get(), 2 * (x + 1))
        written.finish()


@pytest.mark.parametrize("mode", EVERY)
def test_events_time_in_order(mode):
    dev = new_device(mode)
    n = _n(mode)
    slow = dev.build_kernel_from_string(SLOW, "slowAddOne")
    a, b = dev.zeros(n, np.float32), dev.zeros(n, np.float32)
    s = dev.stream()
    with s:
        e0 = s.record()
        slow(n, 100, a, b)
        e1 = s.record()
        slow(n, 100, a, b)
        e2 = s.record()
    assert isinstance(e0, okl.Event) and e0.recorded and e0.stream is s
    e2.finish()
    first, both = dev.elapsed(e0, e1), dev.elapsed(e0, e2)
    assert isinstance(first, float) and isinstance(both, float)
    assert 0 <= first <= both
    assert dev.elapsed(e1, e1) == 0
    # the default stream records too; an event recorded again moves
    d0 = dev.current_stream.record()
    slow(n, 10, a, b)
    d1 = dev.current_stream.record()
    assert dev.elapsed(d0, d1) >= 0
    again = s.record(e0)
    assert again is e0
    dev.finish()
    assert dev.elapsed(e2, e0) >= 0


@pytest.mark.parametrize("mode", EVERY)
def test_elapsed_refuses_reversed_and_unrecorded_events(mode):
    dev = new_device(mode)
    s = dev.stream()
    e0 = s.record()
    time.sleep(0.02)  # the stream is idle: the second event is reached 20 ms later
    e1 = s.record()
    with pytest.raises(okl.ArgumentError, match="before the start event.*in order"):
        dev.elapsed(e1, e0)
    blank = okl.Event(dev)
    assert not blank.recorded
    blank.finish()  # nothing to wait for
    with pytest.raises(okl.ArgumentError, match="end event was never recorded"):
        dev.elapsed(e0, blank)
    with pytest.raises(okl.ArgumentError, match="never recorded"):
        s.wait(blank)
    s.record(blank)
    assert dev.elapsed(e0, blank) >= 0.015


@pytest.mark.parametrize("mode", HOST)
def test_host_events_are_perf_counter_times(mode):
    dev = new_device(mode)
    s = dev.stream()
    t0 = time.perf_counter()
    e = s.record()
    t1 = time.perf_counter()
    assert t0 <= e.handle <= t1
    s.wait(e)
    s.finish()
    e.finish()


@pytest.mark.parametrize("mode", EVERY)
def test_finish_waits_for_every_stream_and_forgets_dropped_ones(mode):
    dev = new_device(mode)
    n = _n(mode)
    slow = dev.build_kernel_from_string(SLOW, "slowAddOne")
    x = np.arange(n, dtype=np.float32)
    a = dev.asarray(x)
    outs = [dev.zeros(n, np.float32) for _ in range(3)]
    dev.finish()
    for out in outs:
        with dev.stream():  # dropped after the block: dev.finish() still waits for it
            slow(n, 100, a, out)
    dev.finish()
    for out in outs:
        np.testing.assert_array_equal(out.get(), x + 1)
    kept = dev.stream()
    dev.finish()
    assert [s for s in dev.__dict__["_streams"] if not s.default] == [kept]


# -- mistakes ----------------------------------------------------------------------------------

@pytest.mark.parametrize("mode", EVERY)
def test_streams_and_events_of_another_device(mode):
    dev, other = new_device(mode), new_device(mode)
    mine, theirs = dev.stream(), other.stream()
    with pytest.raises(okl.ArgumentError, match=r"belongs to okl\.Device.* not to okl\.Device"):
        dev.set_stream(theirs)
    with pytest.raises(okl.ArgumentError, match="dev.stream()"):
        dev.set_stream(other.current_stream)
    assert dev.current_stream.default
    with pytest.raises(okl.ArgumentError, match="the event belongs to"):
        mine.wait(theirs.record())
    with pytest.raises(okl.ArgumentError, match="the event belongs to"):
        mine.record(theirs.record())
    with pytest.raises(okl.ArgumentError, match="the start event belongs to"):
        dev.elapsed(theirs.record(), mine.record())
    with pytest.raises(okl.ArgumentError, match="the end event belongs to"):
        dev.elapsed(mine.record(), theirs.record())
    with pytest.raises(okl.ArgumentError, match="Device.elapsed.*okl.Event.*got int"):
        dev.elapsed(1, 2)
    with pytest.raises(okl.ArgumentError, match="Device.set_stream takes an okl.Stream"):
        dev.set_stream(None)
    with pytest.raises(okl.ArgumentError, match="Stream.wait takes an okl.Event"):
        mine.wait(mine)
    with pytest.raises(okl.ArgumentError, match="Stream.record takes an okl.Event"):
        mine.record("now")
    other.finish()
    dev.finish()


def test_streams_of_another_mode():
    dev, other = new_device("serial"), new_device("openmp")
    with pytest.raises(okl.ArgumentError, match=r"Device\('openmp'.*not to okl\.Device\('serial'"):
        dev.set_stream(other.stream())


# -- OpenCL: every launch path reads the current stream's queue --------------------------------

@pytest.fixture
def cl_enqueues(monkeypatch):
    """The queues pyopencl.enqueue_nd_range_kernel was called with (patched before the
    kernels are built, so the fast caller binds the recording function)."""
    skip_unless_available("opencl")
    import pyopencl as cl

    real = cl.enqueue_nd_range_kernel
    seen: list = []

    def record(queue, *args, **kwargs):
        seen.append(queue)
        return real(queue, *args, **kwargs)

    monkeypatch.setattr(cl, "enqueue_nd_range_kernel", record)
    return seen


@pytest.mark.parametrize("props, name, path", [
    ({}, "twice", "fast"),  # trivial host code: the generated caller
    ({}, "twoPasses", "host"),  # two device kernels: the caller with host code
    ({"check_bounds": True}, "twice", "general"),  # checked mode: gpu_launcher
], ids=["fast", "host", "general"])
def test_opencl_launches_use_the_current_queue(cl_enqueues, props, name, path):
    dev = new_device("opencl", **props)
    k = dev.build_kernel_from_string(SLOW, name)
    source = getattr(k._fast, "source", "")
    if path == "fast":
        assert "_qs[0]" in source
    elif path == "general":
        assert k._call == k._checked_launch
    n = 256
    x = np.arange(n, dtype=np.float32)
    b, c = dev.asarray(x), dev.zeros(n, np.float32)
    args = (n, b, c) if name == "twice" else (n, c)
    s = dev.stream()
    expected = 2 * x if name == "twice" else np.arange(n, dtype=np.float32) + 1
    for stream in (dev.current_stream, s, dev.current_stream, s):
        cl_enqueues.clear()
        with stream:
            k(*args)
            got = c.get()  # copies follow the current stream too
        np.testing.assert_array_equal(got, expected)
        assert cl_enqueues and all(q is stream.handle for q in cl_enqueues), path
    assert dev.backend.queue is dev.current_stream.handle
    dev.finish()


def test_opencl_queues_are_timed_and_share_the_context():
    dev = new_device("opencl")
    import pyopencl as cl

    s = dev.stream()
    for q in (s.handle, dev.current_stream.handle):
        assert q.context == dev.backend.context and q.device == dev.backend.cl_device
        if dev.backend._profiling:
            assert q.properties & cl.command_queue_properties.PROFILING_ENABLE


def test_readme_example_runs():
    """README's "Streams and events" example, as it is shown (on serial)."""
    readme = (pathlib.Path(__file__).resolve().parent.parent / "README.md").read_text()
    section = readme[readme.index("## Streams and events"):]
    section = section[:section.index("\n## ", 1)]
    code = re.search(r"```python\n(.*?)```", section, re.S).group(1)
    assert 'okl.Device("serial")' in code
    skip_unless_available("serial")
    exec(compile(code, "README.md (Streams and events)", "exec"), {})  # noqa: S102


def test_stream_priority_is_a_hint_on_cpu_and_a_named_error_when_misspelt():
    """dev.stream(priority="high") is a high-priority CUDA stream on GPUs (checked in
    test_high_priority_stream_on_gpus); elsewhere an ordinary stream that works as one;
    a priority that does not exist is an ArgumentError naming the choices."""
    dev = okl.Device("serial")
    s = dev.stream(priority="high")
    with s:
        a = dev.asarray(np.arange(3.0))
    assert a.get().tolist() == [0.0, 1.0, 2.0]
    with pytest.raises(okl.ArgumentError, match="'normal', 'high'"):
        dev.stream(priority="urgent")


@pytest.mark.gpu
def test_high_priority_stream_on_gpus():
    skip_unless_available("cuda")
    dev = okl.Device("cuda")
    high, normal = dev.stream(priority="high"), dev.stream()
    assert high.handle.priority < normal.handle.priority  # CUDA: lower is higher


@pytest.mark.gpu
def test_the_default_stream_finishes_on_its_own_gpu():
    """On a Device of GPU 1 the default stream is CuPy's null stream, which names the legacy
    stream of whichever GPU is current: ``finish()`` must wait for GPU 1's, not GPU 0's.  A
    copy queued behind a long stretch of work on GPU 1 is read once the stream has finished
    (a finish on GPU 0's null stream returned at once and the read found the old bytes)."""
    skip_unless_available("cuda")
    import cupy
    if cupy.cuda.runtime.getDeviceCount() < 2:
        pytest.skip("needs two GPUs (the bug was GPU 1's stream finished as GPU 0's)")
    dev = okl.Device("cuda", device_id=1)
    s = dev.current_stream
    busy = dev.zeros(1 << 26, np.float64)
    src = dev.asarray(np.arange(4.0))
    for round_ in range(3):
        with cupy.cuda.Device(1):
            x = busy.handle
            for _ in range(30):  # ~tens of ms of queued work on GPU 1's null stream
                x *= 1.0000001
        host = dev.pinned(4, np.float64)
        host[:] = -1.0
        with s:
            src.copy_to(host, blocking=False)
        cupy.cuda.runtime.setDevice(0)  # another GPU current, as in a program using both
        s.finish()
        assert host.tolist() == [0.0, 1.0, 2.0, 3.0], round_
