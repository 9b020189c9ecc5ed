"""Misuse and hostile-environment suite (issue 32): one probe per item of "Trust II".

    python -m benchmarks.hostile [--modes serial,openmp,opencl] [--only NAME,...] [--json OUT]

Each probe is a small Python program run in its own process (its own session, a private
``OKL_CACHE_DIR``, ``TMPDIR`` and ``HOME`` holding files of "the user's" that must survive)
with a timeout, so that whatever okl does -- hang, abort, segfault, print a traceback, leave a
compiler running -- it is seen from outside and classified:

- ``ok``: the right answer, or a clean okl refusal whose text says what to do (each probe
  names the words it expects: the variable to set, the limit, "use ...");
- ``traceback``: a Python traceback on stderr (an exception that is not okl's);
- ``crash``: the process killed by a signal (SIGSEGV, SIGABRT from glibc or PoCL...);
- ``hang``: still running at the probe's timeout (its whole process group is then killed);
- ``wrong``: a wrong answer, or a silently unsafe result (a world-writable cache, a planted
  library run, a yes/no value read the wrong way, a check that passes what a build refuses);
- ``lost``: files of the user's (outside okl's cache) deleted or changed;
- ``leak``: something left behind -- a compiler still running, an ``okl-build-*`` folder, a
  partial ``.tmp`` file in the cache after the next write;
- ``unhelpful``: a refusal that does not say what to do, prints raw control characters, or
  is not capped (megabytes of compiler output);
- ``refused``: a clean refusal of something issue 32 asks to work (OpenCL views at any
  offset, ``@exclusive`` inside an ``if`` between ``@outer`` loops...);
- ``skip``: the mode is not available here (cuda and hip without a GPU).

The suite imports okl only inside the probes' processes, from whatever ``PYTHONPATH`` gives,
so the same suite measures an older tree (``PYTHONPATH=/tmp/okl-before``).
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import signal
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path

ALL_MODES = ("serial", "openmp", "opencl", "cuda", "hip")
OUTCOMES = ("ok", "traceback", "crash", "hang", "wrong", "lost", "leak", "unhelpful", "refused",
            "skip")
#: what a refusal says to do, by default: an imperative or a limit it states
HINT = (r"\b(use|set|give|pass|raise|lower|remove|rename|install|choose|allow|make|split|"
        r"declare|move|write|check|name|try|call|allocate|reduce|add|change|unset|replace|"
        r"copy|define|fix|point|see|free|at most|instead|must)\b")
ALLOC_HINT = r"(at most|limit|max_mem_alloc_size|free memory|smaller|fewer|less|allocate)"

# -- what every probe process starts with -------------------------------------------------------

PRELUDE = r'''
import os, re, sys, time, signal, subprocess, threading, json, stat
from pathlib import Path
import numpy as np

MODE = os.environ["HOSTILE_MODE"]
WORK = Path(os.environ["HOSTILE_WORK"])
HINT = re.compile(os.environ["HOSTILE_HINT"], re.I | re.S)
CONTROL = re.compile(r"[\x00-\x08\x0b-\x1f\x7f]")
# Ctrl-C raises KeyboardInterrupt, as at a terminal (a suite started in the background
# inherits SIGINT ignored, and Python then keeps it ignored)
signal.signal(signal.SIGINT, signal.default_int_handler)


def emit(kind, text=""):
    """The probe's verdict: one marker line, then exit at once (threads may still run)."""
    text = " ".join(str(text).split())
    print(f"@@{kind} {ascii(text)[1:-1][:400]}", flush=True)
    sys.stderr.flush()
    os._exit(0)


def refused(text, hint=None, cap=200_000):
    """A clean refusal: ok when it says what to do, is capped and prints no control bytes."""
    text = str(text)
    if len(text) > cap:
        emit("UNHELPFUL", f"message of {len(text)} characters (not capped): {text[:120]}")
    if CONTROL.search(text.replace("\n", " ").replace("\t", " ")):
        emit("UNHELPFUL", f"raw control characters in the message: {text[:200]!r}")
    if (re.compile(hint, re.I | re.S) if hint else HINT).search(text):
        emit("OK", "refused: " + text)
    emit("UNHELPFUL", "refused without saying what to do: " + text)


def is_okl(e):
    return type(e).__module__.split(".")[0] == "okl"


def device(mode=None):
    import okl
    try:
        return okl.Device(mode or MODE)
    except okl.BackendUnavailableError as e:
        emit("SKIP", f"{mode or MODE} unavailable: {str(e)[:150]}")


def judge(rc, out, err, what):
    """Judge a nested process: a signal, a traceback or a timeout is the probe's outcome."""
    if rc is None:
        emit("HANG", f"{what} still running at its timeout")
    if rc < 0:
        emit("CRASH", f"{what} killed by signal {-rc}: {err[-200:]}")
    if "Traceback (most recent call last)" in out + err:
        emit("TRACEBACK", f"{what}: " + (out + err).strip().splitlines()[-1][:300])


def run(cmd, env=None, timeout=60, what=None, input=None):
    """Run ``cmd`` in its own process group; a timeout kills the group, judged a hang."""
    full = dict(os.environ, **(env or {}))
    p = subprocess.Popen(cmd, env=full, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                         stdin=subprocess.PIPE if input is not None else subprocess.DEVNULL,
                         process_group=0)  # the probe's session: nothing outlives the probe
    try:
        out, err = p.communicate(input=input, timeout=timeout)
    except subprocess.TimeoutExpired:
        os.killpg(p.pid, signal.SIGKILL)
        p.communicate()
        judge(None, "", "", what or " ".join(map(str, cmd))[:80])
    out, err = out.decode(errors="replace"), err.decode(errors="replace")
    judge(p.returncode, out, err, what or " ".join(map(str, cmd))[:80])
    return p.returncode, out, err


def cli(*args, env=None, timeout=60):
    return run([sys.executable, "-m", "okl", *args], env=env, timeout=timeout,
               what="oklc " + " ".join(a[:30] for a in args))


def pyrun(code, env=None, timeout=60):
    return run([sys.executable, "-c", code], env=env, timeout=timeout, what="python -c")


def write(name, text, mode=None):
    path = WORK / name
    path.write_text(text)
    if mode is not None:
        path.chmod(mode)
    return path


def alive(pid):
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    try:  # a zombie has exited: only its parent has not collected it yet
        return Path(f"/proc/{pid}/stat").read_text().split(") ")[1][0] != "Z"
    except OSError:
        return False


def fake_compiler(name, body):
    """A shell script standing in for the C compiler (CC)."""
    return write(name, "#!/bin/sh\n" + body + "\n", 0o755)


def snapshot(folder):
    return {str(p.relative_to(folder)): p.read_bytes() for p in Path(folder).rglob("*")
            if p.is_file()}


FILL = """@kernel void fill(const int n, float *a) {
  for (int i = 0; i < n; ++i; @tile(64, @outer, @inner)) { a[i] = i; }
}"""
'''

EPILOGUE = r'''
try:
    main()
except KeyboardInterrupt:
    emit("HANG", "KeyboardInterrupt reached the top level")
except Exception as e:
    if is_okl(e):
        refused(str(e))
    raise
emit("OK", "done")
'''


@dataclass
class Probe:
    """One item of the issue as a program: ``body`` defines ``main()``."""

    name: str
    item: str  # the issue's words for it
    body: str
    modes: str = "all"  # all | cpu | opencl | gpu | any (mode-independent: run once)
    timeout: float = 60.0
    hint: str = HINT
    env: dict = field(default_factory=dict)
    fast: bool = False  # well under a second: part of tests/test_hostile.py

    def runs_on(self, mode: str) -> bool:
        return {"all": True, "cpu": mode in ("serial", "openmp"), "opencl": mode == "opencl",
                "gpu": mode in ("opencl", "cuda", "hip"), "any": mode == "any"}[self.modes]


PROBES: list[Probe] = []


def probe(name: str, item: str, modes: str = "all", timeout: float = 60.0, hint: str = HINT,
          fast: bool = False, **env: str):
    """Register the decorated function's docstring-free source text as a probe body."""
    def register(body: str) -> str:
        PROBES.append(Probe(name, item, body, modes, timeout, hint, env, fast))
        return body
    return register


# -- sizes and limits ---------------------------------------------------------------------------

for _name, _shape, _launch in (("size-2**62", "2**62", False),
                               ("size-2**32x2**32", "(2**32, 2**32)", True),
                               ("size-2**62x3", "(2**62, 3)", True),
                               ("size-70-dims", "(1,) * 70", True)):
    probe(_name, f"malloc({_shape}, float32): an okl error naming the bytes and the limit",
          hint=ALLOC_HINT, fast=True)(f'''
def main():
    dev = device()
    m = dev.malloc({_shape}, np.float32)
    what = f"accepted: shape={{getattr(m, 'shape', '?')}} size={{getattr(m, 'size', '?')}} " \\
           f"nbytes={{getattr(m, 'nbytes', '?')}}"
    if {_launch}:  # what the issue saw: a kernel writing 256 KiB into it
        try:
            dev.build_kernel_from_string(FILL, "fill")(65536, m)
            dev.finish()
        except Exception as e:
            if not is_okl(e):
                raise
            what += "; then the launch: " + str(e)[:150]
    emit("WRONG", what)
''')

probe("tile-overflow", "@tile(4096) loop up to n = 2147483647 (its upper bound overflows int)",
      timeout=150)('''
def main():
    dev = device()
    k = dev.build_kernel_from_string("""
@kernel void tail(const int s, const int n, const int from, int *a) {
  for (int i = s; i < n; ++i; @tile(4096, @outer, @inner)) { if (i >= from) { a[i - from] = i; } }
}""", "tail")
    n = 2147483647
    for s, start in ((n - 10000, n - 10000), (0, n - 8)):  # the last tiles; the whole range
        a = dev.malloc(n - start, np.int32)
        k(s, n, start, a)
        dev.finish()
        got = a.get()
        want = np.arange(start, n, dtype=np.int64).astype(np.int32)
        if not np.array_equal(got, want):
            emit("WRONG", f"from {s}: {int((got != want).sum())} of {n - start} wrong, "
                 f"first {got[:3].tolist()}")
''')

probe("shared-16MiB", "@shared float s[4194304] (a stack array on CPU modes)", timeout=90,
      hint=HINT + r"|shared|limit")('''
def main():
    dev = device()
    k = dev.build_kernel_from_string("""
@kernel void big(float *a) {
  for (int b = 0; b < 1; ++b; @outer) {
    @shared float s[4194304];
    for (int t = 0; t < 64; ++t; @inner) { for (int j = t; j < 4194304; j += 64) { s[j] = j; } }
    for (int t = 0; t < 64; ++t; @inner) { a[t] = s[t * 65536 + 1]; }
  }
}""", "big")
    a = dev.malloc(64, np.float32)
    k(a)
    dev.finish()
    want = np.arange(64, dtype=np.float32) * 65536 + 1
    if not np.array_equal(a.get(), want):
        emit("WRONG", f"got {a.get()[:4].tolist()}")
''')

probe("exclusive-4Mi", "@exclusive float e[1 << 22] (a stack array on CPU modes)", timeout=90,
      hint=HINT + r"|exclusive|limit")('''
def main():
    dev = device()
    k = dev.build_kernel_from_string("""
@kernel void big(float *a) {
  for (int b = 0; b < 1; ++b; @outer) {
    @exclusive float e[1 << 22];
    for (int t = 0; t < 4; ++t; @inner) { for (int j = 0; j < (1 << 22); ++j) { e[j] = j + t; } }
    for (int t = 0; t < 4; ++t; @inner) { a[t] = e[(1 << 22) - 1]; }
  }
}""", "big")
    a = dev.malloc(4, np.float32)
    k(a)
    dev.finish()
    want = 4194303 + np.arange(4, dtype=np.float32)
    if not np.array_equal(a.get(), want):
        emit("WRONG", f"got {a.get().tolist()}")
''')

probe("kernel-name-1000", "a 1000-character kernel name (PoCL aborted; okl allowed 65,536)",
      hint=r"(at most|characters|shorter|rename)", fast=True)('''
def main():
    dev = device()
    name = "k" + "x" * 999
    k = dev.build_kernel_from_string(FILL.replace("fill", name), name)
    a = dev.malloc(64, np.float32)
    k(64, a)
    dev.finish()
    if not np.array_equal(a.get(), np.arange(64, dtype=np.float32)):
        emit("WRONG", f"got {a.get()[:4].tolist()}")
''')

probe("asarray-0d", "asarray of a 0-d array: shape () on every mode", fast=True)('''
def main():
    dev = device()
    m = dev.asarray(np.array(3.5, np.float32))
    got = m.get()
    if tuple(m.shape) != () or got.shape != () or float(got) != 3.5:
        emit("WRONG", f"shape {tuple(m.shape)}, get() {got!r}")
''')

# -- threads ------------------------------------------------------------------------------------

probe("threads-launch", "8 threads x 2 Devices launch one kernel with their own scalar into "
      "their own output (opencl shared one kernel object unlocked)", timeout=120)('''
def main():
    sys.setswitchinterval(1e-6)
    devs = [device(), device()]
    src = """@kernel void put(const int v, const int n, int *o) {
  for (int i = 0; i < n; ++i; @tile(16, @outer, @inner)) { o[i] = v + i; }
}"""
    ks = [d.build_kernel_from_string(src, "put") for d in devs]
    launches, bad, errors = 1000, [], []

    def work(t):
        try:
            d, k = devs[t % 2], ks[t % 2]
            out = d.malloc(32, np.int32)
            for j in range(launches):
                v = t * 1000000 + j * 37
                k(v, 32, out)
                got = out.get()
                if not np.array_equal(got, v + np.arange(32, dtype=np.int32)):
                    bad.append((t, j, int(got[0])))
        except BaseException as e:
            errors.append(e)

    threads = [threading.Thread(target=work, args=(t,)) for t in range(8)]
    for th in threads:
        th.start()
    for th in threads:
        th.join()
    if errors:
        raise errors[0]
    if bad:
        emit("WRONG", f"{len(bad)} of {8 * launches} launches wrote another value, e.g. {bad[0]}")
    emit("OK", f"{8 * launches} launches in 8 threads, every output right")
''')

probe("threads-translate", "40 valid kernels translated in threads while another thread "
      "translates a deeply nested one (recursion limit unchanged)", modes="any",
      timeout=120)('''
def main():
    import okl
    limit = sys.getrecursionlimit()
    body = "a[0] = " + "(" * 250 + "1" + ")" * 250 + ";"
    deep = ("@kernel void deep(float *a) { for (int i = 0; i < 1; ++i; @outer) "
            "for (int j = 0; j < 1; ++j; @inner) { " + body + " } }")
    def valid(i):
        expr = "(" * 40 + "i" + ")" * 40
        return (f"@kernel void v{i}(const int n, float *a) {{ for (int i = 0; i < n; ++i; "
                f"@tile(16, @outer, @inner)) {{ a[i] = {expr} + {i}; }} }}")
    failures, deep_done, stop = [], [], threading.Event()

    def deep_loop():
        while not stop.is_set():
            try:
                okl.translate(deep, "serial")
                deep_done.append("ok")
            except Exception as e:
                deep_done.append(e if not is_okl(e) else "refused")

    def worker(w):
        for i in range(w * 10, w * 10 + 10):
            try:
                okl.translate(valid(i), "serial")
            except Exception as e:
                failures.append((i, type(e).__name__, str(e)[:120]))

    d = threading.Thread(target=deep_loop)
    d.start()
    ws = [threading.Thread(target=worker, args=(w,)) for w in range(4)]
    for t in ws:
        t.start()
    for t in ws:
        t.join()
    stop.set()
    d.join()
    raw = [e for e in deep_done if isinstance(e, BaseException)]
    if raw:
        raise raw[0]
    after = sys.getrecursionlimit()
    if failures or after != limit:
        emit("WRONG", f"{len(failures)} of 40 valid kernels failed "
             f"{failures[:1]}; recursion limit {limit} -> {after}")
    emit("OK", f"40 valid kernels translated beside {len(deep_done)} deep translations; "
         f"recursion limit {after}")
''')

# -- the cache: modes, other users, backends, killed writers ------------------------------------

probe("cache-umask-000", "cache entries under umask 000 (were 0666 files, 0777 folders)",
      timeout=90)('''
def main():
    os.umask(0)
    dev = device()
    k = dev.build_kernel_from_string(FILL, "fill")
    a = dev.malloc(64, np.float32)
    k(64, a)
    root = Path(os.environ["OKL_CACHE_DIR"])
    loose = [f"{p.relative_to(root)} {stat.S_IMODE(p.lstat().st_mode):o}"
             for p in [root, *root.rglob("*")] if stat.S_IMODE(p.lstat().st_mode) & 0o022]
    if loose:
        emit("WRONG", f"{len(loose)} cache paths writable by group/others: {loose[:3]}")
    emit("OK", "every cache path private")
''')

_PLANTED = '''
def main():
    import hashlib, pwd
    shared = WORK / "shared"
    shared.mkdir()
    shared.chmod(0o1777)
    env = {"OKL_CACHE_DIR": str(shared), "OKL_NATIVE_CALL": "0"}
    build = ("import numpy as np, okl\\n"
             "d = okl.Device('serial'); k = d.build_kernel_from_string(%r, 'fill')\\n"
             "a = d.malloc(64, np.float32); k(64, a)\\n"
             "print('RIGHT' if (a.get() == np.arange(64)).all() else 'WRONG')\\n" % FILL)
    rc, out, err = pyrun(build, env)
    if "RIGHT" not in out:
        emit("WRONG", f"first build: {out[-200:]} {err[-200:]}")
    marker = WORK / "planted-ran"
    plant = write("plant.c", "#include <stdio.h>\\n__attribute__((constructor)) static void p(void)"
                  ' { FILE *f = fopen("%s", "w"); if (f) { fputs("ran", f); fclose(f); } }\\n'
                  % marker)
    libs = list(shared.rglob("*.so"))
    if not libs:
        emit("SKIP", "no shared library in the cache to replace")
    for lib in libs:
        subprocess.run(["cc", "-shared", "-fPIC", "-o", str(lib), str(plant)], check=True)
        data = lib.read_bytes()
        meta = lib.parent / "meta.json"
        if meta.exists():
            doc = json.loads(meta.read_text())
            files = doc.get("files") if isinstance(doc, dict) else None
            if isinstance(files, dict) and lib.name in files:
                files[lib.name] = {"size": len(data), "sha256": hashlib.sha256(data).hexdigest()}
                meta.write_text(json.dumps(doc))
    if os.geteuid() == 0:  # another user's entry: owner nobody, modes unchanged
        uid = pwd.getpwnam("nobody").pw_uid
        for p in [*(shared).rglob("*")]:
            os.chown(p, uid, -1, follow_symlinks=False)
        how = "owned by nobody"
    else:
        for lib in libs:
            lib.chmod(0o666)
        how = "mode 0666"
    if READONLY:
        env["OKL_CACHE_READONLY"] = "1"
    rc, out, err = pyrun(build, env)
    if marker.exists():
        emit("WRONG", f"the planted library ({how}) ran as uid {os.geteuid()}")
    if "RIGHT" not in out:
        if rc == 1 and HINT.search(err):
            refused(err.strip().splitlines()[-1])
        emit("WRONG", f"second build: {out[-200:]} {err[-200:]}")
    warned = "warning" in err.lower() or "not loading" in err
    emit("OK", f"planted library ({how}) not run, kernel right" + ("; warned" if warned else ""))
'''
probe("planted-cache", "an entry planted by another user in a 1777 cache", modes="any",
      timeout=120)("READONLY = False\n" + _PLANTED)
probe("planted-cache-readonly", "the same with OKL_CACHE_READONLY=1", modes="any",
      timeout=120)("READONLY = True\n" + _PLANTED)

probe("cache-clear-backends", "oklc cache clear --backends with POCL_CACHE_DIR (and the "
      "other backend variables) naming a folder of the user's files", modes="any",
      fast=True)('''
def main():
    docs = WORK / "documents"
    for name, data in {"notes.txt": b"mine", "photos/cat.jpg": b"\\xff\\xd8",
                       "AB/readme": b"looks like a PoCL prefix",
                       "0123456789abcdef0123456789abcdef.txt": b"hex name",
                       "index": b"my index", "pyopencl/keep.txt": b"mine"}.items():
        (docs / name).parent.mkdir(parents=True, exist_ok=True)
        (docs / name).write_bytes(data)
    before = snapshot(docs)
    env = {v: str(docs) for v in ("POCL_CACHE_DIR", "CUPY_CACHE_DIR", "CUDA_CACHE_PATH",
                                  "XDG_CACHE_HOME")}
    rc, out, err = cli("cache", "clear", "--backends", env=env)
    after = snapshot(docs)
    gone = sorted(set(before) - set(after))
    changed = sorted(k for k in before if k in after and before[k] != after[k])
    if gone or changed:
        emit("LOST", f"deleted {gone[:4]} changed {changed[:4]} (rc {rc})")
    if rc != 0:
        refused(err)
    emit("OK", "user files untouched: " + " ".join(out.split())[:200])
''')

probe("killed-writer", "a cache writer SIGKILLed mid-write: no .tmp left after the next write",
      modes="cpu", timeout=120)('''
def main():
    writer = ("import os, sys, time\\n"
              "def stall(*a, **k):\\n"
              "    print('written', flush=True); time.sleep(60)\\n"
              "os.replace = stall; os.rename = stall\\n"
              "import numpy as np, okl\\n"
              "okl.Device(%r).build_kernel_from_string(%r, 'fill')\\n" % (MODE, FILL))
    p = subprocess.Popen([sys.executable, "-c", writer], stdout=subprocess.PIPE,
                         stderr=subprocess.PIPE, text=True, process_group=0)
    line = p.stdout.readline().strip()
    os.killpg(p.pid, signal.SIGKILL)
    _, err = p.communicate()
    if line != "written":
        judge(p.returncode if p.returncode >= 0 else 0, "", err, "writer")
        emit("SKIP", f"the writer never wrote: {err[-200:]}")
    root = Path(os.environ["OKL_CACHE_DIR"])
    temps = [p for p in root.rglob("*") if p.is_file() and "tmp" in p.name]
    then = time.time() - 3600  # as if the next write came an hour later
    for t in temps:
        os.utime(t, (then, then))
    rc, out, err = pyrun("import numpy as np, okl\\n"
                         "d = okl.Device(%r); k = d.build_kernel_from_string(%r, 'fill')\\n"
                         "a = d.malloc(64, np.float32); k(64, a)\\n"
                         "print('RIGHT' if (a.get() == np.arange(64)).all() else 'WRONG')\\n"
                         % (MODE, FILL))
    if "RIGHT" not in out:
        emit("WRONG", f"next build: {out[-200:]} {err[-200:]}")
    left = [str(t.relative_to(root)) for t in temps if t.exists()]
    if left:
        emit("LEAK", f"{len(left)} partial file(s) left after the next write: {left[:2]}")
    emit("OK", f"{len(temps)} partial file(s) of the killed writer gone after the next write")
''')

probe("switch-words", "OKL_CHECK_BOUNDS / OKL_NO_CACHE / OKL_CACHE_READONLY = "
      "true|yes|on|false|no|off read one way", modes="cpu", timeout=120)('''
def main():
    import okl
    big = np.zeros(8, np.float32)
    # an index read from memory: no launch-time bound sees it, only checked mode does
    oob = """@kernel void oob_NAME(const int *at, float *a) {
  for (int i = 0; i < 1; ++i; @tile(1, @outer, @inner)) { a[at[0]] = 1; }
}"""
    wrong = []
    for word, on in (("true", 1), ("yes", 1), ("on", 1), ("false", 0), ("no", 0), ("off", 0)):
        os.environ["OKL_CHECK_BOUNDS"] = word
        dev = device()  # read when the Device is made
        at = dev.asarray(np.array([4], np.int32))
        big[:] = 0
        k = dev.build_kernel_from_string(oob.replace("NAME", word), "oob_" + word)
        try:
            k(at, dev.asarray(big[:4]))  # a[4] is past the Memory, inside big
            dev.finish()
            checked = False
        except Exception as e:
            if not is_okl(e):
                raise
            checked = True
        if checked != bool(on):
            wrong.append(f"OKL_CHECK_BOUNDS={word}: checked {'on' if checked else 'off'}")
    del os.environ["OKL_CHECK_BOUNDS"]
    prog = ("import numpy as np, okl\\n"
            "k = okl.Device(%r).build_kernel_from_string(%r, 'fill')\\n" % (MODE, FILL))
    for var in ("OKL_NO_CACHE", "OKL_CACHE_READONLY"):
        for word, on in (("true", 1), ("yes", 1), ("on", 1), ("false", 0), ("no", 0),
                         ("off", 0)):
            cache = WORK / f"cache-{var}-{word}"
            rc, out, err = pyrun(prog, {"OKL_CACHE_DIR": str(cache), var: word})
            if rc != 0:
                refused(err)
            wrote = cache.exists() and any(p.is_file() and p.suffix != ".lock"
                                           for p in cache.rglob("*"))
            if wrote == bool(on):
                wrong.append(f"{var}={word}: cache {'written' if wrote else 'not written'}")
    if wrong:
        emit("WRONG", "; ".join(wrong))
    emit("OK", "18 settings read as their words say")
''')

# -- compilers and files ------------------------------------------------------------------------

probe("compiler-hang", "a C compiler that hangs (CC=a script that sleeps, OKL_BUILD_TIMEOUT=2: "
      "given up within 20 s, nothing left running)", modes="cpu", timeout=150,
      hint=r"OKL_BUILD_TIMEOUT")('''
def main():
    pids = WORK / "pids"
    cc = fake_compiler("cc-hang", f"echo $$ >> {pids}\\nsleep 100 &\\necho $! >> {pids}\\nwait")
    os.environ.update(CC=str(cc), OKL_BUILD_TIMEOUT="2", OKL_NATIVE_CALL="0")
    t0 = time.time()
    dev = device()
    try:
        dev.build_kernel_from_string(FILL, "fill")
        emit("WRONG", "a build with a compiler that never finishes succeeded")
    except Exception as e:
        if not is_okl(e):
            raise
        message = str(e)
    took = time.time() - t0
    time.sleep(0.5)
    left = [int(p) for p in pids.read_text().split()] if pids.exists() else []
    left = [p for p in left if alive(p)]
    if left:
        emit("LEAK", f"compiler processes {left} still running after the build gave up "
             f"({took:.1f} s)")
    if took > 20:
        emit("HANG", f"gave up after {took:.0f} s with OKL_BUILD_TIMEOUT=2: {message[:200]}")
    refused(message, r"OKL_BUILD_TIMEOUT")
''')

probe("include-dev-zero", "#include </dev/zero> (went to the compiler, reported as a macro bomb)",
      modes="any", timeout=60, fast=True)('''
def main():
    f = write("zero.okl", "#include </dev/zero>\\n" + FILL)
    rc, out, err = cli("check", "-m", "serial", str(f))
    if rc == 0:
        emit("WRONG", "check says ok: " + out[:200])
    if "macro" in err.lower():
        emit("UNHELPFUL", "reported as a macro expansion: " + err[:300])
    refused(err, r"/dev/zero")
''')

probe("compiler-50MB", "a compiler printing 50 MB of errors (a capped message, also in oklc)",
      modes="cpu", timeout=120)('''
def main():
    # loud for the kernel's library (the Device's own checks of the compiler pass)
    cc = fake_compiler("cc-loud", 'case "$*" in *kernel.so*) '
                                  "yes 'x.c:1:1: error: this compiler is loud' | "
                                  'head -c 52428800 >&2; exit 1;; *) exec cc "$@";; esac')
    os.environ.update(CC=str(cc), OKL_NATIVE_CALL="0")
    dev = device()
    try:
        dev.build_kernel_from_string(FILL, "fill")
        emit("WRONG", "the build succeeded")
    except Exception as e:
        if not is_okl(e):
            raise
        message = str(e)
    if len(message) > 200_000:
        emit("UNHELPFUL", f"BuildError of {len(message)} characters")
    f = write("k.okl", FILL)
    rc, out, err = cli("build", str(f), "fill", "-m", MODE, timeout=90)
    if len(out) + len(err) > 200_000:
        emit("UNHELPFUL", f"oklc build printed {len(out) + len(err)} characters")
    refused(message, r"(CC|compiler|OKL_VERBOSE|log|truncated|omitted|more)")
''')

probe("compiler-no-library", "a compiler that exits 0 and writes no library", modes="cpu",
      timeout=60, hint=r"(CC|compiler)")('''
def main():
    cc = fake_compiler("cc-nothing", "exit 0")
    os.environ.update(CC=str(cc), OKL_NATIVE_CALL="0")
    dev = device()
    dev.build_kernel_from_string(FILL, "fill")
    emit("WRONG", "a build with a compiler that wrote nothing succeeded")
''')

probe("fifo-kernel", "a kernel file that is a FIFO (build_kernel)", modes="any", timeout=30,
      hint=r"(FIFO|regular file|not a file|named pipe)", fast=True)('''
def main():
    f = WORK / "pipe.okl"
    os.mkfifo(f)
    device("serial").build_kernel(str(f), "fill")
    emit("WRONG", "a FIFO built")
''')

probe("fifo-check-r", "a FIFO among the files of oklc check -r", modes="any", timeout=30,
      hint=r"(FIFO|regular file|not a file|named pipe|skipp)", fast=True)('''
def main():
    d = WORK / "tree"
    d.mkdir()
    (d / "good.okl").write_text(FILL)
    os.mkfifo(d / "pipe.okl")
    rc, out, err = cli("check", "-r", "-m", "serial", str(d))
    if "good.okl" not in out + err:
        emit("WRONG", "good.okl not reported: " + (out + err)[:200])
    if "pipe.okl" not in out + err:
        emit("UNHELPFUL", "the FIFO is not mentioned")
    refused(out + err, r"(FIFO|regular file|not a file|named pipe|skipp)")
''')

# -- environment values and options -------------------------------------------------------------

_LIMIT_VARS = ("OKL_MAX_SOURCE_BYTES", "OKL_MAX_CPP_SECONDS", "OKL_MAX_CPP_OUTPUT_BYTES",
               "OKL_MAX_TOKENS", "OKL_MAX_NESTING", "OKL_MAX_NUMBER_CHARS",
               "OKL_MAX_TOKEN_CHARS")
for _value in ("nan", "inf", "1e400", "0", "-1"):
    probe(f"env-OKL_MAX_*={_value}", f"every OKL_MAX_* limit set to {_value}", modes="any",
          fast=True)(f'''
VARS = {_LIMIT_VARS!r}
def main():
    import okl
    os.environ["OKL_NO_CACHE"] = "1"
    os.environ["OKL_CPP"] = "cpp"  # the system cpp, whose time and output limits are read
    accepted, unhelpful = [], []
    for i, var in enumerate(VARS):
        os.environ[var] = {_value!r}
        src = ("#define N 4\\n@kernel void k%d(float *a) {{ for (int i = 0; i < N; ++i; "
               "@tile(2, @outer, @inner)) {{ a[i] = 1.5f + 12345678901234567890.0; }} }}" % i)
        try:
            okl.translate(src, "serial")
            accepted.append(var)
        except Exception as e:
            if not is_okl(e):
                raise
            if var not in str(e) or CONTROL.search(str(e).replace("\\n", " ")):
                unhelpful.append(f"{{var}}: {{str(e)[:100]}}")
        del os.environ[var]
    if accepted:
        emit("WRONG", f"accepted {{len(accepted)}} of {{len(VARS)}}: {{accepted}}")
    if unhelpful:
        emit("UNHELPFUL", f"message does not name the variable: {{unhelpful[0]}}")
    emit("OK", f"all {{len(VARS)}} refused, naming the variable")
''')

probe("opencl-device-superscript", "OKL_OPENCL_DEVICE='\u00b2' (and 1e400)", modes="opencl",
      hint=r"OKL_OPENCL_DEVICE", fast=True)('''
def main():
    import okl
    for value in ("\\u00b2", "1e400"):
        os.environ["OKL_OPENCL_DEVICE"] = value
        try:
            okl.Device("opencl")
            emit("WRONG", f"OKL_OPENCL_DEVICE={value!r} accepted")
        except okl.BackendUnavailableError as e:
            if "OKL_OPENCL_DEVICE" not in str(e):
                emit("SKIP", f"opencl unavailable: {str(e)[:150]}")
            message = str(e)
        except Exception as e:
            if not is_okl(e):
                raise
            message = str(e)
        if "OKL_OPENCL_DEVICE" not in message:
            emit("UNHELPFUL", message)
    refused(message, r"OKL_OPENCL_DEVICE")
''')

probe("defines-nonstring-key", "defines={1: 2} and {'N': 4, 5: 6}",
      hint=r"(defines|macro name)",
      fast=True)('''
def main():
    import okl
    dev = device()
    messages = []
    for defines in ({1: 2}, {"N": 4, 5: 6}):
        try:
            dev.build_kernel_from_string(FILL, "fill", defines=defines)
            emit("WRONG", f"defines={defines!r} accepted")
        except Exception as e:
            if not is_okl(e):
                raise
            messages.append(str(e))
    for m in messages[:-1]:
        if not HINT.search(m):
            emit("UNHELPFUL", m)
    refused(messages[-1])
''')

probe("overlap-two-devices", "an overlapping copy between two Devices sharing a buffer",
      fast=True)('''
def main():
    d1, d2 = device(), device()
    m = d1.asarray(np.arange(100, dtype=np.float32))
    m2 = d2.asarray(m)
    m2[10:60].copy_from(m[0:50])
    d1.finish(); d2.finish()
    want = np.arange(100, dtype=np.float32)
    want[10:60] = np.arange(50, dtype=np.float32)
    if not np.array_equal(m.get(), want):
        emit("WRONG", f"got {m.get()[8:16].tolist()}...")
''')

probe("pocl-cache-unwritable", "PoCL cannot write its cache (POCL_CACHE_DIR under a file)",
      modes="opencl", hint=r"POCL_CACHE_DIR", fast=True)('''
def main():
    (WORK / "afile").write_text("x")
    os.environ["POCL_CACHE_DIR"] = str(WORK / "afile" / "kcache")
    import okl
    try:
        dev = okl.Device("opencl")
    except Exception as e:
        if not is_okl(e):
            raise
        refused(str(e), r"POCL_CACHE_DIR")
    k = dev.build_kernel_from_string(FILL, "fill")
    a = dev.malloc(64, np.float32)
    k(64, a)
    if not np.array_equal(a.get(), np.arange(64, dtype=np.float32)):
        emit("WRONG", "wrong answer")
''')

probe("control-chars-name", "control characters in a kernel name (printed raw)",
      hint=HINT + r"|kernels:|did you mean", fast=True)('''
def main():
    import okl
    dev = device()
    name = "k\\x1b[2J\\x07"
    try:
        dev.build_kernel_from_string(FILL, name)
        emit("WRONG", "a kernel name with control characters accepted")
    except Exception as e:
        if not is_okl(e):
            raise
        message = str(e)
    f = write("k.okl", FILL)
    rc, out, err = cli("build", str(f), name, "-m", "serial")
    if CONTROL.search((out + err).replace("\\n", " ")):
        emit("UNHELPFUL", f"oklc build printed raw control characters: {(out + err)[:200]!r}")
    refused(message)
''')

# -- signals ------------------------------------------------------------------------------------

probe("ctrlc-compile", "SIGINT during a compile: KeyboardInterrupt, compiler group gone, no "
      "okl-build-* left", modes="cpu", timeout=60)('''
def main():
    pids = WORK / "pids"
    # slow only for the kernel's library (the Device's own checks of the compiler pass)
    cc = fake_compiler("cc-slow", f'case "$*" in *kernel.so*) echo $$ >> {pids}; sleep 30 & '
                                  f'echo $! >> {pids}; wait;; *) exec cc "$@";; esac')
    os.environ.update(CC=str(cc), OKL_NATIVE_CALL="0")
    dev = device()
    sent = []

    def interrupt():  # once the compiler runs: Ctrl-C during the compile itself
        while not pids.exists() and not sent:
            time.sleep(0.05)
        time.sleep(0.5)
        sent.append(time.time())
        os.kill(os.getpid(), signal.SIGINT)
    threading.Thread(target=interrupt, daemon=True).start()
    t0 = time.time()
    try:
        dev.build_kernel_from_string(FILL, "fill")
        emit("HANG", f"SIGINT not honoured: the build ran to its end ({time.time() - t0:.0f} s)")
    except KeyboardInterrupt:
        took = time.time() - sent[0] if sent else 0.0
    except Exception as e:
        if not is_okl(e):
            raise
        emit("HANG", f"SIGINT not honoured: the build ran to its end "
             f"({time.time() - t0:.0f} s) and said: {str(e)[:150]}")
    if took > 5:
        emit("HANG", f"KeyboardInterrupt {took:.1f} s after SIGINT")
    time.sleep(1)
    left = [int(p) for p in pids.read_text().split()] if pids.exists() else []
    left = [p for p in left if alive(p)]
    tmp = Path(os.environ["TMPDIR"])
    dirs = [p.name for p in tmp.glob("okl-build-*")]
    if left or dirs:
        emit("LEAK", f"compiler processes {left} running, {dirs[:2]} left")
    emit("OK", f"KeyboardInterrupt {took:.1f} s after SIGINT, nothing left")
''')

probe("ctrlc-kernel", "SIGINT during a long CPU kernel: KeyboardInterrupt within seconds",
      modes="cpu", timeout=60)('''
def main():
    dev = device()
    k = dev.build_kernel_from_string("""
@kernel void spin(const int n, const int m, float *a) {
  for (int o = 0; o < n; ++o; @outer) {
    for (int i = 0; i < 2; ++i; @inner) {
      float x = 0;
      for (int j = 0; j < m; ++j) { x = x * 0.999f + j; }
      a[2 * o + i] = x;
    }
  }
}""", "spin")
    a = dev.malloc(200000, np.float32)
    k(1, 1, a)  # a first launch: whatever it prepares is done before the signal
    dev.finish()
    threading.Timer(1.0, os.kill, (os.getpid(), signal.SIGINT)).start()
    t0 = time.time()
    try:
        k(100000, 2000000, a)
        dev.finish()
        emit("WRONG", f"the kernel ran to its end ({time.time() - t0:.0f} s) through SIGINT")
    except KeyboardInterrupt:
        took = time.time() - t0 - 1.0
    if took > 5:
        emit("HANG", f"KeyboardInterrupt {took:.1f} s after SIGINT")
    emit("OK", f"KeyboardInterrupt {took:.2f} s after SIGINT")
''')

# -- the front end ------------------------------------------------------------------------------

probe("fe-exclusive-in-if", "@exclusive inside an if between nested @outer loops (also "
      "@tile(n, @outer, @outer)'s guard)", fast=True)('''
def main():
    dev = device()
    src = """
@kernel void ex(const int n, float *a) {
  for (int b = 0; b < 2; ++b; @outer(1)) {
    if (n > 0) {
      for (int c = 0; c < 2; ++c; @outer(0)) {
        @exclusive float e;
        for (int t = 0; t < 4; ++t; @inner) { e = b * 8 + c * 4 + t; }
        for (int t = 0; t < 4; ++t; @inner) { a[b * 8 + c * 4 + t] = e; }
      }
    }
  }
}
@kernel void ex2(const int n, float *a) {
  for (int i = 0; i < n; ++i; @tile(2, @outer, @outer)) {
    @exclusive float e;
    for (int t = 0; t < 4; ++t; @inner) { e = i * 4 + t; }
    for (int t = 0; t < 4; ++t; @inner) { a[i * 4 + t] = e; }
  }
}"""
    for name, n in (("ex", 1), ("ex2", 3)):
        try:
            k = dev.build_kernel_from_string(src, name)
        except Exception as e:
            if not is_okl(e):
                raise
            emit("REFUSED", f"{name}: {str(e)[:300]}")
        a = dev.zeros(16, np.float32)
        k(n, a)
        dev.finish()
        want = np.arange(16, dtype=np.float32)
        if name == "ex2":
            want[12:] = 0
        if not np.array_equal(a.get(), want):
            emit("WRONG", f"{name}: got {a.get().tolist()}")
''')

probe("fe-max-inner-dims", "@max_inner_dims(256) with a 16x16 block (the product; CUDA's "
      "launch bounds from the block)", fast=True)('''
def main():
    dev = device()
    src = """
@kernel void blk(float *a) {
  for (int g = 0; g < 2; ++g; @outer @max_inner_dims(256)) {
    for (int y = 0; y < 16; ++y; @inner(1)) {
      for (int x = 0; x < 16; ++x; @inner(0)) { a[g * 256 + y * 16 + x] = g * 256 + y * 16 + x; }
    }
  }
}"""
    try:
        k = dev.build_kernel_from_string(src, "blk")
    except Exception as e:
        if not is_okl(e):
            raise
        emit("REFUSED", str(e)[:300])
    a = dev.zeros(512, np.float32)
    k(a)
    dev.finish()
    if not np.array_equal(a.get(), np.arange(512, dtype=np.float32)):
        emit("WRONG", "wrong answer")
    import okl
    cuda = okl.translate(src, "cuda").source
    bounds = re.findall(r"__launch_bounds__\\((\\d+)", cuda)
    if bounds and bounds != ["256"]:
        emit("WRONG", f"cuda __launch_bounds__{bounds} for a 256-thread block")
''')

probe("fe-struct-pointer-arg", "a struct kernel argument holding a pointer, on opencl (check "
      "said ok, the OpenCL compiler failed)", modes="opencl", fast=True)('''
def main():
    src = """typedef struct { float *p; int n; } S;
@kernel void sp(S s, float *a) {
  for (int i = 0; i < 1; ++i; @outer) { for (int j = 0; j < 1; ++j; @inner) { a[0] = s.n; } }
}"""
    f = write("sp.okl", src)
    rc, out, err = cli("check", "-m", "opencl", str(f))
    if rc == 0:
        emit("WRONG", "check -m opencl says ok: " + " ".join(out.split())[:200])
    check_text = err
    dev = device()
    try:
        dev.build_kernel_from_string(src, "sp")
        emit("WRONG", "built")
    except Exception as e:
        if not is_okl(e):
            raise
        import okl
        if isinstance(e, okl.BuildError) and not isinstance(e, okl.TranslationError):
            emit("WRONG", "check refuses but the build reached the OpenCL compiler: "
                 + str(e)[:200])
    refused(check_text)
''')

probe("fe-extern-const-cuda", "extern const int tab[]; on cuda/hip (became __constant__ "
      "extern)", modes="any", fast=True)('''
def main():
    import okl
    src = """extern const int tab[];
@kernel void et(float *a) {
  for (int i = 0; i < 4; ++i; @tile(4, @outer, @inner)) { a[i] = tab[i]; }
}"""
    for mode in ("cuda", "hip"):
        try:
            out = okl.translate(src, mode).source
        except Exception as e:
            if not is_okl(e):
                raise
            refused(str(e))
        bad = [l.strip() for l in out.splitlines()
               if re.search(r"__constant__\\s+extern|extern\\s+__constant__", l)]
        if bad:
            emit("WRONG", f"{mode}: {bad[0]}")
''')

probe("fe-gpu-bound-in-memory", "a GPU loop bound that reads device memory (check/translate "
      "passed, the build refused)", modes="gpu")('''
def main():
    src = """@kernel void gb(const int *n, float *a) {
  for (int i = 0; i < n[0]; ++i; @tile(16, @outer, @inner)) { a[i] = i; }
}"""
    f = write("gb.okl", src)
    rc, out, err = cli("check", "-m", MODE, str(f))
    dev = device()
    try:
        k = dev.build_kernel_from_string(src, "gb")
    except Exception as e:
        if not is_okl(e):
            raise
        if rc == 0:
            emit("WRONG", "check says ok, the build refuses: " + str(e)[:200])
        refused(str(e))
    if rc != 0:
        emit("WRONG", "check refuses what builds: " + err[:200])
    n = dev.asarray(np.array([40], np.int32))
    a = dev.zeros(48, np.float32)
    k(n, a)
    dev.finish()
    want = np.zeros(48, np.float32)
    want[:40] = np.arange(40)
    if not np.array_equal(a.get(), want):
        emit("WRONG", f"got {a.get()[:4].tolist()}")
''')

probe("fe-restrict-return-vs-param", "@restrict on a return type vs on a scalar parameter "
      "(one accepted, the other an error)", modes="any", fast=True)('''
def main():
    ret = write("ret.okl", """@restrict float *pick(float *x) { return x; }
@kernel void r1(float *a) {
  for (int i = 0; i < 4; ++i; @tile(4, @outer, @inner)) { pick(a)[i] = i; }
}""")
    par = write("par.okl", """@kernel void r2(@restrict int n, float *a) {
  for (int i = 0; i < n; ++i; @tile(4, @outer, @inner)) { a[i] = i; }
}""")
    r1 = cli("check", "-m", "serial", str(ret))
    r2 = cli("check", "-m", "serial", str(par))
    kinds = ["error" if r[0] else ("warning" if "warning" in r[2] else "accepted")
             for r in (r1, r2)]
    if kinds[0] != kinds[1]:
        emit("WRONG", f"return type: {kinds[0]}, scalar parameter: {kinds[1]}")
    if kinds[0] == "accepted":
        emit("OK", "both accepted")
    refused(r1[2] + r2[2])
''')

probe("fe-int-restrict-ptr", "int @restrict *c (was attached to the next statement)",
      fast=True)('''
def main():
    import okl
    src = """@kernel void rp(const int n, int @restrict *c) {
  for (int i = 0; i < n; ++i; @tile(4, @outer, @inner)) { c[i] = i; }
}"""
    mode = "cuda" if MODE in ("cuda", "hip") else MODE
    t = okl.translate(src, MODE)
    if t.diagnostics:
        emit("WRONG", "diagnostics: " + str(t.diagnostics[0])[:200])
    if not re.search(r"restrict\\w*\\s+c\\b", t.source):
        emit("WRONG", "no restrict on c in the translation")
    dev = device()
    k = dev.build_kernel_from_string(src, "rp")
    c = dev.zeros(8, np.int32)
    k(8, c)
    dev.finish()
    if not np.array_equal(c.get(), np.arange(8, dtype=np.int32)):
        emit("WRONG", f"got {c.get().tolist()}")
''')

probe("fe-typedef-struct", "typedef struct P P; struct P {...} (a false C++ warning and a "
      "duplicate typedef)", fast=True)('''
def main():
    import okl
    src = """typedef struct P P;
struct P { float x; float y; };
@kernel void ts(const int n, float *a) {
  for (int i = 0; i < n; ++i; @tile(4, @outer, @inner)) { P q; q.x = i; q.y = 1; a[i] = q.x + q.y; }
}"""
    t = okl.translate(src, MODE)
    said = " ".join(str(d) for d in t.diagnostics)
    if "C++" in said:
        emit("WRONG", "a C++ warning: " + said[:200])
    typedefs = len(re.findall(r"typedef\\s+struct\\s+P\\s+P\\s*;", t.source))
    if typedefs > 1:
        emit("WRONG", f"{typedefs} typedefs of P in the translation")
    dev = device()
    k = dev.build_kernel_from_string(src, "ts")
    a = dev.zeros(8, np.float32)
    k(8, a)
    dev.finish()
    if not np.array_equal(a.get(), np.arange(8, dtype=np.float32) + 1):
        emit("WRONG", f"got {a.get().tolist()}")
''')

probe("fe-no-kernel", "a file with no @kernel: check warns, build says it once", modes="any",
      hint=r"@kernel", fast=True)('''
def main():
    f = write("none.okl", "float twice(float x) { return 2 * x; }\\n")
    rc, out, err = cli("check", "-m", "serial", str(f))
    if "@kernel" not in out + err and "kernel" not in err:
        emit("UNHELPFUL", "check: " + " ".join((out + err).split())[:200])
    rc, out, err = cli("build", str(f), "-m", "serial")
    lines = [l for l in err.splitlines() if "warning" in l]
    if len(lines) > 1 and len(set(lines)) < len(lines):
        emit("UNHELPFUL", f"build repeats its warning {len(lines)} times")
    if rc == 0:
        emit("OK", "check and build warn once: " + " ".join(err.split())[:150])
    refused(err, r"@kernel")
''')

probe("fe-compiler-column", "an undeclared name: the C compiler's column is the OKL source's",
      modes="cpu", fast=True)('''
def main():
    src = ("@kernel void k(float *a) { for (int i = 0; i < 1; ++i; @outer) "
           "for (int j = 0; j < 1; ++j; @inner) { a[0] = undeclared_thing; } }")
    col = src.index("undeclared_thing") + 1
    dev = device()
    try:
        dev.build_kernel_from_string(src, "k")
        emit("WRONG", "built")
    except Exception as e:
        if not is_okl(e):
            raise
        message = str(e)
    cols = sorted({int(c) for c in re.findall(r":1:(\\d+)", message)})
    if cols and cols != [col]:
        emit("UNHELPFUL", f"columns {cols} for a name at column {col}")
    refused(message)
''')

probe("fe-view-offsets", "views at element offsets not a multiple of the base alignment "
      "(mem[10:20] of float32 on PoCL)", fast=True)('''
def main():
    dev = device()
    k = dev.build_kernel_from_string("""@kernel void inc(const int n, float *x) {
  for (int i = 0; i < n; ++i; @tile(8, @outer, @inner)) { x[i] += 1; }
}""", "inc")
    for off in (1, 3, 10, 17):
        m = dev.asarray(np.arange(64, dtype=np.float32))
        try:
            k(8, m[off:off + 8])
            dev.finish()
        except Exception as e:
            if not is_okl(e):
                raise
            emit("REFUSED", f"offset {off}: {str(e)[:250]}")
        want = np.arange(64, dtype=np.float32)
        want[off:off + 8] += 1
        if not np.array_equal(m.get(), want):
            emit("WRONG", f"offset {off}: got {m.get()[off - 1:off + 3].tolist()}")
''')


# -- the runner ---------------------------------------------------------------------------------

@dataclass
class Result:
    probe: str
    mode: str
    outcome: str
    evidence: str
    seconds: float


def _session_processes(sid: int) -> list[int]:
    """Processes still in session ``sid`` (what a probe left running)."""
    found = []
    for d in Path("/proc").iterdir():
        if not d.name.isdigit():
            continue
        try:
            fields = (d / "stat").read_text().rsplit(")", 1)[1].split()
        except OSError:
            continue
        if int(fields[3]) == sid and fields[0] != "Z":
            found.append(int(d.name))
    return found


def run_probe(p: Probe, mode: str, keep: bool = False) -> Result:
    """Run one probe in its own session with a private cache, TMPDIR and HOME."""
    work = Path(tempfile.mkdtemp(prefix=f"hostile-{p.name[:20]}-"))
    try:
        for sub in ("cache", "tmp", "home", "work"):
            (work / sub).mkdir()
        home = work / "home"
        (home / "notes.txt").write_text("the user's notes\n")
        (home / ".cache" / "keep.txt").parent.mkdir()
        (home / ".cache" / "keep.txt").write_text("the user's\n")
        mine = {str(q.relative_to(home)): q.read_bytes() for q in home.rglob("*")
                if q.is_file()}
        env = dict(os.environ, **p.env)
        for var in [v for v in env if v.startswith("OKL_") or v.startswith("POCL_")]:
            del env[var]
        env.update(OKL_CACHE_DIR=str(work / "cache"), TMPDIR=str(work / "tmp"), HOME=str(home),
                   XDG_CACHE_HOME=str(home / ".cache"), HOSTILE_MODE=mode,
                   HOSTILE_WORK=str(work / "work"), HOSTILE_HINT=p.hint,
                   POCL_CACHE_DIR=str(work / "pocl"), PYTHONUNBUFFERED="1")
        code = PRELUDE + p.body + EPILOGUE
        t0 = time.time()
        proc = subprocess.Popen([sys.executable, "-c", code], env=env, cwd=work / "work",
                                stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                                start_new_session=True)
        try:
            out, err = proc.communicate(timeout=p.timeout)
            timed_out = False
        except subprocess.TimeoutExpired:
            os.killpg(proc.pid, signal.SIGKILL)
            out, err = proc.communicate()
            timed_out = True
        seconds = time.time() - t0
        left = _session_processes(proc.pid)
        for pid in left:
            try:
                os.kill(pid, signal.SIGKILL)
            except ProcessLookupError:
                pass
        text_out = out.decode(errors="replace")
        text_err = err.decode(errors="replace")
        outcome, evidence = _classify(proc.returncode, timed_out, text_out, text_err, p)
        after = {str(q.relative_to(home)): q.read_bytes() for q in home.rglob("*")
                 if q.is_file()}
        lost = [k for k in mine if after.get(k) != mine[k]]
        if lost and outcome not in ("crash", "hang"):
            outcome, evidence = "lost", f"the user's {lost} deleted or changed; {evidence}"
        leftovers = [q.name for q in (work / "tmp").glob("okl-build-*")]
        if outcome == "ok" and (left or leftovers):
            outcome = "leak"
            evidence = f"left running {left}, folders {leftovers[:2]}; {evidence}"
        if keep:
            evidence += f" [{work}]"
        return Result(p.name, mode, outcome, evidence, round(seconds, 2))
    finally:
        if not keep:
            _remove(work)


def _remove(path: Path) -> None:
    """Remove a probe's folder, also parts a probe made read-only or another user's."""
    def retry(func, name, _exc):
        try:
            os.chmod(os.path.dirname(name), 0o700)
            func(name)
        except OSError:
            pass
    shutil.rmtree(path, onerror=retry)


def _classify(rc: int | None, timed_out: bool, out: str, err: str, p: Probe) -> tuple[str, str]:
    markers = [line for line in out.splitlines() if line.startswith("@@")]
    last = markers[-1] if markers else ""
    kind, _, said = last[2:].partition(" ")
    tail = " ".join(err.strip().splitlines()[-1:])[:300]
    if timed_out:
        return "hang", f"no answer in {p.timeout:.0f} s; {said or tail}"
    if rc is not None and rc < 0:
        return "crash", f"killed by signal {signal.Signals(-rc).name}; {tail}"
    if kind in ("CRASH", "HANG", "TRACEBACK"):
        return kind.lower(), said
    if "Traceback (most recent call last)" in err:
        return "traceback", tail
    if kind in ("OK", "WRONG", "LOST", "LEAK", "UNHELPFUL", "REFUSED", "SKIP"):
        return kind.lower(), said
    if rc in (134, 139):
        return "crash", f"exit status {rc}; {tail}"
    return "crash", f"no verdict (exit status {rc}); {tail}"


def select(modes: list[str], only: list[str] | None = None, fast: bool = False
           ) -> list[tuple[Probe, str]]:
    """(probe, mode) pairs: per-mode probes on each mode, the others once (mode 'any')."""
    chosen = [p for p in PROBES if (not only or p.name in only) and (not fast or p.fast)]
    pairs = []
    for p in chosen:
        if p.modes == "any":
            pairs.append((p, "any"))
        else:
            pairs.extend((p, m) for m in modes if p.runs_on(m))
    return pairs


def counts(results: list[Result]) -> dict[str, int]:
    return {o: sum(r.outcome == o for r in results) for o in OUTCOMES}


def table(results: list[Result]) -> str:
    width = max(len(r.probe) for r in results) if results else 10
    lines = [f"{'probe':<{width}}  {'mode':<7} {'outcome':<10} {'s':>6}  evidence"]
    for r in results:
        lines.append(f"{r.probe:<{width}}  {r.mode:<7} {r.outcome:<10} {r.seconds:>6.1f}  "
                     f"{r.evidence[:160]}")
    c = counts(results)
    lines.append("counts: " + ", ".join(f"{k} {v}" for k, v in c.items()))
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--modes", default="serial,openmp,opencl",
                    help="comma-separated modes (cuda and hip skip where no GPU is)")
    ap.add_argument("--only", default="", help="comma-separated probe names")
    ap.add_argument("--fast", action="store_true", help="only the probes of the CI test")
    ap.add_argument("--keep", action="store_true", help="keep each probe's folder")
    ap.add_argument("--list", action="store_true", help="list the probes and exit")
    ap.add_argument("--json", default=None, metavar="OUT")
    args = ap.parse_args(argv)
    if args.list:
        for p in PROBES:
            print(f"{p.name:<28} {p.modes:<6} {p.item}")
        return 0
    modes = [m for m in args.modes.split(",") if m]
    unknown = [m for m in modes if m not in ALL_MODES]
    if unknown:
        ap.error(f"unknown mode(s) {unknown}: use {', '.join(ALL_MODES)}")
    only = [n for n in args.only.split(",") if n] or None
    results = []
    for p, mode in select(modes, only, args.fast):
        r = run_probe(p, mode, args.keep)
        results.append(r)
        print(f"{r.probe:<28} {r.mode:<7} {r.outcome:<10} {r.seconds:>6.1f}  {r.evidence[:160]}",
              flush=True)
    print()
    print(table(results))
    if args.json:
        Path(args.json).write_text(json.dumps({
            "modes": modes, "python": sys.version.split()[0],
            "results": [r.__dict__ for r in results], "counts": counts(results)}, indent=1))
    bad = sum(v for k, v in counts(results).items() if k not in ("ok", "skip"))
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
