"""okl as users get it: a wheel built from this tree, installed in a new venv, run from
outside the source tree.

The editable install that the rest of the suite uses reads every file straight from the
source tree, so a file missing from the wheel (as ``runtime/drivers/include/hip/hip_runtime.h`` once
was) breaks real installs while every other test stays green.  The new venv takes okl from
the wheel only; its dependencies (numpy, pycparser, click, pyopencl, ...) come from this
environment through a path entry, which keeps the test offline and quick.  ``import okl``
is checked to resolve inside the venv, never to the source tree.
"""

from __future__ import annotations

import os
import shutil
import site as sitemod
import subprocess
import sys
import sysconfig
import zipfile
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
MODES = ("serial", "openmp", "opencl", "cuda", "hip")


def _run(cmd: list, cwd: Path, env: dict | None = None, timeout: int = 300) -> str:
    proc = subprocess.run([str(c) for c in cmd], cwd=cwd, env=env, capture_output=True,
                          text=True, timeout=timeout)
    assert proc.returncode == 0, (f"{cmd} exited {proc.returncode}\n--- stdout ---\n"
                                  f"{proc.stdout}\n--- stderr ---\n{proc.stderr}")
    return proc.stdout


@pytest.fixture(scope="module")
def wheel(tmp_path_factory) -> Path:
    out = tmp_path_factory.mktemp("wheel")
    build = tmp_path_factory.mktemp("build")  # keep build/ and *.egg-info out of the tree
    shutil.copytree(ROOT, build / "src", ignore=shutil.ignore_patterns(
        ".git", "build", "*.egg-info", "__pycache__", ".pytest_cache", ".ruff_cache",
        ".venv"))  # install.sh's venv, in the checkout where no venv was active
    _run([sys.executable, "-m", "pip", "wheel", "--no-deps", "--no-build-isolation", "-q",
          "-w", out, build / "src"], cwd=out)
    (path,) = out.glob("okl-*.whl")
    return path


@pytest.fixture(scope="module")
def venv(wheel, tmp_path_factory) -> tuple[Path, dict]:
    """(bin folder, environment) of a new venv holding okl from the wheel alone."""
    root = tmp_path_factory.mktemp("venv")
    _run([sys.executable, "-m", "venv", "--without-pip", root], cwd=root)
    bindir = root / ("Scripts" if os.name == "nt" else "bin")
    python = bindir / "python"
    site = Path(_run([python, "-c", "import sysconfig; print(sysconfig.get_path('purelib'))"],
                     cwd=root).strip())
    with zipfile.ZipFile(wheel) as z:  # a wheel is installed by unpacking it into purelib
        z.extractall(site)
    # dependencies from this environment (its system site-packages too, where a venv sees
    # them), after the venv's own site-packages
    (site / "okl_test_deps.pth").write_text(
        "\n".join(dict.fromkeys([sysconfig.get_path("purelib"), sysconfig.get_path("platlib"),
                                 *sitemod.getsitepackages()])) + "\n")
    (bindir / "oklc").write_text(f"#!{python}\nimport sys\nfrom okl.entry import main\n"
                                 "sys.exit(main())\n")  # pyproject's [project.scripts]
    (bindir / "oklc").chmod(0o755)
    env = {k: v for k, v in os.environ.items() if k not in ("PYTHONPATH", "VIRTUAL_ENV")}
    env["PATH"] = f"{bindir}{os.pathsep}{env.get('PATH', '')}"
    env["OKL_CACHE_DIR"] = str(root / "cache")
    return bindir, env


def test_wheel_holds_every_file_okl_reads_at_run_time(wheel):
    tracked = subprocess.run(["git", "ls-files", "okl"], cwd=ROOT, capture_output=True,
                             text=True)
    if tracked.returncode == 0 and tracked.stdout.strip():
        needed = {p for p in tracked.stdout.split() if not p.endswith(".py")}
    else:  # not a git checkout: every non-Python file of the package folder
        needed = {str(p.relative_to(ROOT)) for p in (ROOT / "okl").rglob("*")
                  if p.is_file() and p.suffix not in (".py", ".pyc")}
    assert "okl/runtime/drivers/include/hip/hip_runtime.h" in needed
    with zipfile.ZipFile(wheel) as z:
        missing = sorted(needed - set(z.namelist()))
    assert not missing, f"files okl needs at run time are not in the wheel: {missing}"


def test_wheel_console_script_is_okl_entry(wheel):
    """The wheel's ``oklc`` is okl.entry's (the venv fixture's script runs the same)."""
    with zipfile.ZipFile(wheel) as z:
        [name] = [n for n in z.namelist() if n.endswith(".dist-info/entry_points.txt")]
        text = z.read(name).decode()
    assert "oklc = okl.entry:main" in text


def test_installed_okl_is_the_wheel_not_the_tree(venv, tmp_path):
    bindir, env = venv
    where = _run([bindir / "python", "-c", "import okl; print(okl.__file__)"], tmp_path, env)
    assert Path(where.strip()).is_relative_to(bindir.parent), where
    assert not Path(where.strip()).is_relative_to(ROOT)


def test_installed_oklc_info_and_translate_every_mode(venv, tmp_path):
    bindir, env = venv
    info = _run(["oklc", "info"], tmp_path, env)
    for mode in MODES:
        assert mode in info
    source = ROOT / "examples" / "reduction.okl"
    for mode in MODES:
        out = _run(["oklc", "translate", "-m", mode, source], tmp_path, env)
        assert "blockSum" in out, (mode, out[:500])


def test_installed_hip_mode_finds_its_header(venv, tmp_path):
    bindir, env = venv
    code = ("import os; from okl.runtime.drivers import cuda; "
            "print(os.path.isfile(os.path.join(cuda.HIP_INCLUDE, 'hip', 'hip_runtime.h')))")
    assert _run([bindir / "python", "-c", code], tmp_path, env).strip() == "True"


def test_installed_readme_example_runs_on_the_cpu_modes(venv, tmp_path):
    bindir, env = venv
    for name in ("reduction.py", "reduction.okl"):
        shutil.copy(ROOT / "examples" / name, tmp_path / name)
    out = _run([bindir / "python", "reduction.py"], tmp_path, env)
    import okl

    for b in okl.backends():
        line = next(ln for ln in out.splitlines() if ln.startswith(b.name))
        assert ("sum =" in line) == b.available, line  # as in this environment
    assert "serial  sum =" in out and "openmp  sum =" in out, out
