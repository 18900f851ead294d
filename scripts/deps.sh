#!/usr/bin/env bash
# Installs the Debian 12 packages heurnet needs, skipping what is present.
# Usage: scripts/deps.sh [--peers]   (--peers adds PyTorch for benchmarks;
# Open MPI is always installed: heurnet gen and train under mpirun, tested in CI)
set -euo pipefail
pkgs=(build-essential cmake pkg-config git libopenblas-dev libhdf5-dev hdf5-tools
      libgsl-dev zlib1g-dev libglpk-dev gnuplot-nox python3-numpy python3-h5py python3-onnx
      clang-format clang-14 libclang-rt-14-dev # clang: the libFuzzer harnesses (scripts/fuzz.sh)
      openmpi-bin libopenmpi-dev)
for arg in "$@"; do
    case $arg in
    --peers) pkgs+=(python3-torch) ;;
    --mpi) ;; # accepted for old scripts: Open MPI is always installed
    esac
done
missing=()
for p in "${pkgs[@]}"; do
    dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
# npm installs onnxruntime-node for tests/cli_export.sh (any npm will do).
command -v npm >/dev/null || missing+=(npm)
if [ ${#missing[@]} -gt 0 ]; then
    echo "heurnet: installing ${missing[*]}" >&2
    sudo_cmd=""
    [ "$(id -u)" -ne 0 ] && sudo_cmd="sudo"
    $sudo_cmd apt-get update -qq
    DEBIAN_FRONTEND=noninteractive $sudo_cmd apt-get install -y -qq "${missing[@]}" >/dev/null
fi
