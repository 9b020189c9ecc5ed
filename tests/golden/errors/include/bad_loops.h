// A helper macro whose loop is malformed.
#define BLOCK_LOOP(i, n) for (int i = 0; i != (n); ++i; @inner)
