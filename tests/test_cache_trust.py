"""The cache against other users and killed writers (issue 32): private modes whatever the
umask, entries another user could have written refused (never loaded), ``cache clear
--backends`` deleting only each backend's own files, partial writes swept; and okl.env's one
reading of yes/no switches and numeric limits."""

from __future__ import annotations

import logging
import math
import os
import signal
import stat
import subprocess
import sys
import textwrap
import time
from pathlib import Path

import pytest
from click.testing import CliRunner

from okl import env, limits
from okl.cli import main as oklc
from okl.runtime import cache as cache_module
from okl.runtime import cache_files
from okl.runtime.cache import Cache

DOC = {"backend": "serial", "source": "void k() {}"}
FILES = {"kernel.so": b"\x7fELF" + bytes(200), "source.c": b"void k() {}\n"}
KEY = Cache.key(DOC)
POSIX = pytest.mark.skipif(not hasattr(os, "geteuid"), reason="modes and owners are POSIX's")


@pytest.fixture(autouse=True)
def _clean_env(monkeypatch):
    for name in ("OKL_CACHE_DIR", "OKL_NO_CACHE", "OKL_CACHE_READONLY", "OKL_VERBOSE",
                 "OKL_CHECK_BOUNDS", "OKL_CHECK_RACES", "OKL_NATIVE_CALL"):
        monkeypatch.delenv(name, raising=False)
    cache_files._warned.clear()


def _modes(root: Path) -> dict[str, int]:
    """Relative path -> permission bits of everything under ``root`` (``root`` itself: '.')."""
    out = {".": stat.S_IMODE(os.lstat(root).st_mode)}
    for dirpath, dirs, files in os.walk(root):
        for name in dirs + files:
            p = Path(dirpath) / name
            out[str(p.relative_to(root))] = stat.S_IMODE(os.lstat(p).st_mode)
    return out


# -- 1. private modes whatever the umask ------------------------------------------------------

@POSIX
def test_entries_are_private_under_a_permissive_umask(tmp_path):
    root = tmp_path / "missing-parent" / "cache"  # okl creates the root and its parent
    old = os.umask(0)
    try:
        entry = Cache(root).put("build", KEY, FILES, DOC)
    finally:
        os.umask(old)
    assert entry is not None
    modes = _modes(tmp_path / "missing-parent")
    files = {p: m for p, m in modes.items() if (tmp_path / "missing-parent" / p).is_file()}
    dirs = {p: m for p, m in modes.items() if p not in files}
    assert set(files) >= {f"cache/v1/build/{KEY[:2]}/{KEY}/{n}" for n in [*FILES, "meta.json"]}
    assert set(files.values()) == {0o600}, files  # was 0666 under umask 000
    assert set(dirs.values()) == {0o700}, dirs  # was 0777: root, its parent, v1, level, ...


@POSIX
def test_a_umask_that_removes_owner_bits_still_gives_0600(tmp_path):
    old = os.umask(0o377)
    try:
        Cache(tmp_path / "c").put("build", KEY, FILES, DOC)
    finally:
        os.umask(old)
    assert Cache(tmp_path / "c").get("build", KEY) == FILES
    modes = _modes(tmp_path / "c")
    assert {m for p, m in modes.items() if p.endswith(".so")} == {0o600}


# -- 2. entries other users could have written are refused ------------------------------------

def _entry(cache: Cache) -> Path:
    path = cache.put("build", KEY, FILES, DOC)
    assert path is not None and cache.get("build", KEY) == FILES
    return path


@POSIX
@pytest.mark.parametrize("what", ["file", "meta", "entry", "prefix", "level", "v1"])
@pytest.mark.parametrize("readonly", [False, True])
def test_group_or_world_writable_entry_is_refused_with_a_warning(tmp_path, caplog, monkeypatch,
                                                                 what, readonly):
    cache = Cache(tmp_path / "c")
    entry = _entry(cache)
    target = {"file": entry / "kernel.so", "meta": entry / "meta.json", "entry": entry,
              "prefix": entry.parent, "level": entry.parent.parent,
              "v1": entry.parent.parent.parent}[what]
    target.chmod(0o666 if target.is_file() else 0o777)
    if readonly:
        monkeypatch.setenv("OKL_CACHE_READONLY", "1")
    with caplog.at_level(logging.WARNING, logger="okl"):
        assert cache.get("build", KEY) is None
    text = caplog.text
    assert f"not loading cache entry {entry}" in text and str(target) in text
    assert "writable by group and others" in text and ("0666" in text or "0777" in text)
    assert "OKL_CACHE_DIR" in text  # what to do
    assert (entry / "kernel.so").exists()  # refused, not discarded (it may not be ours)
    caplog.clear()
    assert cache.get("build", KEY) is None and "not loading" not in caplog.text  # warned once


@POSIX
def test_a_write_repairs_an_entry_of_ours_that_others_could_write(tmp_path):
    cache = Cache(tmp_path / "c")
    entry = _entry(cache)
    entry.chmod(0o777)
    (entry / "kernel.so").chmod(0o666)
    assert cache.get("build", KEY) is None  # the caller builds again and stores the build
    assert cache.put("build", KEY, FILES, DOC) == entry
    assert stat.S_IMODE(entry.stat().st_mode) == 0o755  # write bits of others removed
    assert stat.S_IMODE((entry / "kernel.so").stat().st_mode) == 0o600
    assert cache.get("build", KEY) == FILES


@POSIX
def test_owners_judged(tmp_path, monkeypatch):
    """As another user (a simulated uid): root's entries are trusted (an installation cache),
    those of a third user are not."""
    cache = Cache(tmp_path / "c")
    _entry(cache)
    st = os.stat(tmp_path / "c" / "v1")
    me = st.st_uid
    monkeypatch.setattr(os, "geteuid", lambda: 4242 if me == 0 else me + 1)
    if me == 0:
        assert cache.get("build", KEY) == FILES  # owned by root: an installation cache
    else:
        assert cache.get("build", KEY) is None
        assert "owned by" in cache_files.refusal(st)


def _nobody() -> int:
    import pwd
    try:
        return pwd.getpwnam("nobody").pw_uid
    except KeyError:
        return 65534


def _chown_tree(path: Path, uid: int) -> None:
    os.chown(path, uid, -1, follow_symlinks=False)
    for dirpath, dirs, files in os.walk(path):
        for name in dirs + files:
            os.chown(Path(dirpath) / name, uid, -1, follow_symlinks=False)


_PLANT = """
#include <stdio.h>
__attribute__((constructor)) static void planted(void) {
    FILE *f = fopen("%s", "w");
    if (f) { fputs("planted code ran", f); fclose(f); }
}
"""


@POSIX
@pytest.mark.parametrize("how, readonly", [("mode", False), ("owner", False), ("owner", True)])
def test_a_planted_library_in_a_shared_cache_never_runs(tmp_path, caplog, monkeypatch, how,
                                                        readonly):
    """The probe of issue 32: in a 1777 cache folder another user replaces a built kernel's
    library with their own (with a matching meta.json).  okl must refuse it and build its
    own -- the planted constructor never runs, the kernel still gives the right answer."""
    if how == "owner" and os.geteuid() != 0:
        pytest.skip("making a file another user's needs root (chown)")
    import numpy as np

    import okl
    from tests.modes import skip_unless_available
    skip_unless_available("serial")
    shared = tmp_path / "shared"
    shared.mkdir()
    shared.chmod(0o1777)
    monkeypatch.setenv("OKL_CACHE_DIR", str(shared))
    monkeypatch.setenv("OKL_NATIVE_CALL", "0")  # no support library to build: a faster test
    src = ("@kernel void twice(const int n, float *a) {"
           " for (int i = 0; i < n; ++i; @tile(4, @outer, @inner)) { a[i] *= 2; } }")
    dev = okl.Device("serial")
    dev.build_kernel_from_string(src, "twice")
    entries = [p for p in (shared / "v1" / "build").glob("*/*") if (p / "kernel.so").exists()]
    assert len(entries) == 1
    entry = entries[0]
    # the other user's library, and a meta.json that vouches for it
    marker = tmp_path / "marker"
    c = tmp_path / "plant.c"
    c.write_text(_PLANT % marker)
    subprocess.run(["cc", "-shared", "-fPIC", "-o", str(entry / "kernel.so"), str(c)],
                   check=True)
    import hashlib
    import json
    meta = json.loads((entry / "meta.json").read_bytes())
    data = (entry / "kernel.so").read_bytes()
    meta["files"]["kernel.so"] = {"size": len(data), "sha256": hashlib.sha256(data).hexdigest()}
    (entry / "meta.json").write_text(json.dumps(meta))
    if how == "owner":
        _chown_tree(shared / "v1", _nobody())  # modes stay 0700/0600: only the owner differs
    else:
        (entry / "kernel.so").chmod(0o666)
    if readonly:
        monkeypatch.setenv("OKL_CACHE_READONLY", "1")
    cache_module.forget_memos()  # as a new process: nothing remembered
    with caplog.at_level(logging.WARNING, logger="okl"):
        dev = okl.Device("serial")
        k = dev.build_kernel_from_string(src, "twice")
    assert not marker.exists(), "the planted library was loaded"
    a = dev.asarray(np.arange(8, dtype=np.float32))
    k(8, a)
    assert a.get().tolist() == [2.0 * i for i in range(8)]
    assert "not loading cache entry" in caplog.text
    assert ("owned by" in caplog.text) if how == "owner" else ("0666" in caplog.text)


@POSIX
def test_a_folder_of_another_user_is_not_written_into(tmp_path, caplog):
    if os.geteuid() != 0:
        pytest.skip("making a folder another user's needs root (chown)")
    cache = Cache(tmp_path / "c")
    (tmp_path / "c" / "v1").mkdir(parents=True, mode=0o755)
    os.chown(tmp_path / "c" / "v1", _nobody(), -1)
    with caplog.at_level(logging.WARNING, logger="okl"):
        assert cache.put("build", KEY, FILES, DOC) is None
    assert "not writing cache entry" in caplog.text and "owned by" in caplog.text
    assert not (tmp_path / "c" / "v1" / "build").exists()


# -- 3. cache clear --backends deletes only the backends' own files ---------------------------

def _snapshot(folder: Path) -> dict[str, bytes]:
    return {str(p.relative_to(folder)): p.read_bytes() for p in folder.rglob("*") if p.is_file()}


def test_clear_backends_leaves_a_folder_of_user_files_alone(tmp_path, monkeypatch):
    home = tmp_path / "documents"  # the user's own files, named by every backend variable
    for name, data in {"notes.txt": b"mine", "photos/cat.jpg": b"\xff\xd8",
                       "AB/readme": b"looks like a PoCL prefix, is not",
                       "index": b"my index", "a/b": b"hex-named, mine",
                       "0123456789abcdef0123456789abcdef.txt": b"hex name, not a cubin",
                       "tempfile_notes": b"not PoCL's", "pyopencl-notes/x": b"mine"}.items():
        (home / name).parent.mkdir(parents=True, exist_ok=True)
        (home / name).write_bytes(data)
    before = _snapshot(home)
    # the real caches, laid out as each backend writes them
    pocl = tmp_path / "kcache"
    (pocl / "EJ" / ("INEKGAFFMMNKCLJCGPBLPLPLPAEOHCCAHPEFD") / "_okl_k_0").mkdir(parents=True)
    (pocl / "EJ" / "INEKGAFFMMNKCLJCGPBLPLPLPAEOHCCAHPEFD" / "program.bc").write_bytes(b"bc")
    (pocl / "tempfile_G8VvQV").write_bytes(b"")
    (pocl / "mine.txt").write_bytes(b"a file of mine in PoCL's folder")
    cupy = tmp_path / "cupy"
    cupy.mkdir()
    (cupy / ("0" * 32 + "_2.cubin")).write_bytes(b"cubin")
    (cupy / ("1" * 32 + ".hsaco")).write_bytes(b"hsaco")
    nv = tmp_path / "nv"
    (nv / "b" / "c").mkdir(parents=True)  # as an H100's driver lays it out
    (nv / "b" / "c" / "8673ac26e18077").write_bytes(b"sass")
    (nv / "index").write_bytes(b"index")
    monkeypatch.setenv("OKL_CACHE_DIR", str(tmp_path / "okl"))
    monkeypatch.setenv("XDG_CACHE_HOME", str(home))  # pyopencl's: <XDG>/pyopencl
    (home / "pyopencl" / "pyopencl-compiler-cache-v2-py3.11.2.final.0" / "k").mkdir(parents=True)
    (home / "pyopencl" / "pyopencl-compiler-cache-v2-py3.11.2.final.0" / "k" / "binary"
     ).write_bytes(b"bin")
    (home / "pyopencl" / "keep.txt").write_bytes(b"mine")
    before["pyopencl/keep.txt"] = b"mine"
    for var in ("POCL_CACHE_DIR", "CUPY_CACHE_DIR", "CUDA_CACHE_PATH"):
        monkeypatch.setenv(var, str(home))
    r = CliRunner().invoke(oklc, ["cache", "clear", "--backends"])
    assert r.exit_code == 0, r.output
    assert _snapshot(home) == before  # nothing of the user's deleted
    assert "pocl: left 9 entries that are not pocl's cache: 0123456789abcdef" in r.output
    assert "POCL_CACHE_DIR" in r.output
    assert not (home / "pyopencl" / "pyopencl-compiler-cache-v2-py3.11.2.final.0").exists()
    # pointed at the real caches, the same command empties them (and still spares mine.txt)
    for var, folder in (("POCL_CACHE_DIR", pocl), ("CUPY_CACHE_DIR", cupy),
                        ("CUDA_CACHE_PATH", nv)):
        monkeypatch.setenv(var, str(folder))
    r = CliRunner().invoke(oklc, ["cache", "clear", "--backends"])
    assert r.exit_code == 0, r.output
    assert sorted(p.name for p in pocl.iterdir()) == ["mine.txt"]
    assert list(cupy.iterdir()) == [] and list(nv.iterdir()) == []
    assert f"pocl: removed 2 entries from {pocl}" in r.output
    assert "pocl: left 1 entries that are not pocl's cache: mine.txt" in r.output


def test_a_prefix_folder_with_foreign_content_is_left_whole(tmp_path):
    from okl.runtime.backend_caches import BackendCache
    (tmp_path / "AB" / ("C" * 37)).mkdir(parents=True)
    (tmp_path / "AB" / "thesis.tex").write_bytes(b"mine")
    done = BackendCache("pocl", "POCL_CACHE_DIR", tmp_path, "opencl").clear()
    assert done.removed == 0 and done.skipped == ("AB",)
    assert (tmp_path / "AB" / ("C" * 37)).is_dir()


# -- 4. partial writes of killed writers --------------------------------------------------------

def _dead_pid() -> int:
    p = subprocess.Popen([sys.executable, "-c", "pass"])
    p.wait()
    return p.pid


def _plant_temp(entry: Path, pid: int, age: float, host: str | None = None) -> Path:
    host = cache_files._HOST if host is None else host
    then = time.time() - age
    tmp = entry / f".kernel.so.{host}.{pid}.{int(then)}.0123abcd.tmp"
    tmp.write_bytes(b"partial" * 1000)
    os.utime(tmp, (then, then))
    return tmp


def test_stale_temp_files_are_removed_by_the_next_write(tmp_path):
    cache = Cache(tmp_path / "c")
    entry = _entry(cache)
    dead = _dead_pid()
    stale = _plant_temp(entry, dead, 600)
    fresh = _plant_temp(entry, dead, 0)  # its writer may be slow: too young to judge
    alive = _plant_temp(entry, os.getppid(), 600)  # its writer still runs
    elsewhere = _plant_temp(entry, dead, 600, host="ffffffff")  # a pid of another host
    ancient = _plant_temp(entry, os.getppid(), 2 * 86400, host="ffffffff")
    cache.put("build", KEY, FILES, DOC)
    assert not stale.exists() and not ancient.exists()
    assert fresh.exists() and alive.exists() and elsewhere.exists()
    assert cache.get("build", KEY) == FILES


_KILLED_WRITER = textwrap.dedent("""
    import os, sys, time
    from okl.runtime import cache
    real = os.replace
    def stall(src, dst):  # the temp file is written: be killed before it is renamed
        print("written", flush=True)
        time.sleep(60)
    os.replace = stall
    cache.Cache(sys.argv[1]).put("build", sys.argv[2], {"kernel.so": b"x" * (1 << 20)}, {})
""")


def test_a_writer_killed_mid_write_leaves_nothing_after_a_sweep(tmp_path, monkeypatch):
    root = tmp_path / "c"
    child = subprocess.Popen([sys.executable, "-c", _KILLED_WRITER, str(root), KEY],
                             stdout=subprocess.PIPE, text=True)
    try:
        assert child.stdout.readline().strip() == "written"
    finally:
        child.send_signal(signal.SIGKILL)
        child.wait()
    entry = Cache(root).entry_path("build", KEY)
    temps = [p for p in entry.iterdir() if p.name.endswith(".tmp")]
    assert len(temps) == 1 and temps[0].stat().st_size == 1 << 20  # what issue 32 saw
    assert f".{child.pid}." in temps[0].name  # the name says whose it is
    assert Cache(root).sweep() == 0  # too young to judge yet
    monkeypatch.setattr(cache_files, "STALE_SECONDS", 0.0)
    assert Cache(root).sweep() == 1
    assert not entry.exists()  # the incomplete entry is gone with it


def test_the_periodic_sweep_runs_from_any_write(tmp_path, monkeypatch):
    cache = Cache(tmp_path / "c")
    entry = _entry(cache)
    other = Cache.key({"other": 1})
    stale = _plant_temp(entry, _dead_pid(), 600)
    (tmp_path / "c" / "v1" / cache_files.SWEEP_MARK).touch()  # swept just now: not due
    cache.put("build", other, FILES, DOC)
    assert stale.exists()
    then = time.time() - 2 * cache_files.SWEEP_INTERVAL
    os.utime(tmp_path / "c" / "v1" / cache_files.SWEEP_MARK, (then, then))
    cache.put("build", other, FILES, DOC)
    assert not stale.exists()


def test_clear_removes_temp_files_too(tmp_path):
    cache = Cache(tmp_path / "c")
    entry = _entry(cache)
    _plant_temp(entry, os.getpid(), 0)
    assert cache.clear() == 1 and not entry.exists()


# -- 5. one reading of yes/no values and of numeric limits ------------------------------------

@pytest.mark.parametrize("text, value", [
    ("1", True), ("true", True), ("YES", True), (" On ", True),
    ("0", False), ("false", False), ("No", False), ("off", False), ("", None), ("  ", None)])
def test_flag_words(monkeypatch, text, value):
    monkeypatch.setenv("OKL_X", text)
    assert env.flag("OKL_X") is (False if value is None else value)
    assert env.flag("OKL_X", default=True) is (True if value is None else value)


@pytest.mark.parametrize("text", ["2", "maybe", "tru", "enable", "1 0", "\x1b[31m"])
def test_flag_refuses_other_words(monkeypatch, text):
    monkeypatch.setenv("OKL_X", text)
    with pytest.raises(env.EnvironmentValueError) as e:
        env.flag("OKL_X")
    message = str(e.value)
    assert message.startswith("OKL_X=") and "1, true, yes or on" in message
    assert "0, false, no or off" in message and "\x1b" not in message


def test_every_switch_reads_the_same_words(monkeypatch, tmp_path):
    from okl.runtime import verbose
    from okl.runtime.drivers import cpu_native
    from okl.runtime.launch import checked, races

    monkeypatch.setenv("OKL_CHECK_BOUNDS", "false")  # turned checked mode ON before
    assert checked.requested({}) is False
    monkeypatch.setenv("OKL_CHECK_BOUNDS", "yes")
    assert checked.requested({}) is True
    monkeypatch.setenv("OKL_VERBOSE", "off")
    assert verbose.enabled() is False
    monkeypatch.setenv("OKL_VERBOSE", "on")
    assert verbose.enabled() is True
    monkeypatch.delenv("OKL_VERBOSE")
    monkeypatch.setenv("OKL_NATIVE_CALL", "no")
    assert cpu_native.enabled() is False
    monkeypatch.delenv("OKL_NATIVE_CALL")
    assert cpu_native.enabled() is True
    monkeypatch.setenv("OKL_CHECK_RACES", "false")
    assert races.requested({}) is None
    monkeypatch.setenv("OKL_CHECK_RACES", "Yes")
    assert races.requested({}) == races.Order()
    monkeypatch.setenv("OKL_CHECK_RACES", "reverse")
    assert races.requested({}).kind == "reverse"
    cache = Cache(tmp_path / "c")
    monkeypatch.setenv("OKL_NO_CACHE", "false")
    monkeypatch.setenv("OKL_CACHE_READONLY", "no")
    assert cache.put("build", KEY, FILES, DOC) is not None
    monkeypatch.setenv("OKL_NO_CACHE", "on")
    assert cache.get("build", KEY) is None
    for name, call in (("OKL_CHECK_BOUNDS", lambda: checked.requested({})),
                       ("OKL_VERBOSE", verbose.enabled),
                       ("OKL_NATIVE_CALL", cpu_native.enabled),
                       ("OKL_NO_CACHE", lambda: cache.get("build", KEY)),
                       ("OKL_CACHE_READONLY", lambda: cache.put("build", KEY, FILES, DOC))):
        monkeypatch.setenv("OKL_NO_CACHE", "0")
        monkeypatch.setenv(name, "sure")
        with pytest.raises(env.EnvironmentValueError, match=f"^{name}='sure'"):
            call()
        monkeypatch.delenv(name)


LIMITS = [v for v in vars(limits).values() if isinstance(v, limits.Limit)]


@pytest.mark.parametrize("limit", LIMITS, ids=lambda v: v.env)
@pytest.mark.parametrize("text", ["nan", "inf", "-inf", "1e400", "0", "-1", "ten", "1e13"])
def test_limits_refuse_unusable_values(monkeypatch, limit, text):
    monkeypatch.setenv(limit.env, text)
    with pytest.raises(env.EnvironmentValueError) as e:
        int(limit)
    assert str(e.value).startswith(f"{limit.env}={text!r}") and "greater than 0" in str(e.value)


@pytest.mark.parametrize("limit", LIMITS, ids=lambda v: v.env)
def test_limits_take_usable_values(monkeypatch, limit):
    monkeypatch.delenv(limit.env, raising=False)
    assert limit.value == limit.default
    monkeypatch.setenv(limit.env, " 1e3 ")
    assert limit.value == 1000 and isinstance(limit.value, type(limit.default))
    if isinstance(limit.default, int):
        monkeypatch.setenv(limit.env, "2.5")  # a count is whole
        with pytest.raises(env.EnvironmentValueError, match="a whole number"):
            int(limit)
    else:
        monkeypatch.setenv(limit.env, "0.25")
        assert math.isclose(limit.value, 0.25)


def test_a_bad_limit_is_an_oklc_error_not_a_traceback(tmp_path):
    src = tmp_path / "k.okl"
    src.write_text("@kernel void k(int *a) { for (int i = 0; i < 4; ++i; @tile(4, @outer, "
                   "@inner)) { a[i] = 123; } }\n")
    for name, value in (("OKL_MAX_NUMBER_CHARS", "0"), ("OKL_MAX_TOKENS", "nan"),
                        ("OKL_MAX_SOURCE_BYTES", "1e400")):
        r = CliRunner().invoke(oklc, ["check", str(src)], env={name: value})
        assert r.exit_code == 1, r.output
        assert f"error: {name}={value!r} is not a usable limit" in r.output, r.output
        assert "Traceback" not in r.output
        assert r.exception is None or isinstance(r.exception, SystemExit)
