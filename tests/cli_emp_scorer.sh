#!/usr/bin/env bash
# heurnet emp gen-data and emp solve --scorer: a gen -> gen-data -> train ->
# solve round trip, the seed decides the data, benchmark instances are kept out
# of training, and scorer models of another encoder or width are refused.
# Args: path of heurnet, instances dir, source dir.
set -u
H="$1"; DATA="$2"; SRC="$3"
. "$(dirname "$0")/lib_cli.sh"

"$H" emp gen --size 6 --seed 3 -o "$T/g6.txt" >/dev/null || { echo "FAIL: emp gen"; exit 1; }
"$H" emp gen --size 7 --seed 4 -o "$T/g7.txt" >/dev/null || { echo "FAIL: emp gen"; exit 1; }
small="--states 30 --moves-per-state 6 --horizon 5 --ta-n 10 --nodes 200 -q"
expect_re 0 "rows=[0-9]+ features=18 encoder=emp-move-v1" \
    "$H" emp gen-data $small --seed 7 "$T/g6.txt" "$T/g7.txt" -o "$T/m1.h5"
expect_re 0 "rows=" "$H" emp gen-data $small --seed 7 "$T/g6.txt" "$T/g7.txt" -o "$T/m2.h5"
a=$(grep -o 'y_mean=[^ ]*' "$T/out")
"$H" emp gen-data $small --seed 7 "$T/g6.txt" "$T/g7.txt" -o "$T/m3.h5" >"$T/out3"
[ "$(grep -o 'y_mean=[^ ]*' "$T/out3")" = "$a" ] || { echo "FAIL: same seed, other data"; fails=$((fails + 1)); }

# usage errors and bad input
expect_re 2 "is a benchmark instance" "$H" emp gen-data $small "$DATA/emp/meta_12x12.txt" -o "$T/x.h5"
[ -e "$T/x.h5" ] && { echo "FAIL: output written for a refused instance"; fails=$((fails + 1)); }
expect_re 2 "-o MOVES.h5 is required" "$H" emp gen-data "$T/g6.txt"
expect_re 2 "--horizon: '-1' is not an integer in 0..100000" "$H" emp gen-data --horizon -1 "$T/g6.txt" -o "$T/x.h5"
expect_re 2 "--moves-per-state: '0' is not an integer in 1..100000" "$H" emp gen-data --moves-per-state 0 "$T/g6.txt" -o "$T/x.h5"
expect_re 1 "nothere.txt" "$H" emp gen-data "$T/nothere.txt" -o "$T/x.h5"
expect_re 0 "--moves-per-state M" "$H" emp gen-data --help

# train a tiny scorer with the generic /x /y path, then solve with it
"$H" train --data "$T/m1.h5" --arch 18-8-1 --epochs 2 --quiet -o "$T/s.h5" >/dev/null 2>&1 ||
    { echo "FAIL: train on gen-data output"; exit 1; }
expect_re 0 "scorer_calls=[0-9]+" "$H" emp solve -q --time 0.5 --ta-n 20 --scorer "$T/s.h5" "$T/g7.txt" -o "$T/s.sol"
expect_re 0 "score=" "$H" emp score "$T/g7.txt" "$T/s.sol"
expect_re 0 "scorer_calls=" "$H" emp solve -q --time 0.3 --scorer "$T/s.h5" --scorer-pick softmax:0.5 "$T/g6.txt" -o "$T/s.sol"
expect_re 2 "--scorer-pick must be" "$H" emp solve -q --time 0.3 --scorer "$T/s.h5" --scorer-pick hot "$T/g6.txt" -o "$T/s.sol"
# another encoder (the n-puzzle model in models/) and another width
if [ -f "$SRC/models/8puzzle-annd.h5" ]; then
    expect_re 1 "8puzzle-annd.h5: model encoder is \"npuzzle-onehot.*needs \"emp-move-v1\"" \
        "$H" emp solve -q --time 0.3 --scorer "$SRC/models/8puzzle-annd.h5" "$T/g6.txt" -o "$T/s.sol"
fi
"$H" train --data "$T/m1.h5" --arch 18-8-2 --epochs 1 --quiet -o "$T/w2.h5" >/dev/null 2>&1 && \
    expect_re 1 "w2.h5: model has 2 outputs" "$H" emp solve -q --time 0.3 --scorer "$T/w2.h5" "$T/g6.txt" -o "$T/s.sol"
expect_re 1 "missing.h5" "$H" emp solve -q --time 0.3 --scorer "$T/missing.h5" "$T/g6.txt" -o "$T/s.sol"
# without --scorer the output has no scorer record
expect_re 0 "score=" "$H" emp solve -q --time 0.3 "$T/g6.txt" -o "$T/s.sol"
grep -q scorer_calls "$T/out" && { echo "FAIL: scorer record without --scorer"; fails=$((fails + 1)); }

[ "$fails" = 0 ] && echo "cli_emp_scorer: ok" || echo "cli_emp_scorer: $fails failure(s)"
[ "$fails" = 0 ]
