#!/usr/bin/env bash
# heurnet quickstart: installs missing packages, builds Release, and runs the
# main job on shipped defaults: the shipped 15-puzzle search network (int8,
# incremental first layer) solves DeepCubeA's test boards with plain A*,
# side by side with A* on the additive
# 7-8 pattern database (built on first use into $HEURNET_DATA or
# ~/.cache/heurnet: a few minutes and about 2 GB of memory, once).
# The three eval reports (summary.md, instances.tsv, PNG figures when
# gnuplot is installed) stay in the folder printed at the end. Then a domain
# plug-in (the pancake problem) is built, checked, trained and solved.
# Usage: scripts/quickstart.sh [BOARDS] [OUT]
#   BOARDS  how many test boards [50]; 0 = all 500
#   OUT     report folder [report-quickstart]; earlier reports in it are replaced
set -euo pipefail
cd "$(dirname "$0")/.."
boards=${1:-50}
out=${2:-report-quickstart}
scripts/deps.sh
cmake -S . -B build -DCMAKE_BUILD_TYPE=Release >/dev/null
cmake --build build -j"$(nproc)" >/dev/null
H=build/heurnet
model=models/15puzzle-annd.h5
search_model=models/15puzzle-search.h5
inst=instances/npuzzle/deepcubea_test_15puzzle.txt
mkdir -p "$out"

echo "== $($H --version); models $search_model (search) and $model (accuracy)"
$H nn info "$search_model" | grep -E '^(spec|encoder|params)' || true
echo
echo "== 1. the search network's recorded search vs A* with the 7-8 PDB ($boards boards, goal blank-last)"
echo "   (a small network distilled from a larger one, run in int8 with an incremental first"
echo "    layer; estimates kept in 1/10 moves; the model file records:"
echo "    $($H nn info "$search_model" | sed -n 's/^attr.search=//p'))"
$H eval --model "$search_model" --instances "$inst" --goal blank-last --limit "$boards" \
    -o "$out/search" --force
echo
echo "== 2. A* with the accuracy network alone (mean distance, the paper's setting)"
$H eval --model "$model" --instances "$inst" --goal blank-last --limit "$boards" \
    --baseline-algo none -o "$out/plain" --force
echo
echo "== 3. A* with max(accuracy network - 3, 7-8 PDB)"
$H eval --model "$model" --instances "$inst" --goal blank-last --limit "$boards" \
    --heuristic "ann:$model,pdb:7-8,delta:3" --baseline-algo none -o "$out/combined" --force
echo
echo "== 4. any problem as a domain: the pancake plug-in (examples/domain_pancake.c), built"
echo "   against the public headers, checked, trained by value iteration and solved"
cc -shared -fPIC -O2 -Ibuild/include examples/domain_pancake.c -o "$out/libpancake.so"
P="$out/libpancake.so:8"
$H domain check "$P" --walks 100
$H avi --domain "$P" --arch 64-128-64-1 --residual gap --rounds 20 --steps 50 --batch 200 \
    --walk-max 16 -o "$out/pancake8.h5" --quiet | tail -1
printf '7 6 5 4 3 2 1 0\n3 1 4 0 6 5 2 7\n2 5 7 0 6 1 4 3\n' >"$out/pancakes.txt"
$H solve --domain "$P" --algo idastar "$out/pancakes.txt" | cut -c1-110
$H solve --domain "$P" --model "$out/pancake8.h5" --algo bwas --batch 8 "$out/pancakes.txt" |
    cut -c1-110
echo
echo "== report of run 1 (summary.md)"
sed -n '1,40p' "$out/search/summary.md"
echo
echo "== reports kept in $out/: search/, plain/, combined/ (summary.md, instances.tsv, plots.gp$(
    ls "$out"/search/*.png >/dev/null 2>&1 && echo ", PNG figures"))"
