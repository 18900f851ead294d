#!/usr/bin/env bash
# heurnet quickstart: installs missing packages, builds Release, and runs the
# main job on shipped defaults: the shipped 15-puzzle ANN-distance model
# solves DeepCubeA's test boards with A*, side by side with A* on the additive
# 7-8 pattern database (built on first use into $HEURNET_DATA or
# ~/.cache/heurnet: a few minutes and about 2 GB of memory, once).
# Usage: scripts/quickstart.sh [BOARDS]   (how many test boards [50]; 0 = all 500)
set -euo pipefail
cd "$(dirname "$0")/.."
boards=${1:-50}
scripts/deps.sh
cmake -S . -B build -DCMAKE_BUILD_TYPE=Release >/dev/null
cmake --build build -j"$(nproc)" >/dev/null
H=build/heurnet
model=models/15puzzle-annd.h5
search_model=models/15puzzle-annd-amse.h5
inst=instances/npuzzle/deepcubea_test_15puzzle.txt
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT

echo "== $($H --version); model $model"
$H nn info "$model" | grep -E '^(spec|encoder|params)' || true
echo
echo "== 1. A* with the network alone vs A* with the 7-8 PDB ($boards boards, goal blank-last)"
$H eval --model "$model" --instances "$inst" --goal blank-last --limit "$boards" \
    -o "$out/plain" --force
echo
echo "== 2. A* with max(network - 3, 7-8 PDB): the setting that keeps solutions near-optimal"
$H eval --model "$model" --instances "$inst" --goal blank-last --limit "$boards" \
    --heuristic "ann:$model,pdb:7-8,delta:3" -o "$out/combined" --force
echo
echo "== 3. A* with the search variant alone (trained to under-estimate: amse:40)"
$H eval --model "$search_model" --instances "$inst" --goal blank-last --limit "$boards" \
    --baseline-algo none -o "$out/variant" --force
echo
echo "== report of run 2 (summary.md)"
sed -n '1,40p' "$out/combined/summary.md"
