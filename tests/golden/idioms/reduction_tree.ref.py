import numpy as np

KERNEL = "reduceSum"
RTOL = 1e-4


def make(rng):
    n = 1000  # not a multiple of the block: the last block is partial
    return [n, rng.random(n, dtype=np.float32), np.zeros((n + 255) // 256, np.float32)]


def reference(args):
    n, x, sums = args
    padded = np.zeros(len(sums) * 256, np.float32)
    padded[:n] = x
    return {2: padded.reshape(-1, 256).sum(axis=1, dtype=np.float64).astype(np.float32)}
