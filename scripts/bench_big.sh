#!/usr/bin/env bash
# The 35-puzzle, the 48-puzzle and the Rubik's cube: heurnet eval with each
# model's recorded search (one search thread, one BLAS thread) on
#   own:  our own boards and cubes (tuning: walks of 200-600 and 700-2700
#         moves, cubes of 100-1000 random quarter turns; no optimum known),
#   near: (cube3 only) own cubes of 10-16 quarter turns with proven optima,
#   test: DeepCubeA's test sets (final figures only; the 35/48 files' lengths
#         are DeepCubeA's own solutions, read as references).
# A model without a recorded search runs the best search on own states so
# far (below). Each state gets the issue's budget: 30 s (35-puzzle), 60 s (48-puzzle), 20 s
# (cube) at most. Prints one summary line per run; the reports stay in
# OUT/NAME-SET/.
#
# usage: scripts/bench_big.sh own|near|test [OUT [LIMIT [NAMES]]]
#   LIMIT: only the first LIMIT states of each file (0 = all) [0]
#   NAMES: any of 35puzzle 48puzzle cube3 [all three]
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
HN=${HEURNET:-$root/build/heurnet}
set_name=${1:?usage: $0 own|near|test [OUT [LIMIT [NAMES]]]}
out=${2:-/tmp/heurnet-bench-big}
limit=${3:-0}
names=${4:-"35puzzle 48puzzle cube3"}
mkdir -p "$out"
export OPENBLAS_NUM_THREADS=1
for name in $names; do
    ref=()
    case $name-$set_name in
    35puzzle-own) file=instances/npuzzle/own/35puzzle-walk.txt ;;
    48puzzle-own) file=instances/npuzzle/own/48puzzle-walk.txt ;;
    cube3-own) file=instances/cube3/own/cube3-walk.txt ;;
    cube3-near) file=instances/cube3/own/cube3-walk10-16-optimal.txt ;;
    35puzzle-test) file=instances/npuzzle/deepcubea_test_35puzzle.txt ref=(--reference) ;;
    48puzzle-test) file=instances/npuzzle/deepcubea_test_48puzzle.txt ref=(--reference) ;;
    cube3-test) file=instances/cube3/deepcubea_test_cube3.txt ;;
    *)
        echo "$0: unknown run $name-$set_name" >&2
        exit 2 ;;
    esac
    case $name in 35puzzle) secs=30 ;; 48puzzle) secs=60 ;; *) secs=20 ;; esac
    model=$root/models/$name.h5
    # the model's recorded search, else the best on own states so far
    search=()
    if ! "$HN" nn info "$model" | grep -q '^attr.search='; then
        case $name in
        cube3) search=(--algo beam --width 16000 --widen 4 --scale 100 --ball 7 --variants 4
                       --blend 0.5:pdb:corners --blend 0.2:pdb:edges6a
                       --blend 0.2:pdb:edges6b --shortcut 16:3000000:ida
                       --admissible max:pdb:corners,pdb:edges6a,pdb:edges6b) ;;
        35puzzle) search=(--algo anytime --weights 1.8,1.6,1.4,1.3,1.2 --batch 1000
                          --shortcut 60:200000:ida) ;;
        *) search=(--algo beam --width 2000 --widen 2 --scale 100) ;;
        esac
    fi
    echo "== $name on $set_name ($file): ${search[*]:-$("$HN" nn info "$model" | sed -n 's/^attr.search=//p')}"
    "$HN" eval --model "$model" "${search[@]}" --instances "$root/$file" "${ref[@]}" --limit "$limit" \
        --time-limit "$secs" \
        -o "$out/$name-$set_name" --force -q || echo "(eval exit $?: a state unsolved or a bad file)"
done
