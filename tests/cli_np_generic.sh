#!/usr/bin/env bash
# solve --domain npuzzle:WxW runs the generic search core on square boards
# too (all but --algo anytime, which stays on the n-puzzle's own search for
# now): the shipped 15-puzzle models' recorded searches give the same
# lengths and expansions there as on the n-puzzle path (--puzzle).
# Args: path of heurnet, instances dir, source dir.
set -u
H="$1"
I="$2"
S="$3"
. "$(dirname "$0")/lib_cli.sh"

sed -n '1,400p' "$I/npuzzle/deepcubea_test_15puzzle.txt" | awk 'NR % 80 == 1' >"$T/b.txt"
for m in 15puzzle-search.h5 15puzzle-annd-q35.h5; do
    "$H" solve --puzzle 15 --goal blank-last --model "$S/models/$m" -q "$T/b.txt" >"$T/np" 2>/dev/null ||
        fail "$m on the n-puzzle path: $(tail -2 "$T/np")"
    "$H" solve --domain npuzzle:4x4:blank-last --model "$S/models/$m" -q "$T/b.txt" >"$T/gen" 2>/dev/null ||
        fail "$m on the generic path: $(tail -2 "$T/gen")"
    grep -q 'domain=npuzzle:4x4:blank-last' "$T/gen" || fail "$m: --domain did not run the generic search"
    grep -q 'domain=' "$T/np" && fail "$m: --puzzle ran the generic search"
    n=$(grep -c '^id=.*status=solved' "$T/np")
    [ "$n" -ge 4 ] && [ "$(grep -c '^id=.*status=solved' "$T/gen")" = "$n" ] ||
        fail "$m: not the $n boards solved: $(cat "$T/gen")"
    diff <(grep -o 'length=[0-9]* expanded=[0-9]* generated=[0-9]*' "$T/np") \
        <(grep -o 'length=[0-9]* expanded=[0-9]* generated=[0-9]*' "$T/gen") >"$T/d" ||
        fail "$m: the two paths differ: $(cat "$T/d")"
done
# batch weighted A* on both: lambda 0.8 there is weight 1.25 here
"$H" solve --puzzle 15 --goal blank-last --heuristic "ann:$S/models/15puzzle-search.h5,scale:10,q8,acc16" \
    --algo bwas --weight 0.8 --batch 16 -q "$T/b.txt" >"$T/np" 2>/dev/null || fail "np bwas"
"$H" solve --domain npuzzle:4x4:blank-last --heuristic "ann:$S/models/15puzzle-search.h5,scale:10,q8,acc16" \
    --algo bwas --weight 1.25 --batch 16 -q "$T/b.txt" >"$T/gen" 2>/dev/null || fail "generic bwas"
diff <(grep -o 'length=[0-9]* expanded=[0-9]*' "$T/np") <(grep -o 'length=[0-9]* expanded=[0-9]*' "$T/gen") \
    >"$T/d" || fail "bwas: the two paths differ: $(cat "$T/d")"
# anytime on a square board still runs the n-puzzle's own search
"$H" solve --domain npuzzle:4x4 --algo anytime --heuristic manhattan --max-expanded 200 -q \
    "$I/npuzzle/korf100.txt" >"$T/any" 2>/dev/null
grep -q 'domain=' "$T/any" && fail "anytime on npuzzle:4x4 left the n-puzzle path"
grep -q '^id=1 ' "$T/any" || fail "anytime printed no record: $(head -3 "$T/any")"
exit $((fails > 0))
