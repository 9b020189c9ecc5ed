"""OP2 Airfoil (Balogh, Reguly, Mudalige): the five loops of the application on a generated
2-D unstructured quad mesh, FP64, with three race-handling variants of res_calc / bres_calc.

Mesh: a channel [0, 2] x [0, 1] with a bump on the lower wall, nx x ny = 2n x n quads (cells),
treated as unstructured: cells, nodes, interior edges (edge->node, edge->cell maps),
boundary edges (bedge->node, bedge->cell maps, a wall / far-field flag), cell->node map; every
set is numbered by a fixed-seed random permutation, so nothing is in grid order.

Loops (kernels/airfoil.okl): save_soln, adt_calc, res_calc, bres_calc, update; one iteration
of the application = save_soln + 2 x (adt_calc, res_calc, bres_calc, update); rms is reset
before each update and sqrt(rms / ncell) after the second is what the application prints.
Variants: `atomic` (increments with @atomic), `colour` (greedy edge colouring: no two
edges of a colour share a cell; edges sorted by colour; a host loop launches one colour's
contiguous range at a time) and `hier` (OP2's hierarchical colouring: blocks of consecutive
edges coloured so that blocks of a colour share no cell, one launch per block colour, the
increments staged in @shared rows one edge colour at a time).

Metrics: GB/s per loop, counting every datum once as OP2 does (maps and direct data per set
element; indirectly accessed data once per distinct element touched; read-write data twice);
ms per iteration (lower is better).
"""

from __future__ import annotations

import numpy as np

from .common import (
    I32,
    Config,
    Context,
    P,
    c_peer,
    cfunc,
    cl_kernels,
    cuda_peer,
    log,
    measure,
    okl_kernel,
    opencl_has_extension,
    ptr,
    rng,
    round_up,
)

BLOCK = 256
GAM, GM1, CFL, EPS, MACH = 1.4, 0.4, 0.9, 0.05, 0.4
_U = float(np.sqrt(GAM * 1.0 / 1.0) * MACH)
QINF = (1.0, _U, 0.0, 1.0 / GM1 + 0.5 * _U * _U)     # rho = 1, p = 1, Mach 0.4 along x
DEFINES = {"p_GAM": GAM, "p_GM1": GM1, "p_CFL": CFL, "p_EPS": EPS,
           **{f"p_QINF{i}": repr(v) for i, v in enumerate(QINF)}}
VARIANTS = ("atomic", "colour", "hier")


def grid(ctx: Context, device: str) -> int:
    """n: the mesh has 2n x n cells (GPU 2400 x 1200 = 2.88M, CPU 1200 x 600 = 720k)."""
    if ctx.quick:
        return 24
    return 1200 if device == "gpu" else 600


# ---------------------------------------------------------------------------------------------
# mesh


def mesh(n: int, seed: int = 20) -> dict:
    nx, ny = 2 * n, n
    g = rng(seed)
    i, j = np.meshgrid(np.arange(nx + 1), np.arange(ny + 1), indexing="ij")
    xs = 2.0 * i / nx
    bump = np.where((xs > 0.5) & (xs < 1.5), 0.08 * np.sin(np.pi * (xs - 0.5)) ** 2, 0.0)
    ys = bump + (1.0 - bump) * j / ny
    node = lambda i, j: i * (ny + 1) + j  # noqa: E731  (grid numbering, shuffled below)
    cell = lambda i, j: i * ny + j  # noqa: E731
    X = np.stack([xs.ravel(), ys.ravel()], 1)
    ci, cj = np.meshgrid(np.arange(nx), np.arange(ny), indexing="ij")
    ci, cj = ci.ravel(), cj.ravel()
    cnode = np.stack([node(ci, cj), node(ci + 1, cj), node(ci + 1, cj + 1), node(ci, cj + 1)], 1)
    # interior edges: vertical faces between cells (i-1, j), (i, j); horizontal (i, j-1), (i, j)
    vi, vj = np.meshgrid(np.arange(1, nx), np.arange(ny), indexing="ij")
    hi, hj = np.meshgrid(np.arange(nx), np.arange(1, ny), indexing="ij")
    vi, vj, hi, hj = vi.ravel(), vj.ravel(), hi.ravel(), hj.ravel()
    enode = np.concatenate([np.stack([node(vi, vj), node(vi, vj + 1)], 1),
                            np.stack([node(hi, hj), node(hi + 1, hj)], 1)])
    ecell = np.concatenate([np.stack([cell(vi - 1, vj), cell(vi, vj)], 1),
                            np.stack([cell(hi, hj - 1), cell(hi, hj)], 1)])
    # boundary edges: lower wall (bound 1), top, inlet and outlet (far field, bound 0)
    b = np.arange(nx)
    c = np.arange(ny)
    bnode = np.concatenate([np.stack([node(b, 0), node(b + 1, 0)], 1),
                            np.stack([node(b, ny), node(b + 1, ny)], 1),
                            np.stack([node(0, c), node(0, c + 1)], 1),
                            np.stack([node(nx, c), node(nx, c + 1)], 1)])
    bcell = np.concatenate([cell(b, 0), cell(b, ny - 1), cell(0, c), cell(nx - 1, c)])
    bound = np.concatenate([np.ones(nx), np.zeros(nx + 2 * ny)]).astype(np.int32)
    # numbering of every set as an unstructured mesh file has it: local but not in grid order
    pn = local_shuffle(i.ravel(), j.ravel(), g)
    pc = local_shuffle(ci, cj, g)
    inv_n, inv_c = np.argsort(pn), np.argsort(pc)       # new index of old node / cell
    X = X[pn]
    cnode = inv_n[cnode[pc]]
    e1 = np.concatenate([vi - 1, hi]), np.concatenate([vj, hj - 1])   # grid place of cell 1
    pe = local_shuffle(*e1, g)
    pb = local_shuffle(*np.divmod(bcell, ny), g)
    enode, ecell = inv_n[enode[pe]], inv_c[ecell[pe]]
    bnode, bcell, bound = inv_n[bnode[pb]], inv_c[bcell[pb]], bound[pb]
    swap = g.random(len(ecell)) < 0.5                  # no preferred side either
    ecell[swap] = ecell[swap][:, ::-1]
    # orient: the normal (dy, -dx), (dx, dy) = x[a] - x[b], points from cell 1 to cell 2 and
    # out of a boundary edge's cell
    centre = np.zeros((nx * ny, 2))
    for k in range(4):
        centre += 0.25 * X[cnode[:, k]]

    def orient(en, outward):
        d = X[en[:, 0]] - X[en[:, 1]]
        flip = (d[:, 1] * outward[:, 0] - d[:, 0] * outward[:, 1]) < 0
        en[flip] = en[flip][:, ::-1]
        return en

    enode = orient(enode, centre[ecell[:, 1]] - centre[ecell[:, 0]])
    bnode = orient(bnode, 0.5 * (X[bnode[:, 0]] + X[bnode[:, 1]]) - centre[bcell])
    i32 = lambda a: np.ascontiguousarray(a, dtype=np.int32)  # noqa: E731
    m = {"x": X.ravel().copy(), "cnode": i32(cnode).ravel(), "enode": i32(enode).ravel(),
         "ecell": i32(ecell).ravel(), "bnode": i32(bnode).ravel(), "bcell": i32(bcell),
         "bound": i32(bound)}
    # colour-sorted copies of the edge sets and their colour ranges
    col = colour(ecell, nx * ny)
    order = np.argsort(col, kind="stable")
    m["enode_c"], m["ecell_c"] = i32(enode[order]).ravel(), i32(ecell[order]).ravel()
    m["ecol"] = np.searchsorted(col[order], np.arange(col.max() + 2)).astype(np.int64)
    bcol = colour(bcell[:, None], nx * ny)
    order = np.argsort(bcol, kind="stable")
    m["bnode_c"], m["bcell_c"] = i32(bnode[order]).ravel(), i32(bcell[order])
    m["bound_c"] = i32(bound[order])
    m["bcol"] = np.searchsorted(bcol[order], np.arange(bcol.max() + 2)).astype(np.int64)
    for name, cl, cols, nodes, extra in (("he", ecell, col, enode, {}),
                                         ("hb", bcell[:, None], bcol, bnode, {"bound": bound})):
        h = hier_plan(cl, cols, nx * ny, name)
        src, valid = h.pop(f"{name}_src"), h.pop(f"{name}_valid")
        h[f"{name}_node"] = i32(nodes[src]).ravel()
        h[f"{name}_cell"] = i32(np.where(valid[:, None], cl[src], 0)).ravel()
        for key, a in extra.items():
            h[f"{name}_{key}"] = i32(a[src])
        m.update(h)
    m["ncell"], m["nnode"], m["nedge"], m["nbedge"] = nx * ny, len(X), len(enode), len(bnode)
    return m


PATCH = 8


def local_shuffle(gi, gj, g) -> np.ndarray:
    """A permutation (new position -> old index) of items at grid places (gi, gj): PATCH x
    PATCH patches of the grid in random order, the items of each patch in random order.  The
    numbering keeps a mesh file's locality (neighbours have near numbers, as after a
    partitioner or RCM renumbering) but no grid structure: no fixed strides anywhere."""
    patch = (gi // PATCH) * (gj.max() // PATCH + 1) + gj // PATCH
    rank = g.permutation(patch.max() + 1)[patch]
    return np.lexsort((g.random(len(gi)), rank))


def colour(cells: np.ndarray, ncell: int) -> np.ndarray:
    """Greedy colouring of edges (rows of `cells`, the cells each one increments): edges of a
    colour share no cell."""
    k = cells.shape[1]
    return colour_pairs(np.repeat(np.arange(len(cells)), k), cells.ravel(), len(cells), ncell)


def colour_pairs(item: np.ndarray, cell: np.ndarray, nitem: int, ncell: int) -> np.ndarray:
    """Greedy colouring of items given as (item, cell) incidence pairs: items of a colour share
    no cell.  Each colour is filled in rounds: every uncoloured item whose cells are still
    free and which has the lowest number among such items at each of its cells joins (an
    independent set), until no item fits."""
    col = np.full(nitem, -1, np.int64)
    c = 0
    while (col < 0).any():
        used = np.zeros(ncell, bool)
        while True:
            blocked = np.zeros(nitem, bool)
            blocked[item[used[cell]]] = True
            cand = (col < 0) & ~blocked
            pm = cand[item]
            if not pm.any():
                break
            pi, pc = item[pm], cell[pm]
            first = np.full(ncell, nitem, np.int64)
            np.minimum.at(first, pc, pi)
            bad = np.zeros(nitem, bool)
            bad[pi[first[pc] != pi]] = True
            sel = cand & ~bad
            col[sel] = c
            used[cell[sel[item]]] = True
        c += 1
    return col


def hier_plan(cells: np.ndarray, col: np.ndarray, ncell: int, prefix: str) -> dict:
    """OP2-style plan for hierarchical colouring of the edges whose incremented cells are the
    rows of `cells` (in their file order), with edge colours `col` (a global colouring is also
    a valid colouring inside every block): blocks of BLOCK consecutive edges, the distinct
    cells of each block, each edge's local cell numbers, the number of edge colours of each
    block, and a block colouring (blocks sharing a cell differ); blocks are sorted by block
    colour and their edges laid out in BLOCK slots each (padding: colour -1)."""
    ne, k = cells.shape
    nblk = (ne + BLOCK - 1) // BLOCK
    blk = np.arange(ne) // BLOCK
    key = np.repeat(blk, k) * ncell + cells.ravel()
    uniq, inv = np.unique(key, return_inverse=True)
    ublk, ucell = uniq // ncell, uniq % ncell
    boff = np.searchsorted(ublk, np.arange(nblk + 1))
    loc = (inv.reshape(ne, k) - boff[blk][:, None]).astype(np.int32)
    bcolour = colour_pairs(ublk, ucell, nblk, ncell)
    border = np.argsort(bcolour, kind="stable")
    slot = (border[:, None] * BLOCK + np.arange(BLOCK)).ravel()
    valid = slot < ne
    src = np.where(valid, slot, 0)
    counts = np.diff(boff)[border]
    starts = np.repeat(boff[:-1][border], counts)
    within = np.arange(counts.sum()) - np.repeat(np.cumsum(counts) - counts, counts)
    ncol = np.maximum.reduceat(col, np.arange(0, ne, BLOCK)) + 1
    i32 = lambda a: np.ascontiguousarray(a, dtype=np.int32)  # noqa: E731
    return {f"{prefix}_src": src, f"{prefix}_valid": valid,
            f"{prefix}_col": i32(np.where(valid, col[src], -1)),
            f"{prefix}_loc": i32(loc[src]).ravel(),
            f"{prefix}_boff": i32(np.concatenate([[0], np.cumsum(counts)])),
            f"{prefix}_bcells": i32(ucell[starts + within]),
            f"{prefix}_bncol": i32(ncol[border]),
            f"{prefix}_brange": np.searchsorted(bcolour[border],
                                                np.arange(bcolour.max() + 2)).astype(np.int64)}


# ---------------------------------------------------------------------------------------------
# numpy reference (independent code: whole-array expressions, scatter-add by bincount)


def _scatter(xp, idx, vals, n):
    return xp.stack([xp.bincount(idx, weights=vals[:, v], minlength=n) for v in range(4)], 1)


def ref_adt(xp, cnode, x, q):
    cn, X, Q = cnode.reshape(-1, 4), x.reshape(-1, 2), q.reshape(-1, 4)
    ri = 1.0 / Q[:, 0]
    u, v = ri * Q[:, 1], ri * Q[:, 2]
    cs = xp.sqrt(GAM * GM1 * (ri * Q[:, 3] - 0.5 * (u * u + v * v)))
    a = xp.zeros(len(Q))
    for k in range(4):
        d = X[cn[:, (k + 1) % 4]] - X[cn[:, k]]
        a += xp.abs(u * d[:, 1] - v * d[:, 0]) + cs * xp.sqrt(d[:, 0] ** 2 + d[:, 1] ** 2)
    return a / CFL


def _euler(q, dx, dy):
    ri = 1.0 / q[:, 0]
    p = GM1 * (q[:, 3] - 0.5 * ri * (q[:, 1] ** 2 + q[:, 2] ** 2))
    return p, ri * (q[:, 1] * dy - q[:, 2] * dx)


def ref_res(xp, enode, ecell, x, q, adt):
    en, ec, X, Q = enode.reshape(-1, 2), ecell.reshape(-1, 2), x.reshape(-1, 2), q.reshape(-1, 4)
    d = X[en[:, 0]] - X[en[:, 1]]
    dx, dy = d[:, 0], d[:, 1]
    q1, q2 = Q[ec[:, 0]], Q[ec[:, 1]]
    p1, vol1 = _euler(q1, dx, dy)
    p2, vol2 = _euler(q2, dx, dy)
    mu = (0.5 * EPS) * (adt[ec[:, 0]] + adt[ec[:, 1]])
    fp = xp.stack([0 * dx, p1 * dy + p2 * dy, -p1 * dx - p2 * dx, 0 * dx], 1)
    fp[:, 3] = vol1 * p1 + vol2 * p2
    f = 0.5 * (vol1[:, None] * q1 + vol2[:, None] * q2 + fp) + mu[:, None] * (q1 - q2)
    return _scatter(xp, ec[:, 0], f, len(Q)) - _scatter(xp, ec[:, 1], f, len(Q))


def ref_bres(xp, bnode, bcell, bound, x, q, adt):
    bn, X, Q = bnode.reshape(-1, 2), x.reshape(-1, 2), q.reshape(-1, 4)
    d = X[bn[:, 0]] - X[bn[:, 1]]
    dx, dy = d[:, 0], d[:, 1]
    q1 = Q[bcell]
    qi = xp.asarray(QINF)[None, :] + 0 * q1
    p1, vol1 = _euler(q1, dx, dy)
    p2, vol2 = _euler(qi, dx, dy)
    mu = EPS * adt[bcell]
    fp = xp.stack([0 * dx, p1 * dy + p2 * dy, -p1 * dx - p2 * dx, vol1 * p1 + vol2 * p2], 1)
    far = 0.5 * (vol1[:, None] * q1 + vol2[:, None] * qi + fp) + mu[:, None] * (q1 - qi)
    wall = xp.stack([0 * dx, p1 * dy, -p1 * dx, 0 * dx], 1)
    f = xp.where((bound == 1)[:, None], wall, far)
    return _scatter(xp, bcell, f, len(Q))


def ref_update(xp, qold, res, adt):
    d = res.reshape(-1, 4) / adt[:, None]
    return (qold.reshape(-1, 4) - d).ravel(), float((d * d).sum())


def ref_iteration(xp, H):
    """q and the rms of both updates after one iteration from H['q']."""
    q = H["q"]
    qold = q.copy()
    rms = []
    for _ in range(2):
        adt = ref_adt(xp, H["cnode"], H["x"], q)
        res = ref_res(xp, H["enode"], H["ecell"], H["x"], q, adt)
        res = res + ref_bres(xp, H["bnode"], H["bcell"], H["bound"], H["x"], q, adt)
        q, r = ref_update(xp, qold, res.ravel(), adt)
        rms.append(r)
    return q, rms


def initial_state(m: dict) -> np.ndarray:
    """The free stream, every component perturbed by up to ±2.5 % per cell (every term of
    every flux matters)."""
    g = rng(21)
    q = np.tile(np.asarray(QINF), (m["ncell"], 1))
    q *= 1.0 + 0.05 * (g.random(q.shape) - 0.5)
    return q.ravel().copy()


# ---------------------------------------------------------------------------------------------
# implementations: the five loops as callables on buffers of one memory space


class Ops:
    def __init__(self, ctx, impl, A, m):
        self.m, self.impl = m, impl
        nc, ne, nb = m["ncell"], m["nedge"], m["nbedge"]
        ecol, bcol = [int(v) for v in m["ecol"]], [int(v) for v in m["bcol"]]
        erng = list(zip(ecol[:-1], ecol[1:], strict=True))
        brng = list(zip(bcol[:-1], bcol[1:], strict=True))
        x, cn = A["x"], A["cnode"]
        en, ec, bn, bc, bd = A["enode"], A["ecell"], A["bnode"], A["bcell"], A["bound"]
        enc, ecc = A["enode_c"], A["ecell_c"]
        bnc, bcc, bdc = A["bnode_c"], A["bcell_c"], A["bound_c"]
        he = [A[f"he_{k}"] for k in ("node", "cell", "col", "loc", "boff", "bcells", "bncol")]
        hb = [A[f"hb_{k}"] for k in ("node", "cell", "bound", "col", "loc", "boff", "bcells",
                                      "bncol")]
        hrng = [(int(a), int(b)) for a, b in zip(m["he_brange"][:-1], m["he_brange"][1:],
                                                 strict=True) if b > a]
        hbrng = [(int(a), int(b)) for a, b in zip(m["hb_brange"][:-1], m["hb_brange"][1:],
                                                  strict=True) if b > a]
        if impl.is_okl:
            k = {name: okl_kernel(impl, "airfoil.okl", name, {"p_B": BLOCK, **DEFINES})
                 for name in ("saveSoln", "adtCalc", "resCalcAtomic", "resCalcColour",
                              "bresCalcAtomic", "bresCalcColour", "resCalcHier", "bresCalcHier",
                              "update")}
            self.save = lambda q, qo: k["saveSoln"](nc, q, qo)
            self.adt = lambda q, adt: k["adtCalc"](nc, cn, x, q, adt)
            self.res_atomic = lambda q, adt, r: k["resCalcAtomic"](ne, en, ec, x, q, adt, r)
            self.bres_atomic = lambda q, adt, r: k["bresCalcAtomic"](nb, bn, bc, bd, x, q, adt, r)

            def res_colour(q, adt, r):
                for s, e in erng:
                    k["resCalcColour"](s, e, enc, ecc, x, q, adt, r)

            def bres_colour(q, adt, r):
                for s, e in brng:
                    k["bresCalcColour"](s, e, bnc, bcc, bdc, x, q, adt, r)
            self.update = lambda qo, q, r, adt, rms: k["update"](nc, qo, q, r, adt, rms)

            def res_hier(q, adt, r):
                for s, e in hrng:
                    k["resCalcHier"](s, e, *he, x, q, adt, r)

            def bres_hier(q, adt, r):
                for s, e in hbrng:
                    k["bresCalcHier"](s, e, *hb, x, q, adt, r)
        elif impl.name == "cuda-hand":
            mod = cuda_peer(ctx, "airfoil", {"p_B": BLOCK, **DEFINES})
            f = {n: mod.get_function(n) for n in (
                "save_soln", "adt_calc", "res_calc_atomic", "res_calc_colour",
                "bres_calc_atomic", "bres_calc_colour", "res_calc_hier", "bres_calc_hier",
                "update")}
            i = np.int32
            g = lambda n: ((n + BLOCK - 1) // BLOCK,)  # noqa: E731

            def res_hier(q, adt, r):
                for s, e in hrng:
                    f["res_calc_hier"]((e - s,), (BLOCK,), (i(s), *he, x, q, adt, r))

            def bres_hier(q, adt, r):
                for s, e in hbrng:
                    f["bres_calc_hier"]((e - s,), (BLOCK,), (i(s), *hb, x, q, adt, r))
            self.save = lambda q, qo: f["save_soln"](g(4 * nc), (BLOCK,), (i(nc), q, qo))
            self.adt = lambda q, adt: f["adt_calc"](g(nc), (BLOCK,), (i(nc), cn, x, q, adt))
            self.res_atomic = lambda q, adt, r: f["res_calc_atomic"](
                g(ne), (BLOCK,), (i(ne), en, ec, x, q, adt, r))
            self.bres_atomic = lambda q, adt, r: f["bres_calc_atomic"](
                g(nb), (BLOCK,), (i(nb), bn, bc, bd, x, q, adt, r))

            def res_colour(q, adt, r):
                for s, e in erng:
                    f["res_calc_colour"](g(e - s), (BLOCK,), (i(s), i(e), enc, ecc, x, q, adt, r))

            def bres_colour(q, adt, r):
                for s, e in brng:
                    f["bres_calc_colour"](g(e - s), (BLOCK,),
                                          (i(s), i(e), bnc, bcc, bdc, x, q, adt, r))
            self.update = lambda qo, q, r, adt, rms: f["update"](
                g(nc), (BLOCK,), (i(nc), qo, q, r, adt, rms))
        elif impl.name == "opencl-hand":
            f = cl_kernels(impl, "airfoil", (
                "save_soln", "adt_calc", "res_calc_atomic", "res_calc_colour",
                "bres_calc_atomic", "bres_calc_colour", "res_calc_hier", "bres_calc_hier",
                "update"), {"p_B": BLOCK, **DEFINES})
            i = np.int32
            g = lambda n: (round_up(max(n, 1), BLOCK),)  # noqa: E731

            def res_hier(q, adt, r):
                for s, e in hrng:
                    f["res_calc_hier"](((e - s) * BLOCK,), (BLOCK,), i(s), *he, x, q, adt, r)

            def bres_hier(q, adt, r):
                for s, e in hbrng:
                    f["bres_calc_hier"](((e - s) * BLOCK,), (BLOCK,), i(s), *hb, x, q, adt, r)
            self.save = lambda q, qo: f["save_soln"](g(4 * nc), (BLOCK,), i(nc), q, qo)
            self.adt = lambda q, adt: f["adt_calc"](g(nc), (BLOCK,), i(nc), cn, x, q, adt)
            self.res_atomic = lambda q, adt, r: f["res_calc_atomic"](
                g(ne), (BLOCK,), i(ne), en, ec, x, q, adt, r)
            self.bres_atomic = lambda q, adt, r: f["bres_calc_atomic"](
                g(nb), (BLOCK,), i(nb), bn, bc, bd, x, q, adt, r)

            def res_colour(q, adt, r):
                for s, e in erng:
                    f["res_calc_colour"](g(e - s), (BLOCK,), i(s), i(e), enc, ecc, x, q, adt, r)

            def bres_colour(q, adt, r):
                for s, e in brng:
                    f["bres_calc_colour"](g(e - s), (BLOCK,), i(s), i(e), bnc, bcc, bdc, x, q,
                                          adt, r)
            self.update = lambda qo, q, r, adt, rms: f["update"](
                g(nc), (BLOCK,), i(nc), qo, q, r, adt, rms)
        else:  # openmp-hand, openmp-hand-1t
            lib = c_peer("airfoil", DEFINES)
            f = {n: cfunc(lib, n, *t) for n, t in (
                ("save_soln", (I32, P, P)), ("adt_calc", (I32, P, P, P, P)),
                ("res_calc_atomic", (I32, P, P, P, P, P, P)),
                ("res_calc_colour", (I32, I32, P, P, P, P, P, P)),
                ("bres_calc_atomic", (I32, P, P, P, P, P, P, P)),
                ("bres_calc_colour", (I32, I32, P, P, P, P, P, P, P)),
                ("res_calc_hier", (I32, I32, I32, P, P, P, P, P, P, P)),
                ("bres_calc_hier", (I32, I32, I32, P, P, P, P, P, P, P, P)),
                ("update", (I32, P, P, P, P, P)))}
            phe = [ptr(a) for a in he[:3]]             # node, cell, col
            phb = [ptr(a) for a in hb[:4]]             # node, cell, bound, col

            def res_hier(q, adt, r):
                pq, pa, pr = ptr(q), ptr(adt), ptr(r)
                for s, e in hrng:
                    f["res_calc_hier"](s, e, BLOCK, *phe, px, pq, pa, pr)

            def bres_hier(q, adt, r):
                pq, pa, pr = ptr(q), ptr(adt), ptr(r)
                for s, e in hbrng:
                    f["bres_calc_hier"](s, e, BLOCK, *phb, px, pq, pa, pr)
            px, pcn = ptr(x), ptr(cn)
            pe, pec, pbn, pbc, pbd = ptr(en), ptr(ec), ptr(bn), ptr(bc), ptr(bd)
            pe_c, pec_c, pbn_c, pbc_c, pbd_c = ptr(enc), ptr(ecc), ptr(bnc), ptr(bcc), ptr(bdc)
            self.save = lambda q, qo: f["save_soln"](nc, ptr(q), ptr(qo))
            self.adt = lambda q, adt: f["adt_calc"](nc, pcn, px, ptr(q), ptr(adt))
            self.res_atomic = lambda q, adt, r: f["res_calc_atomic"](
                ne, pe, pec, px, ptr(q), ptr(adt), ptr(r))
            self.bres_atomic = lambda q, adt, r: f["bres_calc_atomic"](
                nb, pbn, pbc, pbd, px, ptr(q), ptr(adt), ptr(r))

            def res_colour(q, adt, r):
                pq, pa, pr = ptr(q), ptr(adt), ptr(r)
                for s, e in erng:
                    f["res_calc_colour"](s, e, pe_c, pec_c, px, pq, pa, pr)

            def bres_colour(q, adt, r):
                pq, pa, pr = ptr(q), ptr(adt), ptr(r)
                for s, e in brng:
                    f["bres_calc_colour"](s, e, pbn_c, pbc_c, pbd_c, px, pq, pa, pr)
            self.update = lambda qo, q, r, adt, rms: f["update"](
                nc, ptr(qo), ptr(q), ptr(r), ptr(adt), ptr(rms))
        self.res_colour, self.bres_colour = res_colour, bres_colour
        self.res_hier, self.bres_hier = res_hier, bres_hier

    def iteration(self, variant, q, qold, adt, res, rms):
        """One application iteration: save_soln, then 2 x (adt, res, bres, update)."""
        res_f, bres_f = getattr(self, f"res_{variant}"), getattr(self, f"bres_{variant}")
        self.save(q, qold)
        for k in range(2):
            self.adt(q, adt)
            res_f(q, adt, res)
            bres_f(q, adt, res)
            self.update(qold, q, res, adt, rms[k])


# ---------------------------------------------------------------------------------------------
# driver


def run(ctx: Context) -> None:
    impls_all = [i for i in ctx.impls if i.name in
                 ("okl", "cuda-hand", "opencl-hand", "openmp-hand", "openmp-hand-1t")]
    for impl in [i for i in impls_all if i.name == "opencl-hand"]:
        if not opencl_has_extension(impl, "cl_khr_int64_base_atomics"):
            msg = (f"airfoil: opencl-hand skipped: {impl.device_name} lacks "
                   "cl_khr_int64_base_atomics (its FP64 atomic add is a 64-bit CAS loop)")
            log(f"[bench] {msg}")
            ctx.notes.append(msg)
            impls_all.remove(impl)
    for n in sorted({grid(ctx, i.device) for i in impls_all}, reverse=True):
        impls = [i for i in impls_all if grid(ctx, i.device) == n]
        m = mesh(n)
        nc, nn, ne, nb = m["ncell"], m["nnode"], m["nedge"], m["nbedge"]
        log(f"[bench] airfoil {2 * n}x{n}: {nc} cells, {nn} nodes, {ne} edges, {nb} bedges, "
            f"{len(m['ecol']) - 1} edge colours, {len(m['bcol']) - 1} bedge colours")
        q0 = initial_state(m)
        adt0 = ref_adt(np, m["cnode"], m["x"], q0)
        res0 = (ref_res(np, m["enode"], m["ecell"], m["x"], q0, adt0)
                + ref_bres(np, m["bnode"], m["bcell"], m["bound"], m["x"], q0, adt0)).ravel()
        host = {k: v for k, v in m.items() if isinstance(v, np.ndarray) and k not in
                ("ecol", "bcol", "he_brange", "hb_brange")}
        host.update(q=q0, adt0=adt0, res0=res0)
        cfg = Config(ctx, host)
        label = f"{nc // 1000}k cells" if nc >= 1000 else f"{nc} cells"
        bnodes = len(np.unique(m["bnode"]))
        bcells = len(np.unique(m["bcell"]))
        useful = {
            "save_soln": nc * 64,
            "adt_calc": nc * (16 + 32 + 8) + nn * 16,
            "res_calc": ne * 16 + nn * 16 + nc * (32 + 8 + 64),
            "bres_calc": nb * 16 + bnodes * 16 + bcells * (32 + 8 + 64),
            "update": nc * (32 + 32 + 64 + 8),
        }
        mesh_info = {"cells": nc, "nodes": nn, "edges": ne, "bedges": nb,
                     "edge_colours": len(m["ecol"]) - 1, "bedge_colours": len(m["bcol"]) - 1,
                     "edge_block_colours": len(m["he_brange"]) - 1,
                     "bedge_block_colours": len(m["hb_brange"]) - 1}
        log(f"[bench] airfoil hierarchical plan: {mesh_info['edge_block_colours']} / "
            f"{mesh_info['bedge_block_colours']} block colours, blocks of {BLOCK}")
        for impl in ctx.interleaved(impls):
            _run_impl(ctx, cfg, impl, m, label, useful, mesh_info)
        cfg.release()


def _copy(cfg, impl, dst, src) -> None:
    """dst[:] = src within one memory space (untimed resets)."""
    if impl.space == "cupy":
        dst[...] = src
    elif impl.space == "opencl":
        dst.copy_from(src)
    else:
        np.copyto(dst, src)


def _run_impl(ctx, cfg, impl, m, label, useful, mesh_info) -> None:
    A = cfg.arrays(impl)
    nc = m["ncell"]
    try:
        ops = Ops(ctx, impl, A, m)
    except Exception as e:
        from .common import record_error
        record_error(ctx, impl, e, bench="airfoil", kernel="*", size_label=label)
        return
    q0, adt0, res0 = A["q"], A["adt0"], A["res0"]
    q = cfg.output(impl, "q", 4 * nc, np.float64)
    qold = cfg.output(impl, "qold", 4 * nc, np.float64)
    adt = cfg.output(impl, "adt", nc, np.float64)
    res = cfg.output(impl, "res", 4 * nc, np.float64)
    rms = [cfg.output(impl, f"rms{k}", 1, np.float64) for k in range(2)]
    space = cfg.space
    common = dict(bench="airfoil", size=nc, size_label=label, precision="fp64")

    def one(kernel, metric, work, call, check, pre=None, unit_scale=1e9, hib=True, extra=None):
        measure(ctx, impl, kernel=kernel, metric=metric, work=work, call=call, check=check,
                pre=pre, unit_scale=unit_scale, higher_is_better=hib,
                extra={**mesh_info, **(extra or {})}, **common)

    ref_q = lambda xp, a: a["q"]  # noqa: E731
    one("save_soln", "GB/s", useful["save_soln"], lambda: ops.save(q0, qold),
        cfg.checker(impl, qold, "q", ref_q, rtol=0.0), extra={"useful_bytes": useful["save_soln"]})
    one("adt_calc", "GB/s", useful["adt_calc"], lambda: ops.adt(q0, adt),
        cfg.checker(impl, adt, "adt", lambda xp, a: ref_adt(xp, a["cnode"], a["x"], a["q"]),
                    rtol=1e-13), extra={"useful_bytes": useful["adt_calc"]})
    zero_res = lambda: space.zero(impl, res)  # noqa: E731
    ref_r = lambda xp, a: ref_res(xp, a["enode"], a["ecell"], a["x"], a["q"], a["adt0"]).ravel()  # noqa
    ref_b = lambda xp, a: ref_bres(xp, a["bnode"], a["bcell"], a["bound"], a["x"], a["q"],  # noqa
                                   a["adt0"]).ravel()
    for v in VARIANTS:
        rf, bf = getattr(ops, f"res_{v}"), getattr(ops, f"bres_{v}")
        one(f"res_calc {v}", "GB/s", useful["res_calc"], lambda rf=rf: rf(q0, adt0, res),
            cfg.checker(impl, res, "res", ref_r, rtol=1e-12), pre=zero_res,
            extra={"useful_bytes": useful["res_calc"], "variant": v})
        one(f"bres_calc {v}", "GB/s", useful["bres_calc"], lambda bf=bf: bf(q0, adt0, res),
            cfg.checker(impl, res, "bres", ref_b, rtol=1e-12), pre=zero_res,
            extra={"useful_bytes": useful["bres_calc"], "variant": v})

    def pre_update():
        _copy(cfg, impl, res, res0)
        space.zero(impl, rms[0])

    def check_update():
        qr, r = cfg.ref(impl, "update", lambda xp, a: ref_update(xp, a["q"], a["res0"], a["adt0"]))
        got = space.get(impl, q)
        ok, detail = _cmp(impl, ctx, got, qr, 1e-13)
        rr = float(space.get(impl, rms[0])[0])
        ok2 = abs(rr - r) <= 1e-10 * abs(r)
        return ok and ok2, f"q: {detail}; rms sum {rr:.15g} vs {r:.15g}"
    one("update", "GB/s", useful["update"], lambda: ops.update(q0, q, res, adt0, rms[0]),
        check_update, pre=pre_update, extra={"useful_bytes": useful["update"]})

    def pre_iter():
        _copy(cfg, impl, q, q0)
        space.zero(impl, res)
        space.zero(impl, rms[0])
        space.zero(impl, rms[1])

    for v in VARIANTS:
        def check_iter(v=v):
            qr, r = cfg.ref(impl, "iteration", ref_iteration)
            ok, detail = _cmp(impl, ctx, space.get(impl, q), qr, 1e-12)
            got = [float(space.get(impl, b)[0]) for b in rms]
            ok2 = all(abs(g - w) <= 1e-10 * abs(w) for g, w in zip(got, r, strict=True))
            printed = np.sqrt(got[1] / nc)
            log(f"[bench] airfoil {impl.label} {v}: iteration 1 rms {printed:10.5e} "
                f"(reference {np.sqrt(r[1] / nc):10.5e})")
            return ok and ok2, f"q: {detail}; rms {printed:.10e}"
        one(f"iteration {v}", "ms/iter", 1.0,
            lambda v=v: ops.iteration(v, q, qold, adt, res, rms), check_iter, pre=pre_iter,
            unit_scale=1e3, hib=False, extra={"variant": v})


def _cmp(impl, ctx, got, ref, rtol):
    from .common import compare
    xp = ctx.cp if impl.space == "cupy" else np
    return compare(xp, got, ref, rtol=rtol)
