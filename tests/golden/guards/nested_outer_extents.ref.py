import numpy as np

KERNEL = "twoGrids"


def make(rng):
    nz, na, nb2 = 2, 3, 5
    return [nz, na, nb2, np.zeros(nz * na * 16 + 8, np.float32),
            np.zeros(nz * nb2 * 16 + 8, np.float32)]


def reference(args):
    nz, na, nb2, a, b = args
    a, b = a.copy(), b.copy()
    a[:nz * na * 16] = 1.0
    b[:nz * nb2 * 16] = 2.0
    return {3: a, 4: b}
