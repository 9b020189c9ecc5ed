"""What okl makes of a real-world corpus of OKL files: translate counts, refusals by cause,
optional backend compiles, and front-end time per file.

    python -m benchmarks.corpus DIR [DIR ...] [--modes cuda,opencl] [--compile] [--json OUT]

Each ``.okl`` file under DIR (``backup/`` folders skipped) is translated in-process with the
generic defines that the OCCA comparison of the real-world issue used: every ``p_*``
identifier of the file (and of what it includes) = 8, even where the file defines it (cpp
then warns of the redefinition and the file's own value wins after it), ``p_blockSize`` =
256, ``dfloat=double``, ``dlong=int``, ``hlong=long long``, ``dfloat4=double4``,
``dfloat2=double2``, ``pfloat=float``, ``T=double``, and per mode what the applications
define (``OCCA_USE_CUDA=1`` / ``OCCA_USE_OPENCL=1``); include dir = the file's folder.
``--compile`` builds the CUDA with nvcc (``-arch=sm_90 -x cu -std=c++17``, compile only) and
the OpenCL C with the CPU OpenCL device okl picks.  The report lists every refusal with its
first line, so a new cause shows up by name.
"""

from __future__ import annotations

import argparse
import json
import os
import re
import statistics
import subprocess
import sys
import tempfile
import time
from collections import Counter
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path

from okl.runtime.drivers.clselect import first_error

GENERIC = {"p_blockSize": "256", "dfloat": "double", "dlong": "int", "hlong": "long long",
           "dfloat4": "double4", "dfloat2": "double2", "pfloat": "float", "T": "double"}
_P_NAME = re.compile(r"\bp_[A-Za-z0-9_]+")
_DEFINED = re.compile(r"^\s*#\s*define\s+([A-Za-z_]\w*)", re.M)
_INCLUDE = re.compile(r'^\s*#\s*include\s+"([^"]+)"', re.M)


def corpus_files(root: Path) -> list[Path]:
    return sorted(p for p in root.rglob("*.okl") if "backup" not in p.parts)


def _texts(path: Path, seen: set[Path] | None = None) -> list[str]:
    """The file and, recursively, the files it includes with quotes (when they exist)."""
    seen = set() if seen is None else seen
    if path in seen or not path.is_file():
        return []
    seen.add(path)
    text = path.read_text(encoding="utf-8", errors="replace")
    out = [text]
    for name in _INCLUDE.findall(text):
        out += _texts((path.parent / name).resolve(), seen)
    return out


#: what libParanumal and benchParanumal define per mode (platformProperties.cpp), which
#: their ``#if OCCA_USE_CUDA==1`` (written ``=1``) selects on
MODE_DEFINES = {"cuda": {"OCCA_USE_CUDA": "1"}, "opencl": {"OCCA_USE_OPENCL": "1"}}


def defines_for(path: Path, mode: str | None = None) -> dict[str, str]:
    texts = _texts(path.resolve())
    used = set().union(*(_P_NAME.findall(t) for t in texts))
    defined = set().union(*(_DEFINED.findall(t) for t in texts))
    out = {name: "8" for name in sorted(used)}  # as the OCCA comparison did: every p_* = 8
    out.update({k: v for k, v in GENERIC.items() if k not in defined or k.startswith("p_")})
    out.update(MODE_DEFINES.get(mode, {}))
    return out


def translate_one(args: tuple[str, tuple[str, ...]]) -> dict:
    import okl
    path_s, modes = args
    path = Path(path_s)
    source = path.read_text(encoding="utf-8", errors="replace")
    row = {"file": path_s, "modes": {}}
    for mode in modes:
        defines = defines_for(path, mode)
        t0 = time.perf_counter()
        try:
            result = okl.translate(source, mode, defines=defines, include_dirs=[str(path.parent)],
                                   filename=path_s)
            row["modes"][mode] = {"ok": True, "seconds": time.perf_counter() - t0,
                                  "source": result.source,
                                  "warnings": [d.message for d in result.diagnostics]}
        except okl.OKLError as e:
            first = e.diagnostics[0].message if e.diagnostics else str(e).splitlines()[0]
            row["modes"][mode] = {"ok": False, "seconds": time.perf_counter() - t0,
                                  "error": first}
        except Exception as e:  # a crash is a bug: keep it visible in the report
            row["modes"][mode] = {"ok": False, "seconds": time.perf_counter() - t0,
                                  "error": f"CRASH {type(e).__name__}: {e}"}
    return row


OCCA_MODES = {"cuda": "CUDA", "opencl": "OpenCL"}


def occa_translate(args: tuple[str, str, tuple[str, ...]]) -> dict:
    """OCCA's ``occa translate`` on one file, with the same defines (for the side by side)."""
    occa, path_s, modes = args
    path = Path(path_s)
    out = {}
    for mode in modes:
        flags = [x for k, v in defines_for(path, mode).items() for x in ("-D", f"{k}={v}")]
        flags += ["-I", str(path.parent)]
        proc = subprocess.run([occa, "translate", "-m", OCCA_MODES[mode], *flags, path_s],
                              capture_output=True, text=True)
        ok = proc.returncode == 0 and "__global__" in proc.stdout if mode == "cuda" else \
            proc.returncode == 0 and "__kernel" in proc.stdout
        out[mode] = {"ok": ok, "source": proc.stdout if ok else "",
                     "error": "" if ok else first_error(proc.stderr or proc.stdout)}
    return out


def nvcc_ok(source: str) -> tuple[bool, str]:
    with tempfile.TemporaryDirectory() as tmp:
        src = os.path.join(tmp, "k.cu")
        with open(src, "w") as f:
            f.write(source)
        proc = subprocess.run([os.environ.get("NVCC", "nvcc"), "-arch=sm_90", "-x", "cu",
                               "-std=c++17", "-c", "-o", os.path.join(tmp, "k.o"), src],
                              capture_output=True, text=True)
    return proc.returncode == 0, (proc.stdout + proc.stderr).strip()


def compile_row(row: dict) -> dict:
    """nvcc on okl's CUDA (and on OCCA's, when there is one)."""
    out = {}
    for side in ("modes", "occa"):
        cuda = row.get(side, {}).get("cuda")
        if cuda and cuda["ok"]:
            ok, log = nvcc_ok(cuda["source"])
            out[side] = {"ok": ok, "log": "" if ok else first_error(log)}
    return out


def opencl_compile(rows: list[dict]) -> None:
    """Build okl's (and OCCA's) OpenCL C on the CPU OpenCL device okl picks."""
    import pyopencl as cl

    from okl.runtime.drivers import clselect
    device = clselect.choose().device
    ctx = cl.Context([device])
    for row in rows:
        for side in ("modes", "occa"):
            m = row.get(side, {}).get("opencl")
            if not (m and m["ok"]):
                continue
            program = cl.Program(ctx, m["source"])
            key = ("opencl" if side == "modes" else "occa-opencl")
            try:
                program.build(options=["-cl-std=CL1.2"], cache_dir=False)
                row.setdefault("compiled", {})[key] = {"ok": True, "log": ""}
            except cl.Error:
                log = program.get_build_info(device, cl.program_build_info.LOG)
                row.setdefault("compiled", {})[key] = {"ok": False, "log": first_error(log)}


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("dirs", nargs="+", type=Path)
    ap.add_argument("--modes", default="cuda,opencl")
    ap.add_argument("--compile", action="store_true")
    ap.add_argument("--jobs", "-j", type=int, default=os.cpu_count() or 1)
    ap.add_argument("--json", type=Path)
    ap.add_argument("--errors", action="store_true", help="list every refusal")
    ap.add_argument("--occa", help="path of OCCA's `occa` command: translate with it too")
    ap.add_argument("--report", type=Path, help="write a Markdown report here")
    args = ap.parse_args(argv)
    modes = tuple(m.strip() for m in args.modes.split(",") if m.strip())
    report = {}
    for root in args.dirs:
        files = corpus_files(root)
        with ProcessPoolExecutor(args.jobs) as pool:
            rows = list(pool.map(translate_one, [(str(f), modes) for f in files], chunksize=4))
            if args.occa:
                occa = pool.map(occa_translate, [(args.occa, str(f), modes) for f in files])
                for row, o in zip(rows, occa, strict=True):
                    row["occa"] = o
            if args.compile and "cuda" in modes:
                for row, comp in zip(rows, pool.map(compile_row, rows), strict=True):
                    c = row.setdefault("compiled", {})
                    if "modes" in comp:
                        c["cuda"] = comp["modes"]
                    if "occa" in comp:
                        c["occa-cuda"] = comp["occa"]
        if args.compile and "opencl" in modes:
            opencl_compile(rows)
        summary = {"files": len(files)}
        for mode in modes:
            ok = [r for r in rows if r["modes"][mode]["ok"]]
            times = [r["modes"][mode]["seconds"] for r in rows]
            summary[mode] = {"translated": len(ok),
                             "median_ms": 1e3 * statistics.median(times) if times else 0.0,
                             "errors": Counter(r["modes"][mode]["error"].split("'")[0][:70]
                                               for r in rows if not r["modes"][mode]["ok"])}
            if args.compile:
                comp = [r.get("compiled", {}).get(mode) for r in ok]
                summary[mode]["compiled"] = sum(1 for c in comp if c and c["ok"])
            if args.occa:
                summary[mode]["occa_translated"] = sum(1 for r in rows
                                                       if r["occa"][mode]["ok"])
                if args.compile:
                    summary[mode]["occa_compiled"] = sum(
                        1 for r in rows if r.get("compiled", {}).get(f"occa-{mode}", {})
                        .get("ok"))
                    # files whose OCCA output compiles but okl's does not (or is refused)
                    summary[mode]["okl_behind"] = [
                        r["file"] for r in rows
                        if r.get("compiled", {}).get(f"occa-{mode}", {}).get("ok")
                        and not r.get("compiled", {}).get(mode, {}).get("ok")]
        report[str(root)] = {"summary": summary, "rows": rows}
        print(f"== {root}: {len(files)} files")
        for mode in modes:
            s = summary[mode]
            comp = f", {s['compiled']} compile" if "compiled" in s else ""
            print(f"  {mode:7} translated {s['translated']}/{len(files)}{comp}; "
                  f"median {s['median_ms']:.1f} ms")
            if args.errors:
                for r in rows:
                    m = r["modes"][mode]
                    if not m["ok"]:
                        print(f"    {r['file']}: {m['error'][:160]}")
                    c = r.get("compiled", {}).get(mode)
                    if c and not c["ok"]:
                        print(f"    COMPILE {r['file']}: {c['log'][:160]}")
    if args.report:
        args.report.write_text(markdown(report, modes))
    if args.json:
        for data in report.values():
            for r in data["rows"]:
                for m in r["modes"].values():
                    m.pop("source", None)
        args.json.write_text(json.dumps(report, indent=1, default=dict))
    return 0


def markdown(report: dict, modes: tuple[str, ...]) -> str:
    """The report: counts per corpus and mode, then every refusal and failed build."""
    out = ["# okl on real-world OKL corpora", "",
           "Made by `python -m benchmarks.corpus` (see its docstring for the defines).", ""]
    head = ["corpus", "files"]
    for mode in modes:
        head += [f"okl {mode}", f"OCCA {mode}", f"okl {mode} builds", f"OCCA {mode} builds",
                 f"median ms ({mode})"]
    out += ["| " + " | ".join(head) + " |", "|" + "---|" * len(head)]
    for root, data in report.items():
        s = data["summary"]
        cells = [Path(root).name, str(s["files"])]
        for mode in modes:
            m = s[mode]
            cells += [str(m["translated"]), str(m.get("occa_translated", "-")),
                      str(m.get("compiled", "-")), str(m.get("occa_compiled", "-")),
                      f"{m['median_ms']:.1f}"]
        out.append("| " + " | ".join(cells) + " |")
    out += ["", "## Refusals and failed builds (okl)", ""]
    for root, data in report.items():
        for r in data["rows"]:
            for mode in modes:
                m = r["modes"][mode]
                c = r.get("compiled", {}).get(mode)
                occa_c = r.get("compiled", {}).get(f"occa-{mode}", {}).get("ok")
                name = os.path.relpath(r["file"], Path(root).parent)
                if not m["ok"]:
                    out.append(f"- {mode} `{name}`: refused: {m['error'][:200]}")
                elif c and not c["ok"]:
                    occa = {True: "OCCA's builds", False: "OCCA's fails too",
                            None: "OCCA has none"}[occa_c]
                    out.append(f"- {mode} `{name}`: build fails ({occa}): {c['log'][:200]}")
    return "\n".join(out) + "\n"


if __name__ == "__main__":
    sys.exit(main())
