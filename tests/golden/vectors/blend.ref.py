import numpy as np

KERNEL = "blend"
RTOL = 1e-6

DOUBLE4 = np.dtype([("x", "f8"), ("y", "f8"), ("z", "f8"), ("w", "f8")])


def make(rng):
    n = 77
    p = np.zeros(n, DOUBLE4)
    for f in "xyzw":
        p[f] = rng.random(n)
    w = rng.random((n, 2), dtype=np.float32)  # float2 as 2 float32 values per element
    return [n, p, w, (1.5, -0.25), np.zeros(n, DOUBLE4), np.zeros((n, 2), np.float32)]


def reference(args):
    n, p, w, scale, out, sums = args
    out["x"] = p["x"] * w[:, 0]
    out["y"] = p["y"] * w[:, 1]
    out["z"] = p["z"] + scale[0]
    out["w"] = p["w"] * scale[1] + p["x"]
    sums[:, 0] = w[:, 0] + w[:, 1]
    sums[:, 1] = (p["x"] + p["y"] + p["z"] + p["w"]).astype(np.float32)
    return {4: out, 5: sums}
