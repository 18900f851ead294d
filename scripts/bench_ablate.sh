#!/usr/bin/env bash
# heurnet ablate --jobs 2 against --jobs 1: 3 variants x 5 seeds on 8-puzzle
# data, timed pair by pair with /usr/bin/time (RUNS pairs, alternating), and
# the two CSVs compared with the
# timing columns (train_s, samples_per_s) left out: they must be equal.
# With MPI=1 the second case is mpirun -np 2 with --jobs 1 per rank.
# usage: scripts/bench_ablate.sh [BUILD_DIR [WORK_DIR [RUNS]]]
set -euo pipefail
HN=$(realpath "${1:-build}")/heurnet
W=${2:-/tmp/heurnet-bench-ablate}
RUNS=${3:-3}
mkdir -p "$W"
[ -s "$W/p8.h5" ] || "$HN" gen --puzzle 8 --count 100000 --seed 1 --quiet -o "$W/p8.h5"
A="--data $W/p8.h5 --grid 81-{256,128,64}-64-1 --seeds 5 --epochs 3 --batch 256 --threads 1 --quiet"
one() { echo "sh -c 'rm -f $W/j$1.csv && $HN ablate $A --jobs $1 --csv $W/j$1.csv >$W/j$1.md'"; }
if [ "${MPI:-0}" = 1 ]; then
    mpi="mpirun --oversubscribe -np 2"
    [ "$(id -u)" -eq 0 ] && mpi="$mpi --allow-run-as-root"
    # the second case: 2 ranks of one job each, its CSV as j2.csv
    one() {
        [ "$1" = 1 ] && echo "sh -c 'rm -f $W/j1.csv && $HN ablate $A --jobs 1 --csv $W/j1.csv >$W/j1.md'" ||
            echo "sh -c 'rm -f $W/j2.csv && $mpi $HN ablate $A --jobs 1 --csv $W/j2.csv >$W/j2.md'"
    }
fi
for r in $(seq "$RUNS"); do
    for j in 1 2; do eval /usr/bin/time -f "\"pair $r, jobs $j: %e s wall, %U s user\"" $(one $j); done
done
untimed() {
    awk -F, 'NR == 1 { for (i = 1; i <= NF; i++) skip[i] = $i ~ /^(train_s|samples_per_s)$/ }
             { s = ""; for (i = 1; i <= NF; i++) if (!skip[i]) s = s $i ","; print s }' "$1"
}
if [ "$(untimed "$W/j1.csv")" = "$(untimed "$W/j2.csv")" ]; then
    echo "equal results: $(($(wc -l <"$W/j1.csv") - 1)) runs, every metric and curve the same with --jobs 1 and 2"
else
    echo "DIFFERENT results with --jobs 1 and 2:"; diff <(untimed "$W/j1.csv") <(untimed "$W/j2.csv") | head
    exit 1
fi
