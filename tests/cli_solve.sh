#!/usr/bin/env bash
# heurnet solve / pdb: exit codes and messages for bad instance files and
# options, a small solve with known optimal lengths, and PDB cache use.
# Args: path of heurnet, instances dir, source dir.
set -u
HN=$1
DATA=$2
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

# --- parse errors: every bad line, with file:line and what is wrong ---
cat >"$tmp/bad.txt" <<'EOF'
# a comment line, then a good board
a 0 1 2 3 4 5 6 7 8
b 1 2 3 4 5 6 7
c 0 1 2 3 4 5 6 7 9
d 0 1 2 3 4 5 6 7 7
e 0 2 1 3 4 5 6 7 8
f 0 1 2 3 4 x 6 7 8
EOF
"$HN" solve --puzzle 8 --heuristic manhattan "$tmp/bad.txt" >"$tmp/out" 2>"$tmp/err"
rc=$?
check "bad file exits 1 (got $rc)" test $rc -eq 1
check "wrong count named with line" grep -q "bad.txt:3: 7 numbers where a 3x3 board has 9" "$tmp/err"
check "out of range" grep -q "bad.txt:4: tile 9 out of range 0..8" "$tmp/err"
check "duplicate" grep -q "bad.txt:5: tile 7 appears twice" "$tmp/err"
check "unsolvable is distinct" grep -q "bad.txt:6: unsolvable for the goal" "$tmp/err"
check "not a number" grep -q "bad.txt:7: 'x' is not a tile number" "$tmp/err"
check "summary of bad lines" grep -q "bad.txt: bad lines (see above)" "$tmp/err"
check "no records on stdout for a bad file" test ! -s "$tmp/out"

# --- misuse exits 2 ---
"$HN" solve --puzzle 7 "$tmp/bad.txt" 2>/dev/null
check "bad --puzzle exits 2" test $? -eq 2
"$HN" solve --algo dfs "$tmp/bad.txt" 2>/dev/null
check "bad --algo exits 2" test $? -eq 2
echo "x 8 6 7 2 5 4 3 0 1" >"$tmp/p8.txt"
"$HN" solve --puzzle 8 --heuristic pdb:9-9 "$tmp/p8.txt" 2>"$tmp/err"
check "unknown partition exits 2" test $? -eq 2
check "unknown partition named" grep -q "pdb:9-9: expected group sizes" "$tmp/err"
"$HN" solve 2>/dev/null
check "missing file exits 2" test $? -eq 2
"$HN" solve --help | grep -q -- "--time-limit S"
check "help lists options" test $? -eq 0
"$HN" solve --puzzle 8 /nonexistent/file 2>"$tmp/err"
check "missing file exits 1" test $? -eq 1
check "missing file named" grep -q "cannot open /nonexistent/file" "$tmp/err"
# the DeepCubeA file is blank-last: with the default goal every line is unsolvable
"$HN" solve --puzzle 15 --heuristic manhattan "$DATA/npuzzle/deepcubea_test_15puzzle.txt" >/dev/null 2>"$tmp/err"
check "wrong goal layout exits 1" test $? -eq 1
check "wrong goal layout: unsolvable per line" grep -q "deepcubea_test_15puzzle.txt:3: unsolvable" "$tmp/err"

# --- solving: easy Korf instances with their known optimal lengths ---
grep -E '^(55|16|42|79) ' "$DATA/npuzzle/korf100.txt" >"$tmp/easy.txt"
"$HN" solve --puzzle 15 --heuristic pdb:5-5-5 -q "$tmp/easy.txt" >"$tmp/out" 2>"$tmp/err"
check "5-5-5 solve exits 0" test $? -eq 0
check "4 records" test "$(grep -c '^id=' "$tmp/out")" -eq 4
check "all optimal" grep -q "optimal_checked=4 .* not_optimal=0 " "$tmp/out"
check "record keys" grep -q "^id=55 status=solved length=41 expanded=[0-9]* generated=[0-9]* seconds=[0-9.]* h0=[0-9]* .*optimal=41 moves=[UDLR]\{41\}$" "$tmp/out"
check "PDB cached" test "$(ls "$tmp"/cache/npuzzle-4x4-blank0-cells-*.pdb | wc -l)" -eq 3
# A* and the blank-last layout give the same lengths (lc: no PDB needed)
head -2 "$tmp/easy.txt" >"$tmp/two.txt"
"$HN" solve --puzzle 15 --heuristic pdb:5-5-5 --algo astar -q "$tmp/two.txt" >"$tmp/out"
check "A* all optimal" grep -q "optimal_checked=2 .* not_optimal=0 " "$tmp/out"
# 8-puzzle blank-last with the exact table
"$HN" solve --puzzle 8 --goal blank-last --heuristic pdb:8 -q "$tmp/p8.txt" >"$tmp/out"
check "8-puzzle blank-last solved" grep -q "^id=x status=solved length=31 " "$tmp/out"
len_pdb=$(sed -n 's/.* length=\([0-9]*\).*/\1/p' "$tmp/out")
"$HN" solve --puzzle 8 --goal blank-last --heuristic lc --algo astar -q "$tmp/p8.txt" >"$tmp/out"
len_lc=$(sed -n 's/.* length=\([0-9]*\).*/\1/p' "$tmp/out")
check "exact table and LC agree ($len_pdb vs $len_lc)" test "$len_pdb" = "$len_lc"
# limits: status=limit, exit 1
"$HN" solve --puzzle 15 --heuristic manhattan --max-expanded 100 -q "$tmp/two.txt" >"$tmp/out" 2>/dev/null
check "limit exits 1" test $? -eq 1
check "status=limit" grep -q "status=limit" "$tmp/out"
# a corrupted cache file is reported and rebuilt
t555=$(ls "$tmp"/cache/npuzzle-4x4-blank0-cells-*.pdb | head -1)
printf 'garbage' >"$t555"
"$HN" solve --puzzle 15 --heuristic pdb:5-5-5 "$tmp/two.txt" >"$tmp/out" 2>"$tmp/err"
check "corrupted cache rebuilt" grep -q "$t555: truncated (no magic); rebuilding it" "$tmp/err"
check "solved after rebuild" grep -q "optimal_checked=2 .* not_optimal=0 " "$tmp/out"
printf 'HNPDB001 then anything' >"$tmp/old.pdb" # the magic of an older heurnet's file
"$HN" pdb info "$tmp/old.pdb" 2>"$tmp/err"
check "pdb info on an old partition file exits 1" test $? -eq 1
check "and says it is the old format" grep -q "older heurnet (HNPDB001), no longer read" "$tmp/err"
printf 'garbage' >"$tmp/g.pdb"
"$HN" pdb info "$tmp/g.pdb" 2>"$tmp/err"
check "pdb info on garbage exits 1" test $? -eq 1
check "pdb info names the problem" grep -q "g.pdb: truncated (no magic)" "$tmp/err"
printf "garbage and more" >"$tmp/g2.pdb"
"$HN" pdb info "$tmp/g2.pdb" 2>"$tmp/err"
check "pdb info says what a foreign file is not" grep -q "g2.pdb: not a heurnet pattern database" "$tmp/err"
# the domain path's tables: one per group, read and checked by pdb info
HEURNET_DATA="$tmp/dcache" "$HN" pdb build --domain npuzzle:2x3 --partition 3-2 --threads 2 \
    >"$tmp/out" 2>&1
check "pdb build --domain --threads" grep -q "^# build_seconds=.* threads=2 " "$tmp/out"
check "a line per group table" test "$(grep -c '^table=[12] tiles=' "$tmp/out")" -eq 2
HEURNET_DATA="$tmp/dcache" "$HN" pdb build --domain npuzzle:2x3 --partition 3-2 --threads 0 \
    2>"$tmp/err"
check "--threads 0 is misuse" test $? -eq 2
f=$(ls "$tmp"/dcache/npuzzle-2x3-blank0-cells-*.pdb | head -1)
"$HN" pdb info "$f" >"$tmp/out"
check "pdb info of a group table" grep -q "format=HNDOMPDB domain=npuzzle:2x3 table=blank0-cells-" "$tmp/out"
head -c 30 "$f" >"$tmp/cut.pdb"
"$HN" pdb info "$tmp/cut.pdb" 2>"$tmp/err"
check "a cut group table exits 1" test $? -eq 1
check "and names the file" grep -q "cut.pdb: truncated header" "$tmp/err"
HEURNET_DATA="$tmp/dcache" "$HN" pdb build --domain npuzzle:2x3 --partition 3-2 -o "$tmp/x.pdb" 2>"$tmp/err"
check "-o is misuse" test $? -eq 2
check "-o says where tables go" grep -q "HEURNET_DATA" "$tmp/err"

exit $fail
