#include <math.h>
#include <stdint.h>
#include <stddef.h>
#include <stdbool.h>

