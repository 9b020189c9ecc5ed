import numpy as np

KERNEL = "mixed"


def make(rng):
    nb, m = 3, 50  # m > 32: the first block is the smaller one
    return [nb, m, rng.random(nb * 32, dtype=np.float32), np.zeros(nb * 32, np.float32),
            np.full(nb * m + 8, 7.0, np.float32)]


def reference(args):
    nb, m, x, y, z = args
    z = z.copy()
    z[:nb * m] = 0.0
    return {3: x.copy(), 4: z}
