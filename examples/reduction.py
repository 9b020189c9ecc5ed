"""Sum an array with examples/reduction.okl on every backend that works here; check with numpy."""
import pathlib

import numpy as np

import okl

x = np.random.default_rng(0).random(1_000_003, dtype=np.float32)
expected = x.sum(dtype=np.float64)
for backend in okl.backends():
    if not backend.available:
        print(f"{backend.name:7} skipped: {backend.reason}")
        continue
    dev = okl.Device(backend.name)
    kernel = dev.build_kernel(pathlib.Path(__file__).with_name("reduction.okl"), "blockSum")
    sums = dev.malloc((x.size + 255) // 256, np.float32)  # one partial sum per block
    kernel(x.size, dev.asarray(x), sums)  # launch sizes come from the kernel's loops
    total = sums.get().sum(dtype=np.float64)
    assert np.isclose(total, expected, rtol=1e-5), (backend.name, total, expected)
    print(f"{backend.name:7} sum = {total:.3f} (numpy: {expected:.3f}) on {dev.name}")
