#!/usr/bin/env bash
# heurnet eval and solve with a network: a model for another puzzle size or
# not an n-puzzle model is refused with a clear message, the algorithms run
# and their solutions are optimal or within their bound on 8-puzzle boards
# with known optima, and eval writes its report folder (and refuses to
# overwrite it). A tiny model is trained inside the test (a few seconds).
# Args: path of heurnet, instances dir, source dir.
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

"$HN" gen --puzzle 8 --all -o "$tmp/all8.h5" --quiet --threads 1 >/dev/null || { echo "FAIL: gen" >&2; exit 1; }
"$HN" train --data "$tmp/all8.h5" --arch 81-64-1 --epochs 3 --batch 512 --dropout 0 --lr 0.003 \
    -o "$tmp/m8.h5" --quiet >/dev/null || { echo "FAIL: train" >&2; exit 1; }
"$HN" nn init --arch 256-8-1 --encoder "npuzzle-onehot n=4 goal=blank-first" -o "$tmp/m15.h5" >/dev/null
"$HN" nn init --arch 81-8-1 --encoder "npuzzle-onehot n=3 goal=blank-last" -o "$tmp/m8last.h5" >/dev/null
"$HN" nn init --arch 81-8-1 --encoder "emp-move-v1" -o "$tmp/emp.h5" >/dev/null

# id optimal tiles (blank-first goal; also solvable for blank-last); optima checked below
cat >"$tmp/b8.txt" <<'B'
a 23 1 5 6 0 8 4 7 2 3
b 23 4 0 7 3 8 5 1 2 6
c 24 3 8 5 7 0 4 6 2 1
d 22 2 1 0 4 8 3 5 6 7
e 0 0 1 2 3 4 5 6 7 8
f 2 1 2 0 3 4 5 6 7 8
B
# the same boards for the blank-last goal (rotated 180 degrees, tiles t -> 9 - t)
cat >"$tmp/b8last.txt" <<'B'
a 23 6 7 2 5 1 0 3 4 8
b 23 3 7 8 4 1 6 2 0 5
c 24 8 7 3 5 0 2 4 1 6
d 22 2 3 4 6 1 5 0 8 7
e 0 1 2 3 4 5 6 7 8 0
f 2 1 2 3 4 5 6 0 7 8
B
"$HN" solve --puzzle 8 --heuristic manhattan --algo astar "$tmp/b8.txt" >"$tmp/opt" 2>/dev/null
check "the optima in the test file are right" grep -q " not_optimal=0 " "$tmp/opt"
"$HN" solve --puzzle 8 --goal blank-last --heuristic manhattan --algo astar "$tmp/b8last.txt" >"$tmp/opt" 2>/dev/null
check "the blank-last optima are right" grep -q " not_optimal=0 " "$tmp/opt"

# --- refusals ---
expect_rc 2 "15-puzzle model on 8-puzzle boards" "$HN" solve --puzzle 8 --heuristic "ann:$tmp/m15.h5" "$tmp/b8.txt"
check "size mismatch message" grep -q "m15.h5: the model is for domain \"npuzzle:4x4\"" "$tmp/err"
check "size mismatch message names the run" grep -q "this run's is \"npuzzle:3x3\"" "$tmp/err"
expect_rc 2 "not an n-puzzle model" "$HN" solve --puzzle 8 --heuristic "ann:$tmp/emp.h5" "$tmp/b8.txt"
check "encoder mismatch message" grep -q "emp.h5.*emp-move-v1" "$tmp/err"
expect_rc 1 "missing model" "$HN" solve --puzzle 8 --heuristic "ann:$tmp/none.h5" "$tmp/b8.txt"
check "missing model named" grep -q "none.h5" "$tmp/err"
expect_rc 1 "eval with a non-n-puzzle model" "$HN" eval --model "$tmp/emp.h5" --instances "$tmp/b8.txt" -o "$tmp/r0"
check "eval names the model" grep -q "emp.h5" "$tmp/err"
check "no report after a refusal" test ! -e "$tmp/r0" -a -z "$(compgen -G "$tmp/r0.*part")"
expect_rc 2 "bad ann setting" "$HN" solve --puzzle 8 --heuristic "ann:$tmp/m8.h5,delta:-1" "$tmp/b8.txt"
expect_rc 2 "fixed-point values in IDA*" "$HN" solve --puzzle 8 --algo idastar --heuristic "ann:$tmp/m8.h5,scale:10" "$tmp/b8.txt"
expect_rc 2 "unknown algorithm" "$HN" solve --puzzle 8 --algo bogus "$tmp/b8.txt"
expect_rc 2 "bad bound" "$HN" solve --puzzle 8 --algo focal --bound 0.9 "$tmp/b8.txt"
expect_rc 2 "eval without -o" "$HN" eval --model "$tmp/m8.h5" --instances "$tmp/b8.txt"
expect_rc 0 "eval --help" "$HN" eval --help
check "eval --help lists defaults" grep -q "\[astar\]" "$tmp/out"

# --- algorithms: valid, optimal (admissible, weight 1) or within the bound ---
run() { "$HN" solve --puzzle 8 -q "$@" "$tmp/b8.txt"; }
expect_rc 0 "A* with the network" run --algo astar --heuristic "ann:$tmp/m8.h5"
check "records carry nn_rows" grep -q "status=solved.* nn_rows=[1-9]" "$tmp/out"
expect_rc 0 "batch A* with max(ann - 100, manhattan) is optimal" run --algo bwas --batch 16 \
    --heuristic "ann:$tmp/m8.h5,manhattan,delta:100"
check "batch A* optimal" grep -q " not_optimal=0 " "$tmp/out"
expect_rc 0 "blank-last run with a blank-last model" "$HN" solve --puzzle 8 --goal blank-last -q \
    --algo astar --heuristic "ann:$tmp/m8last.h5,manhattan,delta:100" "$tmp/b8last.txt"
expect_rc 0 "blank-last run with the blank-first model (boards converted)" "$HN" solve --puzzle 8 \
    --goal blank-last -q --algo astar --heuristic "ann:$tmp/m8.h5,manhattan,delta:100" "$tmp/b8last.txt"
check "converted run optimal" grep -q " not_optimal=0 " "$tmp/out"
expect_rc 0 "A* with mirrored, fixed-point values (blank-last boards)" "$HN" solve --puzzle 8 \
    --goal blank-last -q --algo astar --heuristic "ann:$tmp/m8.h5,scale:10,mirror" "$tmp/b8last.txt"
check "mirrored run: network rows counted" grep -q "status=solved.* nn_rows=[1-9]" "$tmp/out"
for algo in "focal --bound 1.1" "wastar --weight 1.5" "bwas --batch 64" "astar" \
    "anytime --deltas 0,1" "wastar --weight 3 --shortcut 12" "anytime --deltas 0 --weights 3 --shortcut 8:1000"; do
    # shellcheck disable=SC2086
    adm=()
    case $algo in focal* | anytime*) adm=(--admissible manhattan) ;; esac
    "$HN" solve --puzzle 8 -q --algo $algo --heuristic "ann:$tmp/m8.h5" "${adm[@]}" \
        "$tmp/b8.txt" >"$tmp/out" 2>/dev/null
    check "$algo: every board solved" test "$(grep -c "status=solved" "$tmp/out")" -eq 6
    # replay every solution (awk: the board after the moves is the goal)
    awk -v f="$tmp/b8.txt" 'BEGIN { while ((getline l < f) > 0) { split(l, a, " "); b[a[1]] = l } }
        /^id=/ { for (i = 1; i <= NF; i++) { split($i, kv, "="); r[kv[1]] = kv[2] }
            split(b[r["id"]], t, " "); for (c = 0; c < 9; c++) { cell[c] = t[c + 3]; if (t[c + 3] == 0) z = c }
            m = r["moves"]; if (m == "-") m = ""
            for (k = 1; k <= length(m); k++) { d = substr(m, k, 1)
                n = d == "U" ? z - 3 : d == "D" ? z + 3 : d == "L" ? z - 1 : z + 1
                if (n < 0 || n > 8 || ((d == "L" || d == "R") && int(n / 3) != int(z / 3))) bad = 1
                cell[z] = cell[n]; cell[n] = 0; z = n }
            for (c = 0; c < 9; c++) if (cell[c] != c) bad = 1
            if (length(m) != r["length"]) bad = 1 }
        END { exit bad }' "$tmp/out"
    check "$algo: solutions replay to the goal" test $? -eq 0
done
"$HN" solve --puzzle 8 -q --algo focal --bound 1.1 --heuristic "ann:$tmp/m8.h5" --admissible manhattan \
    "$tmp/b8.txt" >"$tmp/out" 2>/dev/null
check "focal within its bound" awk '/^id=/ { split($3, l, "="); split($0, x, "optimal="); split(x[2], o, " ")
    if (l[2] > 1.1 * o[1] + 1e-9) bad = 1 } END { exit bad }' "$tmp/out"

# anytime A*: a last phase of inf (the admissible heuristic alone) proves every length
expect_rc 0 "anytime with inf last" run --algo anytime --deltas 0,2,inf --heuristic "ann:$tmp/m8.h5,scale:10" \
    --admissible manhattan
check "anytime optimal" grep -q " not_optimal=0 " "$tmp/out"
check "anytime proves each length" test "$(grep -c "proven=1" "$tmp/out")" -eq 6
expect_rc 0 "eval with anytime" "$HN" eval --model "$tmp/m8.h5" --instances "$tmp/b8.txt" --baseline manhattan \
    --baseline-algo none --algo anytime --deltas 0,inf --admissible manhattan -q -o "$tmp/repa"
check "the report names the search" grep -q '| search | `anytime, ' "$tmp/repa/summary.md"
check "the report counts the proven lengths" grep -q "| proven optimal by the search | 6 |" \
    "$tmp/repa/summary.md"
expect_rc 0 "eval with anytime and the shortcut pass" "$HN" eval --model "$tmp/m8.h5" --instances "$tmp/b8.txt" \
    --baseline manhattan --baseline-algo none --algo anytime --deltas 0 --weight 3 --shortcut 12:5000 \
    --admissible manhattan -q -o "$tmp/reps"
check "the report names the shortcut pass" grep -q "windows of up to 12 moves" "$tmp/reps/summary.md"
long="$(printf '0%.0s' $(seq 1 70))12x" # a bad window past the parser's buffer
for bad in 1 201 12:0 x 12:y "$long"; do
    expect_rc 2 "shortcut '$bad' refused" run --algo anytime --shortcut "$bad" --heuristic "ann:$tmp/m8.h5"
done
check "shortcut refusal explained" grep -q "shortcut" "$tmp/err"
# falling weights: one weighted phase each, then the deltas' phases
expect_rc 0 "anytime with weighted phases" run --algo anytime --weights 3,2,1.25 --deltas 0,inf \
    --heuristic "ann:$tmp/m8.h5,scale:10" --admissible manhattan
check "weighted phases counted, lengths proven" test "$(grep -c "proven=1" "$tmp/out")" -eq 6
expect_rc 0 "eval names the weighted phases" "$HN" eval --model "$tmp/m8.h5" --instances "$tmp/b8.txt" \
    --baseline manhattan --baseline-algo none --algo anytime --weights 2,1.5 --deltas 0 \
    --admissible manhattan -q -o "$tmp/repw"
check "the report names the weights" grep -q "weights 2,1.5" "$tmp/repw/summary.md"
for bad in 0,1 2,x 1.9,1.8,1.7,1.6,1.5,1.4,1.3,1.2,1.1; do
    expect_rc 2 "anytime weights '$bad' refused" run --algo anytime --weights "$bad" --heuristic "ann:$tmp/m8.h5"
done
check "weights refusal explained" grep -q -- "up to 8 weights of 1..100" "$tmp/err"
expect_rc 2 "a weight list for wastar" run --algo wastar --weight 2,1.5 --heuristic "ann:$tmp/m8.h5"
check "list refusal explained" grep -q "weight '2,1.5' is not 0..100" "$tmp/err"
expect_rc 2 "anytime: an empty delta" run --algo anytime --deltas 0,,1 --heuristic "ann:$tmp/m8.h5"
expect_rc 2 "anytime: falling deltas" run --algo anytime --deltas 2,1 --heuristic "ann:$tmp/m8.h5"
check "falling deltas explained" grep -q "rising moves" "$tmp/err"
expect_rc 2 "anytime: inf not last" run --algo anytime --deltas inf,1 --heuristic "ann:$tmp/m8.h5"
expect_rc 2 "anytime: not a number" run --algo anytime --deltas 0,x --heuristic "ann:$tmp/m8.h5"
# the IDA* stage: plain passes prove every length without an inf phase
expect_rc 0 "anytime with plain IDA* passes" run --algo anytime --deltas 0 --weights 3 --ida plain \
    --heuristic "ann:$tmp/m8.h5,scale:10" --admissible manhattan
check "plain passes: optimal" grep -q " not_optimal=0 " "$tmp/out"
check "plain passes: every length proven" test "$(grep -c "proven=1" "$tmp/out")" -eq 6
# bands are not kept (docs/search-24.md): refused by solve
expect_rc 2 "anytime with a band" run --algo anytime --deltas 0 --weights 3 --ida 1-30:1000 --ida-at 1 \
    --heuristic "ann:$tmp/m8.h5,scale:10" --admissible manhattan
check "a band refused" grep -q "is not off or plain" "$tmp/err"
expect_rc 0 "eval names the IDA* stage" "$HN" eval --model "$tmp/m8.h5" --instances "$tmp/b8.txt" \
    --baseline manhattan --baseline-algo none --algo anytime --deltas 0 --ida plain \
    --ida-at 0.25 --admissible manhattan -q -o "$tmp/repi"
check "the report names the search" grep -q "anytime, " "$tmp/repi/summary.md"
for bad in x 0-5:1 5-4:1 1-5:-1 1-5:x 1-1000:1 1-5:1,5-9:1 1-5 -5:1 1-2:1,3-4:1,5-6:1,7-8:1,9-10:1,11-12:1,13-14:1,15-16:1,17-18:1; do
    expect_rc 2 "--ida '$bad' refused" run --algo anytime --ida "$bad" --heuristic "ann:$tmp/m8.h5"
done
check "band refusal explained" grep -q -- "--ida" "$tmp/err"
for bad in -0.1 1.5 x nan; do
    expect_rc 2 "--ida-at '$bad' refused" run --algo anytime --ida plain --ida-at "$bad" --heuristic "ann:$tmp/m8.h5"
done
expect_rc 2 "--ida for another algorithm" run --algo astar --ida plain --heuristic "ann:$tmp/m8.h5"
check "--ida for astar explained" grep -q "anytime's, not astar's" "$tmp/err"
expect_rc 2 "anytime: a network as the admissible part" run --algo anytime \
    --heuristic "ann:$tmp/m8.h5" --admissible "ann:$tmp/m8.h5"

# --- eval: the report folder ---
expect_rc 0 "eval" "$HN" eval --model "$tmp/m8.h5" --instances "$tmp/b8.txt" --baseline manhattan -q -o "$tmp/rep"
for f in instances.tsv summary.md plots.gp; do
    check "report has $f" test -s "$tmp/rep/$f"
done
check "no .part left" test -z "$(compgen -G "$tmp/rep.*part")"
check "one TSV row per board" test "$(wc -l <"$tmp/rep/instances.tsv")" -eq 7
check "summary has the optimal share" grep -q "optimal (of states with a known optimum) | [0-9]* / 6" "$tmp/rep/summary.md"
check "summary has Table 1 classes" grep -q "| Extreme |" "$tmp/rep/summary.md"
check "headline on stdout" grep -q "^states=6 solved=6 (replayed)" "$tmp/out"
check "the baseline's expansions" grep -Eq " base_mean_expanded=[0-9.]+ .*expansion_ratio=[0-9.]+" "$tmp/out"
check "the errors against the optima" grep -q "^Heuristic of the start states against the optimum (6 states)" \
    "$tmp/rep/summary.md"
check "the baseline's column" awk -F'\t' 'NR > 1 && $23 != "solved" { bad = 1 } END { exit bad || NR != 7 }' \
    "$tmp/rep/instances.tsv"
if command -v gnuplot >/dev/null; then
    for f in heuristic_error excess expansions; do
        check "figure $f.png" test -s "$tmp/rep/$f.png"
    done
fi
expect_rc 1 "eval refuses to overwrite" "$HN" eval --model "$tmp/m8.h5" --instances "$tmp/b8.txt" -q -o "$tmp/rep"
check "overwrite message" grep -q "exists (use --force" "$tmp/err"
expect_rc 0 "eval --force, focal, no baseline search" "$HN" eval --model "$tmp/m8.h5" --instances "$tmp/b8.txt" \
    --baseline manhattan --baseline-algo none --algo focal --bound 1.2 -q --force -o "$tmp/rep"
check "baseline skipped in TSV" grep -q "skipped" "$tmp/rep/instances.tsv"

# --- eval --time-budget: each board gets the time left over the boards left ---
col() { # col NAME FILE: one column of a TSV by its header
    awk -F'\t' -v c="$1" 'NR == 1 { for (i = 1; i <= NF; i++) if ($i == c) k = i; next } { print $k }' "$2"
}
expect_rc 0 "eval with a time budget" "$HN" eval --model "$tmp/m8.h5" --instances "$tmp/b8.txt" \
    --baseline manhattan --baseline-algo none --time-budget 2 -q -o "$tmp/bud"
check "summary names the budget" grep -q "time 2 s per state on average (budget" "$tmp/bud/summary.md"
col time_limit "$tmp/bud/instances.tsv" >"$tmp/lims"
col seconds "$tmp/bud/instances.tsv" >"$tmp/secs"
check "six limits" test "$(wc -l <"$tmp/lims")" -eq 6
check "the first board gets the budget" test "$(head -1 "$tmp/lims")" = "2.000000"
# the boards take milliseconds, so each later board gets the time the earlier ones left
check "later boards get what the earlier left" awk 'NR > 1 && !($1 > prev) { bad = 1 } { prev = $1 }
    END { exit bad }' "$tmp/lims"
check "the last board's limit is the budget left" awk -v n=6 'NR == FNR { if (FNR < n) used += $1; next }
    FNR == n { want = 2 * n - used; exit !(($1 - want) ^ 2 < 1e-8) }' "$tmp/secs" "$tmp/lims"
expect_rc 0 "eval with a budget under a cap" "$HN" eval --model "$tmp/m8.h5" --instances "$tmp/b8.txt" \
    --baseline manhattan --baseline-algo none --time-budget 2 --time-limit 0.5 -q -o "$tmp/bud2"
check "the cap holds" awk '$1 != "0.500000" { bad = 1 } END { exit bad || NR != 6 }' \
    <(col time_limit "$tmp/bud2/instances.tsv")
for bad in 0 -1 abc inf 1e-6 0.0009; do # issue 48: below 1 ms a board got 1 ms quietly
    expect_rc 2 "--time-budget '$bad' refused" "$HN" eval --model "$tmp/m8.h5" --instances "$tmp/b8.txt" \
        --time-budget "$bad" -q -o "$tmp/bud3"
done

# --- eval on boards without a known optimum (own tuning boards): no error figures ---
awk '{ $2 = ""; print }' "$tmp/b8.txt" >"$tmp/b8noopt.txt"
expect_rc 0 "eval on boards without optima" "$HN" eval --model "$tmp/m8.h5" --instances "$tmp/b8noopt.txt" \
    --baseline manhattan --baseline-algo none -q -o "$tmp/noopt"
check "no optimum counted" grep -q "optimal=0/0" "$tmp/out"
if command -v gnuplot >/dev/null; then
    check "the expansions figure" test -s "$tmp/noopt/expansions.png"
    check "no error figure without optima" test ! -e "$tmp/noopt/heuristic_error.png"
fi
exit $fail
