import numpy as np

KERNEL = "csrLanes"


def make(rng):
    n = 7  # odd: the last @outer block has a row past the end
    counts = rng.integers(0, 5, n)
    row_ptr = np.concatenate([[0], np.cumsum(counts)]).astype(np.int32)
    nnz = int(row_ptr[-1])
    col = rng.integers(0, n, nnz).astype(np.int32)
    a = rng.random(nnz * 12, dtype=np.float32)
    x = rng.random(n * 3, dtype=np.float32)
    return [n, row_ptr, col, a, x, np.zeros(n * 12, np.float32)]


def reference(args):
    n, row_ptr, col, a, x, y = args
    y = np.ones((n, 12), np.float64)
    a = a.reshape(-1, 12).astype(np.float64)
    for i in range(n):
        for m in range(row_ptr[i], row_ptr[i + 1]):
            y[i] += a[m] * np.repeat(x[col[m] * 3:col[m] * 3 + 3].astype(np.float64), 4)
    return {5: y.ravel().astype(np.float32)}
