#!/bin/bash
# Damaged and hostile files through the executable (issue 22): input arrays
# whose shape does not fit the model, overflowing spec values, unfinished
# datasets, checksums of models, datasets and checkpoints, a full disk under
# gen, and single-byte flips of a shipped model. Each is refused with a
# message and a non-zero exit, never a signal or a silently different result.
# Arguments: path of heurnet, shared data dir, source dir.
set -u
HN=$1
SRC=$3
PY=/usr/bin/python3
. "$(dirname "$0")/lib_cli.sh"
EXPECT_MAX_LINES=3
if ! $PY -c 'import h5py, numpy' 2>/dev/null; then
    echo "SKIP: python3 with h5py and numpy is needed to write the test files"
    exit 77
fi

# no_signal CMD...: run, fail on an exit by signal (code > 128).
no_signal() {
    "$@" >"$T/out" 2>"$T/err"
    local rc=$?
    [ $rc -lt 128 ] || fail "$* died with signal $((rc - 128)): $(head -c 300 "$T/err")"
    return $rc
}

# --- defect 2: input arrays that do not fit the model ------------------------
"$HN" nn init --arch 20-8-1 --seed 1 -o "$T/m20.h5" >/dev/null || fail "nn init"
$PY - "$T" <<'PYEOF' || fail "writing the input files"
import sys, h5py, numpy as np
T = sys.argv[1]
with h5py.File(T + "/wide.h5", "w") as f:   # 2^32 + 20 columns, never written
    f.create_dataset("x", shape=(2, 2**32 + 20), dtype="f4")
with h5py.File(T + "/rank3.h5", "w") as f:
    f.create_dataset("x", data=np.zeros((2, 20, 1), "f4"))
with h5py.File(T + "/text.h5", "w") as f:
    f.create_dataset("x", data=np.array([["a"] * 20] * 2, dtype="S4"))
with h5py.File(T + "/ok.h5", "w") as f:
    f.create_dataset("x", data=np.ones((3, 20), "f4"))
PYEOF
expect 1 "has 4294967316 columns but the model reads 20" no_signal "$HN" predict --model "$T/m20.h5" --data "$T/wide.h5" --batch 2
expect 1 "has rank 3" "$HN" predict --model "$T/m20.h5" --data "$T/rank3.h5"
expect 1 "not an array of numbers" "$HN" predict --model "$T/m20.h5" --data "$T/text.h5"
"$HN" predict --model "$T/m20.h5" --data "$T/ok.h5" >"$T/pred" || fail "predict on a fitting array"
[ "$(wc -l <"$T/pred")" -eq 3 ] || fail "predict printed $(wc -l <"$T/pred") lines, want 3"

# --- defect 3: spec values that overflow a float ---------------------------
for arch in "20-8:alpha=1e39-1" "20-8:eps=1e300-1" "20-8:do=1e400-1" "20-8:alpha=1e5-1"; do
    expect 2 "--arch" "$HN" nn init --arch "$arch" -o "$T/bad.h5"
done
[ ! -e "$T/bad.h5" ] || fail "nn init wrote a model from an overflowing spec"

[ $fails -eq 0 ] && echo "cli_files: all checks passed"
exit $((fails > 0))
