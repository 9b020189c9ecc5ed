#!/bin/bash
# Run benchParanumal's BK/BP drivers built by build.sh: one line per problem:degree
# ("BK5:3 BP1:7 ..."), 4 M DOFs by benchParanumal's run-script rule (NDOFS overrides), mode
# MODE (CUDA, OpenMP, ...).  BPs run with -v (CG's residual after every iteration: the printf
# comes after the iteration's last read-back).  With DUMPS=DIR each run writes its outputs
# (okl_dump.hpp) and its log to DIR/<problem>-N<degree>/; with DUMP_SETUP=1 also the mesh
# arrays and numbering.  Usage: run.sh WORK MODE PROBLEM:DEGREE...
set -uo pipefail
work=$(realpath "$1") mode=$2; shift 2
export PATH=$work/mpich/bin:$PATH LD_LIBRARY_PATH=$work/blas:$work/mpich/lib:${LD_LIBRARY_PATH:-}
export OCCA_DIR=$work/benchparanumal/occa OCCA_CACHE_DIR=${OCCA_CACHE_DIR:-$work/occa-cache}
cd "$work/benchparanumal"
for spec in "$@"; do
  prob=${spec%%:*} p=${spec##*:} kind=${spec:0:2}
  nf=1; case $prob in *2|*4|*6) nf=3;; esac
  nx=$(python3 -c "print(int(f'{(${NDOFS:-4e6}/($nf*$p**3))**(1/3)+0.499:3.0f}'))")
  verbose=""; [ "$kind" = BP ] && verbose="-v"
  if [ -n "${DUMPS:-}" ]; then
    export OKL_DUMP=$DUMPS/$prob-N$p; mkdir -p "$OKL_DUMP"
    [ -n "${DUMP_SETUP:-}" ] && export OKL_DUMP_SETUP=1
  fi
  t0=$(date +%s.%N)
  ./$kind/$prob/$prob -m "$mode" -e Hex -nx $nx -ny $nx -nz $nx -p $p $verbose > /tmp/bp-run.log 2>&1
  rc=$?
  [ -n "${DUMPS:-}" ] && cp /tmp/bp-run.log "$OKL_DUMP/log.txt"
  grep -E "^B[KP][0-9]:|rror" /tmp/bp-run.log | head -3
  [ $rc -ne 0 ] && tail -5 /tmp/bp-run.log
  echo "  [$prob p=$p nx=$nx rc=$rc wall $(python3 -c "import time;print(round(time.time()-$t0,1))") s]"
done
