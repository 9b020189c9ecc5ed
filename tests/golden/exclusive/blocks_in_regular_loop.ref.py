import numpy as np

KERNEL = "iterate"


def make(rng):
    nb, steps = 3, 5
    return [nb, steps, rng.random(nb * 16, dtype=np.float32)]


def reference(args):
    nb, steps, x = args
    r = x.astype(np.float32).copy()
    for _ in range(steps):
        r = np.float32(0.5) * r + np.float32(1.0)
    return {2: r}
