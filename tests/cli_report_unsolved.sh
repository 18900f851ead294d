#!/bin/bash
# A failed search is not reported as zeros (issue 63, defect 19): when no
# board is solved, eval's headline and summary.md say n/a where a figure has
# no basis and give the nodes really expanded over all boards, on the
# n-puzzle path and the domain path; ablate does not show the node limit as
# A*'s expansions (NaN in the CSV, "-" in the table, a note naming the
# limit) and marks a mean that counts boards stopped at the limit with "≥".
# solve's summary lines get the same treatment.
# Arguments: path of heurnet, instances dir, source dir.
set -u
H=$1
SRC=$3
. "$(dirname "$0")/lib_cli.sh"

# the value of key K on a key=value line
kv() { tr ' ' '\n' <<<"$2" | sed -n "s/^$1=//p" | head -1; }

# --- eval, the 15-puzzle: 4 Korf boards, 50 nodes each ------------------------
grep -v '^#' "$SRC/instances/npuzzle/korf100.txt" | head -4 >"$T/k4.txt"
"$H" eval --model "$SRC/models/15puzzle-search.h5" --instances "$T/k4.txt" -o "$T/r" \
    --max-expanded 50 --baseline-algo none --quiet >"$T/out" 2>"$T/err" ||
    fail "eval exited $?: $(cat "$T/err")"
line=$(grep '^states=' "$T/out")
[ "$(kv solved "$line")" = 0 ] || fail "want solved=0: $line"
for k in mean_excess max_excess mean_expanded median_expanded mean_seconds base_mean_expanded \
    expansion_ratio; do
    [ "$(kv $k "$line")" = n/a ] || fail "eval: $k should be n/a with nothing solved: $line"
done
grep -q 'optimal=0/0 (n/a)' <<<"$line" || fail "eval: optimal share of no board: $line"
all=$(kv mean_expanded_all "$line")
# every board stopped at the limit: at least 50 nodes each, not 0
awk -v x="$all" 'BEGIN { exit !(x >= 50) }' || fail "eval: mean_expanded_all=$all, want >= 50: $line"
sum=$(awk -F'\t' 'NR > 1 { s += $11 } END { print s / (NR - 1) }' "$T/r/instances.tsv") # expanded
awk -v a="$all" -v b="$sum" 'BEGIN { exit !(a - b < 0.06 && b - a < 0.06) }' ||
    fail "eval: mean_expanded_all=$all but instances.tsv's mean is $sum"
grep -q '| mean expanded (solved states) | n/a | n/a |' "$T/r/summary.md" ||
    fail "summary.md: $(grep expanded "$T/r/summary.md")"
grep -q 'No state was solved' "$T/r/summary.md" || fail "summary.md does not say nothing was solved"
grep -q '| expansion ratio baseline / search (means) | 0.00' "$T/r/summary.md" &&
    fail "summary.md still gives a ratio of zeros"

# --- eval, domain path: the 35-puzzle, 200 nodes each --------------------------
grep -v '^#' "$SRC/instances/npuzzle/deepcubea_test_35puzzle.txt" | head -3 >"$T/p35.txt"
"$H" eval --domain npuzzle:6x6:blank-last --model "$SRC/models/35puzzle.h5" --instances "$T/p35.txt" \
    -o "$T/d" --max-expanded 200 --quiet >"$T/out" 2>"$T/err" || fail "eval --domain: $(cat "$T/err")"
line=$(grep '^states=' "$T/out")
[ "$(kv solved "$line")" = 0 ] || fail "want solved=0: $line"
for k in mean_expanded mean_nn_rows mean_excess max_excess; do
    [ "$(kv $k "$line")" = n/a ] || fail "eval --domain: $k should be n/a: $line"
done
grep -q 'optimal=0/0 (n/a)' <<<"$line" || fail "eval --domain: optimal share of no state: $line"
all=$(kv mean_expanded_all "$line")
awk -v x="$all" 'BEGIN { exit !(x >= 200) }' || fail "eval --domain: mean_expanded_all=$all: $line"
grep -q 'No state was solved' "$T/d/summary.md" || fail "domain summary.md does not say so"
"$H" eval --domain npuzzle:6x6:blank-last --model "$SRC/models/35puzzle.h5" --instances "$T/p35.txt" \
    -o "$T/d2" --max-expanded 200 --reference --quiet >"$T/out" 2>"$T/err" ||
    fail "eval --domain --reference: $(cat "$T/err")"
line=$(grep '^states=' "$T/out")
for k in mean_length mean_reference ratio; do
    [ "$(kv $k "$line")" = n/a ] || fail "eval --reference: $k should be n/a: $line"
done

# --- solve's summary lines: the same -------------------------------------------
"$H" solve --puzzle 15 --heuristic manhattan --max-expanded 50 "$T/k4.txt" >"$T/out" 2>/dev/null
line=$(grep '^# count=' "$T/out")
for k in mean_expanded mean_length; do
    [ "$(kv $k "$line")" = n/a ] || fail "solve: $k should be n/a with nothing solved: $line"
done
awk -v x="$(kv mean_expanded_all "$line")" 'BEGIN { exit !(x >= 50) }' ||
    fail "solve: mean_expanded_all: $line"
"$H" solve --domain npuzzle:6x6:blank-last --model "$SRC/models/35puzzle.h5" --max-expanded 50 \
    "$T/p35.txt" >"$T/out" 2>/dev/null
line=$(grep '^# count=' "$T/out")
for k in mean_length mean_optimal mean_expanded; do
    [ "$(kv $k "$line")" = n/a ] || fail "solve --domain: $k should be n/a: $line"
done
awk -v x="$(kv mean_expanded_all "$line")" 'BEGIN { exit !(x >= 50) }' ||
    fail "solve --domain: mean_expanded_all: $line"

# --- ablate: A* that solves nothing within --search-limit ----------------------
need_h5py
"$H" gen --puzzle 8 --count 2000 --seed 1 --threads 1 --quiet -o "$T/d.h5" >/dev/null &&
    "$H" gen --puzzle 8 --count 6 --seed 7 --threads 1 --quiet -o "$T/s.h5" >/dev/null &&
    $PY "$SRC/scripts/dataset_to_instances.py" "$T/s.h5" "$T/s.txt" || fail "set-up failed"
"$H" ablate --data "$T/d.h5" --quiet --threads 1 --dropout 0 --epochs 1 --batch 128 \
    --arch 81-8-1 --seeds 1 --search "$T/s.txt:6" --search-limit 3 --csv "$T/a.csv" \
    >"$T/out" 2>"$T/err" || fail "ablate: $(cat "$T/err")"
col=$(head -1 "$T/a.csv" | tr ',' '\n' | grep -nx search_expanded | cut -d: -f1)
val=$(sed -n 2p "$T/a.csv" | cut -d, -f"$col")
[ "$val" = nan ] || fail "ablate CSV: search_expanded=$val with no board solved (the limit is 3)"
row=$(grep '^| 81-8-1 |' "$T/out")
exp=$(awk -F' [|] ' '{ print $13 }' <<<"$row")
[ "$exp" = - ] || fail "ablate table: A* expanded '$exp', want '-': $row"
grep -q 'A\* stopped at the limit of 3 expanded nodes' "$T/out" || fail "ablate: no note: $(cat "$T/out")"

[ $fails -eq 0 ] && echo "cli_report_unsolved: all passed"
exit $((fails > 0))
