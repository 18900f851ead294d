#!/usr/bin/env bash
# The n-puzzle before and after a change, side by side in one run: two
# heurnet executables (say the binary of the commit before the domain
# interface and the current one) on
#   1. Korf's 100 with IDA* and the 7-8 PDB (node counts must be identical),
#   2. DeepCubeA's 500 15-puzzle boards with the search recorded in
#      models/15puzzle-search.h5 (A* with the int8 network),
# interleaved old, new, old, new ... N times; prints user CPU seconds per run
# and the medians' ratio new/old. The 24-puzzle check (same mean length on
# own boards at 20 s per board) is scripts/bench_np24.sh OLD NEW.
#
#   3. the search of 2. on the generic core (the new binary given
#      --domain npuzzle:4x4:blank-last): the same lengths and expansions.
# ONLY=deepcubea runs row 3 alone.
#
# usage: scripts/bench_np_paths.sh OLD_HEURNET NEW_HEURNET [RUNS]
set -euo pipefail
cd "$(dirname "$0")/.."
old=$1
new=$2
runs=${3:-5}
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT

# user seconds of one run; the run's stdout goes to $out/$2.txt
timed() {
    local bin=$1 tag=$2
    shift 2
    /usr/bin/time -f "%U" -o "$out/t" "$bin" "$@" >"$out/$tag.txt" 2>/dev/null || true
    cat "$out/t"
}

median() { sort -g | awk '{a[NR] = $1} END {print (NR % 2) ? a[(NR + 1) / 2] : (a[NR / 2] + a[NR / 2 + 1]) / 2}'; }

# compare NAME ARGS...: both binaries with the same arguments;
# compare NAME OLD_ARGS... --new NEW_ARGS...: each with its own (the new
# binary's spelling of the same search).
compare() {
    local name=$1
    shift
    local -a oargs=() nargs=()
    while [ $# -gt 0 ] && [ "$1" != --new ]; do
        oargs+=("$1")
        shift
    done
    if [ $# -gt 0 ]; then
        shift
        nargs=("$@")
    else
        nargs=("${oargs[@]}")
    fi
    : >"$out/old.times"
    : >"$out/new.times"
    for _ in $(seq "$runs"); do
        timed "$old" old "${oargs[@]}" >>"$out/old.times"
        timed "$new" new "${nargs[@]}" >>"$out/new.times"
    done
    local same=yes
    if ! diff <(grep -o 'length=[0-9]* expanded=[0-9]*' "$out/old.txt") \
        <(grep -o 'length=[0-9]* expanded=[0-9]*' "$out/new.txt") >/dev/null; then
        same=no
    fi
    local mo mn
    mo=$(median <"$out/old.times")
    mn=$(median <"$out/new.times")
    printf '| %s | %s | %s | %.3f | %s |\n' "$name" "$mo" "$mn" "$(echo "$mn / $mo" | bc -l)" "$same"
}

dc=instances/npuzzle/deepcubea_test_15puzzle.txt
echo "| run (user CPU s, median of $runs interleaved) | old | new | new/old | same lengths and expansions |"
echo "|---|---|---|---|---|"
if [ "${ONLY:-}" != deepcubea ]; then
    compare "Korf's 100, IDA*, 7-8 PDB" solve --puzzle 15 --heuristic pdb:7-8 --algo idastar -q \
        instances/npuzzle/korf100.txt
    compare "DeepCubeA's 500, 15puzzle-search.h5 (recorded search)" solve --puzzle 15 \
        --goal blank-last --model models/15puzzle-search.h5 -q "$dc"
fi
# the same search on the generic core: the new binary runs --domain so
compare "DeepCubeA's 500, 15puzzle-search.h5, generic core (--domain npuzzle:4x4:blank-last)" \
    solve --puzzle 15 --goal blank-last --model models/15puzzle-search.h5 -q "$dc" \
    --new solve --domain npuzzle:4x4:blank-last --model models/15puzzle-search.h5 -q "$dc"
