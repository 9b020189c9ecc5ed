"""Command line: ``python -m benchmarks run ...`` and ``python -m benchmarks report ...``."""

from __future__ import annotations

import argparse
import os
import sys


def _env_defaults() -> None:
    # OpenMP settings must be in place before libgomp starts (first OpenMP call in the
    # process).  Pinned threads and passive waiting avoid the multi-ms stalls of spinning
    # threads descheduled under the Python main thread (benchmarks/README.md, "Method").
    os.environ.setdefault("OMP_PROC_BIND", "true")
    os.environ.setdefault("OMP_WAIT_POLICY", "passive")
    _nvidia_opencl_icd()


def _nvidia_opencl_icd() -> None:
    """Make NVIDIA's OpenCL visible when its library is installed but not registered.

    Some GPU containers ship libnvidia-opencl.so.1 (with the driver) but no
    /etc/OpenCL/vendors/nvidia.icd, so the ICD loader lists only PoCL.  Then a private vendors
    directory (the system's .icd files plus nvidia.icd) is passed to the loader through
    OCL_ICD_VENDORS.  Nothing is changed when OCL_ICD_VENDORS is already set.
    """
    import ctypes.util
    import glob
    import shutil
    import tempfile

    if os.environ.get("OCL_ICD_VENDORS"):
        return
    system = "/etc/OpenCL/vendors"
    icds = glob.glob(os.path.join(system, "*.icd"))
    for path in icds:
        try:
            if "nvidia" in open(path).read().lower():
                return
        except OSError:
            pass
    lib = None
    for cand in ("libnvidia-opencl.so.1", "libnvidia-opencl.so"):
        try:
            import ctypes
            ctypes.CDLL(cand)
            lib = cand
            break
        except OSError:
            continue
    if lib is None and ctypes.util.find_library("nvidia-opencl"):
        lib = ctypes.util.find_library("nvidia-opencl")
    if lib is None:
        return
    vendors = tempfile.mkdtemp(prefix="okl-bench-icd-")
    for path in icds:
        shutil.copy(path, vendors)
    with open(os.path.join(vendors, "nvidia.icd"), "w") as f:
        f.write(lib + "\n")
    os.environ["OCL_ICD_VENDORS"] = vendors
    os.environ["OKL_BENCH_ICD_NOTE"] = (f"registered {lib} for the OpenCL ICD loader via "
                                        f"OCL_ICD_VENDORS={vendors}")


def main(argv=None) -> int:
    p = argparse.ArgumentParser(prog="python -m benchmarks")
    sub = p.add_subparsers(dest="cmd", required=True)
    r = sub.add_parser("run", help="run the benchmarks and write JSON")
    r.add_argument("--mode", action="append", default=None,
                   help="cuda, hip, opencl, openmp, serial or all (repeatable; default all)")
    r.add_argument("--quick", action="store_true",
                   help="tiny sizes, correctness only (a few seconds per mode)")
    r.add_argument("--out", default=None, help="JSON file to write")
    r.add_argument("--only", action="append", default=None,
                   help="run only these benchmarks (stream, addvectors, launch, reduction, "
                        "fd2d, bk5, edges, build); repeatable")
    r.add_argument("--opencl", default="auto", choices=("auto", "gpu", "cpu"),
                   help="which OpenCL device okl's opencl mode uses (auto: a GPU if any)")
    rep = sub.add_parser("report", help="print the table and draw charts from JSON files")
    rep.add_argument("files", nargs="*", help="result JSON files (default: the newest in "
                                              "benchmarks/results)")
    rep.add_argument("--charts", default=None,
                     help="directory for the PNG charts (default: next to the first file)")
    rep.add_argument("--no-charts", action="store_true")
    rep.add_argument("--markdown", default=None, help="also write the table to this file")
    args = p.parse_args(argv)
    if args.cmd == "run":
        _env_defaults()
        from .runner import run
        modes = []
        for m in args.mode or ["all"]:
            modes += [x.strip() for x in m.split(",") if x.strip()]
        doc = run(modes, quick=args.quick, out=args.out, only=args.only, opencl=args.opencl)
        bad = [x for x in doc["results"] if x.get("check") != "PASS"]
        return 1 if bad else 0
    from .report import main as report_main
    return report_main(args.files, charts=None if args.no_charts else (args.charts or ""),
                       markdown=args.markdown)


if __name__ == "__main__":
    sys.exit(main())
