#!/usr/bin/env bash
# heurnet eval of shipped models before and after a change: the old and the
# new executable in turn (old, new, old, new ...) on the first N boards of an
# instance file, so load hits both alike. Per model: the boards whose search
# length, expansions and baseline expansions are equal in both reports
# (columns found by name, as each version names them), and the eval's CPU
# seconds (user + system, of the whole command: loading the model and the
# PDB included) new/old, summed over the rounds. The n-puzzle's eval on the one core
# must give the old figures.
#
# usage: scripts/bench_eval.sh OLD_HEURNET NEW_HEURNET [N] [ROUNDS] [MODEL...]
#   N       boards of korf100 (15-puzzle models) or 200 random 8-puzzle boards [20]
#   ROUNDS  old/new pairs [3]
#   MODEL   names under models/ without .h5 [15puzzle-annd 15puzzle-search 8puzzle-annd]
set -euo pipefail
cd "$(dirname "$0")/.."
old=$1
new=$2
n=${3:-20}
rounds=${4:-3}
shift $(($# < 4 ? $# : 4))
models=("$@")
[ ${#models[@]} -gt 0 ] || models=(15puzzle-annd 15puzzle-search 8puzzle-annd)
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
"$new" domain sample npuzzle:3x3 -n 200 --uniform --seed 7 >"$out/b8.txt"

# id, length, expanded, baseline expanded of a report, by column name
cols() {
    awk -F'\t' 'NR == 1 { for (i = 1; i <= NF; i++) k[$i] = i
                          l = k["ann_length"] ? k["ann_length"] : k["length"]
                          e = k["ann_expanded"] ? k["ann_expanded"] : k["expanded"]; next }
                { print $1, $l, $e, $k["base_expanded"] }' "$1/instances.tsv"
}

printf '| model | boards | equal (length, expanded, baseline expanded) | CPU new/old |\n|---|---:|---:|---:|\n'
for m in "${models[@]}"; do
    inst=instances/npuzzle/korf100.txt
    case $m in 8puzzle*) inst=$out/b8.txt ;; esac
    to=0 tn=0
    for r in $(seq 1 "$rounds"); do
        for v in old new; do
            exe=$old
            [ $v = new ] && exe=$new
            rm -rf "$out/$v"
            /usr/bin/time -f "%U %S" -o "$out/time" "$exe" eval --model "models/$m.h5" \
                --instances "$inst" --limit "$n" -q -o "$out/$v" >/dev/null 2>"$out/err" ||
                { cat "$out/err" >&2; exit 1; }
            t=$(awk '{ print $1 + $2 }' "$out/time")
            [ $v = old ] && to=$(echo "$to + $t" | bc) || tn=$(echo "$tn + $t" | bc)
        done
    done
    eq=$(paste -d' ' <(cols "$out/old") <(cols "$out/new") |
        awk '$1 == $5 && $2 == $6 && $3 == $7 && $4 == $8 { e++ } END { print e + 0 }')
    printf '| %s | %d | %d | %.3f |\n' "$m" "$n" "$eq" "$(echo "$tn / $to" | bc -l)"
done
