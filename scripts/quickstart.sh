#!/usr/bin/env bash
# heurnet quickstart: installs missing packages, builds Release, and runs the
# main job on shipped defaults.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/deps.sh
cmake -S . -B build -DCMAKE_BUILD_TYPE=Release >/dev/null
cmake --build build -j"$(nproc)" >/dev/null
echo "== heurnet $(build/heurnet --version)"
echo "== training a small network on a synthetic regression task (loss should fall)"
build/heurnet nn demo --seed 1
