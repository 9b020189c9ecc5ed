import numpy as np

KERNEL = "everyOther"


def make(rng):
    n = 301
    return [n, np.ones(n + 130, np.float32)]


def reference(args):
    n, x = args
    x = x.copy()
    x[0:n:2] = 0.0
    return {1: x}
