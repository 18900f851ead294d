#!/usr/bin/env bash
# The generic search core (search/generic) against the specialized n-puzzle
# searches on the same boards, same binary, runs interleaved: IDA* with
# Manhattan distance on ten of Korf's 100 (those it solves within 10 M
# expansions; `bench_srch_dom FILE -10 x` lists them) and A* on twenty
# random walks of 50 moves, and A* with the shipped 15-puzzle search
# network as it records (scale 10, delta 0.65, q8) on the first 50 of
# DeepCubeA's boards (BENCH_FLOAT=1: both in float, where node counts
# agree exactly). Prints one TSV row per board and the expansions per
# second of both.
#   scripts/bench_domain.sh [BUILD_DIR] [REPS]
set -euo pipefail
cd "$(dirname "$0")/.."
build=${1:-build}
reps=${2:-3}
cmake -S . -B "$build" -DCMAKE_BUILD_TYPE=Release >/dev/null
cmake --build "$build" --target bench_srch_dom -j2 >/dev/null
"$build/tests/bench_srch_dom" instances/npuzzle/korf100.txt "$reps" \
    94 55 12 79 42 9 19 30 28 2 -- 20 50 \
    -- models/15puzzle-search.h5 instances/npuzzle/deepcubea_test_15puzzle.txt 50
