#!/usr/bin/env bash
# The search a model records (heurnet nn set-search, root attribute
# `search`): bad settings and checkpoints are refused and leave the file
# alone, solve --model and eval --model replay the recorded search,
# explicit options win; --algo bwas (g + W*h) is optimal at weight 1 and
# within W times the optimum above; per-board limits leave a board unsolved
# instead of hanging. The record is in the words of heurnet solve on every
# domain (marked search_words=solve); an unmarked one of a square n-puzzle
# model is in the old n-puzzle words and runs as its translation.
# Args: path of heurnet, shared data dir, source dir.
set -u
HN=$1
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
export HEURNET_DATA=$tmp/cache
fail=0
check() { # check DESCRIPTION COMMAND...: the command must succeed
    local what=$1
    shift
    if ! "$@"; then
        echo "FAIL: $what" >&2
        fail=1
    fi
}
expect_rc() { # expect_rc CODE DESCRIPTION COMMAND...
    local want=$1 what=$2
    shift 2
    "$@" >"$tmp/out" 2>"$tmp/err"
    local rc=$?
    if [ $rc -ne "$want" ]; then
        echo "FAIL: $what: exit $rc, expected $want" >&2
        cat "$tmp/err" >&2
        fail=1
    fi
}
field() { # field KEY FILE: the value of KEY= on the '#' summary line
    sed -n "s/^# .* $1=\([^ ]*\).*/\1/p" "$2"
}

M=$tmp/m8.h5
"$HN" nn init --arch 81-8-1 --encoder "npuzzle-onehot n=3 goal=blank-first" -o "$M" >/dev/null ||
    { echo "FAIL: nn init" >&2; exit 1; }
# 8-puzzle boards with their optima (checked by A* with Manhattan below)
cat >"$tmp/b8.txt" <<'B'
a 23 1 5 6 0 8 4 7 2 3
b 23 4 0 7 3 8 5 1 2 6
c 24 3 8 5 7 0 4 6 2 1
d 22 2 1 0 4 8 3 5 6 7
e 0 0 1 2 3 4 5 6 7 8
f 2 1 2 0 3 4 5 6 7 8
B
expect_rc 0 "the optima in the test file" "$HN" solve --puzzle 8 --heuristic manhattan --algo astar "$tmp/b8.txt"
check "the optima are right" grep -q "optimal_checked=6 .* not_optimal=0 " "$tmp/out"

# --- set-search: refusals leave the file as it was ---
sum0=$(cksum <"$M")
expect_rc 2 "unknown setting" "$HN" nn set-search "$M" "--algo bwas --speed 3 --heuristic ann:SELF"
check "unknown setting named" grep -q "unknown setting '--speed'" "$tmp/err"
expect_rc 2 "weight above 100" "$HN" nn set-search "$M" "--algo bwas --weight 150 --heuristic ann:SELF"
check "weight range explained" grep -q "weight '150' is not 0..100" "$tmp/err"
expect_rc 2 "an old word: batch-astar" "$HN" nn set-search "$M" "--algo batch-astar --heuristic ann:SELF"
expect_rc 2 "an old word: a weight list" "$HN" nn set-search "$M" "--algo anytime --weight 3,2 --heuristic ann:SELF"
expect_rc 2 "not the model itself" "$HN" nn set-search "$M" "--algo astar --heuristic ann:other.h5"
check "SELF required" grep -q "ann:SELF" "$tmp/err"
expect_rc 2 "unknown partition for the size" "$HN" nn set-search "$M" "--algo astar --heuristic ann:SELF,pdb:7-8"
check "partition named" grep -q "pdb:7-8: the groups hold 15 tiles" "$tmp/err"
expect_rc 2 "bad ann option" "$HN" nn set-search "$M" "--heuristic ann:SELF,delta:-1"
expect_rc 2 "missing value" "$HN" nn set-search "$M" "--algo bwas --heuristic"
expect_rc 2 "a network in IDA*" "$HN" nn set-search "$M" "--algo idastar --heuristic ann:SELF,scale:10"
expect_rc 2 "no settings string" "$HN" nn set-search "$M"
expect_rc 2 "anytime deltas falling" "$HN" nn set-search "$M" "--algo anytime --deltas 3,1 --heuristic ann:SELF"
expect_rc 2 "shortcut window too short" "$HN" nn set-search "$M" "--algo anytime --shortcut 1 --heuristic ann:SELF"
check "refusals left the file alone" test "$(cksum <"$M")" = "$sum0"
expect_rc 0 "set-search --help" "$HN" nn set-search --help
# a checkpoint would lose its optimizer state when the file is rewritten
"$HN" gen --puzzle 8 --count 100 --seed 1 --threads 1 --quiet -o "$tmp/d8.h5" >/dev/null &&
    "$HN" train --data "$tmp/d8.h5" --arch 81-8-1 --epochs 1 --checkpoint "$tmp/ck.h5" --quiet \
        -o "$tmp/t8.h5" >/dev/null || { echo "FAIL: gen/train for a checkpoint" >&2; fail=1; }
sum0=$(cksum <"$tmp/ck.h5")
expect_rc 1 "set-search on a checkpoint" "$HN" nn set-search "$tmp/ck.h5" "--heuristic ann:SELF"
check "checkpoint refusal explained" grep -q "holds more than a model" "$tmp/err"
check "checkpoint left alone" test "$(cksum <"$tmp/ck.h5")" = "$sum0"

# --- solve --model: no record = BWAS of batch 1 (A*) on the model ---
expect_rc 0 "solve --model without a record" "$HN" solve -q --model "$M" "$tmp/b8.txt"
check "puzzle size from the model, A* on ann:M" test "$(field domain "$tmp/out") $(field algo "$tmp/out") $(field batch "$tmp/out") $(field weight "$tmp/out") $(field heuristic "$tmp/out")" = "npuzzle:3x3 bwas 1 1 ann:$M"

# --- record BWAS on max(ann - 100, manhattan) (admissible: the floor decides) ---
expect_rc 0 "set-search" "$HN" nn set-search "$M" "--algo bwas --weight=1 --batch 8 --heuristic ann:SELF,manhattan,delta:100"
check "set-search echoes the settings" grep -q "search=--algo bwas" "$tmp/out"
"$HN" nn info "$M" >"$tmp/info"
check "attribute stored" grep -q "^attr.search=--algo bwas --weight=1 --batch 8 --heuristic ann:SELF,manhattan,delta:100$" "$tmp/info"
check "marked as the new words" grep -q "^attr.search_words=solve$" "$tmp/info"
expect_rc 0 "solve --model replays the record" "$HN" solve -q --model "$M" "$tmp/b8.txt"
check "recorded algorithm, batch and heuristic" test "$(field algo "$tmp/out") $(field batch "$tmp/out") $(field heuristic "$tmp/out")" = "bwas 8 ann:$M,manhattan,delta:100"
check "weight 1 with an admissible floor is optimal" grep -q "optimal_checked=6 .* not_optimal=0 " "$tmp/out"
expect_rc 0 "an explicit --batch wins over the record" "$HN" solve -q --model "$M" --batch 3 "$tmp/b8.txt"
check "batch 3, still bwas" test "$(field algo "$tmp/out") $(field batch "$tmp/out")" = "bwas 3"
expect_rc 0 "an explicit --algo drops the record" "$HN" solve -q --model "$M" --algo astar "$tmp/b8.txt"
check "astar on ann:M" test "$(field algo "$tmp/out") $(field heuristic "$tmp/out")" = "astar ann:$M"
expect_rc 0 "SELF in an explicit heuristic" "$HN" solve -q --model "$M" --heuristic "ann:SELF,manhattan,delta:100" "$tmp/b8.txt"
check "SELF replaced" test "$(field heuristic "$tmp/out")" = "ann:$M,manhattan,delta:100"
expect_rc 2 "a model of another size than --puzzle" "$HN" solve -q --model "$M" --puzzle 15 "$tmp/b8.txt"

# --- bwas above weight 1: within W times the optimum ---
for w in 1.25 2; do
    expect_rc 0 "bwas weight $w" "$HN" solve -q --puzzle 8 --algo bwas --weight $w --batch 4 \
        --heuristic manhattan "$tmp/b8.txt"
    check "bwas weight $w: all solved" test "$(field solved "$tmp/out")" = 6
    check "bwas weight $w: within W * optimal" awk -v w=$w '/^id=/ {
        split($3, x, "="); split($0, y, "optimal="); split(y[2], o, " ")
        if (x[2] > o[1] * w + 1e-9 || x[2] < o[1]) bad = 1 } END { exit bad }' "$tmp/out"
done
expect_rc 2 "bwas weight above 100 on the command line" "$HN" solve --puzzle 8 --algo bwas --weight 101 "$tmp/b8.txt"

# --- a record in the old n-puzzle words (unmarked): translated on read ---
if /usr/bin/python3 -c "import h5py" 2>/dev/null; then
    cp "$M" "$tmp/mo.h5"
    /usr/bin/python3 -c "
import sys, h5py
with h5py.File(sys.argv[1], 'r+') as f:
    f.attrs['search'] = '--algo bwas --weight 0.5 --heuristic ann:SELF,manhattan,delta:100'
    del f.attrs['search_words']
" "$tmp/mo.h5" && "$HN" nn upgrade "$tmp/mo.h5" >/dev/null || { echo "FAIL: old record" >&2; fail=1; }
    expect_rc 0 "an old record runs" "$HN" solve --model "$tmp/mo.h5" "$tmp/b8.txt"
    check "its lambda 0.5 is weight 2, its batch 16" test "$(field weight "$tmp/out") $(field batch "$tmp/out")" = "2 16"
    check "the translation is shown" grep -q "recorded in .*mo.h5: --algo bwas --heuristic ann:SELF,manhattan,delta:100,float --weight 2 --batch 16" "$tmp/err"
    expect_rc 0 "the same words in the new vocabulary" "$HN" nn set-search "$tmp/mo.h5" \
        "--algo bwas --weight 0.5 --heuristic ann:SELF,manhattan,delta:100"
    expect_rc 0 "a new record runs as written" "$HN" solve -q --model "$tmp/mo.h5" "$tmp/b8.txt"
    check "weight 0.5" test "$(field weight "$tmp/out") $(field batch "$tmp/out")" = "0.5 1"
fi

# --- eval --model replays the record; limits leave boards unsolved ---
expect_rc 0 "eval --model" "$HN" eval -q --model "$M" --instances "$tmp/b8.txt" --baseline manhattan -o "$tmp/rep"
check "the report names the recorded search" grep -qF -- '| search | `bwas, weight 1, batch 8, width 1024`, heuristic `ann:'"$M"',manhattan,delta:100` |' "$tmp/rep/summary.md"
check "headline: all optimal" grep -q "^states=6 solved=6 (replayed) optimal=6/6" "$tmp/out"
expect_rc 0 "eval with a stored-node limit" "$HN" eval -q --model "$M" --instances "$tmp/b8.txt" --baseline manhattan \
    --baseline-algo none --max-nodes 20 --force -o "$tmp/rep"
check "boards over the limit are unsolved" grep -q "^states=6 solved=2 " "$tmp/out"
check "limit status in the TSV" test "$(grep -c "	limit	" "$tmp/rep/instances.tsv")" -eq 4
check "the summary states the limits" grep -q "| limits | time 0 s per state, expansions 0, stored 20 (0 = none) |" "$tmp/rep/summary.md"
expect_rc 1 "solve with a node limit exits 1" "$HN" solve -q --model "$M" --max-expanded 5 "$tmp/b8.txt"
check "limit records" test "$(grep -c "status=limit" "$tmp/out")" -eq 4

# --- a recorded shortcut pass travels with the model ---
cp "$M" "$tmp/m8s.h5"
expect_rc 0 "set-search with a shortcut pass" "$HN" nn set-search "$tmp/m8s.h5" \
    "--algo anytime --deltas 0 --shortcut 12:5000 --heuristic ann:SELF,manhattan"
expect_rc 0 "solve --model replays the shortcut pass" "$HN" solve -q --model "$tmp/m8s.h5" "$tmp/b8.txt"
check "every board solved with the recorded pass" test "$(grep -c "status=solved" "$tmp/out")" -eq 6
expect_rc 0 "eval --model names the recorded pass" "$HN" eval -q --model "$tmp/m8s.h5" \
    --instances "$tmp/b8.txt" --baseline manhattan --baseline-algo none -o "$tmp/reps"
check "the report names the recorded pass" grep -q "windows of up to 12 moves" \
    "$tmp/reps/summary.md"

# --- recorded weighted phases: a list replayed as recorded, overridden by --weight ---
expect_rc 0 "set-search with weighted phases" "$HN" nn set-search "$tmp/m8s.h5" \
    "--algo anytime --deltas 0,inf --weights 3,2,1.5 --heuristic ann:SELF,manhattan"
expect_rc 0 "solve --model replays the weighted phases" "$HN" solve -q --model "$tmp/m8s.h5" "$tmp/b8.txt"
phases_sum() { grep -o ' phases=[0-9]*' "$1" | cut -d= -f2 | awk '{ s += $1 } END { print s + 0 }'; }
check "the last phase (inf) proves every length" test "$(grep -c "proven=1" "$tmp/out")" -eq 6
p3=$(phases_sum "$tmp/out")
expect_rc 0 "--weights replaces the recorded list" "$HN" solve -q --model "$tmp/m8s.h5" --weights 2 "$tmp/b8.txt"
check "one weighted phase: proven, fewer phases" test "$(grep -c "proven=1" "$tmp/out")" -eq 6 -a \
    "$(phases_sum "$tmp/out")" -lt "$p3"
# --- a recorded IDA* stage travels with the model; --ida off on the command line drops it ---
expect_rc 0 "set-search with plain IDA* passes" "$HN" nn set-search "$tmp/m8s.h5" \
    "--algo anytime --deltas 0 --weights 3 --ida plain --ida-at 0 --heuristic ann:SELF,manhattan"
expect_rc 0 "solve --model replays the passes" "$HN" solve -q --model "$tmp/m8s.h5" "$tmp/b8.txt"
check "the recorded passes prove every length" test "$(grep -c "proven=1" "$tmp/out")" -eq 6
expect_rc 0 "--ida off replaces the recorded stage" "$HN" solve -q --model "$tmp/m8s.h5" --ida off "$tmp/b8.txt"
check "without the stage no board but the goal and f (2 moves) is proven" \
    test "$(grep -c "^id=[a-d] .*proven=1" "$tmp/out")" -eq 0
expect_rc 2 "a bad recorded band refused" "$HN" nn set-search "$tmp/m8s.h5" \
    "--algo anytime --ida 3-2:1 --heuristic ann:SELF,manhattan"
expect_rc 2 "--ida refused for bwas" "$HN" nn set-search "$M" "--algo bwas --ida plain --heuristic ann:SELF"
expect_rc 2 "a weight list refused for bwas" "$HN" nn set-search "$M" "--algo bwas --weight 1.1,1.2 --heuristic ann:SELF"

# --- issue 48: a record written past set-search (h5py), resealed, is checked on read ---
plant() { # plant FILE: write the search attribute given on stdin (python bytes literal), reseal
    /usr/bin/python3 -c "
import sys, h5py, numpy as np
with h5py.File(sys.argv[1], 'r+') as f:
    f.attrs['search'] = np.bytes_(eval(sys.stdin.read()))
" "$1" && "$HN" nn upgrade "$1" >/dev/null
}
if /usr/bin/python3 -c "import h5py, numpy" 2>/dev/null; then
    for bad in "b'--heuristic manhattan'" "b'--heuristic ann:$M'" "b'--heuristic ann:/etc/passwd'" \
        "b'--algo astar --heuristic ann:SELF ' + b' ' * 5000" "b'--heuristic ann:SELF\\0--algo idastar'"; do
        cp "$M" "$tmp/mb.h5"
        echo "$bad" | plant "$tmp/mb.h5" || { echo "FAIL: planting $bad" >&2; fail=1; continue; }
        expect_rc 1 "solve refuses the record $bad" "$HN" solve -q --model "$tmp/mb.h5" "$tmp/b8.txt"
        check "solve names the file and its attribute ($bad)" grep -q "mb.h5.*search" "$tmp/err"
        expect_rc 1 "eval refuses the record $bad" "$HN" eval -q --model "$tmp/mb.h5" \
            --instances "$tmp/b8.txt" --baseline manhattan -o "$tmp/repb"
    done
else
    echo "FAIL: /usr/bin/python3 with h5py and numpy is needed (scripts/deps.sh)" >&2
    fail=1
fi
exit $fail
