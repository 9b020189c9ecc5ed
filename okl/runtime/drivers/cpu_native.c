/* okl's native launch path for the CPU modes (see cpu_native.py): one callable per kernel that
 * checks the common arguments and calls the kernel's entry, ``void entry(void **args)``,
 * without going through Python code or ctypes.
 *
 * It takes the arguments the Python fast path (okl.runtime.launch.gpu.compile_caller) takes
 * first -- a Python int in the parameter's range, a Python float in range, a numpy scalar of
 * exactly the parameter's dtype, a numpy array of exactly the parameter's dtype (the same
 * dtype object), C-contiguous and, for a non-const pointer, writable -- and hands every other call, unchanged, to that Python function
 * (``fallback``), which accepts or refuses it with okl's messages.  Scalar checks that depend
 * on the sizes passed (launch limits, the static bounds check) are the fallback's: after it
 * launched, ``needs(args)`` gives the bytes each pointer argument needs for those scalar
 * values, and later calls with the same scalar values only compare array sizes.  What is
 * known about a set of scalar values (its needs; whether its last launch was quick) is kept
 * for the last OKL_MEMO sets, not just the last one: a host loop that launches one kernel
 * over a few ranges in turn (airfoil's colours, ``k(start, end, ...)``) repeats each set
 * every round, and with one remembered set every launch of it went through Python and
 * sigaction (26 us where the native launch takes 0.5).
 *
 * Built once per Python and compiler into okl's cache; nothing in it is per kernel. */
#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <float.h>
#include <signal.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include <time.h>

enum kind { K_PTR, K_I8, K_I16, K_I32, K_I64, K_U8, K_U16, K_U32, K_U64, K_F32, K_F64 };

/* numpy's PyArrayObject_fields, the public layout of an ndarray (unchanged from numpy 1.7
 * through 2.x); read only for objects whose type is exactly numpy.ndarray */
typedef struct {
  PyObject_HEAD
  char *data;
  int nd;
  Py_ssize_t *dimensions;
  Py_ssize_t *strides;
  PyObject *base;
  PyObject *descr;
  int flags;
} okl_ndarray;

#define OKL_C_CONTIGUOUS 0x0001 /* NPY_ARRAY_C_CONTIGUOUS */
#define OKL_WRITEABLE 0x0400    /* NPY_ARRAY_WRITEABLE */
#define OKL_MAX_PARAMS 64
/* a main-thread launch that took less than this (ns) is "quick": the next one with the same
 * scalar values skips the SIGINT handler's two sigaction calls (cpu_interrupt.py); timed by
 * the coarse clock (a few ms per tick, read in 15 ns where CLOCK_MONOTONIC takes 60) */
#define OKL_QUICK_NS 10000000
/* sets of scalar values remembered per kernel (a host loop's ranges, in turn) */
#define OKL_MEMO 32
#define OKL_MEMO_NEEDS 1 /* the set's needs are in memo_need */
#define OKL_MEMO_QUICK 2 /* the set's last main-thread launch took under OKL_QUICK_NS */
#ifdef CLOCK_MONOTONIC_COARSE
#define OKL_CLOCK CLOCK_MONOTONIC_COARSE
#else
#define OKL_CLOCK CLOCK_MONOTONIC
#endif

typedef struct {
  int kind;
  int writable;         /* pointer: the kernel may write through it */
  Py_ssize_t itemsize;  /* pointer: bytes per element */
  PyObject *descr;      /* pointer: the dtype object a fast argument must have; scalar: the
                         * numpy scalar type of the parameter's dtype (np.int32 for int) */
} okl_param;

typedef void (*okl_entry)(void **args, volatile sig_atomic_t *stop);

typedef struct {
  PyObject_HEAD
  vectorcallfunc vectorcall;
  okl_entry entry;
  /* Ctrl-C (cpu_interrupt.py): the kernel library's flag and the SIGINT handler that sets
   * it, NULL for a library without them; the thread Python handles signals in */
  volatile sig_atomic_t *flag;
  void (*handler)(int);
  unsigned long main_thread;
  PyObject *trap_wanted; /* trap_wanted() -> True while the default SIGINT handler is set */
  PyObject *fallback; /* the Python caller: f(*args, **kwargs) */
  PyObject *needs;    /* None, or needs(args) -> tuple of bytes per parameter, or None */
  PyTypeObject *ndarray;
  int n;
  /* the remembered sets of scalar values: set k's values (0 for pointers) at memo_raw[k * n],
   * its bytes needed per parameter at memo_need[k * n], OKL_MEMO_* flags in memo_flags[k]
   * (0: slot unused); a new set takes slot memo_next, round robin */
  uint64_t *memo_raw;
  Py_ssize_t *memo_need;
  unsigned char memo_flags[OKL_MEMO];
  int memo_next;
  okl_param param[OKL_MAX_PARAMS];
} okl_caller;

/* The value of a numpy scalar of exactly the parameter's type (``p->descr``), as okl_raw
 * gives it.  numpy's scalar objects (PyInt32ScalarObject, PyDoubleScalarObject, ...) are
 * PyObject_HEAD followed by the value, ``obval``, unchanged from numpy 1.7 through 2.x. */
static int okl_numpy_raw(const okl_param *p, PyObject *a, uint64_t *raw) {
  const char *obval = (const char *)a + sizeof(PyObject);
  union { int8_t i8; int16_t i16; int32_t i32; int64_t i64; uint8_t u8; uint16_t u16;
          uint32_t u32; uint64_t u64; float f32; double f64; } v;
  memcpy(&v, obval, (size_t)p->itemsize);
  double d;
  switch (p->kind) {
    case K_I8: *raw = (uint64_t)(long long)v.i8; return 1;
    case K_I16: *raw = (uint64_t)(long long)v.i16; return 1;
    case K_I32: *raw = (uint64_t)(long long)v.i32; return 1;
    case K_I64: *raw = (uint64_t)v.i64; return 1;
    case K_U8: *raw = v.u8; return 1;
    case K_U16: *raw = v.u16; return 1;
    case K_U32: *raw = v.u32; return 1;
    case K_U64: if (v.u64 > (uint64_t)INT64_MAX) return 0; *raw = v.u64; return 1;
    case K_F32: d = v.f32; memcpy(raw, &d, 8); return 1;
    case K_F64: memcpy(raw, &v.f64, 8); return 1;
    default: return 0;
  }
}

/* A scalar argument in the fast path's form -- a Python float for a floating parameter, a
 * Python int that fits a long long for an integer one, or a numpy scalar of exactly the
 * parameter's dtype (``np.float32(dt)`` for a float: what a benchmark's launch loop passes)
 * -- as 64 bits (a double's bits, or the integer's); 0 for any other form (the fallback's to
 * judge). */
static int okl_raw(const okl_param *p, PyObject *a, uint64_t *raw) {
  const int kind = p->kind;
  if (p->descr != Py_None && (PyObject *)Py_TYPE(a) == p->descr)
    return okl_numpy_raw(p, a, raw);
  if (kind == K_F32 || kind == K_F64) {
    if (!PyFloat_CheckExact(a)) return 0;
    double d = PyFloat_AS_DOUBLE(a);
    memcpy(raw, &d, 8);
    return 1;
  }
  if (!PyLong_CheckExact(a)) return 0;
  int overflow = 0;
  long long v = PyLong_AsLongLongAndOverflow(a, &overflow);
  if (overflow || (v == -1 && PyErr_Occurred())) {
    PyErr_Clear();
    return 0;
  }
  *raw = (uint64_t)v;
  return 1;
}

/* The slot remembering these scalar values (``raw``: n values, 0 for pointers), or -1. */
static int okl_memo_find(const okl_caller *self, const uint64_t *raw) {
  const size_t bytes = sizeof(uint64_t) * (size_t)self->n;
  for (int k = 0; k < OKL_MEMO; ++k)
    if (self->memo_flags[k] && memcmp(self->memo_raw + (size_t)k * self->n, raw, bytes) == 0)
      return k;
  return -1;
}

/* The slot for these scalar values: theirs, else a fresh one (the oldest taken, flags 0). */
static int okl_memo_slot(okl_caller *self, const uint64_t *raw) {
  int k = okl_memo_find(self, raw);
  if (k >= 0) return k;
  k = self->memo_next;
  self->memo_next = (k + 1) % OKL_MEMO;
  memcpy(self->memo_raw + (size_t)k * self->n, raw, sizeof(uint64_t) * (size_t)self->n);
  self->memo_flags[k] = 0;
  return k;
}

static PyObject *okl_fall_back(okl_caller *self, PyObject *const *args, size_t nargsf,
                               PyObject *kwnames) {
  PyObject *result = PyObject_Vectorcall(self->fallback, args, nargsf, kwnames);
  if (result == NULL || self->needs == Py_None || kwnames != NULL ||
      PyVectorcall_NARGS(nargsf) != self->n)
    return result;
  /* the fallback launched: where every scalar came in the fast path's form (a Python int or
   * float), remember what these values need of the arrays */
  uint64_t last[OKL_MAX_PARAMS];
  for (int i = 0; i < self->n; ++i) {
    last[i] = 0;
    if (self->param[i].kind != K_PTR && !okl_raw(&self->param[i], args[i], &last[i]))
      return result;
  }
  PyObject *needs = PyObject_Vectorcall(self->needs, args, nargsf, NULL);
  if (needs == NULL) {
    Py_DECREF(result);
    return NULL;
  }
  /* no Python code runs from here on, so no other thread sees the memo half-written */
  const int old = okl_memo_find(self, last);
  if (old >= 0) self->memo_flags[old] &= (unsigned char)~OKL_MEMO_NEEDS;
  if (PyTuple_CheckExact(needs) && PyTuple_GET_SIZE(needs) == self->n) {
    Py_ssize_t need[OKL_MAX_PARAMS];
    int ok = 1;
    for (int i = 0; i < self->n && ok; ++i) {
      PyObject *v = PyTuple_GET_ITEM(needs, i);
      need[i] = PyLong_CheckExact(v) ? PyLong_AsSsize_t(v) : -1;
      if (need[i] < 0) {
        PyErr_Clear();
        ok = 0;
      }
    }
    if (ok) {
      const int k = okl_memo_slot(self, last);
      memcpy(self->memo_need + (size_t)k * self->n, need, sizeof(Py_ssize_t) * (size_t)self->n);
      self->memo_flags[k] |= OKL_MEMO_NEEDS;
    }
  }
  Py_DECREF(needs);
  return result;
}

/* the ``stop`` flag of launches that leave SIGINT alone: never set */
static volatile sig_atomic_t okl_never;

/* 1 when SIGINT's Python handler is the default one (raises KeyboardInterrupt): a handler of
 * the user's own must not see a kernel cut short and go on with its partial results */
static int okl_trap_wanted(okl_caller *self) {
  PyObject *r = PyObject_CallNoArgs(self->trap_wanted);
  if (r == NULL) {
    PyErr_Clear();
    return 0;
  }
  int wanted = r == Py_True;
  Py_DECREF(r);
  return wanted;
}

/* Run the entry with the GIL released.  From Python's main thread, while SIGINT's handler is
 * Python's default one (``trap_wanted()``), the kernel library's handler replaces it for the
 * call (the old one saved and restored exactly) and ``stop`` is the library's flag: Ctrl-C
 * stops the kernel at its next @outer iteration and the call raises KeyboardInterrupt, as
 * the default handler would.  Anywhere else SIGINT is left alone.  A launch whose
 * scalar values (``raw``; ``memo``: their slot, or -1) last took under
 * OKL_QUICK_NS keeps Python's handler, which sees a Ctrl-C as soon as it returns: the two
 * sigaction calls cost more than a small kernel (a 1 us launch took 2). */
static PyObject *okl_launch(okl_caller *self, void **slots, const uint64_t *raw, int memo) {
  okl_entry entry = self->entry;
  struct sigaction ours, old;
  int trapped = 0, on_main = self->flag != NULL &&
                             PyThread_get_thread_ident() == self->main_thread;
  struct timespec t0, t1;
  if (on_main) clock_gettime(OKL_CLOCK, &t0);
  const int quick = memo >= 0 && (self->memo_flags[memo] & OKL_MEMO_QUICK);
  if (on_main && !quick && okl_trap_wanted(self)) {
    memset(&ours, 0, sizeof ours);
    ours.sa_handler = self->handler;
    ours.sa_flags = SA_RESTART;
    sigemptyset(&ours.sa_mask);
    *self->flag = 0;
    if (sigaction(SIGINT, &ours, &old) == 0) {
      trapped = 1;
      if (!(old.sa_flags & SA_SIGINFO) &&
          (old.sa_handler == SIG_IGN || old.sa_handler == SIG_DFL)) {
        sigaction(SIGINT, &old, NULL); /* not Python's handler: leave SIGINT as it was */
        trapped = 0;
      }
    }
  }
  volatile sig_atomic_t *stop = trapped ? self->flag : &okl_never;
  Py_BEGIN_ALLOW_THREADS
  entry(slots, stop);
  Py_END_ALLOW_THREADS
  if (on_main) {
    clock_gettime(OKL_CLOCK, &t1);
    long long ns = (long long)(t1.tv_sec - t0.tv_sec) * 1000000000LL + (t1.tv_nsec - t0.tv_nsec);
    /* the slot looked up again: another thread may have taken it while the GIL was free */
    const int k = okl_memo_slot(self, raw);
    if (ns < OKL_QUICK_NS)
      self->memo_flags[k] |= OKL_MEMO_QUICK;
    else
      self->memo_flags[k] &= (unsigned char)~OKL_MEMO_QUICK;
  }
  if (trapped) {
    sigaction(SIGINT, &old, NULL);
    if (*self->flag) {
      *self->flag = 0;
      PyErr_SetNone(PyExc_KeyboardInterrupt); /* the kernel stopped early: never a result */
      return NULL;
    }
  }
  Py_RETURN_NONE;
}

static PyObject *okl_call(PyObject *obj, PyObject *const *args, size_t nargsf,
                          PyObject *kwnames) {
  okl_caller *self = (okl_caller *)obj;
  const Py_ssize_t n = self->n;
  if (kwnames != NULL || PyVectorcall_NARGS(nargsf) != n)
    return okl_fall_back(self, args, nargsf, kwnames);
  void *slots[OKL_MAX_PARAMS];
  union { int8_t i8; int16_t i16; int32_t i32; int64_t i64; uint8_t u8; uint16_t u16;
          uint32_t u32; uint64_t u64; float f32; double f64; } value[OKL_MAX_PARAMS];
  uint64_t raws[OKL_MAX_PARAMS]; /* the scalars' bits (0 for pointers) */
  for (Py_ssize_t i = 0; i < n; ++i) {
    raws[i] = 0;
    okl_param *p = &self->param[i];
    PyObject *a = args[i];
    if (p->kind == K_PTR) {
      okl_ndarray *arr = (okl_ndarray *)a;
      if (Py_TYPE(a) != self->ndarray || arr->descr != p->descr ||
          !(arr->flags & OKL_C_CONTIGUOUS) || (p->writable && !(arr->flags & OKL_WRITEABLE)))
        goto slow;
      slots[i] = arr->data;
      continue;
    }
    slots[i] = &value[i];
    uint64_t raw;
    if (!okl_raw(p, a, &raw)) goto slow;
    raws[i] = raw;
    if (p->kind == K_F32 || p->kind == K_F64) {
      double d;
      memcpy(&d, &raw, 8);
      if (p->kind == K_F32) {
        if (!(d >= -FLT_MAX && d <= FLT_MAX)) goto slow;
        value[i].f32 = (float)d;
      } else {
        if (!(d >= -DBL_MAX && d <= DBL_MAX)) goto slow;
        value[i].f64 = d;
      }
      continue;
    }
    long long v = (long long)raw;
    switch (p->kind) {
      case K_I8: if (v < INT8_MIN || v > INT8_MAX) goto slow; value[i].i8 = (int8_t)v; break;
      case K_I16: if (v < INT16_MIN || v > INT16_MAX) goto slow; value[i].i16 = (int16_t)v; break;
      case K_I32: if (v < INT32_MIN || v > INT32_MAX) goto slow; value[i].i32 = (int32_t)v; break;
      case K_I64: value[i].i64 = (int64_t)v; break;
      case K_U8: if (v < 0 || v > UINT8_MAX) goto slow; value[i].u8 = (uint8_t)v; break;
      case K_U16: if (v < 0 || v > UINT16_MAX) goto slow; value[i].u16 = (uint16_t)v; break;
      case K_U32: if (v < 0 || v > (long long)UINT32_MAX) goto slow; value[i].u32 = (uint32_t)v;
        break;
      case K_U64: if (v < 0) goto slow; value[i].u64 = (uint64_t)v; break;
      default: goto slow;
    }
  }
  const int memo = okl_memo_find(self, raws);
  if (self->needs != Py_None) {
    /* sizes checked for other scalar values (or never): the fallback checks these */
    if (memo < 0 || !(self->memo_flags[memo] & OKL_MEMO_NEEDS)) goto slow;
    const Py_ssize_t *need = self->memo_need + (size_t)memo * n;
    for (Py_ssize_t i = 0; i < n; ++i) {
      okl_param *p = &self->param[i];
      if (p->kind != K_PTR || need[i] == 0) continue;
      okl_ndarray *arr = (okl_ndarray *)args[i];
      Py_ssize_t count = 1;
      for (int d = 0; d < arr->nd; ++d) count *= arr->dimensions[d];
      if (count * p->itemsize < need[i]) goto slow;
    }
  }
  return okl_launch(self, slots, raws, memo);
slow:
  return okl_fall_back(self, args, nargsf, kwnames);
}

static void okl_caller_dealloc(PyObject *obj) {
  okl_caller *self = (okl_caller *)obj;
  PyObject_GC_UnTrack(obj);
  Py_CLEAR(self->fallback);
  Py_CLEAR(self->needs);
  Py_CLEAR(self->trap_wanted);
  Py_CLEAR(self->ndarray);
  for (int i = 0; i < self->n; ++i) Py_CLEAR(self->param[i].descr);
  PyMem_Free(self->memo_raw);
  PyMem_Free(self->memo_need);
  PyObject_GC_Del(obj);
}

static int okl_caller_traverse(PyObject *obj, visitproc visit, void *arg) {
  okl_caller *self = (okl_caller *)obj;
  Py_VISIT(self->fallback);
  Py_VISIT(self->needs);
  Py_VISIT(self->trap_wanted);
  for (int i = 0; i < self->n; ++i) Py_VISIT(self->param[i].descr);
  return 0;
}

static PyObject *okl_caller_repr(PyObject *obj) {
  return PyUnicode_FromFormat("<okl native caller of %R>", ((okl_caller *)obj)->fallback);
}

static PyTypeObject okl_caller_type = {
  PyVarObject_HEAD_INIT(NULL, 0)
  .tp_name = "okl.NativeCaller",
  .tp_basicsize = sizeof(okl_caller),
  .tp_flags = Py_TPFLAGS_DEFAULT | Py_TPFLAGS_HAVE_GC | Py_TPFLAGS_HAVE_VECTORCALL,
  .tp_vectorcall_offset = offsetof(okl_caller, vectorcall),
  .tp_call = PyVectorcall_Call,
  .tp_dealloc = okl_caller_dealloc,
  .tp_traverse = okl_caller_traverse,
  .tp_repr = okl_caller_repr,
};

/* okl_caller_new(entry address, fallback, needs, numpy.ndarray,
 *                ((kind, writable, itemsize, dtype or None), ...),
 *                flag address or 0, handler address or 0, main thread ident,
 *                trap_wanted) -> a caller; called
 * through ctypes.PyDLL, so with the GIL held and Python exceptions passed on */
PyObject *okl_caller_new(PyObject *spec) {
  if (!(okl_caller_type.tp_flags & Py_TPFLAGS_READY) && PyType_Ready(&okl_caller_type) < 0)
    return NULL;
  PyObject *address, *fallback, *needs, *ndarray, *params, *flag, *handler, *trap_wanted;
  unsigned long main_thread;
  if (!PyArg_ParseTuple(spec, "OOOOO!OOkO", &address, &fallback, &needs, &ndarray,
                        &PyTuple_Type, &params, &flag, &handler, &main_thread, &trap_wanted))
    return NULL;
  void *flag_p = PyLong_AsVoidPtr(flag), *handler_p = PyLong_AsVoidPtr(handler);
  if (PyErr_Occurred()) return NULL;
  Py_ssize_t n = PyTuple_GET_SIZE(params);
  if (n > OKL_MAX_PARAMS || !PyType_Check(ndarray)) {
    PyErr_SetString(PyExc_ValueError, "okl native caller: unsupported kernel");
    return NULL;
  }
  void *entry = PyLong_AsVoidPtr(address);
  if (entry == NULL) {
    if (!PyErr_Occurred()) PyErr_SetString(PyExc_ValueError, "okl native caller: no entry");
    return NULL;
  }
  okl_caller *self = PyObject_GC_New(okl_caller, &okl_caller_type);
  if (self == NULL) return NULL;
  self->vectorcall = okl_call;
  self->entry = (okl_entry)entry;
  self->flag = flag_p != NULL && handler_p != NULL ? (volatile sig_atomic_t *)flag_p : NULL;
  self->handler = (void (*)(int))handler_p;
  self->main_thread = main_thread;
  Py_INCREF(trap_wanted);
  self->trap_wanted = trap_wanted;
  self->n = 0;
  self->memo_raw = NULL;
  self->memo_need = NULL;
  memset(self->memo_flags, 0, sizeof self->memo_flags);
  self->memo_next = 0;
  Py_INCREF(fallback);
  self->fallback = fallback;
  Py_INCREF(needs);
  self->needs = needs;
  Py_INCREF(ndarray);
  self->ndarray = (PyTypeObject *)ndarray;
  for (Py_ssize_t i = 0; i < n; ++i) {
    okl_param *p = &self->param[i];
    int kind, writable;
    Py_ssize_t itemsize;
    PyObject *descr;
    if (!PyArg_ParseTuple(PyTuple_GET_ITEM(params, i), "iinO", &kind, &writable, &itemsize,
                          &descr)) {
      Py_DECREF(self);
      return NULL;
    }
    p->kind = kind;
    p->writable = writable;
    p->itemsize = itemsize;
    Py_INCREF(descr);
    p->descr = descr;
    self->n = (int)i + 1;
  }
  const size_t slots = (size_t)OKL_MEMO * (size_t)(n > 0 ? n : 1);
  self->memo_raw = PyMem_Calloc(slots, sizeof(uint64_t));
  self->memo_need = PyMem_Calloc(slots, sizeof(Py_ssize_t));
  if (self->memo_raw == NULL || self->memo_need == NULL) {
    Py_DECREF(self);
    return PyErr_NoMemory();
  }
  PyObject_GC_Track((PyObject *)self);
  return (PyObject *)self;
}
