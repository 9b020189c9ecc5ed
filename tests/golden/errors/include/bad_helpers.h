// Helpers with a syntax error: the diagnostic must name this header.
#define p_N 16

static float twice(float v) {
  return 2.0f * v
}
