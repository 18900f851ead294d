#!/bin/bash
# heurnet's nn library against PyTorch (Debian python3-torch, /usr/bin/python3)
# on the same networks, batches and thread count, printed side by side:
#   training   256-1024-1024-512-128-64-1, batch 1024 (forward, MSE, backward, Adam)
#   inference  the same net, batch 256 (eval mode; heurnet folds batch norm)
#   small net  256-128-64-1, batch 1 (one call, as A* makes it)
# each with Gaussian inputs and with one-hot boards (16 blocks of 16, what the
# paper's net reads; heurnet skips the zeros in the first layer, PyTorch cannot).
# Each side runs --repeat times, alternating, and its best run counts (the
# machine is shared; the best run is the least disturbed one). With one
# thread the rates come from process CPU time (time spent waiting for a core
# on a busy machine is not counted); the wall-clock ratio is printed too.
# Usage: scripts/bench_vs_torch.sh [--threads T] [--seconds S] [--repeat N] [--heurnet PATH]
set -eu
cd "$(dirname "$0")/.."
THREADS=1
SECONDS_EACH=3
REPEAT=2
HN=build/heurnet
while [ $# -gt 0 ]; do
    case $1 in
    --threads) THREADS=$2; shift 2 ;;
    --seconds) SECONDS_EACH=$2; shift 2 ;;
    --repeat) REPEAT=$2; shift 2 ;;
    --heurnet) HN=$2; shift 2 ;;
    -h | --help)
        sed -n '2,13p' "$0" | sed 's/^# \{0,1\}//'
        echo "  --threads T   BLAS threads for both [1]"
        echo "  --seconds S   seconds per measurement [3]"
        echo "  --repeat N    runs per side, best counts [2]"
        echo "  --heurnet P   the heurnet executable [build/heurnet]"
        exit 0 ;;
    *) echo "bench_vs_torch.sh: unknown option $1 (try --help)" >&2; exit 2 ;;
    esac
done
[ -x "$HN" ] || { echo "bench_vs_torch.sh: $HN not found; build first (scripts/test.sh)" >&2; exit 1; }
/usr/bin/python3 -c "import torch" 2>/dev/null ||
    { echo "bench_vs_torch.sh: /usr/bin/python3 cannot import torch (apt-get install python3-torch)" >&2; exit 1; }
export OPENBLAS_NUM_THREADS=$THREADS
# CPU time sums over threads, so it only measures speed for one thread.
RATE=samples_per_s
US=us_per_call
if [ "$THREADS" -eq 1 ]; then
    RATE=cpu_samples_per_s
    US=cpu_us_per_call
fi

key() { tr ' ' '\n' | sed -n "s/^$1=//p"; }
# The record with more samples_per_s of two (the first may be empty).
best() {
    [ -z "$1" ] && { echo "$2"; return; }
    awk -v a="$(echo "$1" | key $RATE)" -v b="$(echo "$2" | key $RATE)" 'BEGIN { exit !(a >= b) }' &&
        echo "$1" || echo "$2"
}

echo "# heurnet $("$HN" version | cut -d' ' -f2-) vs PyTorch $(/usr/bin/python3 -c 'import torch; print(torch.__version__)'), threads=$THREADS, OPENBLAS_CORETYPE=${OPENBLAS_CORETYPE:-unset}, $(nproc) cores, $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | sed 's/^ //')"
echo "# rates: $RATE (samples/s), times: $US (microseconds per call or step)"
printf "%-38s %14s %14s %7s %11s %10s %10s %s\n" case heurnet_per_s torch_per_s ratio wall_ratio heurnet_us torch_us fraction_of_sgemm
run() { # label arch batch mode [extra heurnet args]
    local label=$1 arch=$2 batch=$3 mode=$4
    shift 4
    local h="" t="" r x
    for r in $(seq "$REPEAT"); do
        x=$("$HN" bench nn --arch "$arch" --batch "$batch" --threads "$THREADS" --mode "$mode" --seconds "$SECONDS_EACH" "$@")
        h=$(best "$h" "$x")
        x=$(/usr/bin/python3 scripts/bench_torch.py --arch "$arch" --batch "$batch" --threads "$THREADS" --mode "$mode" --seconds "$SECONDS_EACH" "$@")
        t=$(best "$t" "$x")
    done
    local hs ts hu tu frac wr
    hs=$(echo "$h" | key $RATE)
    ts=$(echo "$t" | key $RATE)
    hu=$(echo "$h" | key $US)
    tu=$(echo "$t" | key $US)
    frac=$(echo "$h" | key fraction_of_sgemm)
    [ "$THREADS" -eq 1 ] && frac=$(echo "$h" | key cpu_fraction_of_sgemm)
    wr=$(awk -v a="$(echo "$h" | key samples_per_s)" -v b="$(echo "$t" | key samples_per_s)" 'BEGIN { printf "%.2fx", a / b }')
    printf "%-38s %14s %14s %7s %11s %10s %10s %s\n" "$label" "$hs" "$ts" \
        "$(awk -v a="$hs" -v b="$ts" 'BEGIN { printf "%.2fx", a / b }')" "$wr" "$hu" "$tu" "$frac"
}
run "train 256-...-1 b=1024 (gauss x)" 256-1024-1024-512-128-64-1 1024 train
run "train 256-...-1 b=1024 (one-hot x)" 256-1024-1024-512-128-64-1 1024 train --input onehot
run "infer 256-...-1 b=256 (gauss x)" 256-1024-1024-512-128-64-1 256 infer
run "infer 256-...-1 b=256 (one-hot x)" 256-1024-1024-512-128-64-1 256 infer --input onehot
run "infer 256-128-64-1 b=1 (gauss x)" 256-128-64-1 1 infer
run "infer 256-128-64-1 b=1 (one-hot x)" 256-128-64-1 1 infer --input onehot
