"""``python -m okl``: the same program as ``oklc`` (for environments whose scripts folder is
not on PATH, and to pick the interpreter explicitly)."""

from .entry import main

if __name__ == "__main__":
    main()
