/* okl: HIP on NVIDIA GPUs.  HIP kernels use CUDA's device names (threadIdx, __syncthreads,
   atomicAdd, __shared__, __launch_bounds__ ...), so on an NVIDIA GPU HIP source compiles with
   NVRTC once the HIP header resolves to this file, which adds the HIP-only spellings a kernel
   may use -- the same mapping HIP's own nvidia_detail headers make.  Used only when okl runs
   mode "hip" on a CUDA device; on AMD GPUs hiprtc provides the real header. */
#ifndef OKL_HIP_ON_CUDA_H
#define OKL_HIP_ON_CUDA_H
#define __HIP_PLATFORM_NVIDIA__ 1
#define __HIP_PLATFORM_NVCC__ 1
#define __HIP__ 1
#define hipThreadIdx_x threadIdx.x
#define hipThreadIdx_y threadIdx.y
#define hipThreadIdx_z threadIdx.z
#define hipBlockIdx_x blockIdx.x
#define hipBlockIdx_y blockIdx.y
#define hipBlockIdx_z blockIdx.z
#define hipBlockDim_x blockDim.x
#define hipBlockDim_y blockDim.y
#define hipBlockDim_z blockDim.z
#define hipGridDim_x gridDim.x
#define hipGridDim_y gridDim.y
#define hipGridDim_z gridDim.z
#define __syncwarp_hip() __syncwarp()
#endif
