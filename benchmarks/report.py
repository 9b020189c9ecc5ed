"""`python -m benchmarks report [FILES...]`: the comparison table, targets, and PNG charts.

Rows: one per okl mode and configuration (benchmark, kernel, size, precision, device).  The
*peer* of an okl mode is the hand-written code for the same device and programming model where
there is one: hand OpenCL C (`opencl-hand`, same context and queue) for opencl wherever that row
exists; otherwise hand CUDA for GPU modes (cuda, hip, opencl on a GPU), hand OpenMP C for openmp
and opencl on a CPU, the same C with one OpenMP thread for serial.  The other peers of the same
configuration stay in the "other peers" column.  ratio = okl performance / peer performance
(> 1: okl faster; for µs-per-launch the inverse of the time ratio), from the two best times.
Where both were timed in turns (the CPU rows: benchmarks.common._time_row), "paired" is the
median over the turns of the same ratio within each turn (see :func:`paired_ratio`).
"% limit" divides by the hardware limit of the constants below (measured on the project's
machines; listed in benchmarks/README.md, "Method") where the machine is an anchored one (the
H200; the 2-core EPYC); on another CPU the best CPU stream figure of the same run stands in for
the bandwidth limit.

matplotlib is imported only to draw the charts; without it the table is still printed.
"""

from __future__ import annotations

import glob
import json
import os
import statistics
from collections import defaultdict

HERE = os.path.dirname(os.path.abspath(__file__))

# ---- hardware limits (benchmarks/README.md, "Method") ----------------------------------------
# H200: achievable DRAM bandwidth 4.4 TB/s for read+write streams, 4.5 TB/s read-only
# (BabelStream CUDA at 2^28), spec 4.8 TB/s; FP64 34 TFLOP/s.  2-core EPYC (Zen 3, KVM):
# 24 GB/s STREAM-counted (best BabelStream/PoCL triad), ~30 GB/s physical; FP64 78 GFLOP/s.
H200 = {"bw": 4400.0, "bw_read": 4500.0, "spec": 4800.0, "fp64_gflops": 34000.0}
EPYC2 = {"bw": 24.0, "bw_read": 24.0, "spec": 30.0, "fp64_gflops": 78.0}
BK5_BYTES_PER_DOF = 72          # q 8 + Aq 8 + ggeo 7 * 8
FD2D_BYTES_PER_POINT = 12       # read u2, u3; write u1
TARGETS = {"cuda_ratio": 0.97, "stream_2p28_fp64_gbs": 4200.0, "launch_async_us": 7.0,
           "cold_build_s": 0.2, "warm_build_s": 1e-3, "openmp_ratio": 0.95,
           "opencl_ratio": 0.95,
           "openmp_stream_fraction": 0.80}


def machine_limits(machine: dict, device: str) -> dict | None:
    """The anchored limits of this machine; for an un-anchored CPU, the best CPU stream
    figure measured in the same run stands in for its bandwidth (no FLOP limit)."""
    if device == "gpu":
        name = (machine.get("gpu") or {}).get("name", "")
        return H200 if "H200" in name else None
    if machine.get("cpus") == 2 and "EPYC" in machine.get("cpu", ""):
        return EPYC2
    best = machine.get("_cpu_stream_best")
    if best:
        return {"bw": best, "bw_read": best, "spec": None, "fp64_gflops": None,
                "measured": True}
    return None


def limit_for(r: dict, machine: dict) -> tuple[float, str] | None:
    """(limit in the row's metric, what it is) or None."""
    lim = machine_limits(machine, r.get("device", ""))
    if lim is None:
        return None
    bench = r["bench"]
    how = " (best CPU stream in this run)" if lim.get("measured") else ""
    if bench in ("stream", "addvectors", "edges"):
        if r.get("kernel") == "dot":
            return lim["bw_read"], "DRAM read-only bw" + how
        return lim["bw"], "DRAM bw" + how
    if bench == "reduction":
        return lim["bw_read"], "DRAM read-only bw" + how
    if bench == "fd2d":
        return lim["bw"] / FD2D_BYTES_PER_POINT, "DRAM roofline (12 B/pt)" + how
    if bench == "bk5":
        nq = r.get("nq", 0)
        per_dof = (12 * nq + 15) if nq else 0
        bw = lim["bw"] / BK5_BYTES_PER_DOF
        fl = lim["fp64_gflops"] / per_dof if per_dof and lim.get("fp64_gflops") else bw
        return min(bw, fl), "roofline (72 B/DOF, FP64 peak)" + how
    return None


def peer_name(r: dict, group: dict | None = None) -> str:
    """Label of the peer of okl row `r`; `group`: the labels present for its configuration."""
    if r.get("mode") == "opencl" and (group is None or "opencl-hand" in group):
        return "opencl-hand"
    if r["device"] == "gpu":
        return "cuda-hand"
    return "openmp-hand-1t" if r.get("mode") == "serial" else "openmp-hand"


# ---- loading ---------------------------------------------------------------------------------


def default_files() -> list[str]:
    files = sorted(glob.glob(os.path.join(HERE, "results", "*.json")), key=os.path.getmtime)
    return files[-1:] if files else []


def load(files: list[str]) -> list[tuple[dict, dict]]:
    """[(result, machine)] over all files; later files win for identical configurations."""
    out = []
    for path in files:
        with open(path) as f:
            doc = json.load(f)
        m = dict(doc.get("machine", {}))
        m["_file"] = os.path.basename(path)
        m["_quick"] = doc.get("quick", False)
        cpu_stream = [r["value_best"] for r in doc.get("results", [])
                      if r.get("bench") == "stream" and r.get("device") == "cpu"
                      and r.get("check") == "PASS"]
        m["_cpu_stream_best"] = max(cpu_stream) if cpu_stream else None
        for r in doc.get("results", []):
            out.append((r, m))
    return out


def load_builds(files: list[str]) -> list[tuple[dict, dict]]:
    out = []
    for path in files:
        with open(path) as f:
            doc = json.load(f)
        for b in doc.get("builds", []):
            out.append((b, doc.get("machine", {})))
    return out


def group_key(r: dict) -> tuple:
    return (r.get("bench"), r.get("kernel"), r.get("size_label"), r.get("precision"),
            r.get("device"))


BENCH_ORDER = {"stream": 0, "addvectors": 1, "launch": 2, "reduction": 3, "fd2d": 4,
               "bk5": 5, "edges": 6}


def sort_key(k: tuple) -> tuple:
    bench, kernel, size, prec, device = k
    return (BENCH_ORDER.get(bench, 9), str(kernel), device != "gpu", str(prec),
            _size_num(size))


def _size_num(label) -> float:
    s = str(label)
    try:
        if s.startswith("2^"):
            return 2 ** int(s[2:])
        if s.endswith("^2"):
            return int(s[:-2]) ** 2
        if s.startswith("E="):
            return -int(s[2:])
        return float(s.split()[0].rstrip("k"))
    except ValueError:
        return 0


# ---- table -----------------------------------------------------------------------------------


def fmt(v, digits=4) -> str:
    if v is None:
        return "–"
    if isinstance(v, str):
        return v
    if v == 0:
        return "0"
    if abs(v) >= 1000:
        return f"{v:.0f}"
    return f"{v:.{digits}g}"


def paired_ratio(r: dict, peer: dict) -> float | None:
    """The median over turns of peer time / okl time within each turn (okl performance over
    the peer's), or None where the two were not timed in the same turns.

    The CPU rows time every implementation of a row call by call in turns (each turn in a
    random order), so the i-th call of two of them in one round ran within one turn: under
    the same state of the machine.  On the 2-core VM that state moves for seconds at a time
    (two threads' bandwidth flips between about 37 and 60 GB/s), which the ratio of the two
    best times of a row can catch in one implementation's favour: identical loops (okl's
    openmp stream rows and their hand C) measured 0.93-1.09 of each other by best times over
    six runs.  A turn's ratio cancels that state; the median over the turns keeps one slow
    call from deciding."""
    if not (r.get("in_turns") and peer.get("in_turns")):
        return None
    a_reps, b_reps = r.get("round_reps"), peer.get("round_reps")
    if not a_reps or not b_reps or len(a_reps) != len(b_reps):
        return None
    a_times, b_times = r["times_s"], peer["times_s"]
    ratios = []
    a_at = b_at = 0
    for na, nb in zip(a_reps, b_reps, strict=True):
        n = min(na, nb)  # both timed in each of the round's first n turns
        ratios += [b / a for a, b in zip(a_times[a_at:a_at + n], b_times[b_at:b_at + n],
                                         strict=True)]
        a_at, b_at = a_at + na, b_at + nb
    return statistics.median(ratios) if ratios else None


def rows_of(pairs) -> list[dict]:
    groups: dict[tuple, dict] = defaultdict(dict)
    machines: dict[tuple, dict] = {}
    for r, m in pairs:
        if r.get("bench") is None or r.get("kernel") == "*":
            continue
        k = group_key(r)
        groups[k][r.get("label")] = r
        machines[k] = m
    rows = []
    for k in sorted(groups, key=sort_key):
        g = groups[k]
        m = machines[k]
        for r in g.values():
            if r.get("impl") != "okl":
                continue
            peer = g.get(peer_name(r, g))
            others = {lab: x for lab, x in g.items() if x.get("impl") != "okl"}
            row = {"key": k, "r": r, "machine": m, "peer": peer, "others": others,
                   "ratio": None, "paired": None, "pct": None, "limit": None}
            ok = r.get("check") == "PASS"
            if ok and peer is not None and peer.get("check") == "PASS":
                a, b = r["value_best"], peer["value_best"]
                row["ratio"] = (a / b) if r.get("higher_is_better", True) else (b / a)
                row["paired"] = paired_ratio(r, peer)
            lim = limit_for(r, m)
            if lim is not None:
                row["limit"] = lim
                if ok and r.get("higher_is_better", True):
                    row["pct"] = 100.0 * r["value_best"] / lim[0]
            rows.append(row)
    return rows


def table_lines(rows: list[dict]) -> list[str]:
    head = ("| bench | kernel | size | prec | dev | okl mode | metric | okl best (median) | "
            "peer | peer best | ratio okl/peer | % limit | other peers (best) |")
    lines = [head, "|" + "---|" * 13]
    for row in rows:
        r, p = row["r"], row["peer"]
        if r.get("check") != "PASS":
            okl_txt = f"**{r.get('check')}**: {r.get('check_detail', '')[:80]}"
        else:
            okl_txt = f"{fmt(r['value_best'])} ({fmt(r['value_median'])})"
        if p is None:
            peer_txt, peer_name_txt = "–", "–"
        else:
            peer_name_txt = p.get("label")
            peer_txt = fmt(p.get("value_best")) if p.get("check") == "PASS" else \
                f"**{p.get('check')}**"
        others = ", ".join(
            f"{lab} {fmt(x.get('value_best'), 3) if x.get('check') == 'PASS' else x.get('check')}"
            for lab, x in row["others"].items() if x is not p)
        ratio = fmt(row["ratio"], 3) if row["ratio"] is not None else "–"
        if row["paired"] is not None:
            ratio += f" (paired {fmt(row['paired'], 3)})"
        pct = f"{row['pct']:.0f}%" if row["pct"] is not None else "–"
        lines.append(f"| {r['bench']} | {r['kernel']} | {r.get('size_label')} | "
                     f"{r.get('precision')} | {r.get('device')} | {r.get('mode')} | "
                     f"{r.get('metric')} | {okl_txt} | {peer_name_txt} | {peer_txt} | {ratio} | "
                     f"{pct} | {others} |")
    return lines


def extra_lines(pairs) -> list[str]:
    """BK5 GFLOP/s and fd2d GFLOP/s for every implementation."""
    lines = []
    bk = [(r, m) for r, m in pairs if r.get("bench") == "bk5" and r.get("check") == "PASS"]
    if bk:
        lines += ["", "BK5 GFLOP/s (12 Nq^4 + 15 Nq^3 flops per element), best (median):", "",
                  "| N | dev | impl | GDOF/s | GFLOP/s |", "|---|---|---|---|---|"]
        for r, _ in sorted(bk, key=lambda x: (x[0]["order"], x[0]["device"], x[0]["label"])):
            lines.append(f"| {r['order']} | {r['device']} | {r['label']} | "
                         f"{fmt(r['value_best'])} ({fmt(r['value_median'])}) | "
                         f"{fmt(r.get('gflops_best'))} ({fmt(r.get('gflops_median'))}) |")
    return lines


def build_lines(builds) -> list[str]:
    if not builds:
        return []
    lines = ["", "Build latency (ms): translate = okl.translation.translate; cold = new Device, "
             "empty cache, unique -D flag (translate + compile + load); warm = new Device, "
             "same cache dir; peer = compiling the hand-written peer the same way; NVRTC "
             "alone = NVRTC on okl's own output (cuda/hip) with okl's options, cold / alone ≤ "
             "1.10 the target; without -minimal = the same NVRTC call without okl's -minimal.",
             "", "| kernel | mode | translate min/med | cold | warm min/med | peer compile | "
             "NVRTC alone (cold / alone) | without -minimal | cold ≤ 200 ms | warm ≤ 1 ms |",
             "|---|---|---|---|---|---|---|---|---|---|"]
    for b, _ in builds:
        if b.get("check") != "PASS":
            lines.append(f"| {b['kernel']} | {b['mode']} | **{b.get('check')}** "
                         f"{b.get('check_detail', '')[:80]} | | | | | | | |")
            continue
        ms = lambda v: "–" if v is None else f"{v * 1e3:.1f}"  # noqa: E731
        warm = f"{b['warm_s_min'] * 1e3:.3f} / {b['warm_s_median'] * 1e3:.3f}"
        alone = (f"{ms(b['nvrtc_same_source_s'])} ({b['cold_over_nvrtc']:.2f})"
                 if "nvrtc_same_source_s" in b else "–")
        lines.append(f"| {b['kernel']} | {b['mode']} | {ms(b['translate_s_min'])} / "
                     f"{ms(b['translate_s_median'])} | {ms(b['cold_s'])} | {warm} | "
                     f"{ms(b.get('peer_compile_s'))} | {alone} | "
                     f"{ms(b.get('nvrtc_without_minimal_s'))} | "
                     f"{'yes' if b['cold_s'] <= TARGETS['cold_build_s'] else 'NO'} | "
                     f"{'yes' if b['warm_s_min'] <= TARGETS['warm_build_s'] else 'NO'} |")
    return lines


def target_lines(rows, pairs, builds) -> list[str]:
    out = ["", "Targets (not assertions):", ""]
    ok = lambda b: "met" if b else "MISSED"  # noqa: E731

    def ratios(mode, exclude_launch=False, peer=None):
        rs = [r for r in rows if r["r"].get("mode") == mode and r["ratio"] is not None
              and not (exclude_launch and r["r"]["bench"] == "launch")
              and (peer is None or r["peer"].get("label") == peer)]
        return rs

    for mode, target, name, peer in (
            ("cuda", TARGETS["cuda_ratio"], "hand-written CUDA", None),
            ("openmp", TARGETS["openmp_ratio"], "hand-written OpenMP", None),
            ("opencl", TARGETS["opencl_ratio"], "hand OpenCL", "opencl-hand")):
        rs = ratios(mode, exclude_launch=True, peer=peer)
        if not rs:
            continue
        bad = [r for r in rs if r["ratio"] < target]
        out.append(f"- okl {mode} ≥ {target} × {name} on every kernel: {ok(not bad)} "
                   f"({len(rs) - len(bad)}/{len(rs)}; min ratio "
                   f"{min(r['ratio'] for r in rs):.3f})")
        for r in bad:
            x = r["r"]
            also = "" if r["paired"] is None else f" (paired {r['paired']:.3f})"
            out.append(f"    - {x['bench']}/{x['kernel']} {x['size_label']} {x['precision']}: "
                       f"{r['ratio']:.3f}{also}")
        paired = [r for r in rs if r["paired"] is not None]
        if paired:
            low = [r for r in paired if r["paired"] < target]
            out.append(f"    by the paired ratio: {len(paired) - len(low)}/{len(paired)} ≥ "
                       f"{target}; min {min(r['paired'] for r in paired):.3f}"
                       + "".join(f"; {r['r']['bench']}/{r['r']['kernel']} "
                                 f"{r['r']['size_label']} {r['r']['precision']} "
                                 f"{r['paired']:.3f}" for r in low))
    fails = [(r, m) for r, m in pairs if r.get("check") not in ("PASS", None)]
    out.append(f"- correctness: {len(pairs) - len(fails)}/{len(pairs)} results PASS")
    for r, _ in fails:
        out.append(f"    - {r.get('check')}: {r.get('bench')}/{r.get('kernel')} "
                   f"{r.get('size_label')} {r.get('precision')} {r.get('label')}: "
                   f"{str(r.get('check_detail'))[:100]}")
    big = [r for r, _ in pairs if r.get("bench") == "stream" and r.get("mode") == "cuda"
           and r.get("size_label") == "2^28" and r.get("precision") == "fp64"
           and r.get("check") == "PASS"]
    if big:
        vals = ", ".join(f"{r['kernel']} {r['value_best']:.0f}" for r in big)
        best = max(r["value_best"] for r in big)
        out.append(f"- okl cuda stream ≥ 4.2 TB/s at 2^28 FP64: best {best:.0f} GB/s "
                   f"({ok(best >= TARGETS['stream_2p28_fp64_gbs'])}); per kernel: {vals}")
    lat = [r for r, _ in pairs if r.get("kernel") == "launch-async" and r.get("mode") == "cuda"
           and r.get("check") == "PASS"]
    for r in lat:
        out.append(f"- okl cuda launch ≤ 7 µs async: {r['value_best']:.2f} µs "
                   f"({ok(r['value_best'] <= TARGETS['launch_async_us'])})")
    if builds:
        good = [b for b, _ in builds if b.get("check") == "PASS"]
        for mode in sorted({b["mode"] for b in good}):
            bs = [b for b in good if b["mode"] == mode]
            cold = max(b["cold_s"] for b in bs)
            warm = max(b["warm_s_min"] for b in bs)
            out.append(f"- {mode}: cold build ≤ 0.2 s: worst {cold * 1e3:.0f} ms "
                       f"({ok(cold <= TARGETS['cold_build_s'])}); warm ≤ 1 ms: worst "
                       f"{warm * 1e3:.2f} ms ({ok(warm <= TARGETS['warm_build_s'])})")
    cpu_stream = [r for r, _ in pairs if r.get("bench") == "stream" and r.get("device") == "cpu"
                  and r.get("check") == "PASS"]
    if cpu_stream:
        best_all = max(r["value_best"] for r in cpu_stream)
        who = max(cpu_stream, key=lambda r: r["value_best"])
        omp = [r for r in cpu_stream if r.get("mode") == "openmp"]
        if omp:
            out.append(f"- okl openmp stream ≥ 80% of the best CPU stream figure in the run "
                       f"({best_all:.1f} GB/s, {who['label']} {who['kernel']} "
                       f"{who['precision']}):")
            for r in sorted(omp, key=lambda r: (r["precision"], r["kernel"])):
                same = max(x["value_best"] for x in cpu_stream if x["kernel"] == r["kernel"]
                           and x["precision"] == r["precision"])
                f_all, f_same = r["value_best"] / best_all, r["value_best"] / same
                out.append(f"    - {r['kernel']} {r['precision']}: {r['value_best']:.1f} GB/s = "
                           f"{100 * f_all:.0f}% of the overall best "
                           f"({ok(f_all >= TARGETS['openmp_stream_fraction'])}), "
                           f"{100 * f_same:.0f}% of the best {r['kernel']} "
                           f"({ok(f_same >= TARGETS['openmp_stream_fraction'])})")
    return out


# ---- charts ----------------------------------------------------------------------------------


def _bars(ax, plt, groups, keys, labels, machines, bench, kernel) -> None:
    width = 0.8 / max(1, len(labels))
    cmap = plt.get_cmap("tab10")
    metric = ""
    for j, lab in enumerate(labels):
        xs, ys, meds = [], [], []
        for i, k in enumerate(keys):
            r = groups[k].get(lab)
            if r is None or r.get("check") != "PASS":
                continue
            xs.append(i - 0.4 + width * (j + 0.5))
            ys.append(r["value_best"])
            meds.append(r["value_median"])
            metric = r["metric"]
        if xs:
            ax.bar(xs, ys, width, label=lab, color=cmap(j % 10),
                   hatch="" if lab.startswith("okl") else "//", edgecolor="white")
            ax.plot(xs, meds, "k.", markersize=3)
    for i, k in enumerate(keys):
        any_r = next(iter(groups[k].values()))
        lim = limit_for(any_r, machines[k])
        if lim is not None and any_r.get("higher_is_better", True):
            ax.hlines(lim[0], i - 0.45, i + 0.45, colors="red", linestyles="--")
        if bench == "launch" and any_r.get("device") == "gpu" and kernel == "launch-async":
            ax.hlines(TARGETS["launch_async_us"], i - 0.45, i + 0.45, colors="red",
                      linestyles="--")
    ax.set_xticks(range(len(keys)))
    ax.set_xticklabels([f"{k[2]} {k[3]}" for k in keys], fontsize=8)
    ax.set_ylabel(metric + (" (lower is better)" if bench == "launch" else ""))
    if bench == "launch":
        ax.set_yscale("log")
    ax.legend(fontsize=7, ncol=2)


def charts(pairs, builds, outdir: str) -> list[str]:
    try:
        import matplotlib
        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
    except ImportError:
        print("\n(matplotlib is not installed: no charts. pip install matplotlib)")
        return []
    os.makedirs(outdir, exist_ok=True)
    by_kernel: dict[tuple, dict] = defaultdict(lambda: defaultdict(dict))
    machines = {}
    for r, m in pairs:
        if r.get("bench") is None or r.get("kernel") == "*":
            continue
        k = group_key(r)
        by_kernel[(r["bench"], r["kernel"])][k][r.get("label")] = r
        machines[k] = m
    written = []
    for (bench, kernel), groups in sorted(by_kernel.items(),
                                          key=lambda x: (BENCH_ORDER.get(x[0][0], 9), x[0][1])):
        devices = sorted({k[4] for k in groups}, key=lambda d: d != "gpu")
        fig, axes = plt.subplots(1, len(devices), squeeze=False,
                                 figsize=(min(16, 2 + 5.5 * len(devices)), 4.4))
        for ax, device in zip(axes[0], devices, strict=True):
            keys = sorted((k for k in groups if k[4] == device), key=sort_key)
            labels = sorted({lab for k in keys for lab in groups[k]},
                            key=lambda s: (not s.startswith("okl"), s))
            _bars(ax, plt, groups, keys, labels, machines, bench, kernel)
            ax.set_title(f"{device.upper()}", fontsize=9)
        fig.suptitle(f"{bench}: {kernel}  (bars: best, dots: median, dashed: limit/target)",
                     fontsize=10)
        fig.tight_layout()
        name = f"{bench}_{str(kernel).replace(' ', '_').replace('=', '')}.png"
        path = os.path.join(outdir, name)
        fig.savefig(path, dpi=100)
        plt.close(fig)
        written.append(path)
    good = [b for b, _ in builds if b.get("check") == "PASS"]
    if good:
        kernels = sorted({b["kernel"] for b in good})
        modes = sorted({b["mode"] for b in good})
        fig, ax = plt.subplots(figsize=(max(6, 1.3 * len(kernels) * len(modes) / 2), 4.2))
        width = 0.8 / (3 * len(modes))
        cmap = plt.get_cmap("tab20")
        for j, mode in enumerate(modes):
            for s, (field, what) in enumerate((("translate_s_min", "translate"),
                                               ("cold_s", "cold"), ("warm_s_min", "warm"))):
                xs, ys = [], []
                for i, kern in enumerate(kernels):
                    b = next((b for b in good if b["kernel"] == kern and b["mode"] == mode), None)
                    if b is not None and b.get(field) is not None:
                        xs.append(i - 0.4 + width * (3 * j + s + 0.5))
                        ys.append(b[field] * 1e3)
                ax.bar(xs, ys, width, label=f"{mode} {what}", color=cmap((3 * j + s) % 20))
        ax.axhline(200, color="red", linestyle="--", label="cold target 200 ms")
        ax.axhline(1, color="purple", linestyle=":", label="warm target 1 ms")
        ax.set_yscale("log")
        ax.set_ylabel("ms")
        ax.set_xticks(range(len(kernels)))
        ax.set_xticklabels(kernels, fontsize=8)
        ax.set_title("build latency")
        ax.legend(fontsize=6, ncol=3)
        fig.tight_layout()
        path = os.path.join(outdir, "build_latency.png")
        fig.savefig(path, dpi=110)
        plt.close(fig)
        written.append(path)
    return written


def main(files: list[str], charts: str | None = "", markdown: str | None = None) -> int:
    files = files or default_files()
    if not files:
        print("no result files (run `python -m benchmarks run --out FILE` first)")
        return 1
    pairs = load(files)
    builds = load_builds(files)
    rows = rows_of(pairs)
    machines = {m["_file"]: m for _, m in pairs}
    lines = [f"okl benchmark report: {', '.join(os.path.basename(f) for f in files)}", ""]
    for name, m in machines.items():
        gpu = (m.get("gpu") or {}).get("name")
        lines.append(f"- {name}: {m.get('hostname')}, CPU {m.get('cpu')} x{m.get('cpus')}"
                     + (f", GPU {gpu}" if gpu else "") + (", QUICK (not timings)"
                                                          if m.get("_quick") else ""))
    lines.append("")
    lines += table_lines(rows)
    lines += extra_lines(pairs)
    lines += build_lines(builds)
    lines += target_lines(rows, pairs, builds)
    text = "\n".join(lines)
    print(text)
    if markdown:
        with open(markdown, "w") as f:
            f.write(text + "\n")
    if charts is not None:
        outdir = charts or os.path.join(os.path.dirname(os.path.abspath(files[0])), "charts")
        written = globals()["charts"](pairs, builds, outdir)
        if written:
            print(f"\n{len(written)} charts in {outdir}")
    return 0
