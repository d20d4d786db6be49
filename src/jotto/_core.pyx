# cython: language_level=3, boundscheck=False, wraparound=False, initializedcheck=False
"""The compiled core: decision trees of Jotto guessers over 26-bit letter masks, and the searches
for best responses.

This module is private: ``jotto.engine.core`` is its one Python caller, and the package
validates input before it calls.  C-level functions for other Cython projects are declared in
``_core.pxd``.

Its source is split as the engine's C is, one file a folder, included here: the engine is one
extension module because it holds process-wide state (the kernel variant dispatch.c chose, the
tree's method thresholds), which modules that each linked a static copy of the engine would hold
apart (docs/development/architecture.md).
"""
from libc.stdint cimport int32_t, int64_t, uint16_t, uint32_t, uint64_t
from libc.stdlib cimport free, malloc
from libc.string cimport memset

import os

import numpy as np

include "_engine/common/common.pxi"
include "_engine/tree/tree.pxi"
include "_engine/search/search.pxi"
