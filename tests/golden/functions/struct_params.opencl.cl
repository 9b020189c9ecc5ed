
#line 4 "struct_params.okl"
typedef struct
{
#line 3 "struct_params.okl"
  float x;
#line 3 "struct_params.okl"
  float y;
#line 3 "struct_params.okl"
  float z;
} vec3;

#line 10 "struct_params.okl"
typedef struct
{
#line 7 "struct_params.okl"
  int n;
  float dt;
  vec3 gravity;
} params_t;

vec3 axpy3(const float a, const vec3 x, const vec3 y) {
  vec3 r;
  r.x = a * x.x + y.x;
  r.y = a * x.y + y.y;
  r.z = a * x.z + y.z;
  return r;
}

__kernel __attribute__((reqd_work_group_size(32, 1, 1))) void _okl_step_0(const params_t p, __global const vec3 *vel, __global vec3 *pos, ulong _okl_off_vel, ulong _okl_off_pos) {
  vel += _okl_off_vel;
  pos += _okl_off_pos;
  {
#line 21 "struct_params.okl"
    int b = get_group_id(0);
    {
#line 22 "struct_params.okl"
      int t = get_local_id(0);
      const int i = b * 32 + t;
      if (i < p.n) {
        const vec3 v = axpy3(p.dt, p.gravity, vel[i]);
        pos[i] = axpy3(p.dt, v, pos[i]);
      }
    }
  }
}
