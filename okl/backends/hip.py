"""HIP: CUDA's spelling plus the HIP runtime header (HIP keeps CUDA's device names)."""

from __future__ import annotations

from .cuda import CudaTarget


class HipTarget(CudaTarget):
    mode = "hip"

    def prologue(self, uses: set[str]) -> str:
        return "#include <hip/hip_runtime.h>\n" + super().prologue(uses)
