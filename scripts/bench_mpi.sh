#!/usr/bin/env bash
# Data-parallel scaling on this machine: training samples per second of one
# process with 1 BLAS thread, one process with 2 BLAS threads and mpirun -np 2
# with 1 BLAS thread per rank, for the paper's network
# 256-1024-1024-512-128-64-1 and the shipped 15-puzzle network
# 256-512-256-128-1 at a global batch of 1024; then `heurnet gen` (15-puzzle,
# pdb:7-8) with 1 rank and 2 ranks of 1 thread. Each line gives wall-clock
# samples (boards) per second and per CPU second (user + system of all the
# processes, mpirun included): on a shared machine the second ratio is the
# fairer one. Lines go to stdout and are appended to $OUT [build/bench_mpi.txt].
# PARTS=gen (or train) runs only that part [train gen]. SESSIONS=1 starts every
# process (each rank) in a session of its own (setsid): where the kernel shares
# the CPUs by session (sched_autogroup_enabled = 1) a busy machine otherwise
# gives 2 ranks together the share of 1 process.
# Usage: scripts/bench_mpi.sh [heurnet] [training rows] [gen boards]
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
H=$(realpath "${1:-$root/build/heurnet}")
rows=${2:-20000}
boards=${3:-1000}
out=${OUT:-$root/build/bench_mpi.txt}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
MPI=(mpirun --oversubscribe -np 2)
[ "$(id -u)" -eq 0 ] && MPI+=(--allow-run-as-root)
own=()
[ "${SESSIONS:-0}" = 1 ] && own=(setsid -w)
rev=$("$H" version | awk '{print $3}' | tr -d '()')
load=$(cut -d' ' -f1 /proc/loadavg)

emit() {
    echo "$1 cpus=$(nproc) load=$load revision=$rev"
    mkdir -p "$(dirname "$out")"
    echo "$1 cpus=$(nproc) load=$load revision=$rev" >>"$out"
}

# timed LABEL cmd...: runs cmd, leaves "wall user+sys" seconds in $tmp/time
timed() {
    /usr/bin/time -f "%e %U %S" -o "$tmp/time" "$@"
}
cpu_of() { awk '{print $2 + $3}' "$tmp/time"; }

# Training rows: labels do not matter for speed; boards 30 random moves from
# the goal are labelled fast.
"$H" gen --puzzle 15 --walk 30 --label lc --count "$rows" --seed 1 --quiet -o "$tmp/d.h5" >/dev/null

# train_case NET MODE: MODE is 1t (1 thread), 2t (2 threads) or 2r (2 ranks).
# samples_per_s: the second epoch's step throughput from the CSV (warm, steps
# only); samples_per_cpu_s: the run's training samples over the CPU seconds
# of the steps (rank 0's, times the ranks), from the summary line.
train_case() {
    local net=$1 mode=$2 threads=1 ranks=1 pre=()
    [ "$mode" = 2t ] && threads=2
    [ "$mode" = 2r ] && pre=("${MPI[@]}") && ranks=2
    pre+=("${own[@]}")
    local args=(train --data "$tmp/d.h5" --arch "$net" --dropout 0 --batch 1024 --epochs 2
                --seed 1 --threads "$threads" -o "$tmp/m.h5")
    timed "${pre[@]}" "$H" "${args[@]}" >"$tmp/csv" 2>"$tmp/err"
    local sps cps
    sps=$(awk -F, 'NR == 3 {print $7}' "$tmp/csv")
    cps=$(sed -n 's/.*samples\/s (\([0-9]*\) per CPU second).*/\1/p' "$tmp/err" | awk -v r=$ranks '{printf "%.0f", $1 / r}')
    # under mpirun: the share of rank 0's training time spent in MPI_Allreduce
    local wait
    wait=$(sed -n 's/.*spent \([0-9.]*\) s of \([0-9.]*\) s in MPI_Allreduce.*/\1 \2/p' "$tmp/err" |
        awk '{printf " allreduce_share=%.2f", $1 / $2}')
    emit "bench=mpi_train net=$net mode=$mode batch=1024 samples_per_s=$sps samples_per_cpu_s=$cps$wait wall_s=$(cut -d' ' -f1 "$tmp/time") cpu_s=$(cpu_of)"
}

parts=${PARTS:-train gen}
for net in 256-1024-1024-512-128-64-1 256-512-256-128-1; do
    [[ " $parts " == *" train "* ]] || break
    for mode in 1t 2t 2r; do
        train_case "$net" "$mode"
    done
done

[[ " $parts " == *" gen "* ]] || exit 0
# gen: each rank loads the 7-8 PDB from the cache (the uncompressed copy
# heurnet keeps there, read from the page cache); warm it first.
"$H" gen --puzzle 15 --label pdb:7-8 --count 1 --seed 999 --threads 1 --quiet -o "$tmp/warm.h5" >/dev/null
for mode in 1r 2r; do
    pre=()
    [ "$mode" = 2r ] && pre=("${MPI[@]}")
    pre+=("${own[@]}")
    timed "${pre[@]}" "$H" gen --puzzle 15 --label pdb:7-8 --count "$boards" --seed 1 --threads 1 \
        --quiet -o "$tmp/g$mode.h5" >"$tmp/gen.txt"
    wall=$(cut -d' ' -f1 "$tmp/time")
    cpu=$(cpu_of)
    # labelling rate without the PDB load: all boards over the slowest rank's
    # labelling seconds (each rank reports its shard)
    label_rate=$(sed -n 's/.* seconds=\([0-9.]*\) .*/\1/p' "$tmp/gen.txt" |
        awk -v b="$boards" '$1 > m {m = $1} END {printf "%.1f", b / m}')
    # imbalance: the slowest rank's labelling seconds and expanded nodes over
    # the mean of the ranks (1.00 = even)
    imb=$(awk 'BEGIN {n = 0} /seconds=/ {for (i = 1; i <= NF; i++) {split($i, kv, "=");
            if (kv[1] == "seconds") {s[n] = kv[2]} if (kv[1] == "expanded_mean") {e[n] = kv[2]}} n++}
        END {for (i = 0; i < n; i++) {ts += s[i]; te += e[i]; if (s[i] > ms) ms = s[i]; if (e[i] > me) me = e[i]}
            printf "seconds_imbalance=%.2f expanded_imbalance=%.2f", ms / (ts / n), me / (te / n)}' "$tmp/gen.txt")
    emit "bench=mpi_gen mode=$mode sessions=${SESSIONS:-0} boards=$boards boards_per_s=$(awk -v b="$boards" -v w="$wall" 'BEGIN {printf "%.1f", b / w}') label_boards_per_s=$label_rate boards_per_cpu_s=$(awk -v b="$boards" -v c="$cpu" 'BEGIN {printf "%.1f", b / c}') $imb wall_s=$wall cpu_s=$cpu"
done
