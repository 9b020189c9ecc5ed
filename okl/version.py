"""The package version, and the identity of the translator for cache keys."""

from __future__ import annotations

import functools

__version__ = "0.1.0"


@functools.lru_cache(maxsize=1)
def translator_digest() -> str:
    """SHA-256 over okl's own source files: a translation cached by one build of okl is never
    served to another, even when the version number did not change (development installs)."""
    import hashlib  # here, not at the top: ``oklc --version`` reads this module
    import pathlib

    root = pathlib.Path(__file__).parent
    h = hashlib.sha256(__version__.encode())
    for path in sorted(root.rglob("*.py")) + sorted(root.rglob("*.h")):
        h.update(str(path.relative_to(root)).encode())
        h.update(path.read_bytes())
    return h.hexdigest()
