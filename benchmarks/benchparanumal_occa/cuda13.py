"""CUDA 13's cuMemAdvise / cuMemPrefetchAsync take a CUmemLocation (OCCA at benchParanumal's
pinned commit passes a CUdevice): patch OCCA's cuda/utils.cpp in place.
Usage: python cuda13.py occa/src/occa/internal/modes/cuda/utils.cpp"""
import sys

path = sys.argv[1]
text = open(path).read()
if "CUmemLocation" not in text:
    loc = ("[&]{ CUmemLocation l; l.type = (cuDevice == CU_DEVICE_CPU) ? "
           "CU_MEM_LOCATION_TYPE_HOST : CU_MEM_LOCATION_TYPE_DEVICE; "
           "l.id = (cuDevice == CU_DEVICE_CPU) ? 0 : cuDevice; return l; }()")
    indent = " " * 34
    advise = f"advice,\n{indent}cuDevice));"
    assert advise in text, "advise call not found"
    text = text.replace(advise, f"advice,\n{indent}{loc}));")
    stream = "*((CUstream*) stream.getModeStream())) );"
    indent = " " * 41
    prefetch = f"cuDevice,\n{indent}{stream}"
    assert prefetch in text, "prefetch call not found"
    text = text.replace(prefetch, f"{loc}, 0,\n{indent}{stream}")
    open(path, "w").write(text)
print("patched", path)
