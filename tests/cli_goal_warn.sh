#!/bin/bash
# A network far off at the goal is warned about (issue 63, defect 20): the
# default data of gen (uniform boards, no state near the goal) trains a
# network that estimates many moves at the goal itself and that A* cannot
# use; train, ablate and eval (both paths) say so on stderr, naming the
# model and the fix, even with --quiet; a model that is close at the goal
# (data with the goal and path states, the shipped 15-puzzle search network,
# the 35-puzzle network) gets no warning.
# Arguments: path of heurnet, instances dir, source dir.
set -u
H=$1
SRC=$3
. "$(dirname "$0")/lib_cli.sh"
need_h5py

# --- train ---------------------------------------------------------------------
"$H" gen --puzzle 8 --count 3000 --seed 1 --threads 1 --quiet -o "$T/u.h5" >/dev/null || fail "gen u"
"$H" train --data "$T/u.h5" --arch 81-64-32-1 --epochs 8 --quiet -o "$T/mu.h5" >"$T/out" 2>"$T/err" ||
    fail "train on uniform boards exited $?: $(cat "$T/err")"
[ -s "$T/mu.h5" ] || fail "the warned model was not written"
for p in "warning: $T/mu.h5 estimates" "at the goal of npuzzle:3x3" "no row within 2 moves" \
    "gen --path-states"; do
    grep -qF -- "$p" "$T/err" || fail "train: the warning lacks '$p': $(cat "$T/err")"
done
# the goal itself in the data, and the boards on optimal paths: close at the goal
for i in $(seq 300); do echo "g$i 0 1 2 3 4 5 6 7 8"; done >"$T/goals.txt"
"$H" gen --puzzle 8 --from "$T/goals.txt" --threads 1 --quiet -o "$T/g.h5" >/dev/null &&
    "$H" gen --puzzle 8 --count 1500 --seed 1 --threads 1 --path-states --quiet -o "$T/p.h5" \
        >/dev/null || fail "gen g, p"
"$H" train --data "$T/g.h5" --data "$T/p.h5" --arch 81-64-32-1 --epochs 8 --quiet -o "$T/mg.h5" \
    >"$T/out" 2>"$T/err" || fail "train g+p: $(cat "$T/err")"
grep -q warning "$T/err" && fail "train warned about a model close at the goal: $(cat "$T/err")"

# --- ablate ------------------------------------------------------------------------
"$H" ablate --data "$T/u.h5" --quiet --threads 1 --epochs 2 --arch 81-8-1 --seeds 1 \
    --csv "$T/a.csv" >"$T/out" 2>"$T/err" || fail "ablate: $(cat "$T/err")"
grep -qF "warning: 81-8-1 seed 1 estimates" "$T/err" || fail "ablate: no warning: $(cat "$T/err")"

# --- eval, n-puzzle path -----------------------------------------------------------
"$H" gen --puzzle 8 --count 5 --seed 9 --threads 1 --quiet -o "$T/s.h5" >/dev/null &&
    $PY "$SRC/scripts/dataset_to_instances.py" "$T/s.h5" "$T/s.txt" || fail "set-up s"
"$H" eval --model "$T/mu.h5" --instances "$T/s.txt" -o "$T/e" --max-expanded 2000 --quiet \
    >"$T/out" 2>"$T/err" || fail "eval: $(cat "$T/err")"
grep -qF "warning: eval: $T/mu.h5 estimates" "$T/err" || fail "eval: no warning: $(cat "$T/err")"
grep -q '^\*\*Warning\*\*: .*gen --path-states' "$T/e/summary.md" || fail "summary.md lacks the warning"
grep -v '^#' "$SRC/instances/npuzzle/korf100.txt" | head -2 >"$T/k2.txt"
"$H" eval --model "$SRC/models/15puzzle-search.h5" --instances "$T/k2.txt" -o "$T/e15" \
    --max-expanded 100 --baseline-algo none --quiet >"$T/out" 2>"$T/err" || fail "eval 15: $(cat "$T/err")"
grep -q warning "$T/err" && fail "eval warned about 15puzzle-search.h5: $(cat "$T/err")"

# --- eval, domain path ------------------------------------------------------------
"$H" gen --domain npuzzle:3x4 -n 400 --walk 20-30 --threads 1 --quiet -o "$T/d34.h5" >/dev/null ||
    fail "gen --domain"
"$H" train --data "$T/d34.h5" --arch 144-32-1 --epochs 6 --quiet -o "$T/m34.h5" >"$T/out" 2>"$T/err" ||
    fail "train --domain data: $(cat "$T/err")"
grep -qF "at the goal of npuzzle:3x4" "$T/err" || fail "train (domain data): no warning: $(cat "$T/err")"
echo "a 1 2 3 4 5 6 7 8 9 10 0 11" >"$T/b34.txt"
"$H" eval --domain npuzzle:3x4 --model "$T/m34.h5" --instances "$T/b34.txt" -o "$T/ed" \
    --max-expanded 100 --quiet >"$T/out" 2>"$T/err" || fail "eval --domain: $(cat "$T/err")"
grep -qF "warning: eval: $T/m34.h5 estimates" "$T/err" || fail "eval --domain: no warning: $(cat "$T/err")"
grep -q '^\*\*Warning\*\*' "$T/ed/summary.md" || fail "domain summary.md lacks the warning"
grep -v '^#' "$SRC/instances/npuzzle/deepcubea_test_35puzzle.txt" | head -1 >"$T/p35.txt"
"$H" eval --domain npuzzle:6x6:blank-last --model "$SRC/models/35puzzle.h5" --instances "$T/p35.txt" \
    -o "$T/e35" --max-expanded 50 --reference --quiet >"$T/out" 2>"$T/err" || fail "eval 35: $(cat "$T/err")"
grep -q warning "$T/err" && fail "eval warned about 35puzzle.h5: $(cat "$T/err")"

[ $fails -eq 0 ] && echo "cli_goal_warn: all passed"
exit $((fails > 0))
