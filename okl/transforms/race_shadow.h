/* okl's race checker: the shadow state of every element a kernel touches
 * (okl.transforms.races instruments the kernel; okl.runtime.launch.races reads the report).
 *
 * OKL's concurrency, as a GPU runs it: within one launch of a device kernel (one top-level
 * @outer loop) every (@outer iteration, @inner iteration) pair is a thread and all threads
 * run concurrently, except that the threads of one @outer iteration (a block) pass its
 * barriers together.  Two accesses of one element conflict when at least one writes, they
 * come from different threads, they are not both atomic, and no barrier orders them: they
 * are in different blocks, or in one block within one barrier interval (an *epoch*).
 * Barriers okl inserts after @inner blocks that use @shared memory fence @shared memory
 * only (OpenCL's CLK_LOCAL_MEM_FENCE), so global memory has epochs of its own that only an
 * explicit @barrier ends.
 *
 * The instrumented kernel runs on one CPU thread, block after block, so the state needs no
 * locks and the first race found is the same on every run.  Each element keeps its last
 * plain write and two summaries (plain reads, atomic updates) that answer "did an access
 * unordered with this one happen?" exactly: the first access, one from another block than
 * that one, and up to two threads' accesses in the latest epoch of the running block.  The
 * atomic summaries of a region are allocated when it is first updated atomically: most
 * arrays never are, and the shadow's size is the checker's cost (it is memory-bound).
 */
#include <stdint.h>
#include <stdlib.h>

typedef struct { int64_t block, thread; int32_t epoch, site; } _okl_access;
typedef struct { _okl_access any, other, now, now2; } _okl_accesses;
typedef struct {
    uint64_t gen;      /* the launch (global memory) or block (@shared) it describes */
    int64_t written;   /* written since gen began (uninitialised reads are warned about) */
    _okl_access write; /* the last plain write */
    _okl_accesses reads;
} _okl_cell;
typedef struct { uint64_t gen; _okl_accesses updates; } _okl_atomic_cell;
typedef struct {
    char *base;
    int64_t nbytes, size;
    int kind;          /* _OKL_GLOBAL, _OKL_SHARED or _OKL_EXCLUSIVE, | _OKL_QUIET */
    _okl_cell *cells;
    _okl_atomic_cell *atomics;  /* 0 until the region's first atomic update */
    int64_t ncells, natomics;
} _okl_region;

#define _OKL_GLOBAL 0
#define _OKL_SHARED 1
#define _OKL_EXCLUSIVE 2
#define _OKL_QUIET 4   /* no warning of unset reads: initialised, or written through a pointer */
#define _OKL_READ 1
#define _OKL_WRITE 2
#define _OKL_ATOMIC 4
/* the report (a hidden int64 argument): see okl.runtime.launch.races */
#define _OKL_R_FOUND 0
#define _OKL_R_ORDER 1
#define _OKL_R_SEED 2
/* _OKL_R_WARN + site: region << 40 | 1 + the first unset element it read
 * (_OKL_REGIONS and _OKL_R_WARN come from okl.transforms.races.shadow_source) */

static struct {
    long long *report;
    uint64_t gen, block_gen;
    int32_t epoch, global_epoch;
    int64_t block, thread;
    int in_block;
    _okl_region regions[_OKL_REGIONS];
} _okl_rs;

/* a thread's or block's loop counters, 21 bits each (signed): its identity and its name */
#define _OKL_KEY(a, b, c) ((((int64_t) (a)) & 0x1FFFFF) | ((((int64_t) (b)) & 0x1FFFFF) << 21) \
                           | ((((int64_t) (c)) & 0x1FFFFF) << 42))

static void _okl_race_enter(long long *report) {
    _okl_rs.report = report;
    _okl_rs.in_block = 0;
    for (int r = 0; r < _OKL_REGIONS; ++r)
        _okl_rs.regions[r].base = 0;
}

static void _okl_race_region(int r, const void *base, int64_t nbytes, int64_t size, int kind) {
    _okl_region *g = &_okl_rs.regions[r];
    int64_t n = size > 0 && nbytes > 0 ? nbytes / size : 0;
    if (n > g->ncells) {
        free(g->cells);
        g->cells = (_okl_cell *) calloc((size_t) n, sizeof(_okl_cell));
        g->ncells = g->cells ? n : 0;
        if (!g->cells)
            _okl_rs.report[_OKL_R_FOUND] = -1;  /* out of memory: reported, not checked */
    }
    g->base = (char *) base;
    g->nbytes = g->cells ? n * size : 0;
    g->size = size;
    g->kind = kind;
}

/* the start of a device kernel's launch: nothing before it is concurrent with what follows */
static void _okl_race_launch(void) {
    ++_okl_rs.gen;
    _okl_rs.in_block = 0;
}

static void _okl_race_block(int64_t block) {
    ++_okl_rs.block_gen;
    ++_okl_rs.epoch;
    ++_okl_rs.global_epoch;
    _okl_rs.block = block;
    _okl_rs.thread = 0;
    _okl_rs.in_block = 1;
}

static void _okl_race_host(void) { _okl_rs.in_block = 0; }

/* explicit: a @barrier (fences global memory too); else one okl inserted (@shared only) */
static void _okl_race_barrier(int explicit_) {
    ++_okl_rs.epoch;
    if (explicit_)
        ++_okl_rs.global_epoch;
}

static void _okl_race_thread(int64_t thread) { _okl_rs.thread = thread; }

/* the k-th iteration of an @inner loop of n: ascending, reversed or a seeded permutation */
static int64_t _okl_race_order(int64_t k, int64_t n) {
    int64_t order = _okl_rs.report[_OKL_R_ORDER];
    if (order == 0 || n <= 1)
        return k;
    if (order == 1)
        return n - 1 - k;
    uint64_t seed = (uint64_t) _okl_rs.report[_OKL_R_SEED];
    int64_t a = (int64_t) ((seed * 2654435761u) % (uint64_t) n) | 1;
    for (;;) {  /* a multiplier coprime to n: k -> (a k + c) mod n is a permutation */
        int64_t x = a, y = n;
        while (y) { int64_t t = x % y; x = y; y = t; }
        if (x == 1)
            break;
        ++a;
    }
    int64_t c = (int64_t) ((seed >> 17) % (uint64_t) n);
    return (int64_t) (((unsigned __int128) a * (uint64_t) k + (uint64_t) c) % (uint64_t) n);
}

static int _okl_unordered(const _okl_access *a, const _okl_access *me) {
    return a->site >= 0 && (a->block != me->block ||
                            (a->epoch == me->epoch && a->thread != me->thread));
}

/* an access of ``s`` (0: none recorded) unordered with ``me``, if there is one */
static const _okl_access *_okl_conflict(const _okl_accesses *s, const _okl_access *me) {
    if (!s)
        return 0;
    if (s->any.site >= 0 && s->any.block != me->block)
        return &s->any;
    if (s->other.site >= 0 && s->other.block != me->block)
        return &s->other;
    if (s->now.site >= 0 && s->now.block == me->block && s->now.epoch == me->epoch) {
        if (s->now.thread != me->thread)
            return &s->now;
        if (s->now2.site >= 0 && s->now2.thread != me->thread)
            return &s->now2;
    }
    return 0;
}

static void _okl_add(_okl_accesses *s, const _okl_access *me) {
    if (s->any.site < 0)
        s->any = *me;
    else if (s->other.site < 0 && me->block != s->any.block)
        s->other = *me;
    if (s->now.site < 0 || s->now.block != me->block || s->now.epoch != me->epoch) {
        s->now = *me;
        s->now2.site = -1;
    } else if (s->now2.site < 0 && me->thread != s->now.thread) {
        s->now2 = *me;
    }
}

/* a race of ``me`` with ``them`` (0: none) into the report; 1 if there was one */
static int _okl_race_found(int r, int64_t index, const _okl_access *me, int kind,
                           const _okl_access *them, int their_kind) {
    if (!them)
        return 0;
    long long *out = _okl_rs.report;
    out[_OKL_R_FOUND] = 1;
    out[3] = r;
    out[4] = index;
    out[5] = me->site; out[6] = kind; out[7] = me->thread; out[8] = me->block;
    out[9] = them->site; out[10] = their_kind; out[11] = them->thread; out[12] = them->block;
    out[13] = _okl_rs.epoch;
    return 1;
}

/* records are read only where their site is set: clearing a cell is clearing its sites */
static void _okl_none(_okl_accesses *s) {
    s->any.site = s->other.site = s->now.site = s->now2.site = -1;
}

static void _okl_clear(_okl_cell *c, uint64_t gen) {
    c->gen = gen;
    c->written = 0;
    c->write.site = -1;
    _okl_none(&c->reads);
}

/* the atomic updates of element ``index`` of ``g`` (0: none yet) */
static _okl_accesses *_okl_updates(_okl_region *g, int64_t index, uint64_t gen, int make) {
    if (!g->atomics || g->natomics < g->nbytes / g->size) {
        if (!make)
            return 0;
        free(g->atomics);
        g->natomics = g->nbytes / g->size;
        g->atomics = (_okl_atomic_cell *) calloc((size_t) g->natomics, sizeof *g->atomics);
        if (!g->atomics) {
            g->natomics = 0;
            _okl_rs.report[_OKL_R_FOUND] = -1;
            return 0;
        }
    }
    _okl_atomic_cell *a = &g->atomics[index];
    if (a->gen != gen) {
        if (!make)
            return 0;
        a->gen = gen;
        _okl_none(&a->updates);
    }
    return &a->updates;
}

static _okl_region *_okl_region_of(int r, const char *p) {
    if (r >= 0) {
        _okl_region *g = &_okl_rs.regions[r];
        return g->base && p >= g->base && p < g->base + g->nbytes ? g : 0;
    }
    static int last;  /* accesses in a row mostly hit one region */
    _okl_region *g = &_okl_rs.regions[last];
    if (g->base && p >= g->base && p < g->base + g->nbytes)
        return g;
    for (int k = 0; k < _OKL_REGIONS; ++k) {  /* a pointer the code computed: whose is it */
        g = &_okl_rs.regions[k];
        if (g->base && p >= g->base && p < g->base + g->nbytes) {
            last = k;
            return g;
        }
    }
    return 0;
}

/* the access ``kind`` (_OKL_READ | _OKL_WRITE | _OKL_ATOMIC) of the element at ``p`` in
 * region ``r`` (-1: the global region that holds p) from source site ``site``; returns p */
static void *_okl_race_at(int r, void *p, int kind, int site) {
    if (!_okl_rs.in_block || _okl_rs.report[_OKL_R_FOUND])
        return p;
    _okl_region *g = _okl_region_of(r, (const char *) p);
    if (!g)
        return p;  /* not an argument's or @shared element: private, or out of bounds */
    int64_t index = ((const char *) p - g->base) / g->size;
    _okl_cell *c = &g->cells[index];
    int space = g->kind & 3, warn = !(g->kind & _OKL_QUIET);
    uint64_t gen = space == _OKL_GLOBAL ? _okl_rs.gen : _okl_rs.block_gen;
    if (c->gen != gen)
        _okl_clear(c, gen);
    if (space == _OKL_EXCLUSIVE) {  /* one thread's own: only unset reads matter */
        if ((kind & _OKL_READ) && !c->written && warn && !_okl_rs.report[_OKL_R_WARN + site])
            _okl_rs.report[_OKL_R_WARN + site] = ((int64_t) (g - _okl_rs.regions) << 40) |
                                                 (index + 1);
        if (kind & _OKL_WRITE)
            c->written = 1;
        return p;
    }
    _okl_access me = {_okl_rs.block, _okl_rs.thread,
                      space == _OKL_GLOBAL ? _okl_rs.global_epoch : _okl_rs.epoch, site};
    int rn = (int) (g - _okl_rs.regions);
    const _okl_access *write = _okl_unordered(&c->write, &me) ? &c->write : 0;
    if (kind & _OKL_ATOMIC) {
        if (_okl_race_found(rn, index, &me, kind, write, _OKL_WRITE) ||
                _okl_race_found(rn, index, &me, kind, _okl_conflict(&c->reads, &me), _OKL_READ))
            return p;
        _okl_accesses *updates = _okl_updates(g, index, gen, 1);
        if (updates)
            _okl_add(updates, &me);
        c->written = 1;
        return p;
    }
    _okl_accesses *updates = g->atomics ? _okl_updates(g, index, gen, 0) : 0;
    if (kind & _OKL_READ) {
        if (_okl_race_found(rn, index, &me, _OKL_READ, write, _OKL_WRITE) ||
                _okl_race_found(rn, index, &me, _OKL_READ, _okl_conflict(updates, &me),
                                _OKL_ATOMIC))
            return p;
        if (!c->written && space == _OKL_SHARED && warn && !_okl_rs.report[_OKL_R_WARN + site])
            _okl_rs.report[_OKL_R_WARN + site] = ((int64_t) (g - _okl_rs.regions) << 40) |
                                                 (index + 1);
        _okl_add(&c->reads, &me);
    }
    if (kind & _OKL_WRITE) {
        if (_okl_race_found(rn, index, &me, _OKL_WRITE, write, _OKL_WRITE) ||
                _okl_race_found(rn, index, &me, _OKL_WRITE, _okl_conflict(&c->reads, &me),
                                _OKL_READ) ||
                _okl_race_found(rn, index, &me, _OKL_WRITE, _okl_conflict(updates, &me),
                                _OKL_ATOMIC))
            return p;
        c->write = me;
        c->written = 1;
    }
    return p;
}

#define _OKL_RACE(r, p, kind, site) ((__typeof__(p)) _okl_race_at((r), (void *) (p), (kind), (site)))
