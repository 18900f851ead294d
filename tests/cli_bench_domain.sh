#!/usr/bin/env bash
# heurnet bench search --domain: the n-puzzle's table of searches and
# heuristics on any domain through the generic core (a 3x4 board here and
# a few cube states): the baseline first, one record per heuristic, every
# admissible search optimal against it, the options of solve --domain
# (focal with its bound), and the refusals.
# Args: path of heurnet, instances dir, source dir.
set -u
H="$1"
. "$(dirname "$0")/lib_cli.sh"

D=npuzzle:3x4
"$H" domain sample $D -n 6 --walk 15-30 --seed 7 >"$T/w.txt" || fail "domain sample"
"$H" avi --domain $D --arch 144-32-1 --residual manhattan --rounds 2 --steps 10 --batch 50 \
    --walk-max 30 -o "$T/m.h5" --quiet >/dev/null 2>"$T/err" || fail "avi: $(cat "$T/err")"
"$H" bench search --domain $D --instances "$T/w.txt" -q -H "ann:$T/m.h5" -H manhattan \
    -H "ann:$T/m.h5,q8" >"$T/rec" 2>"$T/err" || fail "bench search --domain: $(cat "$T/err")"
[ "$(grep -c '^heuristic=' "$T/rec")" = 4 ] || fail "want 4 records: $(cat "$T/rec")"
grep -q "^# heurnet bench search: .*domain $D, the baseline (pdb:6-5 by idastar)" "$T/rec" ||
    fail "header: $(head -1 "$T/rec")"
head -2 "$T/rec" | tail -1 | grep -q '^heuristic=pdb:6-5 boards=6 solved=6 optimal=6 .* algo=idastar$' ||
    fail "baseline record: $(cat "$T/rec")"
grep -q '^heuristic=manhattan boards=6 solved=6 optimal=6 optimal_share=1.000 .* rows=0 .*algo=idastar' \
    "$T/rec" || fail "manhattan: $(cat "$T/rec")"
for e in "" ",q8"; do
    line=$(grep "^heuristic=ann:$T/m.h5$e " "$T/rec")
    grep -q ' solved=6 ' <<<"$line" || fail "ann$e did not solve every state: $line"
    grep -Eq ' rows=[1-9][0-9]* ' <<<"$line" || fail "ann$e sent no rows: $line"
    grep -Eq ' derived_share=0\.[1-9]|derived_share=1\.000' <<<"$line" ||
        fail "ann$e derived no first layer: $line"
    grep -q ' algo=bwas$' <<<"$line" || fail "ann$e: the default algorithm of a network: $line"
done
# the search options of solve --domain: focal with bound 1 is optimal; a model's domain
"$H" bench search --model "$T/m.h5" --instances "$T/w.txt" -q --algo focal --bound 1 \
    -H ann:SELF >"$T/rec" 2>"$T/err" || fail "bench search --algo focal: $(cat "$T/err")"
grep -q "^heuristic=ann:$T/m.h5 boards=6 solved=6 optimal=6 .* algo=focal bound=1 admissible=lc" \
    "$T/rec" || fail "focal bound 1: $(cat "$T/rec")"
"$H" domain sample cube3 -n 3 --walk 4-5 --seed 2 >"$T/c.txt" || fail "cube3 sample"
"$H" bench search --domain cube3 --instances "$T/c.txt" -q --algo astar -H manhattan >"$T/rec" ||
    fail "bench search on cube3"
grep -q '^heuristic=manhattan boards=3 solved=3 optimal=3 .* algo=astar$' "$T/rec" ||
    fail "cube3: $(cat "$T/rec")"
"$H" bench search --domain $D --instances "$T/w.txt" --limit 2 -q >"$T/rec" || fail "--limit"
grep -q '^heuristic=pdb:6-5 boards=2 solved=2 .* algo=idastar$' "$T/rec" || fail "--limit 2: $(cat "$T/rec")"

expect 2 "--instances FILE is required" "$H" bench search --domain $D
expect 2 "unknown domain 'nosuch'" "$H" bench search --domain nosuch --instances "$T/w.txt"
expect 2 "unknown heuristic 'q9'" "$H" bench search --domain $D --instances "$T/w.txt" -H "ann:$T/m.h5,q9"
expect 2 "--baseline must be an admissible heuristic" "$H" bench search --domain $D \
    --instances "$T/w.txt" --baseline "ann:$T/m.h5"
expect 2 "focal's, not" "$H" bench search --domain $D \
    --instances "$T/w.txt" --bound 2
expect 1 "is not a tile number" "$H" bench search --domain $D --instances "$T/c.txt"
"$H" bench search --domain $D --help | grep -q "derived_share" || fail "bench search --domain --help"

[ "$fails" = 0 ] && echo "cli_bench_domain: all checks passed" >&2
exit $((fails > 0))
