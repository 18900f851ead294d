#!/usr/bin/env bash
# heurnet bench search and the ann: engines: one record per heuristic with
# the counters the figures of docs/inference.md are read from, every engine
# solving the same 8-puzzle boards to the optimum with an admissible
# baseline, and the refusals (missing options, a bad engine name).
# Arguments: path of heurnet, shared data dir, source dir.
set -u
HN=$1
SRC=$3
. "$SRC/tests/lib_cli.sh"
model=$SRC/models/8puzzle-annd.h5
cat >"$T/boards.txt" <<'B'
a 3 1 2 4 0 5 6 7 8
b 1 2 0 3 4 5 6 7 8
c 0 3 2 4 1 5 6 7 8
d 1 4 2 3 7 5 6 0 8
B
"$HN" bench search --puzzle 8 --algo astar --instances "$T/boards.txt" --baseline lc -q \
    -H "ann:$model,dense" -H "ann:$model" -H "ann:$model,q8,cache:0" \
    -H "ann:$model,q8,acc16,cache:0" >"$T/rec" 2>"$T/err" ||
    fail "bench search exited $?: $(head -c 300 "$T/err")"
[ "$(grep -c '^heuristic=' "$T/rec")" = 5 ] || fail "want 5 records: $(cat "$T/rec")"
grep -q '^heuristic=lc boards=4 solved=4 optimal=4 ' "$T/rec" || fail "baseline record: $(cat "$T/rec")"
for e in ",dense" "" ",q8,cache:0" ",q8,acc16,cache:0"; do
    line=$(grep "^heuristic=ann:$model$e " "$T/rec")
    [ -n "$line" ] || fail "no record for ann:$model$e"
    grep -q ' solved=4 ' <<<"$line" || fail "ann:$model$e did not solve every board: $line"
    grep -Eq ' rows=[1-9][0-9]* ' <<<"$line" || fail "ann:$model$e sent no rows: $line"
    # the network's own seconds are timed: rows per second inside it
    grep -Eq ' nn_rows_per_s=[1-9][0-9]* ' <<<"$line" || fail "ann:$model$e: no nn_rows_per_s: $line"
    # every engine builds a child's first layer from its parent's ("dense" is float)
    grep -Eq ' derived_share=0\.[1-9]' <<<"$line" || fail "ann:$model$e derived no rows: $line"
done
grep -q "^# heurnet bench search: .*domain npuzzle:3x3, the baseline (lc by idastar)" "$T/rec" ||
    fail "header: $(head -1 "$T/rec")"
# the domain from the first network, the file's layout from --goal; the default baseline is
# the domain's PDB, --baseline-algo picks its search
"$HN" bench search --instances "$T/boards.txt" -q -H "ann:$model" --goal blank-last \
    --algo astar >"$T/rec2" 2>"$T/err" || fail "--goal blank-last: $(cat "$T/err")"
grep -q "domain npuzzle:3x3:blank-last," "$T/rec2" && grep -q "^heuristic=ann:$model .* solved=4 " \
    "$T/rec2" || fail "--goal blank-last: $(cat "$T/rec2")"
"$HN" bench search --instances "$T/boards.txt" -q -H "ann:$model" --baseline-algo astar \
    >"$T/rec2" 2>"$T/err" || fail "bench search without --domain: $(cat "$T/err")"
grep -q '^heuristic=pdb:8 boards=4 solved=4 optimal=4 .* algo=astar$' "$T/rec2" ||
    fail "the default baseline: $(cat "$T/rec2")"
expect 2 "--domain D or --puzzle N is required" "$HN" bench search --instances "$T/boards.txt"
expect 2 "not a square board" "$HN" bench search --puzzle 10 --instances "$T/boards.txt"
expect 2 "--baseline-algo must be astar or idastar" "$HN" bench search --puzzle 8 \
    --instances "$T/boards.txt" --baseline-algo beam
expect 2 "unknown heuristic 'q9'" "$HN" bench search --puzzle 8 --instances "$T/boards.txt" \
    --baseline lc -H "ann:$model,q9"
"$HN" bench search --help | grep -q "rows_per_cpu_s" || fail "bench search --help"
[ "$fails" = 0 ] && echo "cli_bench_search: all checks passed" >&2
exit $((fails > 0))
