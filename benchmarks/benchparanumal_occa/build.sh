#!/bin/bash
# Build OCCA (benchParanumal's pin, patched for CUDA 13's cuMemAdvise/cuMemPrefetchAsync) and
# benchParanumal (with okl_dump.hpp's calls) in WORK, once.  MPI from the mpich wheel, BLAS and
# LAPACK from the scipy-openblas32 wheel (blas_shim.sh).
# Usage: build.sh WORK SRC.tar.gz MPICH.whl SCIPY_OPENBLAS32.whl
set -euo pipefail
here=$(dirname "$(realpath "$0")")
work=$1 src=$(realpath "$2") mpich=$(realpath "$3") blas=$(realpath "$4")
jobs=$(nproc)
if [ -x "$work/benchparanumal/BP/BP6/BP6" ]; then exit 0; fi
mkdir -p "$work" && cd "$work"
tar xzf "$src"
mkdir -p mpich && python3 -c "
import zipfile, sys, os, stat
z = zipfile.ZipFile(sys.argv[1])
for n in z.namelist():
    if '.data/data/' in n and not n.endswith('/'):
        dst = os.path.join('mpich', n.split('.data/data/', 1)[1])
        os.makedirs(os.path.dirname(dst), exist_ok=True)
        open(dst, 'wb').write(z.read(n))
        if '/bin/' in n: os.chmod(dst, 0o755)" "$mpich"
bash "$here/blas_shim.sh" "$work/blas" "$blas"
export PATH=$work/mpich/bin:$PATH
python3 "$here/cuda13.py" benchparanumal/occa/src/occa/internal/modes/cuda/utils.cpp
python3 "$here/dump.py" benchparanumal
t0=$(date +%s)
make -C benchparanumal/occa -j"$jobs" > occa.log 2>&1 || { tail -30 occa.log; exit 1; }
echo "OCCA built in $(( $(date +%s) - t0 )) s"
t0=$(date +%s)
make -C benchparanumal -j"$jobs" LIBP_BLAS_DIR="$work/blas" > bp.log 2>&1 || { tail -40 bp.log; exit 1; }
echo "benchParanumal built in $(( $(date +%s) - t0 )) s"
