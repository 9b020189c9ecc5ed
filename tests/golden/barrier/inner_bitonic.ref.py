import numpy as np

KERNEL = "bitonic"


def make(rng):
    nb = 4
    return [nb, rng.random(nb * 64).astype(np.float32)]


def reference(args):
    nb, keys = args
    return {1: np.sort(keys.reshape(nb, 64), axis=1).ravel()}
