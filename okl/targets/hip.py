"""HIP: CUDA's spelling plus the HIP runtime header (HIP keeps CUDA's device names).

One exception: ``__syncwarp`` is missing from ROCm before 6.2 (and gated behind
``HIP_ENABLE_WARP_SYNC_BUILTINS`` in some releases), so for ``@barrier("warp")`` on AMD GPUs
the prologue defines it as what it means there: a wavefront runs in lock step, so a
wavefront-scope fence plus a compiler barrier.  On NVIDIA GPUs (HIP through CUDA) the real
``__syncwarp`` is used.
"""

from __future__ import annotations

from .cuda import CudaTarget

_SYNCWARP_AMD = """\
#if defined(__AMDGCN__)
#define __syncwarp(...) (__builtin_amdgcn_fence(__ATOMIC_RELEASE, "wavefront"), \\
                         __builtin_amdgcn_wave_barrier(), \\
                         __builtin_amdgcn_fence(__ATOMIC_ACQUIRE, "wavefront"))
#endif
"""


class HipTarget(CudaTarget):
    mode = "hip"

    def prologue(self, uses: set[str]) -> str:
        out = "#include <hip/hip_runtime.h>\n"
        if "__syncwarp" in uses:
            out += _SYNCWARP_AMD
        return out + super().prologue(uses)
