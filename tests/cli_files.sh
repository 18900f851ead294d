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
. "$(dirname "$0")/lib_cli.sh"
EXPECT_MAX_LINES=3
need_h5py

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

# --- defect 7: checkpoint values --------------------------------------------
# A damaged checkpoint is first stripped of its checksum, changed with h5py
# and sealed again (nn upgrade), so what is tested is the validation itself.
$PY - "$T" <<'PYEOF' || fail "writing the training data"
import sys, h5py, numpy as np
rng = np.random.default_rng(3)
with h5py.File(sys.argv[1] + "/xy.h5", "w") as f:
    x = rng.standard_normal((600, 5)).astype(np.float32)
    f["x"] = x
    f["y"] = (x @ np.arange(5, dtype=np.float32)).astype(np.float32)
    f.attrs["encoder"] = "test-features-v1"
PYEOF
TA=(--data "$T/xy.h5" --arch 5-8-1 --dropout 0.1 --batch 32 --seed 4 --threads 1 --quiet)
"$HN" train "${TA[@]}" --epochs 1 --checkpoint "$T/ck.h5" -o "$T/ckm.h5" >/dev/null 2>"$T/err" ||
    fail "train with --checkpoint: $(cat "$T/err")"
# damage KIND: copy of ck.h5 with one field changed, sealed again
damage() {
    $PY - "$T/ck.h5" "$T/dmg.h5" "$1" <<'PYEOF' || fail "damaging $1"
import sys, os, shutil, h5py, numpy as np
src, dst, kind = sys.argv[1:4]
shutil.copy(src, dst)
os.truncate(dst, os.path.getsize(dst) - 24)  # drop heurnet's checksum trailer
with h5py.File(dst, "r+") as f:
    g = f["checkpoint"]
    a = g.attrs
    if kind == "epoch_huge": a["epoch"] = 1e12
    elif kind == "epoch_nan": a["epoch"] = float("nan")
    elif kind == "epoch_neg": a["epoch"] = -1.0
    elif kind == "cursor_neg": a["cursor"] = -5.0
    elif kind == "cursor_big": a["cursor"] = 1e9
    elif kind == "epochs_array": a["epoch"] = np.arange(64, dtype=np.float64).reshape(1, 64)
    elif kind == "have_best": a["have_best"] = 7.0
    elif kind in ("adam_m", "best_params"):
        d = g[kind][...]; d[3] = np.nan; g[kind][...] = d
    elif kind == "adam_v":
        d = g[kind][...]; d[0] = -1.0; g[kind][...] = d
    elif kind == "rng":
        d = g["rng"][...]; d[-8:-4] = [0, 0, 0, 0x80]; g["rng"][...] = d  # position -2^31
PYEOF
    "$HN" nn upgrade "$T/dmg.h5" >/dev/null 2>"$T/err" || fail "re-sealing $1: $(cat "$T/err")"
}
for k in epoch_huge:epoch epoch_nan:epoch epoch_neg:epoch cursor_neg:cursor cursor_big:cursor \
    epochs_array:epoch have_best:have_best adam_m:adam_m adam_v:adam_v best_params:best_params rng:rng; do
    damage "${k%%:*}"
    expect 1 "${k#*:}" no_signal timeout 60 "$HN" train "${TA[@]}" --epochs 3 --resume "$T/dmg.h5" -o "$T/res.h5"
    [ ! -e "$T/res.h5" ] || { fail "${k%%:*}: a model was written from a damaged checkpoint"; rm -f "$T/res.h5"; }
done
"$HN" train "${TA[@]}" --epochs 2 --resume "$T/ck.h5" -o "$T/res.h5" >/dev/null 2>"$T/err" ||
    fail "resume from the undamaged checkpoint: $(cat "$T/err")"
# a model without batch norm has no state values: its checkpoint resumes too
"$HN" train "${TA[@]}" --no-bn --epochs 1 --checkpoint "$T/ck0.h5" -o "$T/m0.h5" >/dev/null 2>&1 &&
    "$HN" train "${TA[@]}" --no-bn --epochs 2 --resume "$T/ck0.h5" -o "$T/m0.h5" >/dev/null 2>"$T/err" ||
    fail "resume of a model without batch norm: $(cat "$T/err")"

# --- defects 5 and 6: a full disk under gen and merge -------------------------
# `ulimit -f` (in KiB, SIGXFSZ ignored so writes fail with EFBIG) stands in
# for a full disk. The file must keep exactly the rows it claims, the same
# command must finish it, and the result must equal an undisturbed run.
G=(gen --puzzle 15 --walk 12 --count 400000 --label manhattan --threads 1 --quiet)
limited() { # limited KIB CMD...: run under a file-size limit
    local kb=$1
    shift
    (trap '' XFSZ; ulimit -f "$kb"; exec "$@")
}
"$HN" "${G[@]}" -o "$T/ref.h5" >/dev/null 2>"$T/err" || fail "gen without a limit: $(cat "$T/err")"
expect 1 "no room" no_signal limited 3000 "$HN" "${G[@]}" -o "$T/full.h5"
"$HN" data info "$T/full.h5.part" >"$T/info" 2>"$T/err" || fail "the file gen left on a full disk cannot be read: $(cat "$T/err")"
grep -q "complete=0" "$T/info" && ! grep -q "^rows=0 " "$T/info" ||
    fail "after the full disk: want some committed rows and complete=0: $(grep rows= "$T/info")"
$PY - "$T/full.h5.part" <<'PYEOF' || fail "the committed rows after a full disk are not all boards"
import sys, h5py, numpy as np
with h5py.File(sys.argv[1], "r") as f:
    n = int(f.attrs["committed"])
    assert (np.sort(f["states"][:n, :16], axis=1) == np.arange(16)).all()
PYEOF
# an unfinished dataset is refused by train unless asked for
expect 1 "--allow-incomplete" "$HN" train --data "$T/full.h5.part" --arch 256-8-1 --epochs 1 -o "$T/inc.h5"
"$HN" train --data "$T/full.h5.part" --allow-incomplete --arch 256-8-1 --epochs 1 --batch 1024 --threads 1 --quiet \
    -o "$T/inc.h5" >/dev/null 2>"$T/err" || fail "train --allow-incomplete: $(cat "$T/err")"
"$HN" "${G[@]}" -o "$T/full.h5" >/dev/null 2>"$T/err" || fail "continuing after the full disk: $(cat "$T/err")"
$PY - "$T/ref.h5" "$T/full.h5" <<'PYEOF' || fail "the continued file differs from an undisturbed run"
import sys, h5py, numpy as np
a, b = h5py.File(sys.argv[1], "r"), h5py.File(sys.argv[2], "r")
assert all(np.array_equal(a[k][...], b[k][...]) for k in ("states", "cost", "expanded", "source"))
assert int(b.attrs["complete"]) == 1
PYEOF
# a gen that cannot even start leaves no file that would block a rerun
expect 1 "no room" no_signal limited 1 "$HN" "${G[@]}" -o "$T/none.h5"
[ ! -e "$T/none.h5" ] && no_part "$T/none.h5" || fail "gen left a file it could not start"
# merge: a non-zero exit, no output under its final name or as .part
for i in 0 1; do
    "$HN" gen --puzzle 8 --count 3000 --shard $i/2 --label manhattan --threads 1 --quiet -o "$T/sh$i.h5" >/dev/null ||
        fail "gen shard $i"
done
for v in "" --virtual; do
    expect 1 "merged.h5" no_signal limited 1 "$HN" data merge $v -o "$T/merged.h5" "$T/sh0.h5" "$T/sh1.h5"
    [ ! -e "$T/merged.h5" ] && no_part "$T/merged.h5" || fail "merge $v on a full disk left a file"
done

# --- defect 13 for datasets and checkpoints: a flipped byte is refused ----------
flip() { # flip SRC DST: DST is SRC with the byte in the middle changed
    $PY -c "import sys; b = bytearray(open(sys.argv[1], 'rb').read()); b[len(b) // 2] ^= 0x41; open(sys.argv[2], 'wb').write(b)" "$1" "$2"
}
flip "$T/ref.h5" "$T/flip.h5"
expect 1 "checksum mismatch" no_signal "$HN" train --data "$T/flip.h5" --arch 256-8-1 --epochs 1 -o "$T/fm.h5"
expect 1 "checksum mismatch" no_signal "$HN" data info "$T/flip.h5"
expect 1 "checksum mismatch" no_signal "$HN" "${G[@]}" -o "$T/flip.h5"
flip "$T/ck.h5" "$T/flipck.h5"
expect 1 "checksum mismatch" no_signal "$HN" train "${TA[@]}" --epochs 3 --resume "$T/flipck.h5" -o "$T/res2.h5"
# a file from before checksums: read with a warning, sealed by nn upgrade
head -c -24 "$T/ref.h5" >"$T/old.h5"
"$HN" data info "$T/old.h5" >/dev/null 2>"$T/err" || fail "an unsealed dataset is refused: $(cat "$T/err")"
"$HN" train --data "$T/old.h5" --arch 256-8-1 --epochs 1 --batch 4096 --threads 1 --quiet -o "$T/om.h5" \
    >/dev/null 2>"$T/err" || fail "train on an unsealed dataset: $(cat "$T/err")"
grep -q "no checksum" "$T/err" || fail "no warning for a dataset without checksum: $(cat "$T/err")"
"$HN" nn upgrade "$T/old.h5" >"$T/out" 2>&1 && grep -q "checksum added" "$T/out" && cmp -s "$T/old.h5" "$T/ref.h5" ||
    fail "nn upgrade of a dataset: $(cat "$T/out")"

[ $fails -eq 0 ] && echo "cli_files: all checks passed"
exit $((fails > 0))
