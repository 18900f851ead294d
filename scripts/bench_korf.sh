#!/usr/bin/env bash
# Benchmark of the n-puzzle solvers: PDB build time and peak memory per
# partition, then Korf's 100 15-puzzles solved with IDA* (and A*) on one
# thread (IDA* 7-8 best of 5 runs, A* and no-reflection best of 3: the
# machine is shared, so the least total is the least disturbed run). Prints
# markdown tables for the README.
#
# usage: scripts/bench_korf.sh [--skip-build] [--heurnet PATH] [--threads T]
#   --skip-build  reuse the PDB files in the cache instead of timing builds
#   --heurnet     executable [build/heurnet]
#   --threads     threads for the PDB builds [2]
# PDBs go to $HEURNET_DATA (default ~/.cache/heurnet), as for every command.
set -euo pipefail
cd "$(dirname "$0")/.."
HN=build/heurnet
skip=0
threads=2
while [ $# -gt 0 ]; do
    case $1 in
    --skip-build) skip=1 ;;
    --heurnet) HN=$2; shift ;;
    --threads) threads=$2; shift ;;
    *) echo "usage: $0 [--skip-build] [--heurnet PATH] [--threads T]" >&2; exit 2 ;;
    esac
    shift
done
KORF=instances/npuzzle/korf100.txt
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
field() { sed -n "s/.* $1=\([^ ]*\).*/\1/p" "$2" | tail -1; }

echo "# $("$HN" version), $(nproc) cores, $(date -u +%Y-%m-%dT%H:%MZ), load average $(cut -d' ' -f1-3 /proc/loadavg)" >&2
declare -A build_s build_mb build_cpu
for p in 5-5-5 6-6-3 7-8; do
    if [ $skip = 0 ]; then
        /usr/bin/time -f "%U %S" -o "$out/time_$p" \
            "$HN" pdb build --puzzle 15 --partition "$p" --threads "$threads" -q >"$out/build_$p"
        build_s[$p]=$(field build_seconds "$out/build_$p")
        build_mb[$p]=$(field peak_rss_mb "$out/build_$p")
        build_cpu[$p]=$(awk '{printf "%.1f", $1 + $2}' "$out/time_$p")
        echo "built $p: ${build_s[$p]} s wall, ${build_cpu[$p]} s CPU, ${build_mb[$p]} MB" >&2
    else
        build_s[$p]="-"
        build_mb[$p]="-"
        build_cpu[$p]="-"
    fi
done

run() { # run NAME REPEATS ALGO HEURISTIC: keeps the run with the least total seconds
    local name=$1 reps=$2 algo=$3 heur=$4 best=
    for ((i = 0; i < reps; i++)); do
        "$HN" solve --puzzle 15 --algo "$algo" --heuristic "$heur" -q "$KORF" >"$out/try" || true
        t=$(tail -1 "$out/try" | sed -n 's/.*total_seconds=\([0-9.]*\).*/\1/p')
        if [ -z "$best" ] || awk "BEGIN {exit !($t < $best)}"; then
            best=$t
            cp "$out/try" "$out/$name"
        fi
    done
    echo "solved $name (best of $reps): $(tail -1 "$out/$name")" >&2
}
run ida78 5 idastar pdb:7-8
run ida78nr 3 idastar pdb:7-8:noreflect
run ida663 1 idastar pdb:6-6-3
run ida555 1 idastar pdb:5-5-5
run astar78 3 astar pdb:7-8
echo "# load average at the end $(cut -d' ' -f1-3 /proc/loadavg)" >&2

echo
echo "| run | solved | all optimal | mean h0 | mean expanded | mean generated | total s | peak RSS MB |"
echo "|---|---|---|---|---|---|---|---|"
for r in ida78:"IDA*, pdb:7-8 + reflection" ida78nr:"IDA*, pdb:7-8 no reflection" \
    ida663:"IDA*, pdb:6-6-3 + reflection" ida555:"IDA*, pdb:5-5-5 + reflection" \
    astar78:"A*, pdb:7-8 + reflection"; do
    f=$out/${r%%:*}
    s=$(tail -1 "$f")
    printf '| %s | %s | %s | %s | %s | %s | %s | %s |\n' "${r#*:}" \
        "$(echo "$s" | sed -n 's/.* solved=\([0-9]*\).*/\1/p')" \
        "$(echo "$s" | sed -n 's/.*all_optimal=\([a-z]*\).*/\1/p')" \
        "$(echo "$s" | sed -n 's/.*mean_h0=\([0-9.]*\).*/\1/p')" \
        "$(echo "$s" | sed -n 's/.*mean_expanded=\([0-9.]*\).*/\1/p')" \
        "$(echo "$s" | sed -n 's/.*mean_generated=\([0-9.]*\).*/\1/p')" \
        "$(echo "$s" | sed -n 's/.*total_seconds=\([0-9.]*\).*/\1/p')" \
        "$(echo "$s" | sed -n 's/.*peak_rss_mb=\([0-9]*\).*/\1/p')"
done
echo
echo "| partition | entries | build s wall ($threads threads) | build s CPU | peak RSS MB | file MB |"
echo "|---|---|---|---|---|---|"
cache=${HEURNET_DATA:-$HOME/.cache/heurnet}
for p in 5-5-5 6-6-3 7-8; do
    entries=$("$HN" pdb info "$cache/npuzzle15-$p.pdb" | awk -F'entries=' '/^pattern/ {split($2,a," "); s+=a[1]} END {print s}')
    mb=$(du -m "$cache/npuzzle15-$p.pdb" | cut -f1)
    echo "| $p | $entries | ${build_s[$p]} | ${build_cpu[$p]} | ${build_mb[$p]} | $mb |"
done
