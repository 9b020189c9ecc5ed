#!/bin/bash
# benchParanumal links -lopenblas (BLAS and LAPACK); the scipy-openblas32 wheel's library has
# every symbol with a scipy_ prefix.  Make DIR/libopenblas.so: one "jmp scipy_NAME@PLT" stub per
# exported symbol, linked against the wheel's libscipy_openblas.so (copied into DIR).
# Usage: blas_shim.sh DIR path/to/scipy_openblas32-*.whl
set -euo pipefail
dir=$1 wheel=$2
mkdir -p "$dir" && cd "$dir"
python3 -c "import zipfile,sys; z=zipfile.ZipFile(sys.argv[1]); n=[x for x in z.namelist() if x.endswith('libscipy_openblas.so')][0]; open('libscipy_openblas.so','wb').write(z.read(n))" "$wheel"
{
  echo '.section .note.GNU-stack,"",@progbits'
  echo '.text'
  nm -D --defined-only libscipy_openblas.so | awk '$2 == "T" && $3 ~ /^scipy_/ {print substr($3, 7)}' |
    while read -r name; do
      printf '.globl %s\n.type %s, @function\n%s: jmp scipy_%s@PLT\n' "$name" "$name" "$name" "$name"
    done
} > shim.S
gcc -shared -fPIC -o libopenblas.so shim.S -L. -lscipy_openblas -Wl,-rpath,'$ORIGIN'
echo "$dir/libopenblas.so: $(grep -c '^\.globl' shim.S) symbols"
