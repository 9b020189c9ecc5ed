import numpy as np

KERNEL = "countdown"


def make(rng):
    n = 10
    return [n, np.full(3 * n + 3, -1, np.int32)]


def reference(args):
    n, x = args
    x = x.copy()
    for b in range(n - 1, -1, -3):
        for t in range(12, 0, -4):
            x[b * 3 + t // 4 - 1] = b + t
    return {1: x}
