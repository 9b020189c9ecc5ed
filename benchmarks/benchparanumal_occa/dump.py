"""Compile okl_dump.hpp's calls into benchParanumal's twelve Run() files (in place, in a build
tree of ours): after the timed loop, a BK writes its input ``q`` and output ``Aq``, a BP its
solution ``x`` (as ``solution``), and both the mesh arrays and numbering, when OKL_DUMP names
a folder.  The timed part is not touched.  Usage: python dump.py BENCHPARANUMAL_TREE"""
import shutil
import sys
from pathlib import Path

root = Path(sys.argv[1])
shutil.copy(Path(__file__).with_name("okl_dump.hpp"), root / "include" / "okl_dump.hpp")
end = "  timePoint_t end = GlobalPlatformTime(platform);\n"
for kind, outputs in (("BK", (("q", "q"), ("Aq", "Aq"))), ("BP", (("solution", "x"),))):
    for n in range(1, 7):
        path = root / kind / f"{kind}{n}" / "src" / f"{kind.lower()}{n}Run.cpp"
        text = path.read_text()
        if "okl_dump" in text:
            continue
        assert text.count(end) == 1, f"{path}: the timed loop's end not found once"
        calls = "".join(f'  okl_dump_device("{name}", o_{var});\n' for name, var in outputs)
        text = text.replace(end, end + calls + "  okl_dump_setup(mesh, GlobalToLocal);\n")
        head = f'#include "{kind.lower()}{n}.hpp"\n'
        assert head in text, f"{path}: {head.strip()} not found"
        path.write_text(text.replace(head, head + '#include "okl_dump.hpp"\n'))
print("okl_dump compiled into", root)
