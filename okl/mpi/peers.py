"""Small all-reduces between the GPUs of one host through each other's memory (CUDA IPC).

Why: a Krylov solver's dots are all-reduces of one or two numbers, twice per iteration.
NCCL's all-reduce of one double costs 20-25 us on 2-4 H200s of one host (the probe in
benchmarks/results/mpi-gpu-*-probe.json) -- a tenth of a BP5 iteration's 0.4 ms -- and the
host's MPI_Allreduce needs the value read back first, which leaves the GPU idle at every
dot.  Between GPUs of one host that can reach each other's memory (NVLink or PCIe peer
access), one small kernel does it in a few microseconds: each rank writes its values into
its slot of every rank's box, then a flag; it waits until every rank's flag in its own box
has arrived, and adds the slots in rank order.  Every rank adds the same numbers in the same
order, so every rank gets the same bits, as from NCCL.  It is queued on the stream like any
kernel: the host does not wait.

The box of each rank is one cudaMalloc allocation (not CuPy's pool: an IPC handle names a
whole allocation), opened by every other rank with cudaIpcOpenMemHandle; its layout::

    flags: MAX_RANKS uint64       the sequence number of the last values rank r wrote here
    slots: 2 x MAX_RANKS x LIMIT  values, by parity of the sequence number, then by rank
    count: uint64                 this rank's calls so far (its last sequence number)

The sequence number lives on the device (each call reads ``count``, adds one, and writes it
back as it ends), so a call's arguments are the same every time: a CUDA graph that captured
one (okl.runtime.graph) adds correctly each time it is launched.

Two parities make reuse safe: a rank starts call s+2 only after every rank has arrived at
call s+1, which each starts only after its own call s -- the last reader of the slots call
s+2 writes -- has finished.  That argument needs a rank's calls to run in the order they were
made, so each call waits for the previous one's event when it is queued on another stream.
Like NCCL and MPI, a rank that never makes a call every other rank made leaves them waiting
(the kernel spins on one block; the rest of the GPU keeps working).

With a ``fold`` (Communicator.allreduce's ``out=``), the kernel first adds up to FOLD_LIMIT
values of its own rank into the one value it sends -- a dot's per-block partial sums -- so
that finishing a dot and summing it over the ranks is one launch, not two.

Used by okl.mpi.Communicator on cuda (not hip), whatever carries its exchanges, when every
rank is on one host and a test all-reduce through the boxes gives the right answer on every
rank; its ``reason`` says so.  Larger all-reduces go the mode's way (NCCL, MPI).
"""

from __future__ import annotations

from typing import Any

import numpy as np

#: values per all-reduce that go through the boxes (more: NCCL)
LIMIT = 16
#: values one kernel folds into one before adding it through the boxes (``fold``), and its
#: threads
FOLD_LIMIT = 1 << 14
FOLD_THREADS = 256
#: ranks of one host that the boxes hold
MAX_RANKS = 32
_FLAGS = MAX_RANKS * 8
_COUNT = _FLAGS + 2 * MAX_RANKS * LIMIT * 8
_BYTES = _COUNT + 8

_CTYPES = {"int8": "signed char", "uint8": "unsigned char", "int32": "int",
           "uint32": "unsigned int", "int64": "long long", "uint64": "unsigned long long",
           "float32": "float", "float64": "double"}
_OPS = {"sum": "a + b", "max": "(b > a ? b : a)", "min": "(b < a ? b : a)"}

_SOURCE = r"""
typedef %(T)s T;
__device__ __forceinline__ T okl_op(T a, T b) { return %(OP)s; }

extern "C" __global__ void okl_peer_allreduce(T* mem, const int n, const T* in, const int m,
                                              const unsigned long long* boxes,
                                              const int rank, const int size)
{
  __shared__ unsigned long long seq_shared;
  __shared__ T fold[%(FOLD)d];
  const int t = threadIdx.x;
  volatile unsigned long long* count =
      (volatile unsigned long long*)((char*)boxes[rank] + %(COUNT)d);
  if (t == 0) seq_shared = *count + 1ull;
  T mine = t < n && m == 0 ? mem[t] : (T)0;
  if (m > 0) {  /* folded first (n is 1): each thread its strided values in order, a tree */
    if (t < m) {
      T acc = in[t];
      for (int i = t + blockDim.x; i < m; i += blockDim.x) acc = okl_op(acc, in[i]);
      fold[t] = acc;
    }
    __syncthreads();
    for (int w = blockDim.x / 2; w > 0; w /= 2) {
      if (t < w && t + w < m) fold[t] = okl_op(fold[t], fold[t + w]);
      __syncthreads();
    }
    mine = fold[0];
  }
  __syncthreads();
  const unsigned long long seq = seq_shared;
  const size_t parity = (size_t)(seq & 1ull);
  if (t < n) {
    for (int p = 0; p < size; ++p) {
      volatile T* slot = (volatile T*)((char*)boxes[p] + %(FLAGS)d)
                         + (parity * %(MAXR)d + rank) * %(LIMIT)d;
      slot[t] = mine;
    }
  }
  __threadfence_system();  /* the values reach every box before any flag does */
  __syncthreads();
  if (t < size) {
    volatile unsigned long long* flags = (volatile unsigned long long*)boxes[t];
    flags[rank] = seq;
  }
  if (t < size) {
    volatile unsigned long long* flags = (volatile unsigned long long*)boxes[rank];
    while (flags[t] < seq) { }
  }
  __syncthreads();
  __threadfence();
  if (t < n) {
    volatile const T* base = (volatile const T*)((char*)boxes[rank] + %(FLAGS)d)
                             + parity * %(MAXR)d * %(LIMIT)d;
    T acc = base[t];
    for (int r = 1; r < size; ++r) acc = okl_op(acc, base[r * %(LIMIT)d + t]);
    mem[t] = acc;
  }
  if (t == 0) *count = seq;  /* the next call, later on the stream, reads it */
}
"""


class PeerSums:
    """The boxes of one Communicator's ranks, and the kernels that add through them."""

    def __init__(self, cupy: Any, dev: Any, rank: int, size: int) -> None:
        self._cp = cupy
        self._dev = dev
        self.rank, self.size = rank, size
        self._box = 0  # this rank's allocation (a device pointer)
        self._opened: list[int] = []  # the other ranks' boxes, mapped here
        self._boxes: Any = None  # device array of every rank's box pointer, by rank
        self._kernels: dict[tuple[str, str], Any] = {}
        self._rank32, self._size32 = np.int32(rank), np.int32(size)
        self._last: Any = None  # the CuPy stream of the last call

    # -- set-up: each step is one rank's; Communicator agrees on the outcome between them --
    def allocate(self) -> bytes:
        """This rank's box (zeroed) and its IPC handle, to be given to every other rank."""
        rt = self._cp.cuda.runtime
        with self._dev.backend.cp_device:
            self._box = rt.malloc(_BYTES)
            rt.memset(self._box, 0, _BYTES)
            rt.deviceSynchronize()
            return bytes(rt.ipcGetMemHandle(self._box))

    def open(self, handles: list[bytes]) -> None:
        """Map every other rank's box (``handles`` by rank) and keep the pointer table."""
        rt = self._cp.cuda.runtime
        pointers = []
        with self._dev.backend.cp_device:
            for r, handle in enumerate(handles):
                if r == self.rank:
                    pointers.append(self._box)
                    continue
                ptr = rt.ipcOpenMemHandle(handle)
                self._opened.append(ptr)
                pointers.append(ptr)
            self._boxes = self._cp.asarray(np.array(pointers, dtype=np.uint64))

    def test(self) -> str:
        """An all-reduce of (rank + 1) through the boxes, twice (both parities): "" if every
        sum is right, else what came back."""
        cp = self._cp
        with self._dev.backend.cp_device:
            stream = cp.cuda.Stream()
            got = []
            for _ in range(2):
                values = cp.full(2, self.rank + 1, dtype=np.float64)
                self._launch(values.data.ptr, 2, 0, 0, "float64", "sum", stream)
                stream.synchronize()
                got.append(values.get().tolist())
            self._last = None
        want = float(self.size * (self.size + 1) // 2)
        if all(v == want for pair in got for v in pair):
            return ""
        return f"a test all-reduce through peer memory gave {got}, not {want}"

    # -- use ---------------------------------------------------------------------------------
    def allreduce(self, mem: Any, op: str, stream: Any, fold: Any = None) -> None:
        """``mem`` (an okl.Memory of at most LIMIT contiguous values) replaced by its ``op``
        over the ranks, queued on ``stream`` (an okl.Stream).  With ``fold`` (at most
        FOLD_LIMIT contiguous values), ``mem`` is one value: the ``op`` over the ranks of
        the ``op`` of each rank's ``fold`` -- the two steps of a dot product's sum in one
        kernel (each thread folds its strided values in order, then a tree of the
        threads)."""
        s = stream.handle
        last = self._last
        if last is not None and last is not s and not stream.capturing:
            # calls run in the order they were made (see the module): after everything queued
            # on the last call's stream so far, which includes that call.  (A call captured
            # into a graph runs where the graph is launched: the caller orders that launch,
            # as it orders NCCL's captured calls; CUDA refuses a capture that waits for work
            # outside it.)
            with self._dev.backend.cp_device:  # (a null stream is the current device's)
                event = self._cp.cuda.Event(disable_timing=True)
                event.record(last)
                s.wait_event(event)
        if fold is None:
            self._launch(mem.handle.data.ptr, mem.size, 0, 0, mem.dtype.name, op, s)
        else:
            self._launch(mem.handle.data.ptr, 1, fold.handle.data.ptr, fold.size,
                         mem.dtype.name, op, s)

    def kernel(self, dtype: str, op: str) -> Any:
        """The all-reduce kernel for ``dtype`` and ``op`` (built at its first use)."""
        kernel = self._kernels.get((dtype, op))
        if kernel is None:
            code = _SOURCE % {"T": _CTYPES[dtype], "OP": _OPS[op], "FLAGS": _FLAGS,
                              "MAXR": MAX_RANKS, "LIMIT": LIMIT, "COUNT": _COUNT,
                              "FOLD": FOLD_THREADS}
            with self._dev.backend.cp_device:
                module = self._cp.RawModule(code=code)
                kernel = self._kernels[(dtype, op)] = module.get_function("okl_peer_allreduce")
        return kernel

    def _launch(self, ptr: int, n: int, fold: int, m: int, dtype: str, op: str,
                s: Any) -> None:
        kernel = self.kernel(dtype, op)
        args = (ptr, np.int32(n), fold, np.int32(m), self._boxes, self._rank32, self._size32)
        with self._dev.backend.on_device():
            kernel((1,), (FOLD_THREADS if m else MAX_RANKS,), args, stream=s)
        self._last = s

    # -- the end -------------------------------------------------------------------------------
    def unmap(self) -> None:
        """Unmap the other ranks' boxes (before any rank frees its own: a barrier between),
        once every kernel of this GPU has finished -- on any stream, not only the current
        one: a peer kernel still running writes into the other ranks' boxes."""
        rt = self._cp.cuda.runtime
        with self._dev.backend.cp_device:
            if self._opened:
                rt.deviceSynchronize()
            for ptr in self._opened:
                rt.ipcCloseMemHandle(ptr)
        self._opened = []
        self._boxes = None

    def free(self) -> None:
        """Free this rank's box (after every rank unmapped it)."""
        if self._box:
            with self._dev.backend.cp_device:
                self._cp.cuda.runtime.free(self._box)
            self._box = 0
