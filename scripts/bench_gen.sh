#!/usr/bin/env bash
# Benchmark of `heurnet gen`: labelled uniform 15-puzzle boards per second
# (IDA* with the 7-8 PDB, 2 threads), an old binary against a new one in one
# run: ROUNDS rounds, each labelling the same COUNT boards (seed = round)
# with OLD then NEW, so both see the same load. The PDB comes from the cache
# ($HEURNET_DATA or ~/.cache/heurnet) and is built there on first use (a few
# minutes); a warm-up run per binary loads it before anything is timed.
# Prints one line per run and a summary line (rates over all rounds and
# NEW/OLD); appends the summary to $OUT [build/bench_gen.txt].
# Usage: scripts/bench_gen.sh OLD NEW [count] [threads] [rounds] [label]
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
old=${1:?usage: scripts/bench_gen.sh OLD NEW [count] [threads] [rounds] [label]}
new=${2:?usage: scripts/bench_gen.sh OLD NEW [count] [threads] [rounds] [label]}
count=${3:-1000}
threads=${4:-2}
rounds=${5:-3}
label=${6:-pdb:7-8}
out=${OUT:-$root/build/bench_gen.txt}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
# one run: "boards seconds expanded_mean" (old binaries print boards=, new states=)
run() {
    local line
    line=$("$1" gen --puzzle 15 --label "$label" --count "$count" --seed "$2" --threads "$threads" \
        --quiet --force -o "$tmp/$3.h5")
    sed -n 's/.* \(boards\|states\)=\([0-9]*\) .* seconds=\([0-9.]*\) .* expanded_mean=\([0-9.]*\).*/\2 \3 \4/p' <<<"$line"
}
run "$old" 999 warm-old >/dev/null
run "$new" 999 warm-new >/dev/null
so=0 sn=0 bo=0 bn=0
for r in $(seq 1 "$rounds"); do
    read -r b s e <<<"$(run "$old" "$r" old)"
    echo "round=$r binary=old boards=$b seconds=$s boards_per_s=$(awk -v b="$b" -v s="$s" 'BEGIN{printf "%.1f", b/s}') expanded_mean=$e"
    bo=$((bo + b)) so=$(awk -v a="$so" -v s="$s" 'BEGIN{print a+s}')
    read -r b s e <<<"$(run "$new" "$r" new)"
    echo "round=$r binary=new boards=$b seconds=$s boards_per_s=$(awk -v b="$b" -v s="$s" 'BEGIN{printf "%.1f", b/s}') expanded_mean=$e"
    bn=$((bn + b)) sn=$(awk -v a="$sn" -v s="$s" 'BEGIN{print a+s}')
done
result=$(awk -v bo="$bo" -v so="$so" -v bn="$bn" -v sn="$sn" -v t="$threads" -v l="$label" \
    -v c="$count" -v r="$rounds" -v cpus="$(nproc)" -v load="$(cut -d' ' -f1 /proc/loadavg)" \
    'BEGIN{printf "bench=gen puzzle=15 label=%s threads=%d count=%d rounds=%d old_boards_per_s=%.1f new_boards_per_s=%.1f new_over_old=%.3f cpus=%d load=%s", l, t, c, r, bo/so, bn/sn, (bn/sn)/(bo/so), cpus, load}')
echo "$result"
mkdir -p "$(dirname "$out")"
echo "$result" >>"$out"
