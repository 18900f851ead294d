#!/usr/bin/env bash
# Benchmark of `heurnet gen`: labelled random 15-puzzle boards per second
# (IDA* with the reflected 7-8 PDB, 2 threads, path states not counted).
# The 7-8 PDB comes from the cache ($HEURNET_DATA or ~/.cache/heurnet) and is
# built there on first use (a few minutes). Prints one key=value line and
# writes it to $OUT [build/bench_gen.txt].
# Usage: scripts/bench_gen.sh [heurnet] [count] [threads] [label]
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
H=${1:-$root/build/heurnet}
count=${2:-2000}
threads=${3:-2}
label=${4:-pdb:7-8}
out=${OUT:-$root/build/bench_gen.txt}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
# make sure the PDB is cached so its build is not timed
"$H" gen --puzzle 15 --label "$label" --count 1 --seed 999 --threads 1 --quiet -o "$tmp/warm.h5" >/dev/null
line=$("$H" gen --puzzle 15 --goal blank-first --label "$label" --count "$count" --seed 1 \
    --threads "$threads" --quiet -o "$tmp/bench.h5")
rate=$(sed -n 's/.* boards_per_s=\([0-9.]*\).*/\1/p' <<<"$line")
secs=$(sed -n 's/.* seconds=\([0-9.]*\).*/\1/p' <<<"$line")
exp=$(sed -n 's/.* expanded_mean=\([0-9.]*\).*/\1/p' <<<"$line")
mean=$("$H" data info "$tmp/bench.h5" | sed -n 's/.*cost_mean=\([0-9.]*\).*/\1/p')
result="bench=gen puzzle=15 label=$label threads=$threads boards=$count seconds=$secs boards_per_s=$rate expanded_mean=$exp cost_mean=$mean target_boards_per_s=500 cpus=$(nproc) revision=$("$H" version | awk '{print $3}' | tr -d '()')"
echo "$result"
mkdir -p "$(dirname "$out")"
echo "$result" >>"$out"
