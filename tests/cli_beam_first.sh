#!/usr/bin/env bash
# A time-limited beam holds a solution early (issue 63, defect 12): a cube
# beam far too wide for its time limit answers with the narrow first beam's
# path (status=solved, limit=1, first_seconds= within the limit of 4 s, where
# the wide beam alone takes about 10 s of CPU), where it
# used to print status=limit reached length=-1; a node limit alone runs no
# narrow beam and is cut as before. The Q network of models/cube3.h5
# without the recorded search's tables, so no pattern database is built.
# Args: path of heurnet, instances dir, source dir.
set -u
H="$1"
I="$2"
S="$3"
. "$(dirname "$0")/lib_cli.sh"

field() { sed -n "s/.* $1=\([^ ]*\).*/\1/p" "$2"; }

grep -v '^#' "$I/cube3/own/cube3-scramble100.txt" | head -2 >"$T/c.txt"
beam=(solve --domain cube3 --algo beam --heuristic "ann:$S/models/cube3.h5" --scale 100 -q)

"$H" "${beam[@]}" --width 300000 --time-limit 4 "$T/c.txt" >"$T/out" 2>"$T/err" ||
    fail "a wide beam at 4 s: $(cat "$T/err" "$T/out" | head -3)"
[ "$(grep -c ' status=solved ' "$T/out")" = 2 ] || fail "not every cube solved: $(cat "$T/out")"
[ "$(grep -c ' limit=1 ' "$T/out")" = 2 ] || fail "the limit not said: $(cat "$T/out")"
field first_seconds "$T/out" | awk '!($1 >= 0 && $1 < 4) { bad = 1 } END { exit bad || NR != 2 }' ||
    fail "first_seconds not within the limit: $(field first_seconds "$T/out" | tr '\n' ' ')"
field length "$T/out" | awk '!($1 > 0) { bad = 1 } END { exit bad }' || fail "a length of none"

# a node limit alone: no narrow beam, the wide beam cut, no path (exit 1)
"$H" "${beam[@]}" --width 300000 --max-expanded 20000 "$T/c.txt" >"$T/out2" 2>"$T/err2"
rc=$?
[ $rc = 1 ] && [ "$(grep -c ' length=-1 .* limit=1 ' "$T/out2")" = 2 ] ||
    fail "a node limit alone: exit $rc, $(head -2 "$T/out2")"
[ "$fails" = 0 ]
