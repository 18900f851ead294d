#!/usr/bin/env bash
# Benchmark of the n-puzzle solvers: PDB build time and peak memory per
# partition, then Korf's 100 15-puzzles solved with IDA* (and A*) on one
# thread. Prints a markdown table for the README.
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
KORF=../shared/data/npuzzle/korf100.txt
[ -f "$KORF" ] || KORF=/work/shared/data/npuzzle/korf100.txt
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
field() { sed -n "s/.* $1=\([^ ]*\).*/\1/p" "$2" | tail -1; }

echo "# $("$HN" version), $(nproc) cores, $(date -u +%Y-%m-%dT%H:%MZ)" >&2
declare -A build_s build_mb
for p in 5-5-5 6-6-3 7-8; do
    if [ $skip = 0 ]; then
        "$HN" pdb build --puzzle 15 --partition "$p" --threads "$threads" -q >"$out/build_$p"
        build_s[$p]=$(field build_seconds "$out/build_$p")
        build_mb[$p]=$(field peak_rss_mb "$out/build_$p")
        echo "built $p: ${build_s[$p]} s, ${build_mb[$p]} MB" >&2
    else
        build_s[$p]="-"
        build_mb[$p]="-"
    fi
done

run() { # run NAME ALGO HEURISTIC [extra solve options]
    local name=$1 algo=$2 heur=$3
    shift 3
    "$HN" solve --puzzle 15 --algo "$algo" --heuristic "$heur" -q "$@" "$KORF" >"$out/$name" || true
    echo "solved $name: $(tail -1 "$out/$name")" >&2
}
run ida78 idastar pdb:7-8
run ida78nr idastar pdb:7-8:noreflect
run ida663 idastar pdb:6-6-3
run ida555 idastar pdb:5-5-5
run astar78 astar pdb:7-8

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
echo "| partition | entries | build s ($threads threads) | peak RSS MB | file MB |"
echo "|---|---|---|---|---|"
cache=${HEURNET_DATA:-$HOME/.cache/heurnet}
for p in 5-5-5 6-6-3 7-8; do
    entries=$("$HN" pdb info "$cache/npuzzle15-$p.pdb" | awk -F'entries=' '/^pattern/ {split($2,a," "); s+=a[1]} END {print s}')
    mb=$(du -m "$cache/npuzzle15-$p.pdb" | cut -f1)
    echo "| $p | $entries | ${build_s[$p]} | ${build_mb[$p]} | $mb |"
done
