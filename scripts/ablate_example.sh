#!/usr/bin/env bash
# The worked example of docs/ablation.md: the paper's network
# (256-1024-1024-512-128-64-1) against two smaller ones on 15-puzzle data,
# 5 seeds each, with A* on generated boards. Labels come from IDA* with the
# 7-8 PDB (built into ~/.cache/heurnet on first use, about 240 MB).
# Rerunning continues where it stopped (gen files and the ablation CSV are
# journals). usage: scripts/ablate_example.sh [BUILD_DIR [WORK_DIR [JOBS]]]
set -euo pipefail
HN=$(realpath "${1:-build}")/heurnet
W=${2:-ablate-example}
JOBS=${3:-2}
SRC=$(dirname "$(realpath "$0")")
mkdir -p "$W"
# 1500 random boards and every board on their optimal paths (78,970 rows)
"$HN" gen --puzzle 15 --count 1500 --path-states --seed 1 --quiet -o "$W/train15.h5"
# search boards: 40-move random walks from the goal, labelled optimally
"$HN" gen --puzzle 15 --walk 40 --count 30 --seed 2 --quiet -o "$W/search15.h5"
/usr/bin/python3 "$SRC/dataset_to_instances.py" "$W/search15.h5" "$W/search15.txt"
"$HN" ablate --data "$W/train15.h5" \
    --arch 256-1024-1024-512-128-64-1 --arch 256-256-128-1 --arch 256-64-1 \
    --seeds 5 --baseline 1 --epochs 5 --batch 512 --lr 2e-3 --threads 1 --jobs "$JOBS" \
    --search "$W/search15.txt:30" --search-opts pdb:7-8 \
    --csv "$W/ablation.csv" --plot "$W/ablation" --quiet | tee "$W/ablation.md"
