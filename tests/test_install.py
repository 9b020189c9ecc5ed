"""okl.install: every hint that says how to add an extra names a command that works for how
okl was installed (a checkout, a wheel or directory pip recorded, or neither), never a
package index okl is not on."""

from __future__ import annotations

import json
import os
import re
import shlex
import subprocess
import sys
from pathlib import Path

import pytest

import okl
from okl import install
from okl.install import Origin, extra_requirements, install_hint, origin

ROOT = Path(__file__).resolve().parent.parent
#: okl's Requires-Dist lines, as a wheel's METADATA lists them
REQUIRES = [
    "numpy>=1.24",
    'pyopencl>=2024.1; extra == "opencl"',
    'pyopencl>=2024.1; extra == "pocl"',
    'pocl-binary-distribution>=3.0; extra == "pocl"',
    'cupy-cuda12x>=13.0; extra == "cuda12"',
    'okl[cuda12]; extra == "cuda"',
    'mpich>=4.1; sys_platform != "win32" and extra == "test"',
]


def _checkout(folder: Path) -> Path:
    (folder / "okl").mkdir(parents=True)
    (folder / "okl" / "__init__.py").write_text("")
    (folder / "pyproject.toml").write_text('[project]\nname = "okl"\nversion = "0.1.0"\n')
    return folder


def _url(path: Path, **info) -> str:
    return json.dumps({"url": path.as_uri(), **info})


def test_this_tree_is_a_checkout_and_its_hint_installs_from_it():
    assert origin() == Origin("checkout", ROOT)
    hint = install_hint("opencl", pip="pip")
    assert hint == f"pip install -e {shlex.quote(f'{ROOT}[opencl]')}"
    assert "okl[" not in hint.replace(f"{ROOT}[", "")  # no index name


def test_checkout_found_from_the_package_folder(tmp_path):
    src = _checkout(tmp_path / "my checkout")
    where = origin(src / "okl", direct_url="")
    assert where == Origin("checkout", src)
    assert install_hint("cuda12", where, pip="pip") == f"pip install -e '{src}[cuda12]'"


def test_a_folder_that_is_not_okls_source_is_not_a_checkout(tmp_path):
    other = tmp_path / "other"
    (other / "okl").mkdir(parents=True)
    (other / "okl" / "__init__.py").write_text("")
    (other / "pyproject.toml").write_text('[project]\nname = "notokl"\n')
    assert origin(other / "okl", direct_url="").kind == "unknown"


def test_wheel_recorded_by_pip_is_named_while_it_exists(tmp_path):
    wheel = tmp_path / "okl-0.1.0-py3-none-any.whl"
    wheel.write_bytes(b"PK")
    site = tmp_path / "site" / "okl"
    where = origin(site, direct_url=_url(wheel, archive_info={}))
    assert where == Origin("wheel", wheel)
    assert install_hint("opencl", where, pip="pip") == f"pip install '{wheel}[opencl]'"
    wheel.unlink()  # gone: the extra's own requirements, which are on PyPI
    gone = origin(site, direct_url=_url(wheel, archive_info={}))
    assert gone == Origin("unknown")
    assert install_hint("opencl", gone, REQUIRES, pip="pip") == \
        "pip install 'pyopencl>=2024.1' (okl's 'opencl' extra)"


def test_sdist_recorded_by_pip_is_named_too(tmp_path):
    sdist = tmp_path / "okl-0.1.0.tar.gz"
    sdist.write_bytes(b"\x1f\x8b")
    where = origin(tmp_path / "site" / "okl", direct_url=_url(sdist, archive_info={}))
    assert where == Origin("sdist", sdist)
    assert install_hint("cuda12", where, pip="pip") == f"pip install '{sdist}[cuda12]'"


def test_directory_installs_editable_and_not(tmp_path):
    src = _checkout(tmp_path / "src")
    site = tmp_path / "site" / "okl"
    plain = origin(site, direct_url=_url(src, dir_info={}))
    assert plain == Origin("directory", src)
    assert install_hint("pocl", plain, pip="pip") == f"pip install '{src}[pocl]'"
    assert origin(site, direct_url=_url(src, dir_info={"editable": True})).kind == "checkout"
    assert origin(site, direct_url=_url(tmp_path / "gone", dir_info={})).kind == "unknown"


@pytest.mark.parametrize("text", ["", "not json", "[1, 2]", '{"url": "https://x/okl.whl"}'])
def test_unreadable_or_remote_records_are_unknown(tmp_path, text):
    assert origin(tmp_path / "site" / "okl", direct_url=text).kind == "unknown"


def test_extra_requirements_expand_okls_own_extras_and_drop_markers():
    assert extra_requirements("pocl", REQUIRES) == ["pyopencl>=2024.1",
                                                    "pocl-binary-distribution>=3.0"]
    assert extra_requirements("cuda", REQUIRES) == ["cupy-cuda12x>=13.0"]
    assert extra_requirements("test", REQUIRES) == ["mpich>=4.1"]
    assert extra_requirements("nope", REQUIRES) == []


def test_unknown_origin_without_metadata_says_what_to_do_in_words():
    hint = install_hint("opencl", Origin("unknown"), [], pip="pip")
    assert hint.startswith("reinstall okl") and "[opencl]" in hint and okl.__version__ in hint


def test_installed_metadata_lists_every_extra_the_hints_use():
    """The fallback reads okl's own metadata: each extra a hint names resolves to packages."""
    for extra in ("opencl", "pocl", "cuda12", "cuda13", "cuda", "rocm"):
        assert extra_requirements(extra), extra


def test_pip_is_bare_only_when_it_is_this_pythons(tmp_path):
    mine, other = tmp_path / "venv" / "bin", tmp_path / "elsewhere"
    for folder in (mine, other):
        folder.mkdir(parents=True)
        (folder / "pip").write_text("#!/bin/sh\n")
        (folder / "pip").chmod(0o755)
    python = str(mine / "python")
    assert install.pip_command(python, path=str(mine)) == "pip"
    assert install.pip_command(python, path=str(other)) == f"{python} -m pip"
    assert install.pip_command(python, path=str(tmp_path / "none")) == f"{python} -m pip"


def test_hint_is_a_command_pip_accepts():
    """pip parses the checkout hint's requirement (a dry run resolves nothing: --no-deps,
    no index, so it is offline and quick)."""
    hint = install_hint("opencl")
    argv = shlex.split(hint)
    assert argv[argv.index("install") + 1] == "-e"
    target = argv[-1]
    r = subprocess.run([sys.executable, "-m", "pip", "install", "--dry-run", "--no-deps",
                        "--no-index", "--no-build-isolation", "-q", "-e", target],
                       capture_output=True, text=True, timeout=120,
                       env={**os.environ, "PIP_NO_INPUT": "1"})
    assert r.returncode == 0, r.stderr


def test_driver_hints_use_the_helper(monkeypatch):
    """The drivers' reasons carry install_hint's command, not an index name."""
    from okl.runtime.drivers import clselect

    monkeypatch.setattr(install, "install_hint", lambda extra, *a, **k: f"<hint {extra}>")
    assert "<hint pocl>" in clselect.fix()
    sources = "\n".join(p.read_text() for p in (ROOT / "okl").rglob("*.py"))
    assert not re.search(r"pip install[^\n]*okl\[", sources)
