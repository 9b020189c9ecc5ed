"""Struct by value (with a nested struct) and arrays of structs; the grid reads p.n."""
import numpy as np

KERNEL = "step"
VEC3 = np.dtype([("x", np.float32), ("y", np.float32), ("z", np.float32)], align=True)
PARAMS = np.dtype([("n", np.int32), ("dt", np.float32), ("gravity", VEC3)], align=True)


def make(rng):
    n = 100
    p = np.zeros((), PARAMS)
    p["n"], p["dt"], p["gravity"] = n, 0.5, (0.0, 0.0, -9.8)
    vel = rng.random(n * 3, dtype=np.float32).view(VEC3)
    pos = rng.random(n * 3, dtype=np.float32).view(VEC3)
    return [p, vel, pos]


def reference(args):
    p, vel, pos = args
    g = np.array(p["gravity"].tolist(), np.float32)
    dt = np.float32(p["dt"])
    v = np.stack([vel["x"], vel["y"], vel["z"]], 1) + dt * g
    x = np.stack([pos["x"], pos["y"], pos["z"]], 1) + dt * v
    out = np.zeros_like(pos)
    out["x"], out["y"], out["z"] = x[:, 0], x[:, 1], x[:, 2]
    return {2: out}
