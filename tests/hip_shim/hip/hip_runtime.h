/* TEST-ONLY stand-in for <hip/hip_runtime.h>: see ../okl_hip_shim.h (compile-only, no runtime). */
#include "../okl_hip_shim.h"
