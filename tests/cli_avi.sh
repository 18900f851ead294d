#!/bin/bash
# heurnet avi through the executable: --help lists defaults, bad option values
# exit 2 with a hint, a tiny DAVI run writes its CSV lines, log, checkpoint
# and a model whose record names the method; --resume continues the
# checkpoint to more rounds; a tiny bootstrap run with a floor solves boards;
# a checkpoint of an earlier version's n-puzzle path resumes.
# Arguments: path of heurnet, shared data dir, source dir.
set -u
HN=$1
. "$(dirname "$0")/lib_cli.sh"

"$HN" avi --help >"$T/help" || fail "avi --help exited $?"
grep -q -- "--walk-max K.*\[30\]" "$T/help" || fail "--help lacks the --walk-max default"
grep -q -- "--update-loss" "$T/help" || fail "--help lacks --update-loss"

A=(--puzzle 8 --arch 81-16-1 --steps 5 --batch 32 --walk-max 6 --quiet)
expect 2 "--puzzle" "$HN" avi --arch 81-16-1 -o "$T/m.h5"
expect 2 "--puzzle" "$HN" avi --puzzle 9 --arch 81-16-1 -o "$T/m.h5"
expect 2 "--batch" "$HN" avi "${A[@]}" --batch 1 -o "$T/m.h5"
expect 2 "--lr-decay" "$HN" avi "${A[@]}" --lr-decay 1.5 -o "$T/m.h5"
expect 2 "--method" "$HN" avi "${A[@]}" --method foo -o "$T/m.h5"
expect 2 "--target-scale" "$HN" avi "${A[@]}" --target-scale 3 -o "$T/m.h5"
expect 2 "--walk-max" "$HN" avi "${A[@]}" --walk-max -1 -o "$T/m.h5"
expect 2 "-o MODEL.h5" "$HN" avi "${A[@]}"
expect 2 "--walk" "$HN" avi "${A[@]}" --method bootstrap --walk 10 -o "$T/m.h5"
expect 1 "256 inputs" "$HN" avi --puzzle 15 --arch 81-16-1 -o "$T/m.h5"
[ ! -e "$T/m.h5" ] || fail "a refused run left a model file"

"$HN" avi "${A[@]}" --rounds 3 --checkpoint "$T/ck.h5" --log "$T/log.csv" -o "$T/m.h5" >"$T/out" ||
    fail "davi run exited $?"
[ "$(grep -c '^[0-9]' "$T/out")" -eq 3 ] || fail "davi: want 3 round lines: $(cat "$T/out")"
[ "$(grep -c '^[0-9]' "$T/log.csv")" -eq 3 ] || fail "davi: the log lacks round lines"
"$HN" nn info "$T/m.h5" >"$T/info" 2>&1 || fail "nn info on the avi model exited $?"
grep -q "avi_method.*davi" "$T/info" || fail "the model does not record the method"
grep -q "avi_integer_targets=0" "$T/info" || fail "integer targets should be off by default"
"$HN" avi "${A[@]}" --rounds 1 --integer-targets --init-from "$T/m.h5" -o "$T/mi.h5" >"$T/outi" ||
    fail "an --integer-targets run exited $?"
"$HN" nn info "$T/mi.h5" 2>&1 | grep -q "avi_integer_targets=1" || fail "integer targets not recorded"
"$HN" avi --puzzle 8 --resume "$T/ck.h5" --rounds 5 --steps 5 --batch 32 --walk-max 6 --quiet \
    --checkpoint "$T/ck.h5" --log "$T/log.csv" -o "$T/m2.h5" >"$T/out2" || fail "resume exited $?"
grep -q '^5,25,' "$T/out2" || fail "resume: want round 5 after 25 steps: $(cat "$T/out2")"
[ "$(grep -c '^[0-9]' "$T/log.csv")" -eq 5 ] || fail "resume: the log should hold 5 rounds"
expect 1 "batch" "$HN" avi --puzzle 8 --resume "$T/ck.h5" --rounds 6 --batch 64 -o "$T/m3.h5" --quiet

# --- issue 48: resume and its log, options that disagree with the checkpoint ---
R=(--puzzle 8 --resume "$T/ck.h5" --steps 5 --batch 32 --walk-max 6 --quiet -o "$T/m3.h5")
# names, not codes, in a refused mismatch
expect 1 'for domain "npuzzle:3x3", this run is on "npuzzle:3x3:blank-last"' "$HN" avi "${R[@]}" --rounds 6 --goal blank-last
# architecture options were silently ignored (rc 0, the checkpoint's 81-16-1 kept)
expect 1 "81-999:relu,nobn,do=0.5-1" "$HN" avi "${R[@]}" --rounds 6 --arch 81-999-1 --act relu --no-bn --dropout 0.5
expect 1 "'--act relu'" "$HN" avi "${R[@]}" --rounds 6 --act relu
expect 1 "'--no-bn'" "$HN" avi "${R[@]}" --rounds 6 --no-bn
expect 0 "nothing left to do" "$HN" avi "${R[@]}" --rounds 2
expect 0 "nothing left to do" "$HN" avi "${R[@]}" --rounds 5 --arch 81-16-1
# a kill between round 6's log line and its checkpoint: the resumed run
# redoes round 6, and the log keeps one line per round
echo "6,stale line of a round the checkpoint never claimed" >>"$T/log.csv"
"$HN" avi "${R[@]}" --rounds 7 --checkpoint "$T/ck.h5" --log "$T/log.csv" 2>"$T/err" >/dev/null ||
    fail "resume after a stale line exited $?: $(cat "$T/err")"
[ "$(grep '^[0-9]' "$T/log.csv" | cut -d, -f1 | tr '\n' ' ')" = "1 2 3 4 5 6 7 " ] ||
    fail "log rounds after the stale line: $(cut -d, -f1 "$T/log.csv" | tr '\n' ' ')"
grep -q "stale" "$T/log.csv" && fail "the stale line was kept"
# kill -9 at varied moments: every round keeps exactly one line
rm -f "$T/k.h5" "$T/k.csv"
K=(--puzzle 8 --arch 81-16-1 --steps 5 --batch 32 --walk-max 6 --quiet --checkpoint "$T/k.h5" --log "$T/k.csv" -o "$T/k.out.h5")
for i in 1 2 3 4 5 6; do
    if [ -e "$T/k.h5" ]; then
        "$HN" avi "${K[@]}" --resume "$T/k.h5" --rounds 400 >/dev/null 2>&1 &
    else
        "$HN" avi "${K[@]}" --rounds 400 >/dev/null 2>&1 &
    fi
    pid=$!
    sleep "0.$((RANDOM % 6 + 2))"
    kill -9 $pid 2>/dev/null
    wait $pid 2>/dev/null
done
if [ -e "$T/k.h5" ]; then
    "$HN" avi "${K[@]}" --resume "$T/k.h5" --rounds 0 >/dev/null 2>&1
    n=$(grep -c '^[0-9]' "$T/k.csv")
    [ "$(grep '^[0-9]' "$T/k.csv" | cut -d, -f1 | sort -n | uniq | wc -l)" -eq "$n" ] ||
        fail "kill -9 cycles: a round logged twice: $(cut -d, -f1 "$T/k.csv" | tr '\n' ' ')"
    [ "$(grep '^[0-9]' "$T/k.csv" | tail -1 | cut -d, -f1)" -eq "$n" ] ||
        fail "kill -9 cycles: a round without its line: $(cut -d, -f1 "$T/k.csv" | tr '\n' ' ')"
fi

"$HN" avi "${A[@]}" --method bootstrap --floor manhattan --rounds 2 --boards 10 --walk 3 --walk-max 6 \
    -o "$T/b.h5" >"$T/bout" || fail "bootstrap run exited $?"
awk -F, 'NR > 1 { s += $10 } END { exit !(s > 0) }' "$T/bout" || fail "bootstrap solved nothing: $(cat "$T/bout")"

# a bootstrap checkpoint written by the n-puzzle's own path of earlier
# versions (/avi width 3, buffer rows of 9 tiles): read into the domain's
# states, and continued
OLD="$3/tests/fuzz/corpus/avi_ckpt/boot.h5"
"$HN" avi --puzzle 8 --method bootstrap --resume "$OLD" --batch 16 --boards 4 --walk 6 --rounds 2 \
    --steps 5 --quiet -o "$T/old.h5" >"$T/oldout" 2>"$T/olderr" ||
    fail "resuming an earlier version's checkpoint exited $?: $(cat "$T/olderr")"
grep -q '^2,7,112,' "$T/oldout" || fail "the old checkpoint's round 2: $(cat "$T/oldout")"
expect 1 "boot.h5: the model reads" "$HN" avi --puzzle 15 --method bootstrap --resume "$OLD" \
    --batch 16 --rounds 2 --quiet -o "$T/old15.h5"

[ $fails -eq 0 ] && echo "ok" || exit 1
