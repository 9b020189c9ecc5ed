import numpy as np

KERNEL = "shiftSum"


def make(rng):
    n = 100
    return [n, rng.random(n).astype(np.float32), np.zeros(n, np.float32),
            np.zeros(n, np.float32)]


def reference(args):
    n, x, _, _ = args
    y = np.zeros(n, np.float64)
    s = np.zeros(n, np.float64)
    for start in range(0, n, 32):
        seg = x[start:start + 32].astype(np.float64)
        left = np.concatenate([[0.0], seg[:-1]])
        s[start:start + len(seg)] = left + seg
    for start in range(0, n, 32):
        part = s[start:start + 32]
        nxt = np.concatenate([part[1:], [0.0]])
        y[start:start + len(part)] = part + nxt
    return {1 + 2: y.astype(np.float32)}
