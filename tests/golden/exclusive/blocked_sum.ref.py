import numpy as np

KERNEL = "blockedSum"
RTOL = 0.0  # every backend adds in OKL's order: the same bits


def make(rng):
    n = 3 * 256 + 77  # three full blocks and a part block
    x = (rng.standard_normal(n) * 1e3).astype(np.float32)
    return [np.int32(n), x, np.full(4, np.nan, np.float32)]


def reference(args):
    """Lane t of block b sums x[(4 b + u) 64 + t] for u = 0..3 in turn (in float32), then
    the tree adds lane t + n into lane t for n = 32, 16, ..., 1."""
    n, x, _ = args
    nb = (int(n) + 255) // 256
    padded = np.zeros(nb * 256, np.float32)
    padded[:int(n)] = x
    s = np.zeros((nb, 64), np.float32)
    for u in range(4):
        s += padded.reshape(nb, 4, 64)[:, u, :]
    w = 32
    while w:
        s[:, :w] += s[:, w:2 * w]
        w //= 2
    return {2: s[:, 0]}
