#!/usr/bin/env bash
# examples/torch_cube.py end to end: a cube network trained in PyTorch on
# heurnet's walks, searched by heurnet through the module, the model
# imported in process and that model back in PyTorch (the example checks
# predictions and solutions itself). Skipped where python3 has no torch
# (scripts/deps.sh --peers installs it; CI does not). Args: path of
# heurnet (in the build folder), instances dir, source dir.
set -u
H="$1"; SRC="$3"
. "$(dirname "$0")/lib_cli.sh"
B="$(cd "$(dirname "$H")" && pwd)"
if grep -q '^HEURNET_SANITIZE:BOOL=ON' "$B/CMakeCache.txt"; then
    echo "SKIP: the sanitizer build's library cannot be loaded into python3"; exit 77
fi
if ! "$PY" -c 'import torch' 2>/dev/null; then
    echo "SKIP: $PY has no torch (scripts/deps.sh --peers installs python3-torch)"; exit 77
fi
cd "$T" || exit 1
HEURNET_LIB="$B/lib/libheurnet.so" PYTHONPATH="$SRC/python" HEURNET_DATA="$T/cache" \
    OPENBLAS_NUM_THREADS=1 "$PY" "$SRC/examples/torch_cube.py" --walks 6000 --epochs 3 \
    --scrambles 8 --max-walk 6 --max-expanded 3000 >"$T/out" 2>"$T/err" ||
    { cat "$T/out" "$T/err"; fail "examples/torch_cube.py"; }
grep -q '^from_torch: ' "$T/out" || fail "no from_torch line: $(cat "$T/out")"
grep -q 'solved' "$T/out" || fail "no solutions reported: $(cat "$T/out")"
[ $fails -eq 0 ] || exit 1
cat "$T/out"
echo "torch example: ok"
