"""The command that adds one of okl's extras, said for how this okl was installed.

okl is on no package index, so asking pip for ``okl[opencl]`` by name fails everywhere: a
hint naming it sends a user nowhere.  What works depends on where this okl came from, and
that can be read from the installed files alone:

- a **checkout** (an editable install, or the source tree on ``sys.path``): okl's folder sits
  beside the ``pyproject.toml`` that names it, and ``pip install -e 'CHECKOUT[opencl]'``
  installs the extra;
- a **wheel**, an **sdist** or a **directory** that pip installed: pip records where it came
  from in the installed metadata (``direct_url.json``, PEP 610), and while that file or folder
  is still there, ``pip install 'WHEEL[opencl]'`` reinstalls it with the extra;
- anything else (the wheel since deleted, a copied install): the extra's own requirements,
  read from okl's metadata, which are on PyPI (``pip install 'pyopencl>=2024.1'``).

The pip named is the one of the interpreter running okl: ``pip`` when the ``pip`` on PATH
sits beside it (an activated venv), else ``PYTHON -m pip``, so the command installs where
okl will look.
"""

from __future__ import annotations

import json
import os
import re
import shlex
import sys
from pathlib import Path

from .record import record
from .version import __version__

#: okl's package folder (this file's)
PACKAGE = Path(__file__).resolve().parent
_PROJECT_NAME = re.compile(r'^\s*name\s*=\s*"okl"\s*$', re.M)
_EXTRA_MARKER = re.compile(r"""\bextra\s*==\s*['"]([\w.-]+)['"]""")


@record(frozen=True)
class Origin:
    """Where this okl came from: ``kind`` is "checkout", "directory", "wheel", "sdist" or
    "unknown"; ``path`` the checkout, directory or archive (None for "unknown")."""

    kind: str
    path: Path | None = None


def origin(package: Path = PACKAGE, direct_url: str | None = None) -> Origin:
    """How the okl in ``package`` was installed.  ``direct_url`` is the text of pip's
    ``direct_url.json`` for it (read from the installed metadata when None)."""
    root = package.parent
    if _is_okl_checkout(root):
        return Origin("checkout", root)
    text = _read_direct_url() if direct_url is None else direct_url
    try:
        data = json.loads(text) if text else {}
        url = str(data.get("url", ""))
    except (ValueError, AttributeError):
        return Origin("unknown")
    if not url.startswith("file://"):
        return Origin("unknown")
    from urllib.parse import unquote, urlparse

    path = Path(unquote(urlparse(url).path))
    if "dir_info" in data and _is_okl_checkout(path):
        editable = bool((data.get("dir_info") or {}).get("editable"))
        return Origin("checkout" if editable else "directory", path)
    if "archive_info" in data and path.is_file():
        if path.name.endswith(".whl"):
            return Origin("wheel", path)
        if path.name.endswith((".tar.gz", ".zip")):
            return Origin("sdist", path)
    return Origin("unknown")


def install_hint(extra: str, where: Origin | None = None, requirements: list[str] | None = None,
                 pip: str | None = None) -> str:
    """A shell command that installs okl's ``extra`` into the Python running okl, for how okl
    was installed (see the module docstring).  ``where``, ``requirements`` (okl's
    ``Requires-Dist`` lines) and ``pip`` default to this installation's."""
    where = origin() if where is None else where
    pip = pip_command() if pip is None else pip
    if where.kind == "checkout":
        return f"{pip} install -e {shlex.quote(f'{where.path}[{extra}]')}"
    if where.kind in ("directory", "wheel", "sdist"):
        return f"{pip} install {shlex.quote(f'{where.path}[{extra}]')}"
    reqs = extra_requirements(extra, requirements)
    if not reqs:  # no metadata to read: say what to do in words, with no made-up command
        return (f"reinstall okl (from its checkout or wheel) with the '{extra}' extra, e.g. "
                f"{pip} install 'okl-{__version__}-py3-none-any.whl[{extra}]'")
    return f"{pip} install {' '.join(shlex.quote(r) for r in reqs)} (okl's '{extra}' extra)"


def extra_requirements(extra: str, requirements: list[str] | None = None) -> list[str]:
    """The packages okl's ``extra`` installs, its own extras expanded (``cuda`` is
    ``okl[cuda12]``), without their markers; [] when okl's metadata cannot be read."""
    if requirements is None:
        from importlib import metadata

        try:
            requirements = metadata.requires("okl") or []
        except metadata.PackageNotFoundError:
            return []
    out: list[str] = []
    for line in requirements:
        req, _, marker = line.partition(";")
        found = _EXTRA_MARKER.search(marker)
        if found is None or found.group(1) != extra:
            continue
        req = req.strip()
        own = re.fullmatch(r"okl\s*\[([\w.,\s-]+)\]", req)
        if own:
            for inner in own.group(1).split(","):
                out += [r for r in extra_requirements(inner.strip(), requirements)
                        if r not in out]
        elif req not in out:
            out.append(req)
    return out


def pip_command(python: str | None = None, path: str | None = None) -> str:
    """``pip`` when the pip that PATH (``path``) finds belongs to ``python`` (default: this
    interpreter; an activated venv), else ``PYTHON -m pip``: a bare ``pip`` of another Python
    would install where okl does not look."""
    import shutil  # here: shutil costs milliseconds to import (issue 30), a hint is rare

    python = sys.executable if python is None else python
    found = shutil.which("pip", path=path)
    if found and os.path.dirname(found) == os.path.dirname(python):
        return "pip"
    return f"{shlex.quote(python)} -m pip"


def _is_okl_checkout(folder: Path) -> bool:
    """Whether ``folder`` holds okl's source: its pyproject.toml names okl, beside okl/."""
    try:
        text = (folder / "pyproject.toml").read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError):
        return False
    return (folder / "okl" / "__init__.py").is_file() and bool(_PROJECT_NAME.search(text))


def _read_direct_url() -> str | None:
    from importlib import metadata

    try:
        return metadata.distribution("okl").read_text("direct_url.json")
    except metadata.PackageNotFoundError:
        return None
