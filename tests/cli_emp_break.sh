#!/usr/bin/env bash
# The learned break gate of the backtracker: emp gen-data --decision break ->
# heurnet train -> emp solve --scorer, the seed decides the data, benchmark
# instances are kept out of training, the model records decision=break and
# plugs into the backtracker's break phases; --scorer-gate parsing.
# Args: path of heurnet, instances dir, source dir.
set -u
H="$1"; DATA="$2"; SRC="$3"
. "$(dirname "$0")/lib_cli.sh"

# a turned clue: no board is perfect, so the driving search keeps breaking
"$H" emp gen --size 8 --frame-colours 3 --inner-colours 6 --seed 5 -o "$T/g8.txt" \
    --solution "$T/g8.sol" >/dev/null || { echo "FAIL: emp gen"; exit 1; }
read -r p r < <(sed -n 20p "$T/g8.sol")
clue="--clue $p,2,3,$(((r + 1) % 4))"
small="--decision break --states 12 --runs 2 --probe-nodes 2000 --rate 0.05 --restart-nodes 20000 --breaks 6 -q"
expect_re 0 "states=12 decision=break features=16 encoder=emp-break-v1" \
    "$H" emp gen-data $small --seed 7 "$T/g8.txt" -o "$T/b1.h5"
"$H" emp gen-data $small --seed 7 "$T/g8.txt" -o "$T/b2.h5" >/dev/null
# the same labels (h5dump: hdf5-tools, scripts/deps.sh; the files' headers hold times)
h5dump -d y "$T/b1.h5" 2>/dev/null | tail -n +2 >"$T/y1"
h5dump -d y "$T/b2.h5" 2>/dev/null | tail -n +2 >"$T/y2"
grep -q "( 12 )" "$T/y1" && cmp -s "$T/y1" "$T/y2" || fail "same seed, other labels (or no /y of 12 rows)"

expect_re 2 "is a benchmark instance" "$H" emp gen-data $small "$DATA/emp/meta_12x12.txt" -o "$T/x.h5"
expect_re 2 "--decision: 'other' is not one of move, place, break" \
    "$H" emp gen-data --decision other "$T/g8.txt" -o "$T/x.h5"
expect_re 0 "--decision break" "$H" emp gen-data --decision break --help

# the generic trainer: the model takes the data's decision
expect_re 0 "^5," "$H" train --data "$T/b1.h5" --arch 16-8-1 --epochs 5 --val-fraction 0.25 \
    --quiet -o "$T/break.h5"
expect_re 0 "attr.decision=break" "$H" nn info "$T/break.h5"
expect_re 0 "scorer_decision=break scorer_threshold=0 scorer_calls=[1-9]" \
    "$H" emp solve -q --cpu --time 0.5 --scorer "$T/break.h5" "$T/g8.txt" -o "$T/s.sol"
grep -q "start=backtrack" "$T/out" || fail "the break model did not select start=backtrack"
expect_re 0 "scorer_threshold=-inf .*scorer_denied=0 " "$H" emp solve -q --cpu --time 0.3 \
    --scorer "$T/break.h5" --scorer-gate off "$T/g8.txt" -o "$T/s.sol"
expect_re 0 "scorer_threshold=1e\+06 scorer_calls=[0-9]+ scorer_hits=[0-9]+ scorer_allowed=0 " \
    "$H" emp solve -q --cpu --time 0.3 --scorer "$T/break.h5" --scorer-gate 1e6 "$T/g8.txt" -o "$T/s.sol"
expect_re 0 "score=" "$H" emp score "$T/g8.txt" "$T/s.sol"
expect_re 0 "scorer_calls=0 scorer_hits=[1-9][0-9]* scorer_allowed=[1-9][0-9]* scorer_denied=[1-9]" \
    "$H" emp solve -q --cpu --time 0.3 --scorer "$T/break.h5" --scorer-gate random:0.5 "$T/g8.txt" -o "$T/s.sol"
expect_re 2 "--scorer-gate: random:P wants P in 0..1" \
    "$H" emp solve --scorer-gate random:1.5 --scorer "$T/break.h5" "$T/g8.txt" -o "$T/s.sol"
expect_re 2 "--scorer-gate: '(x|inf)' is not a number, off or random:P" \
    "$H" emp solve --scorer-gate x --scorer "$T/break.h5" "$T/g8.txt" -o "$T/s.sol"
expect_re 2 "--scorer-gate: '(x|inf)' is not a number, off or random:P" \
    "$H" emp solve --scorer-gate inf --scorer "$T/break.h5" "$T/g8.txt" -o "$T/s.sol"
expect_re 2 "needs --start backtrack" \
    "$H" emp solve -q --time 0.3 --start greedy --scorer "$T/break.h5" "$T/g8.txt" -o "$T/s.sol"
expect_re 2 "--walk-choose needs a move model; .* is a break model" \
    "$H" emp solve --walk 10 --walk-choose 4 --scorer "$T/break.h5" "$T/g8.txt" -o "$T/s.sol"
[ "$fails" = 0 ] && echo "cli_emp_break: ok" || echo "cli_emp_break: $fails failure(s)"
[ "$fails" = 0 ]
