import numpy as np

KERNEL = "demo"
RTOL = 1e-4


def make(rng):
    n = 100
    return [n, rng.random(n, dtype=np.float32), np.zeros(n, np.float32), np.zeros(1, np.float32)]


def reference(args):
    n, a, b, total = args
    coeff1 = np.float32(2.0)
    nb = (n + 15) // 16
    out = np.zeros(n, np.float32)
    for g in range(nb):
        r = np.array([a[g * 16 + i] if g * 16 + i < n else 0 for i in range(16)], np.float32)
        s = r.copy()
        for _ in range(2):
            s = s + coeff1 * r
        for i in range(16):
            if g * 16 + i < n:
                out[g * 16 + i] = np.sqrt(s[15 - i])
    out += 1.0
    return {2: out, 3: np.array([a.sum()], np.float32)}
