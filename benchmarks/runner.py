"""`python -m benchmarks run`: set up the implementations, run every benchmark, write JSON."""

from __future__ import annotations

import datetime
import json
import os
import time

from . import (
    bench_airfoil,
    bench_bk1,
    bench_bk5,
    bench_blocksolver,
    bench_build,
    bench_dgvolume,
    bench_edges,
    bench_fd2d,
    bench_ins,
    bench_launch,
    bench_reduction,
    bench_stream,
)
from .common import ALL_MODES, Context, flush, log, machine_info, versions

BENCHES = {
    "stream": bench_stream.run,
    "addvectors": bench_launch.run_addvectors,
    "launch": bench_launch.run_latency,
    "reduction": bench_reduction.run,
    "fd2d": bench_fd2d.run,
    "bk5": bench_bk5.run,
    "edges": bench_edges.run,
    "blocksolver": bench_blocksolver.run,
    "bk1": bench_bk1.run,
    "dgvolume": bench_dgvolume.run,
    "airfoil": bench_airfoil.run,
    "ins": bench_ins.run,
    "build": bench_build.run,
}


def run(modes: list[str], *, quick: bool = False, out: str | None = None,
        only: list[str] | None = None, opencl: str = "auto") -> dict:
    if "all" in modes:
        modes = list(ALL_MODES)
    started = time.time()
    ctx = Context(modes=modes, quick=quick, opencl_pref=opencl)
    ctx.setup()
    if os.environ.get("OKL_BENCH_ICD_NOTE"):
        ctx.notes.append(os.environ["OKL_BENCH_ICD_NOTE"])
    log(f"[bench] okl modes: {[i.mode for i in ctx.okl_impls()]}; peers: "
        f"{[i.name for i in ctx.impls if not i.is_okl]}; skipped: {ctx.skipped}")
    timings = {}

    def document() -> dict:
        return {
            "schema": "okl-bench/1",
            "created": datetime.datetime.now().isoformat(timespec="seconds"),
            "quick": quick,
            "modes_requested": modes,
            "modes_run": [i.mode for i in ctx.okl_impls()],
            "modes_skipped": ctx.skipped,
            "impls": [{"name": i.name, "mode": i.mode, "device": i.device, "space": i.space,
                       "device_name": i.device_name, "timing": i.timing} for i in ctx.impls],
            "machine": machine_info(ctx),
            "versions": versions(),
            "wall_seconds": round(time.time() - started, 1),
            "bench_seconds": timings,
            "complete": len(timings) == len(selected),
            "notes": ctx.notes,
            "results": ctx.results,
            "builds": ctx.builds,
        }

    def save(doc: dict) -> None:
        if out:
            os.makedirs(os.path.dirname(os.path.abspath(out)), exist_ok=True)
            tmp = out + ".tmp"
            with open(tmp, "w") as f:
                json.dump(doc, f, indent=1, default=_jsonable)
            os.replace(tmp, out)

    selected = [n for n in BENCHES if not only or n in only]
    for name in selected:
        fn = BENCHES[name]
        t0 = time.time()
        try:
            fn(ctx)
            flush(ctx)  # what a benchmark left waiting (each round flushes its own)
        except Exception as e:  # a crashing benchmark must not lose the others' results
            import traceback
            log(f"[bench] {name} crashed: {e}")
            ctx.results.append({"bench": name, "kernel": "*", "check": "ERROR",
                                "check_detail": f"{type(e).__name__}: {e}",
                                "traceback": traceback.format_exc(limit=6)})
        timings[name] = round(time.time() - t0, 2)
        log(f"[bench] {name} done in {timings[name]:.1f} s")
        save(document())  # after every benchmark: a run cut short keeps what it measured
    doc = document()
    save(doc)
    if out:
        log(f"[bench] wrote {out}")
    fails = [r for r in ctx.results if r.get("check") != "PASS"]
    log(f"[bench] {len(ctx.results)} results, {len(fails)} not PASS, "
        f"{doc['wall_seconds']} s")
    return doc


def _jsonable(o):
    try:
        import numpy as np
        if isinstance(o, np.generic):
            return o.item()
    except ImportError:
        pass
    return str(o)
