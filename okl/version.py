"""The package version, in one place (also part of every cache key)."""

__version__ = "0.1.0"
