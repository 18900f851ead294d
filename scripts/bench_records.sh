#!/usr/bin/env bash
# The shipped models' recorded searches (their `search` attribute, run by
# `heurnet solve --model M` alone) before and after a change, at node limits
# so that both runs do the same work whatever the machine's load: two heurnet
# executables one after the other on the first N own states of each model's
# domain, per model the states whose length and expansions are equal, and
# the user CPU seconds new/old. A pipeline change must leave every length
# equal; expansions may differ only where the change says why.
#
# usage: scripts/bench_records.sh OLD_HEURNET NEW_HEURNET [N] [MODEL...]
#   N       states per model [3]
#   MODEL   names under models/ without .h5 [all of the list below]
set -euo pipefail
cd "$(dirname "$0")/.."
old=$1
new=$2
n=${3:-3}
shift $(($# < 3 ? $# : 3))
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT

# model, own states, node limit (expanded states per state), extra options
runs=(
    "15puzzle-search|instances/npuzzle/own/15puzzle-ida.txt|200000|"
    "24puzzle-search|instances/npuzzle/own/24puzzle-walk300.txt|150000|"
    "35puzzle|instances/npuzzle/own/35puzzle-walk.txt|200000|"
    "48puzzle|instances/npuzzle/own/48puzzle-walk.txt|100000|"
    "cube3-walk|instances/cube3/own/cube3-walk.txt|200000|"
    "cube3|instances/cube3/own/cube3-scramble100.txt|400000|"
)
want=("$@")

# user CPU seconds of one run; its per-state rows go to $out/$2.rows
timed() {
    local bin=$1 tag=$2
    shift 2
    /usr/bin/time -f "%U" -o "$out/t" "$bin" solve "$@" >"$out/$tag.txt" 2>"$out/$tag.err" || true
    grep '^id=' "$out/$tag.txt" | sed 's/ seconds=[^ ]*//; s/ nn_seconds=[^ ]*//' >"$out/$tag.rows" ||
        true
    tail -1 "$out/t" # after "Command exited with non-zero status" when it did
}

field() { grep -o " $1=[^ ]*" | cut -d= -f2; }

printf '| model | states | node limit | equal lengths | equal expansions | CPU new/old |\n'
printf '|---|---:|---:|---:|---:|---:|\n'
for r in "${runs[@]}"; do
    IFS='|' read -r model file limit extra <<<"$r"
    if [ ${#want[@]} -gt 0 ] && ! printf '%s\n' "${want[@]}" | grep -qx "$model"; then
        continue
    fi
    grep -v '^#' "$file" | head -n "$n" >"$out/states.txt"
    # shellcheck disable=SC2086
    args=(--model "models/$model.h5" --max-expanded "$limit" $extra "$out/states.txt")
    to=$(timed "$old" old "${args[@]}")
    tn=$(timed "$new" new "${args[@]}")
    rows=$(wc -l <"$out/new.rows")
    eq_len=$(paste -d' ' <(field length <"$out/old.rows") <(field length <"$out/new.rows") |
        awk '$1 == $2' | wc -l)
    eq_exp=$(paste -d' ' <(field expanded <"$out/old.rows") <(field expanded <"$out/new.rows") |
        awk '$1 == $2' | wc -l)
    ratio=$(echo "$tn $to" | awk '{ printf "%.2f", ($2 > 0 ? $1 / $2 : 0) }')
    printf '| %s | %s | %s | %s of %s | %s of %s | %s |\n' "$model" "$n" "$limit" "$eq_len" \
        "$rows" "$eq_exp" "$rows" "$ratio"
    if [ "$eq_len" != "$rows" ] || [ "$rows" != "$n" ]; then
        echo "  $model: lengths differ or states missing; old then new:" >&2
        diff <(field length <"$out/old.rows") <(field length <"$out/new.rows") >&2 || true
        head -3 "$out/new.err" >&2
    fi
done
