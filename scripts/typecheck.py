"""Type-check okl/ with mypy: any error fails.

    python scripts/typecheck.py            # CI: .ci/run

okl ships ``py.typed``, so its annotations are a promise to its users; mypy holds the code to
them.  (Until round 23 a baseline of the errors known when the check came in was allowed to
stand; the last 74 were fixed then, and the baseline went with them.)
"""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def main() -> int:
    run = subprocess.run([sys.executable, "-m", "mypy", "okl"], cwd=ROOT, text=True,
                         capture_output=True)
    if run.returncode == 0:
        print("typecheck: ok")
        return 0
    if run.returncode == 1:  # errors found
        print(f"typecheck: mypy found errors (fix them):\n{run.stdout}", end="")
        return 1
    sys.exit(f"typecheck: mypy failed to run:\n{run.stdout}{run.stderr}")


if __name__ == "__main__":
    sys.exit(main())
