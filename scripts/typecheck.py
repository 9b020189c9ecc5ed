"""Type-check okl/ with mypy against a baseline that may only shrink.

    python scripts/typecheck.py            # check (CI: .ci/run)
    python scripts/typecheck.py --update   # rewrite the baseline after fixing errors

okl ships ``py.typed``, so its annotations are a promise to its users; mypy holds the code to
them.  The errors that existed when the check was introduced are listed in
``scripts/mypy-baseline.txt`` (file, error code and message, without line numbers, so that
an edit above an old error does not move it): a new error fails the check, and so does a
baseline entry that no longer occurs -- fixed errors leave the baseline (run ``--update``).
"""

from __future__ import annotations

import re
import subprocess
import sys
from collections import Counter
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
BASELINE = ROOT / "scripts" / "mypy-baseline.txt"
_LINE = re.compile(
    r"^(?P<file>[^:]+):\d+(?::\d+)?: error: (?P<message>.*?)\s+\[(?P<code>[\w-]+)\]$")


def current() -> Counter[str]:
    run = subprocess.run([sys.executable, "-m", "mypy", "okl"], cwd=ROOT, text=True,
                         capture_output=True)
    if run.returncode not in (0, 1):  # 1: errors found; 2: mypy itself failed
        sys.exit(f"typecheck: mypy failed to run:\n{run.stdout}{run.stderr}")
    found: Counter[str] = Counter()
    for line in run.stdout.splitlines():
        m = _LINE.match(line)
        if m:
            found[f"{m['file']}: [{m['code']}] {m['message']}"] += 1
    return found


def main(argv: list[str]) -> int:
    found = current()
    if "--update" in argv:
        BASELINE.write_text("".join(f"{k}\n" * n for k, n in sorted(found.items())))
        print(f"typecheck: baseline rewritten, {sum(found.values())} errors")
        return 0
    known = Counter(BASELINE.read_text().splitlines()) if BASELINE.exists() else Counter()
    new = found - known
    fixed = known - found
    if new:
        print("typecheck: new mypy errors (fix them; the baseline only shrinks):")
        for k in sorted(new):
            print("  " + k)
    if fixed:
        print("typecheck: errors in the baseline that no longer occur (run "
              "python scripts/typecheck.py --update):")
        for k in sorted(fixed):
            print("  " + k)
    if new or fixed:
        return 1
    print(f"typecheck: ok ({sum(found.values())} known errors in the baseline)")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
