import numpy as np

KERNEL = "scaleGroups"


def make(rng):
    groups = 5  # odd: the last tile of 2 runs its bounds guard
    return [groups, rng.random(groups * 16, dtype=np.float32),
            np.full(groups * 16, -1.0, dtype=np.float32)]


def reference(args):
    groups, x, y = args
    out = y.copy().reshape(groups, 16)
    t = np.arange(16, dtype=np.float32) % 8
    for g in range(groups):
        if g % 3 != 1:
            out[g] = 2.0 * x.reshape(groups, 16)[g] + t
    return {2: out.reshape(-1)}
