"""Ahead-of-time bundles (okl.runtime.bundle): ``oklc build FILE [KERNEL] -m MODE -o BUNDLE``
writes one; ``Device.load_program`` / ``load_kernel`` load it in a fresh process whose PATH
holds no compiler and whose okl cache is empty, without importing the translator; a bundle
that does not fit the Device is refused with okl.BundleError saying why.

The cuda/hip round trip is the same test, marked ``gpu``: it skips here and runs where a GPU
is (``OKL_TEST_MODES=cuda,hip``)."""

from __future__ import annotations

import io
import json
import os
import shutil
import subprocess
import sys
import zipfile
from pathlib import Path
from types import SimpleNamespace

import numpy as np
import pytest
from click.testing import CliRunner
from modes import params, private_cache, skip_unless_available

import okl
from okl.cli import main as oklc

ROOT = Path(__file__).resolve().parent.parent

OPS = r"""
@kernel void axpy(const int n, const float alpha, const float *x, float *y) {
  for (int i = 0; i < n; ++i; @tile(16, @outer, @inner)) {
    y[i] = alpha * x[i] + y[i];
  }
}

@kernel void scale(const int n, const float s, float *y) {
  for (int i = 0; i < n; ++i; @tile(16, @outer, @inner)) {
    y[i] = s * y[i];
  }
}
"""

#: run in the fresh process: load, launch, compare with numpy, and show what was imported
LOADER = r"""
import json, shutil, sys
import numpy as np
import okl

mode, program_path, kernel_path = sys.argv[1:4]
dev = okl.Device(mode)
prog = dev.load_program(program_path)
assert prog.names == ("axpy", "scale"), prog.names
n = 50
x = np.arange(n, dtype=np.float32)
y = dev.asarray(np.ones(n, np.float32))
prog.axpy(n, 2.0, dev.asarray(x), y)
scale = dev.load_kernel(kernel_path)
scale(n, 0.5, y)
dev.finish()
np.testing.assert_allclose(y.get(), 0.5 * (2 * x + 1))
try:
    scale(n, 0.5, dev.asarray(np.ones(n, np.float64)))
    checked = ""
except okl.ArgumentError as e:
    checked = str(e)
# the translator: okl's stages and pycparser; of okl.parser the runtime shares only small
# helpers (reading source text, #line names, checking defines)
shared = {"okl.parser", "okl.parser.source", "okl.parser.linemarker", "okl.parser.cpp",
          "okl.parser.cpp.defines"}
translator = sorted(m for m in sys.modules if m.split(".")[0] in ("pycparser", "pcpp") or
                    m.startswith(("okl.translation", "okl.frontend", "okl.model",
                                  "okl.transforms", "okl.targets", "okl.parser")) and
                    m not in shared)
print(json.dumps({"translator": translator, "checked": checked,
                  "compilers": [c for c in ("cc", "gcc", "clang", "nvcc", "hipcc")
                                if shutil.which(c)]}))
"""


@pytest.fixture(scope="module", autouse=True)
def module_cache(tmp_path_factory):
    with private_cache(tmp_path_factory.mktemp("okl-cache")) as root:
        yield root


@pytest.fixture(scope="module")
def ops(tmp_path_factory) -> Path:
    path = tmp_path_factory.mktemp("src") / "ops.okl"
    path.write_text(OPS)
    return path


def oklc_build(*args: str) -> str:
    r = CliRunner().invoke(oklc, ["build", *map(str, args)])
    assert r.exit_code == 0, r.output
    return r.output


def bare_environment(tmp_path: Path, mode: str) -> dict[str, str]:
    """An environment whose PATH has no compiler and whose caches are empty.  CPU modes get
    nothing else; PoCL links the kernels of its CPU device with the system linker, even
    from a program binary, so opencl keeps ``ld`` (a linker, not a compiler); GPU modes keep
    the rest of the environment (where CuPy finds the CUDA libraries)."""
    bin_dir = tmp_path / "bin"
    bin_dir.mkdir()
    if mode == "opencl" and shutil.which("ld"):
        (bin_dir / "ld").symlink_to(os.path.realpath(shutil.which("ld")))
    env = dict(os.environ) if mode in ("cuda", "hip") else \
        {k: v for k, v in os.environ.items() if k in ("HOME", "LANG", "OKL_OPENCL_DEVICE")}
    for name in ("OKL_CACHE_DIR", "POCL_CACHE_DIR", "XDG_CACHE_HOME", "CUPY_CACHE_DIR"):
        folder = tmp_path / name.lower()
        folder.mkdir()
        env[name] = str(folder)
    env.pop("CC", None)
    path = [str(ROOT), *filter(None, [os.environ.get("PYTHONPATH")])]
    env.update(PATH=str(bin_dir), PYTHONPATH=os.pathsep.join(path), PYTHONDONTWRITEBYTECODE="1")
    return env


@pytest.mark.parametrize("mode", params(("serial", "openmp", "opencl", "cuda", "hip")))
def test_round_trip_with_no_compiler(mode: str, ops: Path, tmp_path: Path):
    skip_unless_available(mode)
    program_path, kernel_path = tmp_path / "ops.oklb", tmp_path / "scale.oklb"
    report = oklc_build(ops, "-m", mode, "-o", program_path)
    assert f"wrote {program_path}" in report and "load_program" in report
    oklc_build(ops, "scale", "-m", mode, "-o", kernel_path)
    r = subprocess.run([sys.executable, "-c", LOADER, mode, str(program_path),
                        str(kernel_path)], env=bare_environment(tmp_path, mode),
                       capture_output=True, text=True, timeout=120, cwd=tmp_path)
    assert r.returncode == 0, r.stderr
    seen = json.loads(r.stdout.splitlines()[-1])
    assert seen["compilers"] == [] and seen["translator"] == []
    # the loaded kernel refuses a wrong argument as the built one does
    dev = okl.Device(mode)
    with pytest.raises(okl.ArgumentError) as built:
        dev.build_kernel(ops, "scale")(50, 0.5, dev.asarray(np.ones(50, np.float64)))
    assert seen["checked"] == str(built.value)


# -- refusals ------------------------------------------------------------------------------------

@pytest.fixture(scope="module")
def serial_bundle(ops: Path, tmp_path_factory) -> bytes:
    path = tmp_path_factory.mktemp("bundle") / "ops.oklb"
    okl.Device("serial").build_program(ops).save(path)
    return path.read_bytes()


def rewritten(data: bytes, manifest=None, **files: bytes) -> bytes:
    """The bundle with its manifest edited by ``manifest`` and files replaced (the manifest's
    digests are left as they were)."""
    src = zipfile.ZipFile(io.BytesIO(data))
    out = io.BytesIO()
    with zipfile.ZipFile(out, "w") as z:
        for name in src.namelist():
            body = src.read(name)
            if name == "okl-bundle.json" and manifest is not None:
                doc = json.loads(body)
                manifest(doc)
                body = json.dumps(doc).encode()
            z.writestr(name, files.get(name.replace(".", "_"), body))
    return out.getvalue()


def refusal(tmp_path: Path, data: bytes, mode: str = "serial", **props) -> str:
    path = tmp_path / "b.oklb"
    path.write_bytes(data)
    with pytest.raises(okl.BundleError) as e:
        okl.Device(mode, **props).load_program(path)
    return str(e.value)


def test_not_a_bundle_damaged_or_truncated(tmp_path: Path, serial_bundle: bytes, ops: Path):
    assert "is not an okl bundle (no zip header" in refusal(tmp_path, OPS.encode())
    other = io.BytesIO()
    with zipfile.ZipFile(other, "w") as z:
        z.writestr("readme.txt", "hello")
    assert "a zip archive without okl-bundle.json" in refusal(tmp_path, other.getvalue())
    assert "truncated or damaged" in refusal(tmp_path, serial_bundle[:len(serial_bundle) // 2])
    damaged = rewritten(serial_bundle, binary=b"\x7fELF not the library")
    assert "damaged: its binary does not match the SHA-256" in refusal(tmp_path, damaged)
    with pytest.raises(okl.BundleError, match="cannot read .*missing.oklb"):
        okl.Device("serial").load_program(tmp_path / "missing.oklb")


def test_other_version_mode_or_switches(tmp_path: Path, serial_bundle: bytes):
    old = rewritten(serial_bundle, lambda m: m.update(okl="0.0.1"))
    assert "written by okl 0.0.1 and this is okl" in refusal(tmp_path, old)
    newer = rewritten(serial_bundle, lambda m: m.update(version=99))
    assert "format version 99" in refusal(tmp_path, newer)
    if {b.name: b for b in okl.backends()}["openmp"].available:
        message = refusal(tmp_path, serial_bundle, "openmp")
        assert "built for mode 'serial'" in message and "okl.Device('serial')" in message
    assert "check_bounds=False and this Device has check_bounds=True" in \
        refusal(tmp_path, serial_bundle, check_bounds=True)


def test_another_cpu(tmp_path: Path, serial_bundle: bytes):
    from okl.runtime.drivers.cpufeatures import host_features

    if host_features() is None:
        pytest.skip("this system does not list its CPU's features (/proc/cpuinfo)")

    def features(m):
        m["target"]["features"] = [*m["target"]["features"], "avx9000_imaginary"]
    assert "CPU features this" in refusal(tmp_path, rewritten(serial_bundle, features))
    assert "lacks: avx9000_imaginary" in refusal(tmp_path, rewritten(serial_bundle, features))

    def machine(m):
        m["target"]["machine"] = "vax"
    assert "built for vax CPUs" in refusal(tmp_path, rewritten(serial_bundle, machine))


def test_another_opencl_device(tmp_path: Path, ops: Path):
    skip_unless_available("opencl")
    path = tmp_path / "cl.oklb"
    okl.Device("opencl").build_program(ops).save(path)

    def device(m):
        m["target"]["device"]["name"] = "Imaginary GPU 9000"
    message = refusal(tmp_path, rewritten(path.read_bytes(), device), "opencl")
    assert "built for the OpenCL device 'Imaginary GPU 9000'" in message


def test_cuda_architecture_rule():
    """A cubin runs on its own architecture and on later minors of the same major (as
    CUDA allows), nowhere else; checked without a GPU."""
    from okl.runtime.drivers.cuda import CudaBackend

    here = SimpleNamespace(arch="sm_86", name="RTX A6000")
    assert CudaBackend.binary_refusal(here, {"arch": "sm_86"}) == ""
    assert CudaBackend.binary_refusal(here, {"arch": "sm_80"}) == ""
    assert "built for sm_90" in CudaBackend.binary_refusal(here, {"arch": "sm_90",
                                                                  "gpu": "H100"})
    assert "sm_89" in CudaBackend.binary_refusal(here, {"arch": "sm_89"})
    assert CudaBackend.binary_refusal(SimpleNamespace(arch="sm_100", name="B200"),
                                      {"arch": "sm_90"}) != ""


def test_load_kernel_names_and_program_access(tmp_path: Path, serial_bundle: bytes):
    path = tmp_path / "ops.oklb"
    path.write_bytes(serial_bundle)
    dev = okl.Device("serial")
    with pytest.raises(okl.OKLError, match=r"holds 2 kernels \(axpy, scale\).*load_program"):
        dev.load_kernel(path)
    k = dev.load_kernel(path, "scale")
    assert k is dev.load_program(path).scale and k.program.build_info["bundle"] == str(path)
    with pytest.raises(KeyError, match="did you mean 'axpy'"):
        dev.load_kernel(path, "axpi")
    y = dev.asarray(np.full(8, 2, np.float32))
    k(8, 1.5, y)
    np.testing.assert_array_equal(y.get(), np.full(8, 3, np.float32))
    # a loaded kernel saves again, with the target it was built for
    again = tmp_path / "again.oklb"
    k.save(again)
    loaded = okl.Device("serial").load_kernel(again)
    assert loaded.name == "scale"
    manifest = json.loads(zipfile.ZipFile(again).read("okl-bundle.json"))
    original = json.loads(zipfile.ZipFile(path).read("okl-bundle.json"))
    assert manifest["target"] == original["target"] and manifest["kernels"] == ["scale"]
    assert manifest["key"] == original["key"] and len(manifest["key"]) == 64


def test_what_a_cpu_bundle_records(serial_bundle: bytes):
    """The target names the CPU features the compiler may use under the build's flags
    (``cc -dM -E``): all of them this CPU's own, spelt as /proc/cpuinfo spells them."""
    from okl.runtime.drivers.cpufeatures import candidates, host_features

    target = json.loads(zipfile.ZipFile(io.BytesIO(serial_bundle)).read("okl-bundle.json")
                        )["target"]
    assert target["flags"] == okl.Device("serial").backend.flags and target["compiler"]
    here = host_features()
    assert set(target["features"]) <= (here or set())
    if here is not None and "-march=native" in target["flags"]:
        assert target["features"]  # a native build uses at least the baseline extensions
    assert {"avx512_vnni", "avx512vnni"} <= candidates("AVX512VNNI")
    assert "pni" in candidates("SSE3") and "asimd" in candidates("NEON")
