#!/usr/bin/env bash
# okl's full set-up on a Debian-like machine: okl from this checkout with everything its tests
# need, in a venv.  README's first command; .ci/run runs it too.
#
#   bash scripts/install.sh [--venv DIR] [--dry-run] [--help]
#
# 1. looks at the machine: the Python ($PYTHON, default python3), a venv, a C compiler, ...;
# 2. installs the system packages that are missing, through apt-get (sudo when not root):
#    python3 and python3-venv where there is no Python or it cannot make a venv, python3-dev
#    where Python's headers are missing (okl's native launch path for serial and openmp is C
#    built against them), gcc (cc and cpp), clang-14 (the tests compile generated HIP with it)
#    and Debian's PoCL, pocl-opencl-icd (a CPU OpenCL device that builds on any x86-64 CPU,
#    see README);
# 3. chooses the venv, and says which: the active one ($VIRTUAL_ENV) if there is one, else DIR
#    (--venv; default .venv in the checkout), created with $PYTHON when it does not exist;
# 4. installs okl from this checkout, editable, with the test, opencl, pocl and docs extras;
# 5. runs `oklc info`, and checks that the opencl mode can build a kernel, so a broken OpenCL
#    set-up fails here, with the device's own error, and not as a hundred failing tests.
# Each step prints a numbered line and the seconds it took; apt-get's and pip's output go to a
# log file whose path is printed first, and whose end is shown when a step fails.
set -euo pipefail

usage() { sed -n '2,/^set -euo/p' "$0" | sed '$d; s/^# \{0,1\}//'; }
here=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
venv_opt="" dry=0
while [ $# -gt 0 ]; do
  case "$1" in
    --venv) [ $# -ge 2 ] || { echo "install.sh: --venv needs a folder" >&2; exit 2; }
            venv_opt=$2; shift 2 ;;
    --venv=*) venv_opt=${1#--venv=}; shift ;;
    --dry-run|-n) dry=1; shift ;;
    -h|--help) usage; exit 0 ;;
    *) echo "install.sh: unknown argument '$1' (see --help)" >&2; exit 2 ;;
  esac
done

TOTAL=5 step=0 start=$SECONDS t0=$SECONDS
LOG=/dev/null
if [ "$dry" = 0 ]; then
  LOG=$(mktemp "${TMPDIR:-/tmp}/okl-install.XXXXXX.log")
  echo "install.sh: the output of apt-get and pip goes to $LOG"
fi

begin() { step=$((step + 1)); t0=$SECONDS; echo "[$step/$TOTAL] $*"; }
finish() { echo "      done in $((SECONDS - t0)) s"; }
fail() { echo "install.sh: step $step failed: $*" >&2; exit 1; }
# run CMD...: runs it with its output in the log (or, with --dry-run, says it would); when it
# fails, shows the end of the log
run() {
  if [ "$dry" = 1 ]; then echo "      would run: $*"; return 0; fi
  printf '\n$ %s\n' "$*" >>"$LOG"
  "$@" >>"$LOG" 2>&1 && return 0
  { echo "--- the end of $LOG ---"; tail -n 40 "$LOG"; echo "--- (the whole log: $LOG) ---"
  } >&2
  fail "$*"
}

# -- 1. the machine ----------------------------------------------------------------------------
begin "looking at the machine"
packages=()
PYTHON=${PYTHON:-python3}
if [ -n "$venv_opt" ]; then
  case "$venv_opt" in /*) venv=${venv_opt%/} ;; *) venv=$PWD/${venv_opt%/} ;; esac
  why="the folder --venv names"
elif [ -n "${VIRTUAL_ENV:-}" ]; then
  venv=$VIRTUAL_ENV why="the active venv (\$VIRTUAL_ENV)"
else
  venv=$here/.venv why="no venv is active: the checkout's .venv"
fi
if [ -x "$venv/bin/python" ]; then
  py=$venv/bin/python
elif [ -n "${VIRTUAL_ENV:-}" ] && [ "$venv" = "$VIRTUAL_ENV" ]; then
  fail "the active venv $VIRTUAL_ENV has no bin/python; deactivate it or pass --venv DIR"
elif command -v "$PYTHON" >/dev/null 2>&1; then
  # the interpreter itself, not a launcher such as pyenv's shim
  py=$("$PYTHON" -c 'import sys; print(sys.executable)') || fail "$PYTHON does not start"
elif [ "$PYTHON" = python3 ]; then
  py="" packages+=(python3 python3-venv python3-dev)  # a Debian without Python
else
  fail "PYTHON=$PYTHON is not a command"
fi
if [ -n "$py" ]; then
  "$py" -c 'import sys; sys.exit(sys.version_info < (3, 10))' \
    || fail "okl needs Python 3.10 or newer; $py is $("$py" -V 2>&1) (set PYTHON=python3.X)"
  system_python=$("$py" -c 'import sys; print(sys.base_prefix == "/usr")')
  if [ ! -x "$venv/bin/python" ] && ! "$py" -c 'import ensurepip' >/dev/null 2>&1; then
    [ "$system_python" = True ] || fail "$py cannot make a venv (no ensurepip); use another \
Python (PYTHON=...) or activate a venv first"
    packages+=(python3-venv)  # Debian's python3 makes venvs only with it
  fi
  "$py" -c 'import os, sys, sysconfig
sys.exit(not os.path.exists(os.path.join(sysconfig.get_paths()["include"], "Python.h")))' \
    || packages+=(python3-dev)
fi
{ command -v cc && command -v cpp; } >/dev/null 2>&1 || packages+=(gcc)
command -v clang-14 >/dev/null 2>&1 || packages+=(clang-14)
[ "$(dpkg-query -W -f='${Status}' pocl-opencl-icd 2>/dev/null)" = "install ok installed" ] \
  || packages+=(pocl-opencl-icd)
echo "      python: ${py:-none yet (python3 from apt)}; venv: $venv ($why)"
echo "      system packages to install: ${packages[*]:-none}"
finish

# -- 2. system packages ------------------------------------------------------------------------
if [ ${#packages[@]} -gt 0 ]; then
  begin "installing ${packages[*]} (apt-get)"
  command -v apt-get >/dev/null 2>&1 \
    || fail "no apt-get: install ${packages[*]} (or your system's equivalents) yourself"
  SUDO=()
  if [ "$(id -u)" -ne 0 ]; then
    command -v sudo >/dev/null 2>&1 || fail "not root and no sudo: run as root, or \
apt-get install ${packages[*]} first"
    SUDO=(sudo)
  fi
  run "${SUDO[@]}" apt-get update
  run "${SUDO[@]}" env DEBIAN_FRONTEND=noninteractive apt-get install -y "${packages[@]}"
  finish
else
  begin "system packages: all there"
  finish
fi
[ -n "$py" ] || py=$(command -v "$PYTHON" || echo /usr/bin/python3)

# -- 3. the venv -------------------------------------------------------------------------------
if [ -x "$venv/bin/python" ]; then
  begin "using the venv $venv ($why)"
else
  begin "creating the venv $venv with $py ($("$py" -V 2>&1))"
  run "$py" -m venv "$venv"
fi
finish
vpy=$venv/bin/python

# -- 4. okl and its extras ---------------------------------------------------------------------
begin "installing okl from $here, editable, with the test, opencl, pocl and docs extras (pip, \
about a minute)"
# editable_mode=compat: a plain path entry in the .pth, not setuptools' import finder, which
# imports pathlib, urllib.parse, ipaddress and fnmatch at every Python start (oklc --version
# 78 -> 60 M instructions, oklc translate of bk5 297 -> 282 M; issue 30)
run "$vpy" -m pip install --progress-bar off -e "$here[test,opencl,pocl,docs]" \
  --config-settings editable_mode=compat
finish

# -- 5. the check ------------------------------------------------------------------------------
begin "checking okl: oklc info, and an OpenCL kernel build"
if [ "$dry" = 1 ]; then
  echo "      would run: $venv/bin/oklc info, and build a kernel in the opencl mode"
else
  "$venv/bin/oklc" info || fail "oklc info"
  # -I: the okl installed, not an okl folder that the current directory may hold
  "$vpy" -I - <<'PY' || fail "the opencl mode cannot run here (see above)"
import sys

import okl

opencl = {b.name: b for b in okl.backends()}["opencl"]
if not opencl.available:
    sys.exit(f"install.sh: the opencl mode cannot run here: {opencl.reason}")
PY
fi
finish

if [ "$dry" = 1 ]; then
  echo "install.sh: a dry run; nothing was installed."
  exit 0
fi
echo "install.sh: okl is installed in $venv ($((SECONDS - start)) s in all)."
[ "$PWD" = "$here" ] || echo "Go to the checkout:         cd $here"
if [ "${VIRTUAL_ENV:-}" != "$venv" ]; then
  echo "Activate it in your shell:  source ${venv/#$here\//}/bin/activate"
fi
echo "Then:  python examples/reduction.py   (a kernel on every mode that works here)"
echo "       python -m pytest -q            (the tests)"
