import numpy as np

KERNEL = "renameScopes"


def make(rng):
    nb = 3
    return [nb, rng.random(nb * 16, dtype=np.float32), np.zeros(nb * 16, np.float32)]


def reference(args):
    nb, tile1, out = args
    first = tile1.reshape(nb, 16)[:, ::-1]
    tile = 2.0 * first
    result = tile * 0.5 + np.roll(tile, -1, axis=1)
    return {2: result.astype(np.float32).reshape(-1)}
