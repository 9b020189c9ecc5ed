import numpy as np

KERNEL = "privates"


def make(rng):
    nb = 3
    return [nb, 1, rng.integers(-9, 9, nb * 32).astype(np.int32), np.zeros(nb * 32, np.int32)]


def reference(args):
    nb, mode, x, _ = args
    y = np.zeros(nb * 32, np.int64)
    for b in range(nb):
        s = x[b * 32:(b + 1) * 32].astype(np.int64)
        t = np.arange(32)
        acc = np.zeros((32, 3), np.int64)
        acc[:, 0], acc[:, 1] = 1, 2
        acc[:, 2] = s[31 - t] if mode > 0 else s[(t + 1) % 32]
        for r in range(8):
            if r == 5:
                break
            if r == 1:
                continue
            acc[:, 0] += s[(t + r) % 32]
            acc[:, 1] += sum(q for q in range(min(r, 4)))
        out = acc.sum(axis=1) + 2 * s + (t < 16)
        y[b * 32:(b + 1) * 32] = out + s
    return {3: y.astype(np.int32)}
