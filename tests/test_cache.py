"""The on-disk cache: keys, hits and misses, damage of every kind, switches, and concurrency."""

from __future__ import annotations

import errno
import hashlib
import json
import logging
import multiprocessing as mp
import os
import random
import sys
import time
from pathlib import Path

import pytest

from okl.runtime import cache as cache_module
from okl.runtime.cache import Cache

DOC = {"backend": "serial", "source": "void k() {}", "flags": ["-O3", "-fPIC"], "version": 1}
FILES = {"source.c": b"void k() {}\n", "kernel.so": bytes(range(256)) * 64}


@pytest.fixture(autouse=True)
def _clean_env(monkeypatch):
    for name in ("OKL_CACHE_DIR", "OKL_NO_CACHE", "OKL_CACHE_READONLY"):
        monkeypatch.delenv(name, raising=False)


@pytest.fixture
def cache(tmp_path):
    return Cache(tmp_path / "cache")


@pytest.fixture
def key():
    return Cache.key(DOC)


def stored(cache, key, level="build"):
    return cache.entry_path(level, key)


# -- root and layout --------------------------------------------------------------------------

def test_root_from_argument_env_and_default(tmp_path, monkeypatch):
    assert Cache(tmp_path).root == tmp_path
    assert Cache(str(tmp_path)).root == tmp_path
    monkeypatch.setenv("OKL_CACHE_DIR", str(tmp_path / "env"))
    assert Cache().root == tmp_path / "env"
    assert Cache(tmp_path / "arg").root == tmp_path / "arg"  # the argument wins over the env
    monkeypatch.delenv("OKL_CACHE_DIR")
    import platformdirs
    assert Cache().root == Path(platformdirs.user_cache_dir("okl"))


def test_layout_and_meta(cache, key):
    path = cache.put("build", key, FILES, DOC)
    assert path == cache.root / "v1" / "build" / key[:2] / key
    assert sorted(p.name for p in path.iterdir()) == ["kernel.so", "meta.json", "source.c"]
    assert (path / "kernel.so").read_bytes() == FILES["kernel.so"]
    meta = json.loads((path / "meta.json").read_text())
    assert meta["document"] == DOC
    assert meta["key"] == key and meta["level"] == "build"
    assert abs(meta["created"] - time.time()) < 60
    for name, data in FILES.items():
        assert meta["files"][name] == {"size": len(data),
                                       "sha256": hashlib.sha256(data).hexdigest()}


def test_levels_are_separate(cache, key):
    cache.put("translation", key, {"out.cu": b"x"}, DOC)
    assert cache.get("build", key) is None
    assert cache.get("translation", key) == {"out.cu": b"x"}


# -- keys -------------------------------------------------------------------------------------

def test_key_is_sha256_of_canonical_json():
    assert Cache.key({}) == hashlib.sha256(b"{}").hexdigest()
    doc = {"b": [1, 2], "a": "é"}
    text = '{"a":"é","b":[1,2]}'
    assert Cache.key(doc) == hashlib.sha256(text.encode("utf-8")).hexdigest()


def test_key_ignores_dict_order():
    a = {"x": 1, "y": {"p": [1, 2, {"s": 1, "t": 2}], "q": "z"}}
    b = {"y": {"q": "z", "p": [1, 2, {"t": 2, "s": 1}]}, "x": 1}
    assert Cache.key(a) == Cache.key(b)


@pytest.mark.parametrize("change", [
    {"backend": "openmp"},
    {"source": "void k() { }"},
    {"flags": ["-fPIC", "-O3"]},  # list order matters (flags are ordered)
    {"flags": ["-O3"]},
    {"version": 2},
    {"version": "1"},  # type matters
    {"version": 1.0},
    {"version": True},
    {"version": None},
    {"extra": None},  # a new field matters, even an empty one
])
def test_any_change_changes_key(change):
    assert Cache.key({**DOC, **change}) != Cache.key(DOC)


def test_key_rejects_non_json_values():
    with pytest.raises(TypeError):
        Cache.key({"x": object()})
    with pytest.raises(TypeError):
        Cache.key({"x": b"bytes"})


# -- hits and misses --------------------------------------------------------------------------

def test_miss_then_hit(cache, key):
    assert cache.get("build", key) is None
    assert cache.put("build", key, FILES, DOC) is not None
    assert cache.get("build", key) == FILES
    assert cache.get("build", Cache.key({**DOC, "version": 2})) is None


def test_put_overwrites(cache, key):
    cache.put("build", key, FILES, DOC)
    cache.put("build", key, {"source.c": b"new"}, DOC)
    assert cache.get("build", key) == {"source.c": b"new"}


def test_empty_and_bytes_like_files(cache, key):
    import array
    wide = memoryview(array.array("i", [1, 2, 3]))  # len() is 3 items, not 12 bytes
    cache.put("build", key, {"empty": b"", "ba": bytearray(b"ab"), "mv": memoryview(b"cd"),
                             "wide": wide}, DOC)
    assert cache.get("build", key) == {"empty": b"", "ba": b"ab", "mv": b"cd",
                                       "wide": wide.tobytes()}


def test_entry_without_meta_is_a_miss_and_kept(cache, key):
    """A writer that has not finished yet: invisible, and not removed under its feet."""
    path = stored(cache, key)
    path.mkdir(parents=True)
    (path / "kernel.so").write_bytes(b"half")
    assert cache.get("build", key) is None
    assert (path / "kernel.so").exists()


# -- damage -----------------------------------------------------------------------------------

def test_truncated_file_is_a_miss_then_reput_works(cache, key):
    path = cache.put("build", key, FILES, DOC)
    with open(path / "kernel.so", "r+b") as f:
        f.truncate(100)
    assert cache.get("build", key) is None
    assert not (path / "meta.json").exists()  # the broken entry was removed
    assert cache.put("build", key, FILES, DOC) == path
    assert cache.get("build", key) == FILES


def test_checksum_mismatch_is_a_miss(cache, key):
    path = cache.put("build", key, FILES, DOC)
    data = bytearray(FILES["kernel.so"])
    data[1000] ^= 1  # same size, one bit flipped
    (path / "kernel.so").write_bytes(data)
    assert cache.get("build", key) is None
    assert cache.get("build", key) is None


def test_missing_file_is_a_miss(cache, key):
    path = cache.put("build", key, FILES, DOC)
    (path / "source.c").unlink()
    assert cache.get("build", key) is None


@pytest.mark.parametrize("meta", [
    b"",
    b"{\"key\": ",
    b"\xff\xfe not utf-8",
    b"[]",
    b"null",
    b"{}",
    b"{\"files\": {}}",
    b"{\"key\": \"%(key)s\"}",
    b"{\"key\": \"%(key)s\", \"files\": []}",
    b"{\"key\": \"%(key)s\", \"files\": {\"kernel.so\": 3}}",
    b"{\"key\": \"%(key)s\", \"files\": {\"kernel.so\": {\"size\": 1}}}",
    b"{\"key\": \"%(other)s\", \"files\": {}}",  # belongs to another key
    b"{\"key\": \"%(key)s\", \"files\": {\"../../escape\": {\"size\": 1, \"sha256\": \"\"}}}",
])
def test_corrupt_meta_is_a_miss(cache, key, meta):
    path = cache.put("build", key, FILES, DOC)
    subst = {b"key": key.encode(), b"other": Cache.key({}).encode()}
    (path / "meta.json").write_bytes(meta % subst if b"%(" in meta else meta)
    assert cache.get("build", key) is None
    assert not (path / "meta.json").exists()
    assert cache.put("build", key, FILES, DOC) is not None
    assert cache.get("build", key) == FILES


def test_truncated_meta_is_a_miss(cache, key):
    path = cache.put("build", key, FILES, DOC)
    raw = (path / "meta.json").read_bytes()
    for n in (0, 1, len(raw) // 2, len(raw) - 2):
        cache.put("build", key, FILES, DOC)
        (path / "meta.json").write_bytes(raw[:n])
        assert cache.get("build", key) is None


def test_meta_is_a_directory(cache, key):
    path = stored(cache, key)
    (path / "meta.json").mkdir(parents=True)
    assert cache.get("build", key) is None


def test_unreadable_file_is_a_miss(cache, key, monkeypatch):
    cache.put("build", key, FILES, DOC)
    real = cache_module._read_nofollow

    def failing(path):
        if path.name == "kernel.so":
            raise OSError(errno.EIO, "I/O error")
        return real(path)

    monkeypatch.setattr(cache_module, "_read_nofollow", failing)
    assert cache.get("build", key) is None


def _outside_victim(tmp_path: Path) -> Path:
    """A folder outside the cache, shaped like an entry whose checksums do not match."""
    victim = tmp_path / "victim"
    victim.mkdir()
    (victim / "precious.txt").write_text("keep me")
    (victim / "meta.json").write_text("{not json")
    return victim


def test_linked_entry_is_a_miss_and_cleanup_never_follows_it(cache, key, tmp_path):
    """A symlinked entry directory must not make cleanup delete files elsewhere."""
    victim = _outside_victim(tmp_path)
    entry = cache.entry_path("build", key)
    entry.parent.mkdir(parents=True)
    entry.symlink_to(victim, target_is_directory=True)
    assert cache.get("build", key) is None
    assert (victim / "precious.txt").read_text() == "keep me"
    assert (victim / "meta.json").exists()
    assert cache.put("build", key, FILES, DOC) is None  # refuses to write through the link
    assert sorted(p.name for p in victim.iterdir()) == ["meta.json", "precious.txt"]


def test_linked_prefix_directory_is_a_miss(cache, key, tmp_path):
    victim = _outside_victim(tmp_path)
    prefix = cache.entry_path("build", key).parent
    prefix.parent.mkdir(parents=True)
    prefix.symlink_to(victim, target_is_directory=True)
    assert cache.get("build", key) is None
    assert (victim / "precious.txt").exists()


def test_linked_file_is_a_miss_and_only_the_link_is_removed(cache, key, tmp_path):
    cache.put("build", key, FILES, DOC)
    target = tmp_path / "outside.so"
    target.write_bytes(FILES["kernel.so"])
    so = cache.entry_path("build", key) / "kernel.so"
    so.unlink()
    so.symlink_to(target)  # same bytes, so only the link itself makes it a miss
    assert cache.get("build", key) is None
    assert target.read_bytes() == FILES["kernel.so"]


# -- failing writes ---------------------------------------------------------------------------

@pytest.mark.skipif(sys.platform == "win32" or os.geteuid() == 0,
                    reason="root ignores directory permissions")
def test_read_only_directory(tmp_path, key, caplog):
    root = tmp_path / "ro"
    root.mkdir()
    root.chmod(0o555)
    try:
        with caplog.at_level(logging.WARNING, logger="okl.runtime.cache"):
            assert Cache(root).put("build", key, FILES, DOC) is None
        assert "could not write cache entry" in caplog.text
        assert Cache(root).get("build", key) is None
    finally:
        root.chmod(0o755)


def test_unwritable_root(tmp_path, key, caplog):
    """The root is a regular file, so nothing can be created under it (even by root)."""
    root = tmp_path / "file"
    root.write_text("not a directory")
    with caplog.at_level(logging.WARNING, logger="okl.runtime.cache"):
        assert Cache(root).put("build", key, FILES, DOC) is None
    assert "could not write cache entry" in caplog.text
    assert Cache(root).get("build", key) is None
    assert Cache(root).info()["levels"]["build"] == {"entries": 0, "bytes": 0}
    assert Cache(root).clear() == 0
    assert root.read_text() == "not a directory"


@pytest.mark.parametrize("fail_on", ["kernel.so", "meta.json"])
def test_disk_full(cache, key, monkeypatch, caplog, fail_on):
    real = os.replace

    def replace(src, dst):
        if Path(dst).name == fail_on:
            raise OSError(errno.ENOSPC, "No space left on device")
        return real(src, dst)

    monkeypatch.setattr(os, "replace", replace)
    with caplog.at_level(logging.WARNING, logger="okl.runtime.cache"):
        assert cache.put("build", key, FILES, DOC) is None
    assert "No space left" in caplog.text
    monkeypatch.setattr(os, "replace", real)
    assert cache.get("build", key) is None
    leftovers = [p.name for p in stored(cache, key).iterdir() if p.name.startswith(".")]
    assert leftovers == []  # temp files are cleaned up


# -- switches ---------------------------------------------------------------------------------

def test_no_cache(cache, key, monkeypatch):
    cache.put("build", key, FILES, DOC)
    monkeypatch.setenv("OKL_NO_CACHE", "1")
    assert cache.get("build", key) is None
    other = Cache.key({"other": 1})
    assert cache.put("build", other, FILES, DOC) is None
    assert not stored(cache, other).exists()
    monkeypatch.setenv("OKL_NO_CACHE", "0")  # "0" means off
    assert cache.get("build", key) == FILES


def test_read_only(cache, key, monkeypatch):
    path = cache.put("build", key, FILES, DOC)
    monkeypatch.setenv("OKL_CACHE_READONLY", "1")
    assert cache.get("build", key) == FILES  # reading still works
    other = Cache.key({"other": 1})
    assert cache.put("build", other, FILES, DOC) is None
    assert not stored(cache, other).exists()
    (path / "kernel.so").write_bytes(b"damaged")
    assert cache.get("build", key) is None
    assert (path / "meta.json").exists()  # a broken entry is not removed either
    assert cache.clear() == 0
    assert path.exists()


# -- argument checking (programming errors do raise) ------------------------------------------

@pytest.mark.parametrize("level,key", [
    ("binary", "0" * 64), ("build", "0" * 63), ("build", "G" * 64), ("build", "../" * 21 + "a"),
    ("build", "A" * 64),
])
def test_bad_level_or_key(cache, level, key):
    with pytest.raises(ValueError):
        cache.get(level, key)
    with pytest.raises(ValueError):
        cache.put(level, key, {}, {})


@pytest.mark.parametrize("name", ["", "meta.json", ".hidden", "a/b", "..", "a\\b", "x\0"])
def test_bad_file_names(cache, key, name):
    with pytest.raises(ValueError):
        cache.put("build", key, {name: b""}, DOC)


def test_file_contents_must_be_bytes(cache, key):
    with pytest.raises(TypeError):
        cache.put("build", key, {"a": "text"}, DOC)


# -- info and clear ---------------------------------------------------------------------------

def test_info_and_clear(cache):
    assert cache.info() == {"root": str(cache.root),
                            "levels": {"translation": {"entries": 0, "bytes": 0},
                                       "build": {"entries": 0, "bytes": 0},
                                       "support": {"entries": 0, "bytes": 0},
                                       "tuning": {"entries": 0, "bytes": 0}}}
    keys = [Cache.key({"n": n}) for n in range(5)]
    for k in keys[:3]:
        cache.put("build", k, FILES, DOC)
    for k in keys[3:]:
        cache.put("translation", k, {"t.c": b"abc"}, DOC)
    info = cache.info()
    meta_bytes = sum((cache.entry_path("build", k) / "meta.json").stat().st_size
                     for k in keys[:3])
    assert info["levels"]["build"] == {
        "entries": 3, "bytes": 3 * sum(map(len, FILES.values())) + meta_bytes}
    assert info["levels"]["translation"]["entries"] == 2
    assert info["levels"]["translation"]["bytes"] > 6

    assert cache.clear() == 5
    assert all(cache.get("build", k) is None for k in keys)
    assert cache.info()["levels"]["build"] == {"entries": 0, "bytes": 0}
    assert cache.clear() == 0
    cache.put("build", keys[0], FILES, DOC)  # still usable afterwards
    assert cache.get("build", keys[0]) == FILES


def test_clear_touches_nothing_outside_v1(tmp_path, key):
    root = tmp_path / "cache"
    cache = Cache(root)
    cache.put("build", key, FILES, DOC)
    keep = [root / "README", root / "v0" / "build" / "ab" / ("ab" + "0" * 62) / "x",
            root / "v1" / "notes.txt"]
    for p in keep:
        p.parent.mkdir(parents=True, exist_ok=True)
        p.write_text("keep")
    outside = tmp_path / "outside"
    outside.mkdir()
    (outside / "precious").write_text("keep")
    # links inside the cache that point out of it: unlinked or skipped, never followed
    link_entry = root / "v1" / "build" / "cd" / ("cd" + "1" * 62)
    link_entry.parent.mkdir(parents=True)
    link_entry.symlink_to(outside, target_is_directory=True)
    (root / "v1" / "translation").mkdir(parents=True)
    (root / "v1" / "translation" / "ef").symlink_to(outside, target_is_directory=True)

    assert cache.clear() == 2
    assert all(p.read_text() == "keep" for p in keep)
    assert (outside / "precious").read_text() == "keep"
    assert not link_entry.is_symlink()
    assert cache.get("build", key) is None


# -- concurrency ------------------------------------------------------------------------------

def _content():
    rng = random.Random(1234)
    return {"kernel.so": rng.randbytes(1 << 20), "source.c": rng.randbytes(70_000),
            "build.log": b"ok\n"}


def _worker(root, key, seconds, barrier, results):
    """Put and get the same key as fast as possible; report anything that is not None or the
    complete, exact content."""
    logging.getLogger("okl.runtime.cache").setLevel(logging.CRITICAL)
    report = {"pid": os.getpid(), "hits": 0, "misses": 0, "puts": 0, "failed_puts": 0,
              "bad": [], "error": None}
    try:
        cache = Cache(root)
        files = _content()
        barrier.wait()
        end = time.monotonic() + seconds
        while time.monotonic() < end:
            got = cache.get("build", key)
            if got is None:
                report["misses"] += 1
                if cache.put("build", key, files, {"k": 1}) is None:
                    report["failed_puts"] += 1
                else:
                    report["puts"] += 1
            elif got == files:
                report["hits"] += 1
            else:
                report["bad"].append({n: len(v) for n, v in got.items()})
    except BaseException as exc:  # report, so the parent can fail with the reason
        report["error"] = repr(exc)
    results.put(report)


def _vandal(root, key, seconds, barrier, results):
    """Truncate, scribble over and delete files of the entry while the others use it."""
    rng = random.Random(os.getpid())
    entry = Cache(root).entry_path("build", key)
    count = 0
    barrier.wait()
    end = time.monotonic() + seconds
    while time.monotonic() < end:
        try:
            names = os.listdir(entry)
            if not names:
                continue
            path = entry / rng.choice(names)
            action = rng.randrange(3)
            if action == 0:
                with open(path, "r+b") as f:
                    f.truncate(rng.randrange(max(path.stat().st_size, 1)))
            elif action == 1:
                with open(path, "r+b") as f:
                    f.seek(rng.randrange(max(path.stat().st_size, 1)))
                    f.write(b"\x00garbage\x00")
            else:
                path.unlink()
            count += 1
        except OSError:
            pass
        time.sleep(rng.random() * 0.002)
    results.put({"vandal": count})


def _run_processes(root, key, vandal, seconds=2.0, workers=8):
    ctx = mp.get_context("spawn")
    barrier = ctx.Barrier(workers + vandal)
    results = ctx.Queue()
    procs = [ctx.Process(target=_worker, args=(str(root), key, seconds, barrier, results))
             for _ in range(workers)]
    procs += [ctx.Process(target=_vandal, args=(str(root), key, seconds, barrier, results))
              for _ in range(vandal)]
    for p in procs:
        p.start()
    reports = [results.get(timeout=120) for _ in procs]
    for p in procs:
        p.join(timeout=60)
        assert p.exitcode == 0
    return [r for r in reports if "vandal" not in r], [r for r in reports if "vandal" in r]


@pytest.mark.parametrize("vandal", [0, 1], ids=["concurrent", "concurrent+vandal"])
def test_concurrent_processes(tmp_path, vandal):
    key = Cache.key({"k": 1})
    reports, vandals = _run_processes(tmp_path / "cache", key, vandal)
    assert len(reports) == 8
    for r in reports:
        assert r["error"] is None, r
        assert r["bad"] == [], r  # never a partial or wrong entry
    assert sum(r["hits"] for r in reports) > 0
    assert sum(r["puts"] for r in reports) > 0
    if vandal:
        assert vandals[0]["vandal"] > 0
    elif sys.platform != "win32":  # Windows may refuse to replace a file a reader has open
        assert sum(r["failed_puts"] for r in reports) == 0
    # once everyone has stopped, the entry is either intact or gets rebuilt
    cache = Cache(tmp_path / "cache")
    if cache.get("build", key) is None:
        cache.put("build", key, _content(), {"k": 1})
    assert cache.get("build", key) == _content()


def test_a_cache_hit_in_a_new_process_never_imports_the_translator(tmp_path):
    """A new process (an MPI rank, the next run of a script) whose build the cache answers
    imports neither pycparser nor okl's translator: about 0.1 s on a GPU machine's host."""
    import subprocess
    import textwrap

    kernel = tmp_path / "k.okl"
    kernel.write_text("@kernel void twice(const int n, float *x) {\n"
                      "  for (int i = 0; i < n; ++i; @tile(16, @outer, @inner)) {\n"
                      "    if (i < n) x[i] *= 2;\n  }\n}\n")
    script = textwrap.dedent(f"""
        import sys
        import numpy as np
        import okl
        dev = okl.Device("serial", cache_dir={str(tmp_path / "cache")!r})
        k = dev.build_kernel({str(kernel)!r}, "twice")
        x = dev.asarray(np.arange(5, dtype=np.float32))
        k(5, x)
        assert list(x.get()) == [0, 2, 4, 6, 8]
        loaded = [m for m in ("pycparser", "okl.translation", "okl.runtime.launch.hostcode")
                  if m in sys.modules]
        print(k.cache_hit, loaded)
    """)
    env = {k: v for k, v in os.environ.items() if k != "OKL_CACHE_DIR"}
    env["PYTHONPATH"] = os.pathsep.join([str(Path(__file__).resolve().parents[1]),
                                         env.get("PYTHONPATH", "")])
    runs = [subprocess.run([sys.executable, "-c", script], capture_output=True, text=True,
                           env=env, timeout=120) for _ in range(2)]
    assert all(r.returncode == 0 for r in runs), [r.stderr for r in runs]
    assert runs[0].stdout.split(" ", 1)[0] == "False"  # the first one translated
    assert runs[1].stdout.strip() == "True []"
