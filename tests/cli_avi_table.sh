#!/bin/bash
# heurnet avi --table / --states / --lr-cosine through the executable: bad
# values exit 2 with the option named, a table of a domain too large and bad
# start-board files exit 1 with the domain or file named; a run from start boards records them; a tiny table run with uniform states
# and 4-move look-ahead records its settings and resumes from its checkpoint.
# Arguments: path of heurnet, shared data dir, source dir.
set -u
HN=$1
. "$(dirname "$0")/lib_cli.sh"

A=(--puzzle 8 --arch 81-16:nobn-1 --steps 5 --batch 32 --walk-max 10 --quiet)
expect 2 "--states" "$HN" avi "${A[@]}" --states far -o "$T/m.h5"
expect 2 "--states" "$HN" avi "${A[@]}" --states uniform:1.5 -o "$T/m.h5"
expect 2 "--states" "$HN" avi "${A[@]}" --states uniformly -o "$T/m.h5"
expect 1 "a target table is for small domains" "$HN" avi --puzzle 15 --arch 256-8-1 --table \
    --rounds 1 --steps 1 --batch 2 -o "$T/m.h5"
expect 2 "--table" "$HN" avi "${A[@]}" --method bootstrap --walk 3 --table -o "$T/m.h5"
expect 2 "--lookahead" "$HN" avi "${A[@]}" --table --lookahead 5 -o "$T/m.h5"
"$HN" avi --help | grep -q -- "--states S" || fail "--help does not list --states"

# --start-boards: an instance file; bad files name themselves, bad shares exit 2
printf '1 0 2 3 4 5 6 7 8\n3 1 2 0 4 5 6 7 8\n' >"$T/sb.txt"
printf '1 2 3 4 5 6 7 8\n' >"$T/short.txt"
printf '0 2 1 3 4 5 6 7 8\n0 1 2 3 4 5 6 7 8\n' >"$T/parity.txt"
: >"$T/empty.txt"
expect 2 "--start-boards" "$HN" avi "${A[@]}" --start-share 0.5 -o "$T/m.h5"
expect 2 "--start-share" "$HN" avi "${A[@]}" --start-boards "$T/sb.txt" --start-share 1.5 -o "$T/m.h5"
expect 2 "--start-walk" "$HN" avi "${A[@]}" --start-boards "$T/sb.txt" --start-walk -1 -o "$T/m.h5"
expect 2 "add up" "$HN" avi "${A[@]}" --start-boards "$T/sb.txt" --states uniform:0.7 -o "$T/m.h5"
expect 2 "davi" "$HN" avi "${A[@]}" --method bootstrap --walk 3 --start-boards "$T/sb.txt" -o "$T/m.h5"
expect 1 "short.txt" "$HN" avi "${A[@]}" --start-boards "$T/short.txt" -o "$T/m.h5"
expect 1 "parity.txt" "$HN" avi "${A[@]}" --start-boards "$T/parity.txt" -o "$T/m.h5"
expect 1 "empty.txt" "$HN" avi "${A[@]}" --start-boards "$T/empty.txt" -o "$T/m.h5"
expect 1 "missing.txt" "$HN" avi "${A[@]}" --start-boards "$T/missing.txt" -o "$T/m.h5"
[ -e "$T/m.h5" ] && fail "a refused run wrote its model"
"$HN" avi "${A[@]}" --rounds 1 --start-boards "$T/sb.txt" --start-walk 3 -o "$T/s.h5" >/dev/null ||
    fail "a run with start boards exited $?"
"$HN" nn info "$T/s.h5" >"$T/sinfo" 2>&1 || fail "nn info exited $?"
for a in avi_start_share=0.5 avi_start_walk=3 avi_start_boards=2 "avi_start_from=$T/sb.txt"; do
    grep -q "$a" "$T/sinfo" || fail "the model does not record $a"
done

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
