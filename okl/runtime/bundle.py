"""Ahead-of-time bundles: a built Program in one file, loaded with no compiler and no translator.

``oklc build ops.okl -m serial -o ops.oklb`` (or ``prog.save("ops.oklb")``) writes one;
``okl.Device("serial").load_program("ops.oklb")`` (or ``load_kernel``) loads it on a machine
with no C compiler, nvcc or OKL translator (a compute node, a container), as CuPy loads a
cubin with ``RawModule(path=...)`` and PyOpenCL a program with ``Program(ctx, devs, bins)``.

Format, version 1: a zip archive (readable with ``unzip -l``; its comment is ``okl bundle 1``)
of four files:

``okl-bundle.json`` (first)
    the manifest: ``format`` ("okl-bundle"), ``version`` (1), ``okl`` (the version that wrote
    it: the kernel specs and entry points are that version's launch format), ``mode``,
    ``kernels`` (names, in file order), ``origin`` (the OKL file), ``defines``,
    ``include_dirs``, ``flags``, ``check_bounds``, ``check_races``, ``target`` (what the
    binary is for, from the mode's driver: serial/openmp the machine, the CPU features the
    compiler may use, compiler and flags; opencl the platform, device, driver and options;
    cuda/hip the GPU architecture, NVRTC version and options), ``key`` (SHA-256 of the
    binary's inputs: okl version, mode, backend source, flags and target), ``translator``
    (for the record), ``created``, and ``files``: the size and SHA-256 of each file below.
``source``
    the backend source the translator made (C, OpenCL C, CUDA or HIP).
``specs.json``
    the kernel specs okl launches with (okl.runtime.launch.spec.to_json).
``binary``
    the mode's binary for the device: the shared library (serial, openmp), the OpenCL
    program binary of the device, the cubin (cuda, and hip on NVIDIA GPUs).

Loading checks, in order, and refuses with an okl.BundleError that says why: a readable zip
with the manifest (else "not an okl bundle", or "truncated or damaged"), a format version
this okl reads, every file against its size and SHA-256, the okl version, the mode, the
Device's checking switches, then the driver's verdict on the target (another architecture,
a CPU without the features, another OpenCL device) and on the binary itself.  Nothing here
imports okl's translator or parser.
"""

from __future__ import annotations

import hashlib
import io
import json
import os
import secrets
import time
import zipfile
from typing import Any

from ..errors import BundleError
from ..version import __version__, translator_digest
from .cache import Cache
from .launch.spec import from_json, to_json

FORMAT = "okl-bundle"
VERSION = 1
MANIFEST = "okl-bundle.json"
FILES = ("source", "specs.json", "binary")
COMMENT = f"okl bundle {VERSION}".encode()


def encode(program: Any, kernel: str | None = None) -> bytes:
    """The bundle of ``program`` (an okl.Program; or of its kernel ``kernel`` alone)."""
    device = program.device
    backend = device.backend
    specs = list(program.specs.values())
    if kernel is not None:
        specs = [program.specs[kernel]]
    info = program.build_info
    flags = list(info.get("flags", []))
    target = info.get("target") or backend.binary_target(flags)
    files = {"source": program.source.encode(),
             "specs.json": json.dumps(to_json(specs), sort_keys=True).encode(),
             "binary": bytes(backend.binary(program.module))}
    manifest: dict[str, Any] = {
        "format": FORMAT, "version": VERSION, "okl": __version__, "mode": device.mode,
        "kernels": [s.name for s in specs], "origin": program.origin,
        "defines": info.get("defines", {}), "include_dirs": info.get("include_dirs", []),
        "flags": flags, "check_bounds": bool(device.check_bounds),
        "check_races": device.check_races is not None, "target": target,
        "key": Cache.key({"okl": __version__, "mode": device.mode,
                          "source": hashlib.sha256(files["source"]).hexdigest(),
                          "flags": flags, "target": target}),
        "translator": info.get("translator") or translator_digest(),
        "created": time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime()),
        "files": {name: {"size": len(data), "sha256": hashlib.sha256(data).hexdigest()}
                  for name, data in files.items()}}
    out = io.BytesIO()
    with zipfile.ZipFile(out, "w", zipfile.ZIP_DEFLATED) as z:
        z.comment = COMMENT
        z.writestr(MANIFEST, json.dumps(manifest, indent=1, sort_keys=True))
        for name in FILES:
            z.writestr(name, files[name])
    return out.getvalue()


def write_program(path: str | os.PathLike, program: Any, kernel: str | None = None) -> None:
    """Write ``program`` (an okl.Program; or its kernel ``kernel`` alone) to ``path`` as a
    bundle.  The file appears whole or not at all (written beside it, then renamed)."""
    data = encode(program, kernel)
    path = os.fspath(path)
    tmp = f"{path}.{secrets.token_hex(4)}.tmp"
    try:
        with open(tmp, "wb") as f:
            f.write(data)
        os.replace(tmp, path)
    except BaseException:
        try:
            os.unlink(tmp)
        except OSError:
            pass
        raise


def parse(data: bytes, path: str) -> tuple[dict, dict[str, bytes]]:
    """(manifest, files) of the bundle ``data`` (read from ``path``, which messages name),
    every file checked against its size and SHA-256; BundleError for anything else."""
    what = "oklc build FILE -m MODE -o BUNDLE writes one"
    if not data.startswith(b"PK\x03\x04"):
        raise BundleError(f"{path} is not an okl bundle (no zip header; {what})")
    try:
        with zipfile.ZipFile(io.BytesIO(data)) as z:
            names = set(z.namelist())
            if MANIFEST not in names:
                raise BundleError(f"{path} is not an okl bundle (a zip archive without "
                                  f"{MANIFEST}; {what})")
            manifest = json.loads(z.read(MANIFEST))
            if not isinstance(manifest, dict) or manifest.get("format") != FORMAT:
                raise BundleError(f"{path} is not an okl bundle ({MANIFEST} is not a "
                                  "manifest of one)")
            version = manifest.get("version")
            if version != VERSION:
                raise BundleError(f"{path} is an okl bundle of format version {version} "
                                  f"(written by okl {manifest.get('okl')}); this okl "
                                  f"{__version__} reads version {VERSION}: rebuild it with "
                                  "this okl")
            files = {}
            for name in FILES:
                expect = manifest["files"][name]
                body = z.read(name)  # raises on a CRC mismatch
                if len(body) != expect["size"] or \
                        hashlib.sha256(body).hexdigest() != expect["sha256"]:
                    raise BundleError(f"{path} is damaged: its {name} does not match the "
                                      "SHA-256 in its manifest")
                files[name] = body
    except BundleError:
        raise
    except (zipfile.BadZipFile, KeyError, ValueError, TypeError, EOFError,
            zipfile.LargeZipFile, NotImplementedError) as e:
        raise BundleError(f"{path} is truncated or damaged ({type(e).__name__}: {e}); copy "
                          "it again or rebuild it") from None
    return manifest, files


def load(device, path: str, data: bytes) -> tuple[list, Any, str, dict]:
    """Device.load_program's work: (kernel specs, loaded module, backend source, build
    record) of the bundle ``data`` read from ``path``, checked against ``device``."""
    manifest, files = parse(data, path)

    def refuse(reason: str) -> BundleError:
        return BundleError(f"cannot load {path} on okl.Device({device.mode!r}): {reason}")

    if manifest.get("okl") != __version__:
        raise refuse(f"it was written by okl {manifest.get('okl')} and this is okl "
                     f"{__version__}; its launch format (kernel specs and entry points) is "
                     "that version's: rebuild it with this okl")
    if manifest.get("mode") != device.mode:
        raise refuse(f"it was built for mode {manifest.get('mode')!r}; load it on "
                     f"okl.Device({manifest.get('mode')!r}) or rebuild it with -m "
                     f"{device.mode}")
    for switch, here in (("check_bounds", bool(device.check_bounds)),
                         ("check_races", device.check_races is not None)):
        if bool(manifest.get(switch)) != here:
            raise refuse(f"it was built with {switch}={bool(manifest.get(switch))} and this "
                         f"Device has {switch}={here}; make the Device as it was built, or "
                         "rebuild the bundle")
    target = manifest.get("target") or {}
    reason = device.backend.binary_refusal(target)
    if reason:
        raise refuse(reason)
    try:
        specs = from_json(json.loads(files["specs.json"]))
    except (KeyError, ValueError, TypeError) as e:
        raise refuse(f"its kernel specs do not read ({type(e).__name__}: {e})") from None
    try:
        module = device.backend.load_binary(device, files["binary"], specs, target)
    except BundleError as e:
        raise refuse(str(e)) from None
    build = {k: manifest.get(k) for k in ("defines", "include_dirs", "flags", "key",
                                          "translator")}
    return specs, module, files["source"].decode(), {**build, "target": target,
                                                     "bundle": path}
