"""Run time: the on-disk cache, argument checking, devices and launches."""

from .args import ArrayInfo, bind_args, check_array, check_count, convert_scalar, make_converters
from .cache import Cache

__all__ = [
    "ArrayInfo", "Cache", "bind_args", "check_array", "check_count", "convert_scalar",
    "make_converters",
]
