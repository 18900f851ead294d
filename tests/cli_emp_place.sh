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
expect_re 2 "--decision must be" "$H" emp gen-data --decision other "$T/g8.txt" -o "$T/x.h5"
expect_re 2 "--runs must be" "$H" emp gen-data $small --runs 0 "$T/g8.txt" -o "$T/x.h5"
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
expect_re 2 "--scorer-temp must be" \
    "$H" emp solve -q --time 0.3 --scorer-temp -1 --scorer "$T/place.h5" "$T/g8.txt" -o "$T/s.sol"
# the shipped move scorer still loads as one
if [ -f "$SRC/models/emp-move-scorer.h5" ]; then
    expect_re 0 "scorer_calls=" "$H" emp solve -q --time 0.3 --scorer "$SRC/models/emp-move-scorer.h5" \
        "$T/g8.txt" -o "$T/s.sol"
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
