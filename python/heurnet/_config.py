"""Where the package finds libheurnet. cmake --install writes its own copy
with LIBDIR set (relative to this folder); pip's build sets LIBPATH (the
library it was built against, python/setup.py); from the source tree the
library is found through HEURNET_LIB or the loader's path."""

LIBDIR = None
LIBPATH = None
SOVERSION = "0"
