#!/usr/bin/env bash
# The 24-puzzle's recorded search (models/24puzzle-search.h5) before and
# after a change: two heurnet executables on own boards (ids FIRST..LAST of
# instances/npuzzle/own/24puzzle-random3101.txt, uniformly random boards
# drawn as the model's test boards were), SECONDS per board, one board at a
# time and the two binaries interleaved per board (old, new, old, new ...),
# so that the load of a shared machine hits both alike. Prints the mean
# length of each, the boards equal / shorter / longer (new against old) and
# the mean expansions. The target of issue 62: mean lengths within 0.2 moves.
#
# usage: scripts/bench_np24.sh OLD_HEURNET NEW_HEURNET [FIRST [LAST [SECONDS]]]
#   NEW_ARGS="..." replaces the new binary's search options (default: the
#   same command line as the old one's, --puzzle 24 --model M).
set -euo pipefail
cd "$(dirname "$0")/.."
old=$1
new=$2
first=${3:-1500}
last=${4:-1549}
secs=${5:-20}
model=models/24puzzle-search.h5
file=instances/npuzzle/own/24puzzle-random3101.txt
out=${OUT:-$(mktemp -d)}
mkdir -p "$out"
: >"$out/old.txt"
: >"$out/new.txt"
read -r -a nargs <<<"${NEW_ARGS:---puzzle 24 --model $model}"
for id in $(seq "$first" "$last"); do
    awk -v id="$id" '$1 == id' "$file" >"$out/board.txt"
    "$old" solve --puzzle 24 --model "$model" --time-limit "$secs" -q "$out/board.txt" |
        grep '^id=' >>"$out/old.txt" || true
    "$new" solve "${nargs[@]}" --time-limit "$secs" -q "$out/board.txt" |
        grep '^id=' >>"$out/new.txt" || true
done
field() { grep -o " $1=[^ ]*" "$2" | cut -d= -f2; }
paste -d' ' <(field length "$out/old.txt") <(field length "$out/new.txt") \
    <(field expanded "$out/old.txt") <(field expanded "$out/new.txt") |
    awk '{ n++; lo += $1; ln += $2; eo += $3; en += $4
           if ($2 == $1) eq++; else if ($2 < $1) sh++; else lg++ }
         END { printf "| boards | old mean length | new mean length | new - old | equal / shorter / longer | old / new expanded per board |\n"
               printf "|---:|---:|---:|---:|---|---|\n"
               printf "| %d | %.2f | %.2f | %+.2f | %d / %d / %d | %.2f M / %.2f M |\n", n, lo / n, ln / n,
                      (ln - lo) / n, eq, sh, lg, eo / n / 1e6, en / n / 1e6 }'
