"""okl benchmark suite: okl-generated kernels against hand-written peers, in one run.

``python -m benchmarks run --mode cuda|hip|opencl|openmp|serial|all [--quick] [--out FILE]``
``python -m benchmarks report [FILES...]``

See benchmarks/README.md.
"""
