"""The backends okl translates for, in the order every table lists them."""

MODES = ("serial", "openmp", "opencl", "cuda", "hip")
