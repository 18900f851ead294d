#!/usr/bin/env bash
# heurnet emp gen-data --decision place, emp train-place and emp solve
# --scorer with a place model: a gen -> gen-data -> train-place -> solve
# round trip, the seed decides the data, benchmark instances are kept out of
# training, and the model plugs into the backtracker (its decision attribute).
# Args: path of heurnet, instances dir, source dir.
set -u
H="$1"; DATA="$2"; SRC="$3"
. "$(dirname "$0")/lib_cli.sh"

"$H" emp gen --size 8 --frame-colours 3 --inner-colours 6 --seed 3 -o "$T/g8.txt" >/dev/null ||
    { echo "FAIL: emp gen"; exit 1; }
small="--decision place --states 40 --runs 2 --probe-nodes 300 --rate 0.05 --restart-nodes 20000 --breaks 6 -q"
expect_re 0 "rows=[0-9]+ groups=40 features=18 encoder=emp-place-v1" \
    "$H" emp gen-data $small --seed 7 "$T/g8.txt" -o "$T/p1.h5"
a=$(grep -o 'y_mean=[^ ]*' "$T/out")
"$H" emp gen-data $small --seed 7 "$T/g8.txt" -o "$T/p2.h5" >"$T/out2"
[ "$(grep -o 'y_mean=[^ ]*' "$T/out2")" = "$a" ] || { echo "FAIL: same seed, other data"; fails=$((fails + 1)); }

# usage errors and bad input
expect_re 2 "is a benchmark instance" "$H" emp gen-data $small "$DATA/emp/meta_12x12.txt" -o "$T/x.h5"
[ -e "$T/x.h5" ] && { echo "FAIL: output written for a refused instance"; fails=$((fails + 1)); }
expect_re 2 "--decision: 'other' is not one of" "$H" emp gen-data --decision other "$T/g8.txt" -o "$T/x.h5"
expect_re 2 "--runs: '0' is not an integer in 1..1000" "$H" emp gen-data $small --runs 0 "$T/g8.txt" -o "$T/x.h5"
expect_re 0 "--probe-nodes N" "$H" emp gen-data --decision place --help
expect_re 1 "g8.txt: not an HDF5 file" "$H" emp train-place --data "$T/g8.txt" -o "$T/x.h5"

# train, then solve with the model: it selects the backtracking start
expect_re 0 "val_top1_gain=" "$H" emp train-place --data "$T/p1.h5" --arch 18-8-1 --epochs 2 -q \
    --val 0.25 -o "$T/place.h5"
expect_re 0 "scorer_decision=place scorer_calls=[1-9]" \
    "$H" emp solve -q --cpu --time 0.5 --scorer "$T/place.h5" "$T/g8.txt" -o "$T/s.sol"
grep -q "start=backtrack" "$T/out" || { echo "FAIL: the place model did not select start=backtrack"; fails=$((fails + 1)); }
expect_re 0 "score=" "$H" emp score "$T/g8.txt" "$T/s.sol"
expect_re 2 "needs --start backtrack" \
    "$H" emp solve -q --time 0.3 --start greedy --scorer "$T/place.h5" "$T/g8.txt" -o "$T/s.sol"
expect_re 2 "--scorer-temp: '-1' is not a number" \
    "$H" emp solve -q --time 0.3 --scorer-temp -1 --scorer "$T/place.h5" "$T/g8.txt" -o "$T/s.sol"
# the shipped move scorer still loads as one
if [ -f "$SRC/models/emp-move-scorer.h5" ]; then
    expect_re 0 "scorer_calls=" "$H" emp solve -q --time 0.3 --scorer "$SRC/models/emp-move-scorer.h5" \
        "$T/g8.txt" -o "$T/s.sol"
fi

# the other places of issue 21: the colour bound, scorer-picked walk moves, STAGE restarts
expect_re 0 "scan_pruned=[0-9]+" "$H" emp solve -q --cpu --time 0.3 --start backtrack --scan-bound parity \
    "$T/g8.txt" -o "$T/s.sol"
expect_re 2 "--scan-bound: 'some' is not one of none, dead, parity" \
    "$H" emp solve --scan-bound some "$T/g8.txt" -o "$T/s.sol"
expect_re 2 "--walk-choose needs a move model" "$H" emp solve --walk 10 --walk-choose 4 "$T/g8.txt" -o "$T/s.sol"
expect_re 2 "--walk-choose needs a move model; .* is a place model" \
    "$H" emp solve --walk 10 --walk-choose 4 --scorer "$T/place.h5" "$T/g8.txt" -o "$T/s.sol"
if [ -f "$SRC/models/emp-move-scorer.h5" ]; then
    expect_re 0 "scorer_calls=[1-9]" "$H" emp solve -q --cpu --time 0.3 --walk 100000 --walk-choose 4 \
        --scorer "$SRC/models/emp-move-scorer.h5" "$T/g8.txt" -o "$T/s.sol"
fi
expect_re 2 "--stage and --stage-log need --restart" "$H" emp solve --stage 4 "$T/g8.txt" -o "$T/s.sol"
expect_re 2 "--stage-weights: wants 9 numbers" \
    "$H" emp solve --restart 1 --stage 4 --stage-weights 1,2,3 "$T/g8.txt" -o "$T/s.sol"
expect_re 0 "restarts=[0-9]" "$H" emp solve -q --cpu --time 0.5 --restart 0.01 --stage 4 --walk 10000 \
    --stage-weights 0,1,0,0,0,0,0,-1,0 --stage-log "$T/stage.tsv" "$T/g8.txt" -o "$T/s.sol"
r=$(grep -o "restarts=[0-9]*" "$T/out" | cut -d= -f2)
# one line per descent a restart ended (the clock cuts the last), 8 features + 2 scores
awk -v want=$((r > 0 ? r - 1 : 0)) 'NF != 10 { bad = 1 } END { exit bad || NR != want }' "$T/stage.tsv" ||
    { echo "FAIL: --stage-log: not one line of 10 fields per descent"; fails=$((fails + 1)); }
if command -v python3 >/dev/null; then # the fit on rows with a known linear target
    awk 'BEGIN { srand(3); for (i = 0; i < 40; i++) { s = 0.9 + rand() / 10; d = rand() / 4;
         printf "%g\t0.1\t0.1\t0\t0\t0\t%g\t0.5\t450\t%d\n", s, d, 450 + int(100 * s - 40 * d - 90) } }' \
        >"$T/fit.tsv"
    python3 "$SRC/scripts/fit_emp_stage.py" "$T/fit.tsv" >"$T/fit" 2>&1 &&
        grep -qE "^--stage-weights [-0-9.e]+(,[-0-9.e]+){8}$" "$T/fit" &&
        grep -qE "all features +mse=[0-9.]+ R2=\+0\.[89]" "$T/fit" ||
        { echo "FAIL: fit_emp_stage.py"; cat "$T/fit"; fails=$((fails + 1)); }
fi

# ab-stats: mean, paired and Welch p-values against the base arm
printf 'g off 1 450\ng off 2 452\ng off 3 451\ng on 1 453\ng on 2 452\ng on 3 455\n' >"$T/ab.txt"
expect_re 0 "^\| g \| on \| 3 \| 453.33 \| 1.53 \| 0.88 \| \+2.33 \| 0.192 \| 0.102 \|" \
    "$H" emp ab-stats "$T/ab.txt"
expect_re 1 "no rows of the base arm 'x'" "$H" emp ab-stats --base x "$T/ab.txt"
printf 'g off one 450\n' >"$T/bad.txt"
expect_re 1 "bad.txt: line 1: want INSTANCE ARM SEED VALUE" "$H" emp ab-stats "$T/bad.txt"

[ "$fails" = 0 ] && echo "cli_emp_place: ok" || echo "cli_emp_place: $fails failure(s)"
[ "$fails" = 0 ]
