import numpy as np

KERNEL = "edgeDiff"
RTOL = 0.0


def make(rng):
    nedge, nnode = 301, 97  # not a multiple of 64: the last block's lanes past nedge
    enode = rng.integers(0, nnode, size=2 * nedge).astype(np.int32)
    flag = rng.integers(0, 2, size=nedge).astype(np.int32)
    x = rng.random(2 * nnode)
    return [np.int32(nedge), enode, flag, x, np.zeros(nedge)]


def reference(args):
    """d[e] = x[2 n1] - x[2 n0] + x[2 n1 + 1] - x[2 n0 + 1] where flag[e], else d stays 0."""
    nedge, enode, flag, x, d = args
    n0, n1 = enode[0::2], enode[1::2]
    out = np.where(flag != 0, x[2 * n1] - x[2 * n0] + x[2 * n1 + 1] - x[2 * n0 + 1], 0.0)
    return {4: out}
