#!/bin/bash
# heurnet avi --table / --states / --lr-cosine through the executable: bad
# values exit 2 with the option named; a tiny table run with uniform states
# and 4-move look-ahead records its settings and resumes from its checkpoint.
# Arguments: path of heurnet, shared data dir, source dir.
set -u
HN=$1
. "$(dirname "$0")/lib_cli.sh"

A=(--puzzle 8 --arch 81-16:nobn-1 --steps 5 --batch 32 --walk-max 10 --quiet)
expect 2 "--states" "$HN" avi "${A[@]}" --states far -o "$T/m.h5"
expect 2 "--states" "$HN" avi "${A[@]}" --states uniform:1.5 -o "$T/m.h5"
expect 2 "--states" "$HN" avi "${A[@]}" --states uniformly -o "$T/m.h5"
expect 2 "--table" "$HN" avi --puzzle 15 --arch 256-8-1 --table -o "$T/m.h5"
expect 2 "--table" "$HN" avi "${A[@]}" --method bootstrap --walk 3 --table -o "$T/m.h5"
expect 2 "--lookahead" "$HN" avi "${A[@]}" --table --lookahead 5 -o "$T/m.h5"
"$HN" avi --help | grep -q -- "--states S" || fail "--help does not list --states"

B=("${A[@]}" --table --states uniform:0.5 --lookahead 4 --integer-targets --lr-cosine)
"$HN" avi "${B[@]}" --rounds 2 --checkpoint "$T/ck.h5" -o "$T/t.h5" >"$T/csv" ||
    fail "a table run exited $?"
[ "$(grep -c '^[12],' "$T/csv")" = 2 ] || fail "two round lines expected: $(cat "$T/csv")"
"$HN" nn info "$T/t.h5" >"$T/info" 2>&1 || fail "nn info exited $?"
for a in avi_table=1 avi_uniform_share=0.5 avi_lookahead=4 avi_lr_cosine=1; do
    grep -q "$a" "$T/info" || fail "the model does not record $a"
done
"$HN" avi "${B[@]}" --resume "$T/ck.h5" --rounds 3 -o "$T/t3.h5" >"$T/csv3" ||
    fail "resuming a table run exited $?"
grep -q '^3,' "$T/csv3" || fail "round 3 missing after --resume: $(cat "$T/csv3")"
[ $fails -eq 0 ] && echo "ok" || exit 1
