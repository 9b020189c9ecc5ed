"""Build storm: N MPI ranks build one multi-kernel file at once, with and without okl.mpi.

    python -m benchmarks.build_storm --ranks 1,2,4,8 --repeats 3 \\
        --out benchmarks/results/build-storm-$(date +%F).json

For each rank count and each variant -- ``every`` (every rank calls ``dev.build_kernel``, as
an application does today) and ``mpi`` (``okl.mpi.build_kernel``) -- a fresh ``mpiexec -n N``
job builds the five kernels of ``kernels/stream.okl`` on a shared cache directory:

- cold: an empty cache directory; warm: one filled by an earlier job (fresh processes, so
  no in-process memo helps);
- time: from a barrier that every rank leaves with its Device made and okl's modules imported
  (Python's own imports are the same for both variants, and a problem of their own at
  scale), to the last rank holding
  all five kernels (the maximum over ranks of its own elapsed time); ``--repeats`` jobs each,
  the median is reported; every rank then runs streamTriad and checks the answer;
- repeat call: µs per ``build_kernel`` call once the kernels are built (50 calls answered by
  the in-process memo; the slowest rank, median over the warm jobs): okl.mpi's own cost per
  call, its broadcast and allreduce;
- compiler runs and translations: ranks whose first kernel missed the build or the
  translation cache (``Kernel.build_hit`` / ``translation_hit`` False);
- file-system operations and bytes read per rank: one more job per case under
  ``strace -f`` (the rank and the compilers it starts), counting only the system calls between
  two marker ``stat`` calls around the builds, by path: the cache directory and the kernel
  source (what would live on a parallel file system), the temporary directory (node-local),
  everything else (compiler binaries, system headers).  Metadata operations are the path
  calls (open, create, stat/lstat/access/readlink, mkdir, rename, unlink/rmdir, exec) plus
  directory reads; bytes are what read()/pread() returned on files of that place.  The
  compilers started are counted too (``cc1`` runs, less those under ``cpp``, which okl's
  translation uses to preprocess).

The ranks wait for each other by polling with short sleeps (okl.mpi does so too), so that on
an oversubscribed machine a waiting rank leaves its core to the ranks that compile.
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import re
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent
KERNEL_FILE = HERE / "kernels" / "stream.okl"
NAMES = ("streamCopy", "streamMul", "streamAdd", "streamTriad", "streamDot")
DEFINES = {"dfloat": "double", "p_B": 256, "p_DOTB": 256}
MARK = "/nonexistent/okl-build-storm-"
REPEAT_CALLS = 50


# -- one rank ----------------------------------------------------------------------------------

def _polite_barrier(MPI, comm) -> None:
    request = comm.Ibarrier()
    delay = 20e-6
    while not request.Test():
        time.sleep(delay)
        delay = min(delay * 2, 1e-3)


def _mark(what: str) -> None:
    """A stat of a path that cannot exist: a marker line in the strace log."""
    try:
        os.stat(MARK + what)
    except OSError:
        pass


def worker(variant: str, mode: str, cache: str, out: str) -> None:
    import numpy as np
    from mpi4py import MPI

    import okl
    import okl.mpi
    import okl.translation  # noqa: F401  (imported by a build: Python's imports stay outside)

    comm = MPI.COMM_WORLD
    rank = comm.Get_rank()
    dev = okl.Device(mode, cache_dir=cache)
    okl.mpi.node_comm(comm)  # made before the clock starts (once per communicator)
    _polite_barrier(MPI, comm)
    _mark("begin")
    start = time.perf_counter()
    kernels = {}
    for name in NAMES:
        if variant == "mpi":
            kernels[name] = okl.mpi.build_kernel(comm, dev, KERNEL_FILE, name, defines=DEFINES)
        else:
            kernels[name] = dev.build_kernel(KERNEL_FILE, name, defines=DEFINES)
    seconds = time.perf_counter() - start
    _mark("end")
    _polite_barrier(MPI, comm)
    first = kernels[NAMES[0]]
    n = 10_000
    b, c = np.arange(n, dtype=np.float64), np.ones(n)
    a = dev.zeros(n)  # device memory: the same code on every mode
    kernels["streamTriad"](n, 3.0, dev.asarray(b), dev.asarray(c), a)
    a = a.get()
    # a repeated call, answered by the in-process memo: what each build_kernel call costs
    # once everything is built (okl.mpi: its broadcast and allreduce)
    _polite_barrier(MPI, comm)
    again = time.perf_counter()
    for _ in range(REPEAT_CALLS):
        if variant == "mpi":
            okl.mpi.build_kernel(comm, dev, KERNEL_FILE, NAMES[1], defines=DEFINES)
        else:
            dev.build_kernel(KERNEL_FILE, NAMES[1], defines=DEFINES)
    repeat_us = (time.perf_counter() - again) / REPEAT_CALLS * 1e6
    record = {"rank": rank, "seconds": seconds, "translated": not first.translation_hit,
              "compiled": first.build_hit is False, "correct": bool(np.allclose(a, b + 3.0)),
              "repeat_call_us": repeat_us}
    report = getattr(first, "mpi_build", None)
    if report is not None:
        record["overlay"] = {"hits": report.overlay_hits, "misses": report.overlay_misses,
                             "own_builds": report.own_builds,
                             "received_bytes": report.received_bytes}
    records = comm.gather(record, 0)
    if rank == 0:
        Path(out).write_text(json.dumps(records))


# -- strace logs -------------------------------------------------------------------------------

_CALL = re.compile(r"^(\d+)\s+(?:<\.\.\. (\w+) resumed>(.*)|(\w+)\((.*))$")
_FD = re.compile(r"^(-?\d+|AT_FDCWD)<([^>]*)>")
_STR = re.compile(r'"((?:[^"\\]|\\.)*)"')
_RESULT = re.compile(r"=\s+(-?\d+)")
KIND = {
    "open": "open", "openat": "open", "openat2": "open", "creat": "create",
    "stat": "stat", "lstat": "stat", "newfstatat": "stat", "statx": "stat", "access": "stat",
    "faccessat": "stat", "faccessat2": "stat", "readlink": "stat", "readlinkat": "stat",
    "mkdir": "mkdir", "mkdirat": "mkdir",
    "rename": "rename", "renameat": "rename", "renameat2": "rename",
    "unlink": "unlink", "unlinkat": "unlink", "rmdir": "unlink",
    "execve": "exec", "getdents64": "readdir", "getdents": "readdir",
}
READS = ("read", "pread64", "readv", "preadv")
META_KINDS = ("open", "create", "stat", "mkdir", "rename", "unlink", "exec", "readdir")


def _place(path: str, places: dict[str, str]) -> str:
    for name, prefix in places.items():
        if path == prefix or path.startswith(prefix.rstrip("/") + "/"):
            return name
    return "other"


def count_trace(log: str, places: dict[str, str]) -> dict:
    """Operations and bytes read by place, between the markers of one rank's strace log."""
    counts: dict[str, dict[str, int]] = {p: {} for p in (*places, "other")}
    nbytes = dict.fromkeys((*places, "other"), 0)
    cc1 = cpp = 0
    inside = False
    pending: dict[str, tuple[str, str]] = {}  # pid -> (call, place) of an unfinished read
    for line in log.splitlines():
        m = _CALL.match(line)
        if not m:
            continue
        pid, resumed, tail, call, args = m.groups()
        if resumed:
            if resumed in READS and pid in pending:
                _, place = pending.pop(pid)
                r = _RESULT.search(tail)
                if r and int(r.group(1)) > 0:
                    nbytes[place] += int(r.group(1))
            continue
        if MARK in args:
            inside = MARK + "begin" in args
            continue
        if not inside:
            continue
        fd = _FD.match(args)
        if call in READS:
            place = _place(fd.group(2), places) if fd else "other"
            r = _RESULT.search(args.rsplit(")", 1)[-1])
            if "<unfinished" in args:
                pending[pid] = (call, place)
            elif r and int(r.group(1)) > 0:
                nbytes[place] += int(r.group(1))
            continue
        kind = KIND.get(call)
        if kind is None:
            continue
        strings = _STR.findall(args)
        if kind == "readdir":
            path = fd.group(2) if fd else ""
        elif call.endswith("at") or call in ("renameat2", "statx", "faccessat2", "openat2"):
            path = strings[0] if strings else ""
            if path == "" and "AT_EMPTY_PATH" in args:
                continue  # fstat of an open file: no lookup
            if not path.startswith("/") and fd:
                path = os.path.join(fd.group(2), path)
        else:
            path = strings[0] if strings else ""
        if kind == "open" and "O_CREAT" in args:
            kind = "create"
        if kind == "exec" and "= -1" not in args:  # not the driver's tries along its path
            if path.endswith("/cc1"):
                cc1 += 1
            elif path.endswith("/cpp"):
                cpp += 1
        place = _place(path, places)
        counts[place][kind] = counts[place].get(kind, 0) + 1
    # okl's translation runs the system cpp, which runs cc1 too: compiles = cc1 - cpp
    return {"ops": counts, "bytes_read": nbytes, "cpp_runs": cpp, "compiler_runs": cc1 - cpp}


# -- the driver --------------------------------------------------------------------------------

def _mpiexec() -> str:
    here = Path(sys.executable).with_name("mpiexec")
    found = str(here) if here.exists() else shutil.which("mpiexec")
    if found is None:
        sys.exit("build_storm: no mpiexec (pip install mpi4py mpich)")
    return found


def _job(n: int, variant: str, mode: str, cache: Path, work: Path, trace: Path | None
         ) -> list[dict]:
    out = work / f"records-{os.getpid()}-{time.time_ns()}.json"
    env = dict(os.environ)
    env["PYTHONPATH"] = os.pathsep.join(filter(None, [str(ROOT), env.get("PYTHONPATH")]))
    for name in ("OKL_NO_CACHE", "OKL_CACHE_READONLY", "OKL_VERBOSE"):
        env.pop(name, None)
    env.setdefault("OMP_NUM_THREADS", "1")  # openmp mode: no thread oversubscription
    # byte code cached (outside the tree), as in an installed okl
    env.pop("PYTHONDONTWRITEBYTECODE", None)
    env["PYTHONPYCACHEPREFIX"] = str(work / "pycache")
    rank_cmd = [sys.executable, "-m", "benchmarks.build_storm", "--worker", variant, mode,
                str(cache), str(out)]
    if trace is not None:  # one log per rank, named by the rank hydra gives it
        rank_cmd = ["sh", "-c", 'exec strace -f -qq -y -s 0 -e trace=%file,%desc '
                    f'-e signal=none -o "{trace}/rank$PMI_RANK.log" "$@"', "strace",
                    *rank_cmd]
    r = subprocess.run([_mpiexec(), "-n", str(n), *rank_cmd], cwd=ROOT, env=env,
                       capture_output=True, text=True, timeout=600)
    if r.returncode != 0 or not out.exists():
        sys.exit(f"build_storm: mpiexec -n {n} {variant} failed (exit {r.returncode}):\n"
                 f"{r.stdout}{r.stderr}")
    records = json.loads(out.read_text())
    out.unlink()
    if not all(rec["correct"] for rec in records):
        sys.exit(f"build_storm: wrong streamTriad result on some rank: {records}")
    return records


def _summary(records: list[dict]) -> dict:
    return {"wall_s": max(r["seconds"] for r in records),
            "compiler_runs": sum(r["compiled"] for r in records),
            "translations": sum(r["translated"] for r in records),
            "repeat_call_us": max(r["repeat_call_us"] for r in records),
            "rank_seconds": [round(r["seconds"], 4) for r in records]}


def _machine() -> dict:
    from mpi4py import MPI

    from okl.runtime.properties import host_cpu

    commit = subprocess.run(["git", "rev-parse", "--short", "HEAD"], cwd=ROOT,
                            capture_output=True, text=True).stdout.strip()
    cc = subprocess.run(["cc", "--version"], capture_output=True, text=True).stdout
    return {"cpus": os.cpu_count(), "cpu": host_cpu(), "python": platform.python_version(),
            "mpi": MPI.Get_library_version().splitlines()[0].strip(),
            "cc": cc.splitlines()[0] if cc else "", "okl_commit": commit}


def _traced(n: int, variant: str, state: str, mode: str, base: Path, tmp: str) -> dict:
    """One job under strace: operations and bytes read per rank, by place."""
    cache = base / f"cache-{n}-{variant}-{state}-strace"
    if state == "warm":
        _job(1, "every", mode, cache, base, None)
    trace = base / f"trace-{n}-{variant}-{state}"
    trace.mkdir()
    records = _job(n, variant, mode, cache, base, trace)
    places = {"cache": str(cache), "source": str(KERNEL_FILE), "tmp": tmp}
    per_rank = []
    for rank in range(n):
        counted = count_trace((trace / f"rank{rank}.log").read_text(errors="replace"), places)
        counted["rank"] = rank
        per_rank.append(counted)
    shutil.rmtree(trace, ignore_errors=True)
    shutil.rmtree(cache, ignore_errors=True)
    return {"ranks": n, "variant": variant, "cache": state, "summary": _summary(records),
            "per_rank": per_rank}


def drive(args) -> dict:
    ranks = [int(x) for x in args.ranks.split(",")]
    base = Path(tempfile.mkdtemp(prefix="okl-build-storm-", dir=args.work))
    tmp = os.path.realpath(tempfile.gettempdir())
    if str(base).startswith(tmp + "/"):
        sys.exit(f"build_storm: --work must not be under the temporary directory {tmp}, or "
                 "cache and node-local files could not be told apart")
    results = {"command": " ".join(["python -m benchmarks.build_storm", *sys.argv[1:]]),
               "date": subprocess.run(["date", "+%F"], capture_output=True,
                                      text=True).stdout.strip(),
               "machine": _machine(), "mode": args.mode, "file": "benchmarks/kernels/stream.okl",
               "kernels": list(NAMES), "defines": DEFINES, "repeats": args.repeats,
               "oversubscribed": [n for n in ranks if n > (os.cpu_count() or 1)],
               "timing": [], "fs": []}
    try:
        for n in ranks:
            for state in ("cold", "warm"):
                # the two variants alternate (in turns of order), so that both see the same
                # load from whatever else runs on the machine
                rows: dict[str, list] = {"every": [], "mpi": []}
                loads: dict[str, list] = {"every": [], "mpi": []}
                for rep in range(args.repeats):
                    for variant in ("every", "mpi") if rep % 2 == 0 else ("mpi", "every"):
                        cache = base / f"cache-{n}-{variant}-{state}-{rep}"
                        if state == "warm":
                            _job(1, "every", args.mode, cache, base, None)  # fill it
                        loads[variant].append(round(os.getloadavg()[0], 2))
                        rows[variant].append(_summary(_job(n, variant, args.mode, cache, base,
                                                           None)))
                        shutil.rmtree(cache, ignore_errors=True)
                for variant in ("every", "mpi"):
                    walls = [r["wall_s"] for r in rows[variant]]
                    entry = {"ranks": n, "variant": variant, "cache": state,
                             "wall_s_median": statistics.median(walls),
                             "repeat_call_us_median": statistics.median(
                                 r["repeat_call_us"] for r in rows[variant]),
                             "wall_s_min": min(walls), "runs": rows[variant],
                             "load_average_1min": loads[variant]}
                    results["timing"].append(entry)
                    print(f"{n} ranks {variant:5} {state}: {entry['wall_s_median']:.3f} s "
                          f"(min {entry['wall_s_min']:.3f}; compiler runs "
                          f"{[r['compiler_runs'] for r in rows[variant]]})", flush=True)
                    if args.strace:
                        results["fs"].append(_traced(n, variant, state, args.mode, base, tmp))
    finally:
        shutil.rmtree(base, ignore_errors=True)
    return results


def _shared_ops(rank_counts: dict) -> tuple[int, int]:
    """(metadata operations, bytes read) of one rank on the shared places (cache, source)."""
    ops = sum(n for place in ("cache", "source") for kind, n in rank_counts["ops"][place].items()
              if kind in META_KINDS)
    return ops, sum(rank_counts["bytes_read"][p] for p in ("cache", "source"))


def table(results: dict) -> str:
    """The Markdown table of benchmarks/README.md from a results file."""
    timing = {(t["ranks"], t["variant"], t["cache"]): t for t in results["timing"]}
    fs = {(f["ranks"], f["variant"], f["cache"]): f for f in results["fs"]}
    lines = ["| ranks | path | cold: s to all ranks (median; min) | compiler runs | "
             "translations | warm: s (median; min) | cold: metadata ops / rank, rank 0; others |"
             " warm: ops / rank, rank 0; others | warm: bytes read / rank, rank 0; others |"
             " repeat call, µs |",
             "|---|---|---|---|---|---|---|---|---|---|"]
    for (n, variant, state), cold in sorted(timing.items()):
        if state != "cold":
            continue
        warm = timing[(n, variant, "warm")]
        runs = {r["compiler_runs"] for r in cold["runs"]}
        trans = {r["translations"] for r in cold["runs"]}
        cells = []
        for which in ("cold", "warm"):
            f = fs.get((n, variant, which))
            if f is None:
                cells.append(("-", "-"))
                continue
            per = [_shared_ops(r) for r in f["per_rank"]]
            others = sorted({p for p in per[1:]})
            cells.append((f"{per[0][0]}; {', '.join(str(o[0]) for o in others) or '-'}",
                          f"{per[0][1]}; {', '.join(str(o[1]) for o in others) or '-'}"))
        name = "every rank builds" if variant == "every" else "okl.mpi"
        lines.append(f"| {n} | {name} | {cold['wall_s_median']:.3f}; {cold['wall_s_min']:.3f} | "
                     f"{'/'.join(map(str, sorted(runs)))} | {'/'.join(map(str, sorted(trans)))} "
                     f"| {warm['wall_s_median']:.3f}; {warm['wall_s_min']:.3f} | {cells[0][0]} | "
                     f"{cells[1][0]} | {cells[1][1]} | {warm['repeat_call_us_median']:.0f} |")
    return "\n".join(lines)


def main(argv=None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--worker", nargs=4, metavar=("VARIANT", "MODE", "CACHE", "OUT"),
                        help=argparse.SUPPRESS)
    parser.add_argument("--ranks", default="1,2,4,8")
    parser.add_argument("--mode", default="serial",
                        choices=("serial", "openmp", "opencl", "cuda", "hip"))
    parser.add_argument("--repeats", type=int, default=3)
    parser.add_argument("--no-strace", dest="strace", action="store_false",
                        help="skip the file-system counts (strace)")
    parser.add_argument("--work", default=os.path.expanduser("~/.cache"),
                        help="where the shared cache directories are made (not under TMPDIR)")
    parser.add_argument("--out", help="JSON file for the results")
    parser.add_argument("--table", metavar="JSON", help="print the Markdown table of a results "
                        "file and exit")
    args = parser.parse_args(argv)
    if args.worker:
        worker(*args.worker)
        return
    if args.table:
        print(table(json.loads(Path(args.table).read_text())))
        return
    if args.strace and shutil.which("strace") is None:
        sys.exit("build_storm: strace not found (apt-get install strace, or --no-strace)")
    results = drive(args)
    text = json.dumps(results, indent=1)
    if args.out:
        Path(args.out).write_text(text + "\n")
        print(f"wrote {args.out}")
    else:
        print(text)


if __name__ == "__main__":
    main()
