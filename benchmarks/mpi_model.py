"""A scaling model past one host: per-iteration time and efficiency of the distributed Poisson
CG (examples/distributed) and of benchParanumal's BP5 at 8, 64 and 1,024 GPUs, from measured
message latency and bandwidth inside a node and stated numbers for the fabric between nodes,
checked against what was measured at 2 and 4 GPUs.

    # 1. the probe, one rank per GPU (writes latency/bandwidth of okl.mpi.Communicator)
    mpiexec -n 4 python -m benchmarks.mpi_model probe --mode cuda --out probe.json
    # 2. the model, from the probe and a benchmarks.mpi_scaling result (its 1-GPU rows give
    #    the compute rate; its 2- and 4-GPU rows are what the model is checked against)
    python -m benchmarks.mpi_model predict --probe probe.json --scaling mpi-gpu-DATE.json \\
        [--bp5 bp5-scaling.json] [--json model.json]

The model (all times per CG iteration, one rank per GPU, ``nodes = ceil(G / gpus_per_node)``):

- compute: ``t_c(P) = k * t_launch + c * P`` for P points (DOFs) per GPU: ``k`` kernels per
  iteration at ``t_launch`` each (the floor a tiny block hits), ``c`` seconds per point from
  the measured one-GPU iteration (``c = (t_1 - k t_launch) / P_1``; with two one-GPU sizes,
  both are fitted).
- halo: one message per neighbour, all in flight at once (BP5: two such exchanges per
  iteration, the driver's gather-scatter sends values out and sums back).  Inside a node
  each GPU pair has its own link: ``t_h = alpha_intra + max_bytes / beta_intra``; a
  neighbour on another node goes through the GPU's NIC, shared by its messages off the
  node: ``t_h = alpha_inter + sum_bytes_off_node / beta_inter``; plus ``t_pack`` (pack and
  unpack kernels).
- overlap: the halo runs while the interior part of the operator runs (the example's
  applyInterior; BP5: elements that touch no other rank), so only
  ``exposed = max(0, t_h - f_interior * f_operator * t_c)`` adds to the iteration.
- all-reduces: ``r`` per iteration (Poisson 2, BP5 2), each one double, never hidden (the
  next kernel needs the value): ``t_ar(G) = a + b log2(G)`` inside a node (a, b from the
  probe's 2- and 4-GPU all-reduces), plus ``2 alpha_inter log2(nodes)`` between nodes (a
  tree up and down; NCCL's tree all-reduce for small messages).  BP5's resident solve as
  CUDA graphs (the file's rows say so): inside one node an all-reduce costs what the peers'
  kernel costs inside the graph (``--bp5-peer-allreduce``, measured), and the second one
  runs beside x's update (``--bp5-beside``): only what exceeds the update shows.
- ``t(G) = t_c(P) + exposed + r t_ar(G)``; weak efficiency ``t(1) / t(G)``; strong
  ``t(1) / (G t(G))``.

Decompositions: Poisson as the example does (``MPI.Compute_dims``: a 2-D grid of blocks, up
to 4 neighbours, 8 bytes per halo point); BP5 as slabs along z at 2 and 4 GPUs (what
examples/benchparanumal/ranks.py does: 2 neighbours, a face of ``(n_e N + 1)^2`` DOFs each),
and as cubes (3-D: up to 6 faces; edges and corners are counted in the faces' bytes, a
2 % overestimate) from 8 GPUs on, where slabs of 4 M DOFs per GPU would be one element thick.
GPUs of a node are neighbours in the decomposition's fastest-varying direction (rank
order), so a block's neighbours off the node are the ones across node boundaries.

Not modelled: what the slowest rank adds at each synchronising reduction -- the GPUs' spread
in speed (~2 % between 4 H200s of one host), a slab with two neighbours running a kernel
more than one with one, each process's host jitter -- and the operator's split into two
launches beside the halo.  It is small beside Poisson's 1.9 ms iteration; beside BP5's
0.38 ms, as CUDA graphs, it is the ~8 us per iteration between the model (0.979 at 4 GPUs)
and the measured 0.962 (with its dots read back to the host, ~45 us: 0.98 against 0.88).

Stated fabric numbers (``--inter-*``): 200 Gb/s InfiniBand NDR per GPU (one NIC each, 25
GB/s, of which ``--inter-efficiency`` 0.8 is reached by large messages) and 3 us latency
per message through NCCL's network path; 8 GPUs per node.  Each is an option.

Output: a markdown table (``workload | GPUs | nodes | per GPU | compute | halo | exposed |
all-reduces | iteration | efficiency | measured``), the parameters used above it, and with
``--json`` the same as data.
"""

from __future__ import annotations

import argparse
import json
import math
import statistics
import sys
import time
from dataclasses import asdict, dataclass, replace
from pathlib import Path

# -- the probe (runs under mpiexec) -------------------------------------------------------------

SIZES = [8, 64, 512, 4096, 32768, 262144, 1 << 21, 1 << 23, 1 << 25]


def probe(args: argparse.Namespace) -> int:
    """Ping-pong between ranks 0 and 1 and all-reduces of one double over 2 and all ranks,
    through okl.mpi.Communicator (the example's mode), each repeated ``--reps`` times in a
    row with nothing else running, the median of ``--rounds`` rounds kept."""
    import numpy as np
    from mpi4py import MPI

    import okl
    import okl.mpi

    world = MPI.COMM_WORLD
    rank, size = world.rank, world.size
    if size < 2:
        raise SystemExit("the probe needs 2 ranks or more")
    if args.mode in ("cuda", "hip"):
        import cupy
        dev = okl.Device(args.mode, device_id=okl.mpi.local_rank(world)
                         % cupy.cuda.runtime.getDeviceCount())
    else:
        dev = okl.Device(args.mode)
    stream = dev.stream()
    results: dict = {"ranks": size, "mode": args.mode, "device": dev.name}
    with okl.mpi.Communicator(world, dev, mode=args.exchange) as c:
        results["exchange"], results["exchange_reason"] = c.mode, c.reason
        buf = dev.zeros(max(SIZES), np.uint8)
        pingpong = []
        for nbytes in SIZES:
            view = buf[:nbytes]
            reps = max(4, min(args.reps, int(args.reps * 65536 / max(nbytes, 65536))))
            times = []
            for _ in range(args.rounds):
                world.Barrier()
                start = time.perf_counter()
                for _ in range(reps):
                    if rank == 0:
                        c.exchange([(1, view)], [], stream=stream).wait()
                        c.exchange([], [(1, view)], stream=stream).wait()
                    elif rank == 1:
                        c.exchange([], [(0, view)], stream=stream).wait()
                        c.exchange([(0, view)], [], stream=stream).wait()
                stream.finish()
                times.append((time.perf_counter() - start) / (2 * reps))
            pingpong.append({"bytes": nbytes, "seconds": statistics.median(times)})
        results["pingpong"] = world.bcast(pingpong, root=0)
        scalar = dev.zeros(1, np.float64)
        allreduce = {}
        pair = world.Split(0 if rank < 2 else 1, rank)
        for label, comm in (("2", pair), (str(size), world)):
            with okl.mpi.Communicator(comm, dev, mode=args.exchange) as sub:
                times = []
                for _ in range(args.rounds):
                    world.Barrier()
                    start = time.perf_counter()
                    for _ in range(args.reps):
                        sub.allreduce(scalar, "max", stream=stream)
                    stream.finish()
                    times.append((time.perf_counter() - start) / args.reps)
            allreduce[label] = statistics.median(times)
        # the same sum on the host (numpy, MPI): what a CG that reads its dots back anyway
        # (benchParanumal's, examples/benchparanumal --sums host) pays per dot
        host = {}
        value = np.zeros(1)
        for label, comm in (("2", pair), (str(size), world)):
            times = []
            for _ in range(args.rounds):
                world.Barrier()
                start = time.perf_counter()
                for _ in range(args.reps):
                    comm.Allreduce(MPI.IN_PLACE, value, op=MPI.MAX)
                times.append((time.perf_counter() - start) / args.reps)
            host[label] = statistics.median(times)
        pair.Free()
        results["allreduce_seconds"] = world.bcast(allreduce, root=0)
        results["host_allreduce_seconds"] = world.bcast(host, root=0)
    if rank == 0:
        results["fit"] = fit(results["pingpong"])
        text = json.dumps(results, indent=1)
        if args.out:
            Path(args.out).write_text(text + "\n")
        print(text)
    return 0


def fit(pingpong: list[dict]) -> dict:
    """alpha: the one-way time of the smallest message; beta: bytes per second of the
    largest messages past alpha (least squares of t = alpha + s / beta over those of 1 MiB
    and more)."""
    alpha = min(p["seconds"] for p in pingpong)
    big = [p for p in pingpong if p["bytes"] >= 1 << 20] or pingpong[-1:]
    num = sum(p["bytes"] * (p["seconds"] - alpha) for p in big)
    den = sum((p["seconds"] - alpha) ** 2 for p in big)
    beta = num / den if den > 0 else math.inf
    return {"alpha_seconds": alpha, "beta_bytes_per_second": beta}


# -- the model ------------------------------------------------------------------------------------

@dataclass
class Machine:
    alpha_intra: float  # s, one message inside a node
    beta_intra: float  # B/s, one GPU pair's link
    ar_a: float  # s, all-reduce inside a node: a + b log2(G)
    ar_b: float
    alpha_inter: float  # s, one message between nodes
    beta_inter: float  # B/s, one GPU's NIC
    gpus_per_node: int
    t_launch: float  # s per kernel
    t_pack: float  # s, pack + unpack of a halo


@dataclass
class Workload:
    name: str
    kernels: int  # per iteration on the critical path
    allreduces: int
    operator_share: float  # of the compute time: the part the halo can hide behind
    seconds_per_point: float  # c
    exchanges: int = 1  # halo exchanges per iteration, one after the other
    #: BP5's resident solve as CUDA graphs: an all-reduce inside a node as it costs inside
    #: the graph (the peers' kernel, measured), and the work the iteration's last all-reduce
    #: runs beside (x's update, which does not need it)
    peer_allreduce: float | None = None
    beside: float = 0.0


@dataclass
class Prediction:
    workload: str
    scaling: str
    gpus: int
    nodes: int
    per_gpu: str
    points_per_gpu: float
    compute: float
    halo: float
    exposed: float
    allreduce: float
    iteration: float
    efficiency: float
    measured: float | None = None
    measured_efficiency: float | None = None


def allreduce_time(m: Machine, gpus: int) -> float:
    if gpus == 1:
        return 0.0
    inside = min(gpus, m.gpus_per_node)
    nodes = math.ceil(gpus / m.gpus_per_node)
    return m.ar_a + m.ar_b * math.log2(inside) + 2 * m.alpha_inter * math.log2(nodes)


def halo_time(m: Machine, messages: list[tuple[float, bool]]) -> float:
    """(bytes, off the node) per neighbour, all at once."""
    if not messages:
        return 0.0
    t = 0.0
    inside = [b for b, off in messages if not off]
    outside = [b for b, off in messages if off]
    if inside:
        t = max(t, m.alpha_intra + max(inside) / m.beta_intra)
    if outside:
        t = max(t, m.alpha_inter + sum(outside) / m.beta_inter)
    return t + m.t_pack


def poisson_messages(m: Machine, gpus: int, nx: float, ny: float) -> tuple[list, float]:
    """Halo messages of a middle block of a 2-D decomposition (MPI.Compute_dims) and the
    fraction of its points that need no halo."""
    py, px = _dims2(gpus)
    msgs = []
    # x neighbours are adjacent ranks (same node unless px crosses a node); y neighbours
    # are px ranks away: off the node once px >= gpus_per_node or at a node boundary
    if px > 1:
        msgs += [(8 * ny, px > m.gpus_per_node)] * 2
    if py > 1:
        msgs += [(8 * nx, px >= m.gpus_per_node or gpus > m.gpus_per_node)] * 2
    interior = max(nx - 2, 0) * max(ny - 2, 0) / max(nx * ny, 1)
    return msgs, interior


def _dims2(g: int) -> tuple[int, int]:
    a = int(math.isqrt(g))
    while g % a:
        a -= 1
    return g // a, a  # (y, x), y >= x as MPI.Compute_dims gives


def _dims3(g: int) -> tuple[int, int, int]:
    best = (g, 1, 1)
    for a in range(1, g + 1):
        if g % a:
            continue
        for b in range(1, g // a + 1):
            if (g // a) % b:
                continue
            c = g // a // b
            dims = tuple(sorted((a, b, c), reverse=True))
            if max(dims) - min(dims) < max(best) - min(best):
                best = dims  # type: ignore[assignment]
    return best  # type: ignore[return-value]


def bp5_messages(m: Machine, gpus: int, dofs: float, degree: int) -> tuple[list, float, str]:
    """Face messages of a middle subdomain, the fraction of interior elements, and the
    partition: slabs along z up to 4 GPUs (the driver's), cubes from 8."""
    n = degree
    elements = dofs / n ** 3
    if gpus == 1:
        return [], 1.0, "one box"
    if gpus <= 4:  # slabs: the whole box split along z; a slab of E elements per rank
        # the box is a cube of gpus * elements elements; each slab is e x e x e/gpus
        e = (gpus * elements) ** (1 / 3)
        face = (e * n + 1) ** 2 * 8
        thick = e / gpus
        interior = max(thick - 2, 0) / thick
        return [(face, False)] * 2, interior, "slabs along z"
    e = elements ** (1 / 3)  # each rank a cube of e^3 elements
    face = (e * n + 1) ** 2 * 8
    dz, dy, dx = _dims3(gpus)
    msgs = []
    for d, stride in ((dx, 1), (dy, dx), (dz, dx * dy)):
        if d > 1:
            msgs += [(face, stride >= m.gpus_per_node or
                      (stride == 1 and d > m.gpus_per_node))] * 2
    interior = max(e - 2, 0) ** 3 / e ** 3
    return msgs, interior, "cubes (3-D)"


def predict_poisson(m: Machine, w: Workload, scaling: str, side: int, gpus: int,
                    base: float) -> Prediction:
    points = side * side / gpus if scaling == "strong" else float(side * side)
    py, px = _dims2(gpus)
    if scaling == "strong":
        nx, ny = side / px, side / py
    else:
        nx = ny = float(side)
    msgs, interior = poisson_messages(m, gpus, nx, ny)
    return _predict(m, w, scaling, gpus, f"{nx:.0f}x{ny:.0f}", points, msgs, interior, base)


def predict_bp5(m: Machine, w: Workload, gpus: int, dofs: float, degree: int,
                base: float) -> Prediction:
    msgs, interior, how = bp5_messages(m, gpus, dofs, degree)
    return _predict(m, w, "weak", gpus, f"{dofs / 1e6:g} M DOFs, {how}", dofs, msgs,
                    interior, base)


def _predict(m, w, scaling, gpus, label, points, msgs, interior, base) -> Prediction:
    compute = w.kernels * m.t_launch + w.seconds_per_point * points
    halo = w.exchanges * halo_time(m, msgs)
    hidden = interior * w.operator_share * compute
    exposed = max(0.0, halo - hidden)
    t_ar = allreduce_time(m, gpus)
    if w.peer_allreduce is not None and 1 < gpus <= m.gpus_per_node:
        t_ar = w.peer_allreduce
    ar = w.allreduces * t_ar - min(t_ar, w.beside)
    t = compute + exposed + ar
    eff = base / t if scaling == "weak" else base / (gpus * t)
    return Prediction(w.name, scaling, gpus, math.ceil(gpus / m.gpus_per_node), label, points,
                      compute, halo, exposed, ar, t, eff)


# -- inputs ---------------------------------------------------------------------------------------

def machine_from(args: argparse.Namespace, probe_doc: dict | None) -> tuple[Machine, list[str]]:
    notes = []
    if probe_doc:
        f = probe_doc["fit"]
        alpha, beta = f["alpha_seconds"], f["beta_bytes_per_second"]
        ars = probe_doc["allreduce_seconds"]
        a2 = ars.get("2")
        a4 = ars.get("4", a2)
        b = (a4 - a2) if a4 is not None and a2 is not None else 0.0
        a = a2 - b * 1.0 if a2 is not None else args.allreduce_seconds
        notes.append(f"intra-node (measured, {probe_doc['exchange']} on {probe_doc['device']}):"
                     f" latency {alpha * 1e6:.1f} us, bandwidth {beta / 1e9:.0f} GB/s "
                     f"per GPU pair, all-reduce of one double {a2 * 1e6:.1f} us on 2 GPUs, "
                     f"{a4 * 1e6:.1f} us on 4")
    else:
        alpha, beta = args.intra_latency, args.intra_bandwidth
        a, b = args.allreduce_seconds, 0.0
        notes.append(f"intra-node (ASSUMED, no probe given): latency {alpha * 1e6:.1f} us, "
                     f"bandwidth {beta / 1e9:.0f} GB/s, all-reduce {a * 1e6:.1f} us")
    beta_inter = args.inter_gbits * 1e9 / 8 * args.inter_efficiency
    notes.append(f"inter-node (stated): {args.inter_gbits:g} Gb/s per GPU "
                 f"({args.inter_efficiency:g} of it reached: {beta_inter / 1e9:.0f} GB/s), "
                 f"{args.inter_latency * 1e6:g} us per message, {args.gpus_per_node} GPUs "
                 f"per node; kernel floor {args.launch * 1e6:g} us each")
    return Machine(alpha, beta, a, b, args.inter_latency, beta_inter, args.gpus_per_node,
                   args.launch, 2 * args.launch), notes


def poisson_rows(doc: dict) -> list[dict]:
    return [r for r in doc["rows"] if r.get("mode") in ("cuda", "hip")] or doc["rows"]


def fit_compute(rows: list[dict], kernels: int, launch: float) -> tuple[float, float, str]:
    """(seconds per point, kernel floor, how) from the one-GPU rows."""
    ones = sorted({(r["points"], r["seconds_per_iteration"]) for r in rows if r["ranks"] == 1})
    if len(ones) >= 2:
        (p1, t1), (p2, t2) = ones[0], ones[-1]
        c = (t2 - t1) / (p2 - p1)
        floor = (t1 - c * p1) / kernels
        if c > 0 and floor >= 0:
            return c, floor, (f"fitted to the 1-GPU runs at {p1:,} and {p2:,} points: "
                              f"{c * 1e12:.1f} ps per point, {floor * 1e6:.1f} us per kernel")
    if ones:  # one size, or two that do not fit a line (noise): the largest, launch assumed
        p1, t1 = ones[-1]
        c = max(t1 - kernels * launch, 0.0) / p1
        return c, launch, f"from the 1-GPU run at {p1:,} points: {c * 1e12:.1f} ps per point"
    raise SystemExit("the scaling file has no 1-rank row: nothing to take the compute from")


def measured(rows: list[dict], scaling: str, side: int, gpus: int) -> float | None:
    for r in rows:
        series = r.get("series", "")
        if r["ranks"] == gpus and r["scaling"] == scaling and series == f"{scaling} {side}":
            return r["seconds_per_iteration"]
    return None


def predict(args: argparse.Namespace) -> int:
    probe_doc = json.loads(Path(args.probe).read_text()) if args.probe else None
    machine, notes = machine_from(args, probe_doc)
    preds: list[Prediction] = []
    if args.scaling:
        rows = poisson_rows(json.loads(Path(args.scaling).read_text()))
        c, floor, how = fit_compute(rows, args.poisson_kernels, args.launch)
        machine.t_launch = floor
        machine.t_pack = 2 * floor
        notes.append(f"Poisson compute: {how}; {args.poisson_kernels} kernels per iteration; "
                     "A p (the part the halo hides behind) 18 % of it (16 of 88 bytes/point)")
        w = Workload("poisson", args.poisson_kernels, 2, 16 / 88, c)
        series = sorted({r.get("series", "") for r in rows if r.get("series")})
        for s in series:
            scaling, side = s.split()[0], int(s.split()[1])
            base = predict_poisson(machine, w, scaling, side, 1, 1.0).iteration
            for g in sorted({1, 2, 4, *args.gpus}):
                p = predict_poisson(machine, w, scaling, side, g, base)
                p.measured = measured(rows, scaling, side, g)
                one = measured(rows, scaling, side, 1)
                if p.measured and one:
                    p.measured_efficiency = (one / p.measured if scaling == "weak"
                                             else one / (g * p.measured))
                preds.append(p)
    bp5_base = None
    bp5_rows: list[dict] = []
    if args.bp5:
        try:
            doc = json.loads(Path(args.bp5).read_text())
            rows = doc if isinstance(doc, list) else doc.get("rows", [])
            bp5_rows = [r for r in rows if isinstance(r, dict)]
            one = next((r for r in rows if r.get("ranks") == 1), None)
            if one is not None:
                bp5_base = float(one.get("seconds_per_iteration") or
                                 one["seconds"] / max(one["iterations"], 1))
                notes.append(f"BP5 compute: the 1-GPU run, {bp5_base * 1e3:.3f} ms per "
                             "iteration")
        except (OSError, ValueError, KeyError, TypeError, AttributeError) as e:
            notes.append(f"BP5 file {args.bp5} not understood ({type(e).__name__}: {e})")
    if bp5_base is None:
        bp5_base = args.bp5_seconds
        notes.append(f"BP5 compute: ASSUMED {bp5_base * 1e3:.3f} ms per iteration at "
                     f"{args.bp5_dofs / 1e6:g} M DOFs (degree {args.bp5_degree}; give "
                     "--bp5 with a measured run)")
    sums = next((r.get("sums") for r in bp5_rows if r.get("ranks", 1) > 1), None)
    host = (probe_doc or {}).get("host_allreduce_seconds")
    if sums == "host" and host and "2" in host:
        # the driver's CG reads each dot back and sums it over the ranks with MPI on the host
        h2 = host["2"]
        h4 = host.get("4", h2)
        machine = replace(machine, ar_a=h2 - (h4 - h2), ar_b=h4 - h2)
        notes.append(f"BP5 sums its dots on the host after the read-back (run.py --sums "
                     f"host): MPI all-reduce of one double {h2 * 1e6:.1f} us on 2 ranks, "
                     f"{h4 * 1e6:.1f} on 4 (measured); between nodes as the device's")
    c = max(bp5_base - args.bp5_kernels * machine.t_launch, 0.0) / args.bp5_dofs
    w = Workload("BP5", args.bp5_kernels, 2, args.bp5_operator_share, c, args.bp5_exchanges)
    if sums == "resident" and any(r.get("graphs") for r in bp5_rows):
        w = replace(w, peer_allreduce=args.bp5_peer_allreduce, beside=args.bp5_beside)
        notes.append(f"BP5's resident solve as CUDA graphs (run.py --sums resident): an "
                     f"all-reduce inside a node {args.bp5_peer_allreduce * 1e6:g} us (the "
                     "peers' kernel inside the graph, measured), between nodes the device "
                     "all-reduce above; the second of each iteration beside x's update "
                     f"({args.bp5_beside * 1e6:g} us), so only what exceeds it shows")
    notes.append(f"BP5: {args.bp5_kernels} kernels per iteration, the operator "
                 f"{args.bp5_operator_share:.0%} of the compute, {args.bp5_exchanges} halo "
                 f"exchange(s) per iteration (the driver's gather-scatter: values out, sums "
                 f"back); degree {args.bp5_degree}")
    base = predict_bp5(machine, w, 1, args.bp5_dofs, args.bp5_degree, 1.0).iteration
    for g in sorted({1, 2, 4, *args.gpus}):
        p = predict_bp5(machine, w, g, args.bp5_dofs, args.bp5_degree, base)
        ran = next((r for r in bp5_rows if r.get("ranks") == g), None)
        if ran is not None and bp5_base:
            try:
                p.measured = float(ran.get("seconds_per_iteration") or
                                   ran["seconds"] / max(ran["iterations"], 1))
                p.measured_efficiency = bp5_base / p.measured
            except (KeyError, TypeError, ValueError):
                pass
        preds.append(p)
    print("\n".join(f"- {n}" for n in notes))
    print()
    print(table(preds))
    if args.json:
        Path(args.json).write_text(json.dumps({"parameters": asdict(machine), "notes": notes,
                                               "predictions": [asdict(p) for p in preds]},
                                              indent=1) + "\n")
    return 0


def table(preds: list[Prediction]) -> str:
    us = lambda s: f"{s * 1e6:.1f}"  # noqa: E731
    lines = ["| workload | scaling | GPUs | nodes | per GPU | compute us | halo us | "
             "exposed us | all-reduces us | iteration us | efficiency | measured us | "
             "measured efficiency |", "|" + "---|" * 13]
    for p in preds:
        lines.append(
            f"| {p.workload} | {p.scaling} | {p.gpus} | {p.nodes} | {p.per_gpu} | "
            f"{us(p.compute)} | {us(p.halo)} | {us(p.exposed)} | {us(p.allreduce)} | "
            f"{us(p.iteration)} | {p.efficiency:.3f} | "
            f"{'' if p.measured is None else us(p.measured)} | "
            f"{'' if p.measured_efficiency is None else f'{p.measured_efficiency:.3f}'} |")
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    sub = p.add_subparsers(dest="command", required=True)
    pr = sub.add_parser("probe", help="measure latency and bandwidth (under mpiexec)")
    pr.add_argument("--mode", default="cuda")
    pr.add_argument("--exchange", default="auto", help="okl.mpi.Communicator mode")
    pr.add_argument("--reps", type=int, default=200)
    pr.add_argument("--rounds", type=int, default=5)
    pr.add_argument("--out", default=None)
    pd = sub.add_parser("predict", help="the model's table")
    pd.add_argument("--probe", default=None, help="the probe's JSON")
    pd.add_argument("--scaling", default=None, help="a benchmarks.mpi_scaling JSON")
    pd.add_argument("--bp5", default=None,
                    help="a benchparanumal_scaling JSON (its 1-rank row: BP5's compute)")
    pd.add_argument("--gpus", default="8,64,1024")
    pd.add_argument("--gpus-per-node", type=int, default=8)
    pd.add_argument("--inter-gbits", type=float, default=200.0,
                    help="network bandwidth per GPU, Gb/s (200: InfiniBand NDR)")
    pd.add_argument("--inter-efficiency", type=float, default=0.8)
    pd.add_argument("--inter-latency", type=float, default=3e-6, help="seconds")
    pd.add_argument("--intra-latency", type=float, default=10e-6,
                    help="without a probe: seconds per message inside a node")
    pd.add_argument("--intra-bandwidth", type=float, default=150e9,
                    help="without a probe: bytes/s per GPU pair inside a node")
    pd.add_argument("--allreduce-seconds", type=float, default=15e-6,
                    help="without a probe: one all-reduce inside a node")
    pd.add_argument("--launch", type=float, default=3e-6, help="seconds per kernel (floor)")
    pd.add_argument("--poisson-kernels", type=int, default=6)
    pd.add_argument("--bp5-dofs", type=float, default=4e6)
    pd.add_argument("--bp5-degree", type=int, default=7)
    pd.add_argument("--bp5-seconds", type=float, default=0.9e-3,
                    help="without --bp5: one GPU's BP5 iteration at --bp5-dofs")
    pd.add_argument("--bp5-kernels", type=int, default=6)
    pd.add_argument("--bp5-operator-share", type=float, default=0.7)
    pd.add_argument("--bp5-exchanges", type=int, default=2)
    pd.add_argument("--bp5-peer-allreduce", type=float, default=8e-6,
                    help="resident BP5 in graphs: one all-reduce inside a node, seconds "
                         "(measured on 4 H200s: bp5-4gpu-graphs-2026-11-28.txt)")
    pd.add_argument("--bp5-beside", type=float, default=27e-6,
                    help="resident BP5 in graphs: x's update, beside the second all-reduce")
    pd.add_argument("--json", default=None)
    args = p.parse_args(argv)
    if args.command == "probe":
        return probe(args)
    args.gpus = [int(g) for g in str(args.gpus).split(",") if g]
    return predict(args)


if __name__ == "__main__":
    sys.exit(main())
