#!/usr/bin/env bash
# The Python package (python/heurnet): the suites of tests/python against
# this build's libheurnet and executable (same numbers as the command line,
# refusals, Ctrl-C, a randomized array check, hostile calls: bad tiles,
# read-only outputs, bad scalars, two threads on one model), then the
# package installed by `cmake --install` and by pip into a venv, offline,
# at the library's version. Args: path of heurnet (in the build folder),
# instances dir, source dir.
set -u
H="$1"; DATA="$2"; SRC="$3"
. "$(dirname "$0")/lib_cli.sh"
die() { fail "$@"; exit 1; }
B="$(cd "$(dirname "$H")" && pwd)"
if grep -q '^HEURNET_SANITIZE:BOOL=ON' "$B/CMakeCache.txt"; then
    # libheurnet.so of a sanitizer build needs the ASan runtime loaded
    # first, before the interpreter: not a configuration Python runs in
    echo "SKIP: the sanitizer build's library cannot be loaded into python3"; exit 77
fi
"$PY" -c 'import numpy' 2>/dev/null || die "$PY has no numpy (scripts/deps.sh installs python3-numpy)"
LIB="$B/lib/libheurnet.so"
export HN="$H" HN_SRC="$SRC" HN_DATA="$DATA" HN_TMP="$T" HEURNET_DATA="$T/cache"
# heurnet predict and train run OpenBLAS on one thread; the same count
# gives the same last bits
export OPENBLAS_NUM_THREADS=1
cd "$T" || die "cd $T"

HEURNET_LIB="$LIB" PYTHONPATH="$SRC/python:$SRC/tests/python" \
    "$PY" -m unittest test_api test_interrupt test_fuzz test_hostile test_domain test_np_facade \
        test_pydomain test_torch 2>"$T/unittest.log" ||
    { tail -40 "$T/unittest.log"; fail "python unittest"; }

VERSION=$("$H" --version | awk '{print $2}')
# import from an installed tree, solve one board, check the version
CHECK="import heurnet, numpy as np
assert heurnet.__version__ == '$VERSION', heurnet.__version__
s = heurnet.solve(np.array([[3, 1, 2, 0, 4, 5, 6, 7, 8]], np.uint8), puzzle=8, heuristic='manhattan')
assert s.length[0] == 1 and s.moves[0] == 'U', s[0]
print(heurnet.__file__)"

cmake --install "$B" --prefix "$T/prefix" >"$T/install.log" 2>&1 || { cat "$T/install.log"; die "cmake --install"; }
# the package's folder under a prefix is one python3 searches there (on
# Debian PREFIX/lib/python3.X/dist-packages, for /usr/local as for /usr)
site=$(find "$T/prefix" -name __init__.py -path '*/heurnet/*' -printf '%h\n' | head -1)
site=${site%/heurnet}
rel=${site#"$T/prefix/"}
prefix=$(sed -n 's/^CMAKE_INSTALL_PREFIX:PATH=//p' "$B/CMakeCache.txt")
"$PY" -c 'import sys; assert sys.argv[1] in sys.path, sys.path' "$prefix/$rel" ||
    fail "cmake --install puts the package in $prefix/$rel, which $PY does not search"
where=$(env -u HEURNET_LIB PYTHONPATH="$site" "$PY" -c "$CHECK" 2>&1) ||
    fail "the package installed by cmake --install: $where"
case "$where" in "$T/prefix/"*) ;; *) fail "imported $where, not the installed package" ;; esac

# pip from the source tree, offline: no build/ or egg-info left there, and
# the installed package finds the library it was built against without
# HEURNET_LIB
before=$(cd "$SRC/python" && find . | sort)
"$PY" -m venv --system-site-packages "$T/venv" || die "python3 -m venv"
HEURNET_LIB="$LIB" "$T/venv/bin/pip" install --no-build-isolation --no-index --no-deps -q \
    "$SRC/python" >"$T/pip.log" 2>&1 || { cat "$T/pip.log"; die "pip install --no-build-isolation"; }
after=$(cd "$SRC/python" && find . | sort)
[ "$before" = "$after" ] || fail "pip install wrote into the source tree: $(diff <(echo "$before") <(echo "$after") | grep '^>' | head -3)"
where=$(cd "$T" && env -u HEURNET_LIB "$T/venv/bin/python" -c "$CHECK
import importlib.metadata as md
assert md.version('heurnet') == '$VERSION', md.version('heurnet')" 2>&1) ||
    fail "the package installed by pip: $where"
case "$where" in "$T/venv/"*) ;; *) fail "imported $where, not the venv's package" ;; esac

[ $fails -eq 0 ] || exit 1
echo "python: ok"
