#pragma OPENCL EXTENSION cl_khr_fp64 : enable

#line 3 "gathers.okl"
__kernel __attribute__((reqd_work_group_size(64, 1, 1))) void _okl_edgeDiff_0(const int nedge, __global const int * restrict enode, __global const int * restrict flag, __global const double * restrict x, __global double * restrict d, ulong _okl_off_enode, ulong _okl_off_flag, ulong _okl_off_x, ulong _okl_off_d) {
  enode += _okl_off_enode;
  flag += _okl_off_flag;
  x += _okl_off_x;
  d += _okl_off_d;
  {
#line 6 "gathers.okl"
    int b = get_group_id(0);
    int on;
    {
#line 8 "gathers.okl"
      int t = get_local_id(0);
      const int e = b * 64 + t;
      on = (e < nedge) ? (flag[e]) : (0);
      if (on) {
        const int n0 = enode[2 * e];
#line 12 "gathers.okl"
        const int n1 = enode[2 * e + 1];
        d[e] = x[2 * n1] - x[2 * n0] + x[2 * n1 + 1] - x[2 * n0 + 1];
      }
    }
  }
}
