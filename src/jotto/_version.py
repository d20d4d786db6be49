"""The package's version, in a module of its own so that any wing can read it without
importing the package top."""

__version__ = "0.1.0"
