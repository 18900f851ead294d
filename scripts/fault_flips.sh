#!/bin/bash
# Fault test: N random single-byte changes of a model file, each checked with
# `heurnet predict` (on the Korf 100 boards) and `heurnet nn info`. A changed
# copy must be refused (non-zero exit, no signal) or give exactly the output
# of the undamaged model. Prints one summary line; exits 1 on any crash or
# silently changed output.
# usage: scripts/fault_flips.sh [-n FLIPS] [-s SEED] [-m MODEL] [-b HEURNET]
set -u
root=$(cd "$(dirname "$0")/.." && pwd)
n=200 seed=1 model=$root/models/15puzzle-annd.h5 hn=$root/build/heurnet
while getopts "n:s:m:b:" o; do
    case $o in
    n) n=$OPTARG ;; s) seed=$OPTARG ;; m) model=$OPTARG ;; b) hn=$OPTARG ;;
    *) echo "usage: $0 [-n FLIPS] [-s SEED] [-m MODEL] [-b HEURNET]" >&2; exit 2 ;;
    esac
done
boards=$root/instances/npuzzle/korf100.txt
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT

# run FILE OUT: predict + nn info of FILE into OUT; prints the worst exit code
run() {
    "$hn" predict --model "$1" --instances "$boards" >"$2" 2>"$T/err"
    local a=$?
    "$hn" nn info "$1" >>"$2" 2>>"$T/err"
    local b=$?
    echo $((a > b ? a : b))
}

cp "$model" "$T/m.h5"
[ "$(run "$T/m.h5" "$T/base")" = 0 ] || { echo "the undamaged model fails: $(cat "$T/err")" >&2; exit 2; }
size=$(stat -c %s "$model")
RANDOM=$seed
refused=0 same=0 changed=0 crashed=0
for ((i = 0; i < n; i++)); do
    pos=$(((RANDOM * 32768 + RANDOM) % size))
    xor=$((RANDOM % 255 + 1))
    cp "$model" "$T/m.h5"
    old=$(od -An -tu1 -j "$pos" -N1 "$model" | tr -d ' ')
    printf "\\x$(printf %02x $((old ^ xor)))" | dd of="$T/m.h5" bs=1 seek="$pos" conv=notrunc status=none
    rc=$(run "$T/m.h5" "$T/out")
    if [ "$rc" -ge 128 ]; then
        crashed=$((crashed + 1))
        echo "crash: byte $pos xor $xor: exit $rc" >&2
    elif [ "$rc" -ne 0 ]; then
        refused=$((refused + 1))
    elif cmp -s "$T/base" "$T/out"; then
        same=$((same + 1))
    else
        changed=$((changed + 1))
        echo "silent change: byte $pos xor $xor" >&2
    fi
done
echo "flips=$n seed=$seed size=$size refused=$refused unchanged=$same silently_changed=$changed crashed=$crashed"
[ $((changed + crashed)) -eq 0 ]
