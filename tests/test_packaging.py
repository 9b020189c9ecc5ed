"""What ``python -m build`` makes: an sdist whose tests run once unpacked, and a wheel, built
from that sdist as ``build`` builds it, that holds every file okl reads at run time.

An sdist that setuptools assembles by itself holds the package and ``tests/test*.py`` but not
``conftest.py``, ``tests/golden/``, ``tests/kernels/``, docs or examples, so its tests cannot
run; MANIFEST.in names the rest.  These tests build both archives from a copy of the source
tree with setuptools' own PEP 517 hooks (what ``python -m build --no-isolation`` calls):
offline, a few seconds, and nothing written into the tree.
"""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
import tarfile
import zipfile
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
#: tracked files that are the repository's machinery, not the project's: not in the sdist
NOT_SHIPPED = {".ci/run", ".gitignore"}
#: what building or testing leaves in a tree (an unpacked sdist has no git to ask)
_GENERATED = {".git", "__pycache__", ".pytest_cache", ".ruff_cache", ".mypy_cache",
              ".hypothesis", ".venv", "build", "dist", "_build"}
_SDIST_OWN = {"PKG-INFO", "setup.cfg"}  # written by setuptools into every sdist
_HOOK = ("import sys\nfrom setuptools import build_meta\n"
         "print(getattr(build_meta, sys.argv[1])(sys.argv[2]))")


def _source_files() -> set[str]:
    """The tree's files, relative to ROOT: git's list in a checkout, else every file but what
    building and testing generate (the tests also run from an unpacked sdist)."""
    git = shutil.which("git")
    if git and ROOT.joinpath(".git").exists():
        out = subprocess.run([git, "ls-files", "-z"], cwd=ROOT, capture_output=True,
                             timeout=60)
        if out.returncode == 0:
            return {p for p in out.stdout.decode().split("\0") if p and (ROOT / p).is_file()}
    out = set()
    for folder, dirs, names in os.walk(ROOT):
        # not what building and testing generate, nor a venv (RELEASING.md makes one there)
        dirs[:] = [d for d in dirs if d not in _GENERATED and not d.endswith(".egg-info")
                   and not os.path.exists(os.path.join(folder, d, "pyvenv.cfg"))]
        rel = Path(folder).relative_to(ROOT)
        out |= {str(rel / n) for n in names if not n.endswith(".pyc")}
    return out - _SDIST_OWN


def _hook(name: str, src: Path, out: Path) -> Path:
    out.mkdir(exist_ok=True)
    r = subprocess.run([sys.executable, "-c", _HOOK, name, str(out)], cwd=src,
                       capture_output=True, text=True, timeout=120)
    assert r.returncode == 0, f"{name} failed:\n{r.stdout}\n{r.stderr}"
    return out / r.stdout.strip().splitlines()[-1]


@pytest.fixture(scope="module")
def files() -> set[str]:
    return _source_files()


@pytest.fixture(scope="module")
def sdist(files, tmp_path_factory) -> tuple[Path, set[str]]:
    """(the sdist, its members relative to its top folder)."""
    src = tmp_path_factory.mktemp("src")
    for name in files:
        (src / name).parent.mkdir(parents=True, exist_ok=True)
        try:  # a link costs nothing where /tmp shares the tree's file system
            os.link(ROOT / name, src / name)
        except OSError:
            shutil.copy2(ROOT / name, src / name)
    path = _hook("build_sdist", src, tmp_path_factory.mktemp("dist"))
    with tarfile.open(path) as tar:
        names = {m.name.split("/", 1)[1] for m in tar.getmembers()
                 if m.isfile() and "/" in m.name}
    return path, names


def test_sdist_holds_every_source_file(files, sdist):
    _, names = sdist
    missing = sorted(files - NOT_SHIPPED - names)
    assert not missing, f"files of the source tree missing from the sdist: {missing[:20]}"
    assert not [n for n in names if "__pycache__" in n or n.endswith(".pyc")]
    assert not [n for n in names if n.split("/")[0] in (".ci", ".git")]


def test_sdist_holds_what_the_tests_read(sdist):
    """Every path the tests build from ROOT (or from ``Path(__file__).parent``) by name,
    and the folders whose absence once made the sdist's tests unrunnable."""
    _, names = sdist
    folders = {str(Path(n).parent) for n in names} | {
        "/".join(Path(n).parts[:i]) for n in names for i in range(1, len(Path(n).parts))}
    referenced: set[str] = set()
    chain = r'((?:\s*/\s*"[^"{}*]+")+)'
    for test in sorted((ROOT / "tests").glob("*.py")):
        here = str(test.parent.relative_to(ROOT))
        text = test.read_text()
        for base, pattern in (
                ("", rf"\bROOT{chain}"),
                ("", rf"Path\(__file__\)(?:\.resolve\(\))?\.parent\.parent{chain}"),
                (here, rf"Path\(__file__\)(?:\.resolve\(\))?\.parent{chain}"),
                (here, rf"\bHERE{chain}")):
            for parts in re.findall(pattern, text):
                rel = "/".join([base] * bool(base) + re.findall(r'"([^"]+)"', parts))
                referenced.add(rel)
    assert len(referenced) >= 10, referenced  # the scan sees the tests' paths
    assert "examples/reduction.okl" in referenced and "tests/golden" in referenced
    missing = sorted(r for r in referenced if r not in names and r not in folders)
    assert not missing, f"paths the tests read that the sdist lacks: {missing}"
    for needed in ("tests/conftest.py", "tests/golden", "tests/kernels", "tests/hip_shim",
                   "docs/conf.py", "docs/_ext/okldocs.py", "examples/reduction.py",
                   "benchmarks/kernels", "scripts/install.sh", "pyproject.toml", "README.md"):
        assert needed in names or needed in folders, needed


def test_wheel_built_from_the_sdist_holds_okls_package_data(files, sdist, tmp_path):
    """``python -m build`` builds the wheel from the unpacked sdist: what MANIFEST.in leaves
    out of the sdist never reaches the wheel either."""
    path, _ = sdist
    with tarfile.open(path) as tar:
        tar.extractall(tmp_path, filter="data") if hasattr(tarfile, "data_filter") \
            else tar.extractall(tmp_path)  # noqa: S202 - our own archive
    (unpacked,) = [p for p in tmp_path.iterdir() if p.is_dir()]
    wheel = _hook("build_wheel", unpacked, tmp_path / "wheel")
    with zipfile.ZipFile(wheel) as z:
        inside = set(z.namelist())
    package = {f for f in files if f.startswith("okl/")}
    data = {f for f in package if not f.endswith(".py")}
    assert "okl/runtime/drivers/include/hip/hip_runtime.h" in data
    assert any(f.endswith(".c") for f in data) and "okl/py.typed" in data
    missing = sorted(package - inside)
    assert not missing, f"okl files missing from the wheel: {missing}"
    assert not [n for n in inside if n.startswith(("tests/", "docs/", "benchmarks/"))]
