// A local header: a macro, a typedef and a device function.
#ifndef OKL_HELPERS_H
#define OKL_HELPERS_H

#define HELPER_BLOCK 32
typedef float real_t;

real_t lerp(const real_t a, const real_t b, const real_t t) {
  return a + t * (b - a);
}

#endif
