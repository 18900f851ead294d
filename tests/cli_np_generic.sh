#!/usr/bin/env bash
# Every square n-puzzle runs the one search core: --puzzle N [--goal G] is
# the short form of --domain npuzzle:WxW[:blank-last] (the same run), a
# model alone opens its domain, the shipped 15-puzzle models' records in
# the old n-puzzle words run as their translation spelled out in the new
# words (the same lengths and expansions), and anytime search on a square
# board proves the known optima of Korf's boards.
# Args: path of heurnet, instances dir, source dir.
set -u
H="$1"
I="$2"
S="$3"
. "$(dirname "$0")/lib_cli.sh"

sed -n '1,400p' "$I/npuzzle/deepcubea_test_15puzzle.txt" | awk 'NR % 80 == 1' >"$T/b.txt"
runs() { grep -o 'length=[0-9]* expanded=[0-9]* generated=[0-9]*' "$1"; }

# model, and its record in the new words (the translation, docs/formats.md)
for r in "15puzzle-search.h5|--algo astar --heuristic ann:M,scale:10,delta:0.65,q8,acc16,cache:0" \
    "15puzzle-annd-q35.h5|--algo astar --heuristic ann:M,scale:10,mirror,sparse,float"; do
    m=$S/models/${r%%|*}
    read -r -a words <<<"${r#*|}"
    words=("${words[@]//ann:M/ann:$m}")
    "$H" solve --puzzle 15 --goal blank-last --model "$m" -q "$T/b.txt" >"$T/short" 2>"$T/err" ||
        fail "$m with --puzzle: $(tail -2 "$T/err")"
    "$H" solve --domain npuzzle:4x4:blank-last --model "$m" -q "$T/b.txt" >"$T/long" 2>&1 ||
        fail "$m with --domain: $(tail -2 "$T/long")"
    "$H" solve --domain npuzzle:4x4:blank-last "${words[@]}" -q "$T/b.txt" >"$T/new" 2>&1 ||
        fail "$m in the new words: $(tail -2 "$T/new")"
    grep -q 'domain=npuzzle:4x4:blank-last ' "$T/short" || fail "$m: --goal blank-last: $(tail -1 "$T/short")"
    n=$(grep -c '^id=.*status=solved' "$T/short")
    [ "$n" -eq 4 ] || fail "$m: $n of 4 boards solved: $(cat "$T/short")"
    diff <(runs "$T/short") <(runs "$T/long") >"$T/d" || fail "$m: --puzzle and --domain differ: $(cat "$T/d")"
    diff <(runs "$T/short") <(runs "$T/new") >"$T/d" ||
        fail "$m: the record and its translation differ: $(cat "$T/d")"
done

# a model alone: its domain (the encoder's goal layout: blank-first)
grep -v '^#' "$I/npuzzle/korf100.txt" | head -3 >"$T/k3.txt"
"$H" solve --model "$S/models/15puzzle-search.h5" -q "$T/k3.txt" >"$T/m" 2>"$T/err" ||
    fail "a model alone: $(cat "$T/err")"
grep -q 'domain=npuzzle:4x4 ' "$T/m" || fail "a model alone opened no 4x4 domain: $(tail -1 "$T/m")"

# anytime on a square board: the deltas' last phase (inf, lc alone) proves
# each known optimum of Korf's easy boards
grep -E '^(55|16|42|79) ' "$I/npuzzle/korf100.txt" >"$T/easy.txt"
"$H" solve --puzzle 15 --algo anytime --heuristic manhattan --admissible lc --weights 2 \
    --deltas 0,inf -q "$T/easy.txt" >"$T/any" 2>"$T/err" || fail "anytime: $(cat "$T/err")"
[ "$(grep -c 'status=solved .*proven=1 ' "$T/any")" -eq 4 ] || fail "anytime proved: $(cat "$T/any")"
grep -q 'not_optimal=0 ' "$T/any" || fail "anytime missed an optimum: $(tail -1 "$T/any")"
exit $((fails > 0))
