"""Where the package finds libheurnet. cmake --install writes its own copy
with LIBDIR set (relative to this folder); from the source tree or a pip
install, the library is found through HEURNET_LIB or the loader's path."""

LIBDIR = None
SOVERSION = "0"
