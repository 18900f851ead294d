#!/bin/bash
# Write failures through the executable: a file-size limit (ulimit -f, with
# SIGXFSZ ignored so writes fail with EFBIG as on a full disk), /dev/full
# behind a symlink, gnuplot leaving empty figures, and a full stdout. Each
# command must exit non-zero (never by a signal) and leave no file under its
# final name that claims to be complete; /dev/full stays a device.
# Arguments: path of heurnet, shared data dir, source dir.
set -u
HN=$1
SRC=$3
. "$(dirname "$0")/lib_cli.sh"
export HEURNET_DATA=$T/cache

# limited SIZE_KB cmd...: run with a file-size limit; rc in $T/rc
limited() {
    local kb=$1
    shift
    (
        trap '' XFSZ
        ulimit -f "$kb"
        "$@" >"$T/out" 2>"$T/err"
    )
    echo $? >"$T/rc"
}
# failed WHAT: the last command exited 1 (not 0, not a signal)
failed() {
    local rc
    rc=$(cat "$T/rc")
    [ "$rc" -eq 1 ] || fail "$1: exit $rc, want 1: $(head -c 300 "$T/err")"
}
absent() { [ ! -e "$1" ] || fail "$1 exists after a failed write"; }

ln -s /dev/full "$T/full"
EMP=$SRC/instances/emp/small/pieces_08x08.txt
MODEL=$SRC/models/8puzzle-annd.h5

# --- emp solve -o ------------------------------------------------------------
limited 0 $HN emp solve -q --time 0.2 "$EMP" -o "$T/sol.txt"
failed "emp solve -o under ulimit -f 0"
absent "$T/sol.txt"
no_part "$T/sol.txt" || fail "a temporary file of $T/sol.txt was left"
expect 1 "No space left on device" $HN emp solve -q --time 0.2 "$EMP" -o "$T/full"
[ -c /dev/full ] || fail "/dev/full is no longer a device"
[ -L "$T/full" ] || fail "the symlink to /dev/full was replaced"

# --- export, every format ----------------------------------------------------
for fmt in onnx keras c npy; do
    limited 8 $HN export --model "$SRC/models/15puzzle-annd.h5" --format $fmt -o "$T/x.$fmt"
    failed "export $fmt under ulimit -f 8"
    absent "$T/x.$fmt"
    grep -q "success" "$T/err" && fail "export $fmt reports success after a failed write"
    [ $fmt = c ] && absent "$T/x.h"
done
expect 1 "No space left on device" $HN export --model "$MODEL" --format onnx --force -o "$T/full"
[ -c /dev/full ] || fail "/dev/full is no longer a device"

# --- train: the log on a full disk, the checkpoint and the model over a limit --
$HN gen --puzzle 8 --label manhattan --count 64 --seed 3 --threads 1 --quiet -o "$T/d.h5" >/dev/null ||
    fail "gen of the training data failed"
TRAIN=($HN train --data "$T/d.h5" --arch 81-64-1 --epochs 2 --batch 16 --quiet)
expect 1 "cannot write the log" "${TRAIN[@]}" -o "$T/m.h5" --checkpoint "$T/ck.h5" --log "$T/full"
absent "$T/m.h5"
[ -s "$T/ck.h5" ] || fail "train: no checkpoint after the log failed"
"${TRAIN[@]}" -o "$T/m.h5" --resume "$T/ck.h5" >/dev/null 2>"$T/err" ||
    fail "train --resume after the log failure: $(head -c 300 "$T/err")"
rm -f "$T/m.h5" "$T/ck.h5"
# The HDF5 writers of checkpoints and datasets (train/ckpt.c, datagen/) stop
# cleanly on a full disk only with issue 22's part A (which also adds
# `heurnet nn upgrade`); before it, libhdf5's exit handler crashed after the
# failed close. Until both parts are merged these two checks are skipped.
if ! $HN nn upgrade --help >/dev/null 2>&1; then
    echo "SKIP: checkpoint and gen write failures need the HDF5 writer fixes (issue 22 part A)"
else
limited 16 "${TRAIN[@]}" -o "$T/m.h5" --checkpoint "$T/ck.h5"
failed "train --checkpoint under ulimit -f 16"
absent "$T/m.h5"
absent "$T/ck.h5"

# --- gen: a dataset over the limit is never marked complete --------------------
limited 16 $HN gen --puzzle 8 --label manhattan --count 3000 --threads 1 --quiet -o "$T/g.h5"
failed "gen under ulimit -f 16"
if [ -e "$T/g.h5" ] && h5dump -a complete "$T/g.h5" 2>/dev/null | grep -q "(0): 1"; then
    fail "gen: a cut dataset claims complete=1"
fi
fi

# --- eval: report folder over the limit, and gnuplot leaving empty figures -----
printf '1 0 2 3 4 5 6 7 8\n3 1 2 0 4 5 6 7 8\n1 2 5 3 4 0 6 7 8\n' >"$T/b.txt"
EVAL=($HN eval -q --model "$MODEL" --instances "$T/b.txt")
limited 2 "${EVAL[@]}" -o "$T/rep"
failed "eval under ulimit -f 2"
absent "$T/rep"
if command -v gnuplot >/dev/null; then
    mkdir -p "$T/bin"
    printf '#!/bin/sh\nfor f in length diff seconds heuristic_error excess expansions; do : >$f.png; done\n' \
        >"$T/bin/gnuplot"
    chmod +x "$T/bin/gnuplot"
    PATH="$T/bin:$PATH" expect 1 "seconds.png is missing, empty or cut short" \
        "${EVAL[@]}" -o "$T/rep"
    absent "$T/rep"
    "${EVAL[@]}" -o "$T/rep" >/dev/null 2>"$T/err" || fail "eval: $(head -c 300 "$T/err")"
    [ -s "$T/rep/excess.png" ] || fail "eval with gnuplot: no figure"
fi

# --- results on a full stdout ------------------------------------------------
$HN solve --puzzle 8 --heuristic manhattan -q "$T/b.txt" >/dev/full 2>"$T/err"
[ $? -eq 1 ] || fail "solve > /dev/full did not exit 1"
grep -q "standard output" "$T/err" || fail "solve > /dev/full: $(cat "$T/err")"

[ $fails -eq 0 ] && echo "cli_faults: all checks passed"
exit $((fails > 0))
