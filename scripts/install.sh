#!/usr/bin/env bash
# Installs everything okl's tests need on a Debian-like machine: the system compilers used to
# check generated code (cpp/cc, clang-14 for HIP), Debian's PoCL (a CPU OpenCL device that
# works on any x86-64 CPU, see README) and the Python package with its extras.  Ends by
# checking that the OpenCL mode can build a kernel, so a broken OpenCL set-up fails here, with
# its reason, and not as a hundred failing tests.
set -euo pipefail
packages=()
command -v clang-14 >/dev/null 2>&1 || packages+=(clang-14)
[ "$(dpkg-query -W -f='${Status}' pocl-opencl-icd 2>/dev/null)" = "install ok installed" ] \
  || packages+=(pocl-opencl-icd)
# Python's headers: okl's native launch path for serial and openmp is C built against them
# (a Debian python3 has them in python3-dev; pyenv and python.org builds ship them)
python -c 'import os, sys, sysconfig
sys.exit(not os.path.exists(os.path.join(sysconfig.get_paths()["include"], "Python.h")))' \
  || packages+=(python3-dev)
if [ ${#packages[@]} -gt 0 ]; then
  SUDO=""; [ "$(id -u)" -ne 0 ] && SUDO="sudo"
  $SUDO apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq "${packages[@]}" >/dev/null
fi
python -m pip install -q -e ".[test,opencl,pocl,docs]"
oklc info
python - <<'PY'
import sys

import okl

opencl = {b.name: b for b in okl.backends()}["opencl"]
if not opencl.available:
    sys.exit(f"install.sh: the opencl mode cannot run here: {opencl.reason}")
PY
