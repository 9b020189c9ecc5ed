#pragma OPENCL EXTENSION cl_khr_fp64 : enable

#line 4 "exclusive_array.okl"
__kernel __attribute__((reqd_work_group_size(6, 1, 1))) void _okl_registerArray_0(const int ne, __global const double *q, __global double *out, ulong _okl_off_q, ulong _okl_off_out) {
  q += _okl_off_q;
  out += _okl_off_out;
  {
#line 5 "exclusive_array.okl"
    int e = get_group_id(0);
    double r_q[6];
    {
#line 7 "exclusive_array.okl"
      int i = get_local_id(0);
      for (int k = 0; k < 6; ++k) {
        r_q[k] = q[(e * 6 + k) * 6 + i];
      }
    }
    {
#line 12 "exclusive_array.okl"
      int i = get_local_id(0);
      double s = 0.0;
      for (int k = 0; k < 6; ++k) s += r_q[k] * (k + 1);
      out[e * 6 + i] = s;
    }
  }
}
