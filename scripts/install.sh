#!/usr/bin/env bash
# Installs everything okl's tests need on a Debian-like machine: the system compilers used to
# check generated code (cpp/cc, clang-14 for HIP) and the Python package with its extras.
set -euo pipefail
if ! command -v clang-14 >/dev/null 2>&1; then
  SUDO=""; [ "$(id -u)" -ne 0 ] && SUDO="sudo"
  $SUDO apt-get update -qq
  $SUDO apt-get install -y -qq clang-14 >/dev/null
fi
python -m pip install -q -e ".[test,opencl,pocl]"
