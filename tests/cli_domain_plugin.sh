#!/usr/bin/env bash
# Plug-ins a careless author writes, and the domain surfaces around them:
# facts the host must refuse at load (NULL move_sep, canonical strings and
# names that break key=value lines, create failing without a reason), plug-in
# paths with ".so" earlier in them, `domain check` on a pruning automaton that
# cuts shortest paths and on a breadth-first table it cannot allocate, IDA*
# on heuristics that return negative values or INT_MAX and on moves without
# inverses, and the generic instance reader's messages.
# Args: path of heurnet, instances dir, source dir.
set -u
SRC="$3"
. "$(dirname "$0")/lib_cli.sh"
B="$(cd "$(dirname "$1")" && pwd)"
H="$B/$(basename "$1")"
sanitize=0
grep -q '^HEURNET_SANITIZE:BOOL=ON' "$B/CMakeCache.txt" && sanitize=1
plugin_cc "$B" "$SRC/tests/domains/domain_bad.c" "$T/libbad.so" -Wno-unused-function ||
    { fail "the broken plug-ins do not build"; exit 1; }
BAD="$T/libbad.so"

# facts the host refuses at load, naming the plug-in and the field (exit 2)
expect 2 "libbad.so@nullsep:6: create left facts->move_sep" "$H" domain info "$BAD@nullsep:6"
expect 2 "facts->move_sep" "$H" domain check "$BAD@nullsep:6" --walks 5
expect 2 "facts->move_sep" "$H" solve --domain "$BAD@nullsep:6" --algo astar --heuristic gap \
    /dev/null
expect 2 "canonical string 'pancake:6?x=1' holds a control character" "$H" domain info "$BAD@canonnl:6"
expect 2 "canonical string 'pancake 6' holds a blank" "$H" domain info "$BAD@canonblank:6"
expect 2 "canonical string '' is empty" "$H" domain info "$BAD@canonempty:6"
expect 2 "canonical string 'pancake=6' holds '='" "$H" domain info "$BAD@canoneq:6"
expect 2 "name 'bad name' is not [a-z0-9_]+" "$H" domain info "$BAD@bad name:6"
expect 2 "name 'newline?' is not [a-z0-9_]+" "$H" domain info "$BAD@newline"$'\n'":6"
expect 2 "create returned no instance and gave no reason" "$H" domain info "$BAD@silent:6"
grep -q 'success' "$T/err" && fail "create without a reason reads as success: $(cat "$T/err")"
for n in nullsep canonnl silent; do
    "$H" domain info "$BAD@$n:6" >"$T/o" 2>&1
    grep -q '(null)\|^domain=' "$T/o" && fail "$n: a bad plug-in was described: $(head -3 "$T/o")"
done

# plug-in paths with ".so" before the file name, or a version after it
mkdir -p "$T/my.sources" "$T/x.solib" "$T/a:b"
plugin_cc "$B" "$SRC/examples/domain_pancake.c" "$T/my.sources/lib.so" ||
    { fail "the pancake example does not build"; exit 1; }
cp "$T/my.sources/lib.so" "$T/x.solib/lib.so"
cp "$T/my.sources/lib.so" "$T/lib.so.1"
cp "$T/my.sources/lib.so" "$T/a:b/libp.so"
for spec in "$T/my.sources/lib.so:7" "$T/x.solib/lib.so:7" "$T/lib.so.1:7" "$T/lib.so.1@pancake:7" \
    "$T/a:b/libp.so:7"; do
    "$H" domain info "$spec" >"$T/o" 2>"$T/e" || fail "domain info $spec: $(cat "$T/e")"
    grep -qx 'domain=pancake:7' "$T/o" || fail "domain info $spec: $(head -2 "$T/o")"
done
"$H" domain info "$T/x.solib/lib.so" >"$T/o" 2>"$T/e" && grep -qx 'domain=pancake:8' "$T/o" ||
    fail "a plug-in path with no arguments: $(cat "$T/e")"
(cd "$T" && "$H" domain info lib.so.1:5 >o 2>e) && grep -qx 'domain=pancake:5' "$T/o" ||
    fail "a plug-in file in the working folder: $(cat "$T/e")"
expect 2 "cannot load domain plug-in $T/nothere.sources/lib.so" "$H" domain info \
    "$T/nothere.sources/lib.so:4"

# out-of-range sizes are quoted as written
expect 2 "a 4294967300 by 1 board is out of range" "$H" domain info npuzzle:4294967300x1
grep -q '99x1' "$T/err" && fail "npuzzle:4294967300x1 named a 99x1 board"

# domain check: an automaton that forbids every move, or one a shortest
# path needs, fails (exit 1, the kind named)
expect 1 "pruning: the pruning automaton forbids all 5 legal moves at the goal" "$H" domain check \
    "$BAD@pruneall:6" --walks 20
expect 1 "pruning: a state 1 moves from the goal is reached only in" "$H" domain check \
    "$BAD@prunetwo:6" --walks 20
expect 1 "heuristic: gap = -1, a negative value" "$H" domain check "$BAD@negative:6" --walks 20
expect 1 "heuristic: gap = 1000000 above the distance" "$H" domain check "$BAD@huge:6" --walks 20
"$H" domain check "$T/lib.so.1:6" --walks 20 >"$T/o" 2>"$T/e" ||
    fail "domain check of the good plug-in: $(cat "$T/e")"
grep -q 'failures=0 skipped=0' "$T/o" || fail "good plug-in: $(cat "$T/o")"
# a breadth-first table that cannot be allocated is no pass (ASan reserves
# its shadow memory first, so ulimit -v cannot run there)
if [ $sanitize = 0 ]; then
    (ulimit -v 1500000; "$H" domain check "$BAD@heuristic:7" --walks 5 --bfs-states 100000000) \
        >"$T/o" 2>"$T/e"
    rc=$?
    [ $rc = 1 ] || fail "check without memory for its table exited $rc: $(cat "$T/o" "$T/e")"
    grep -q 'skipped=1' "$T/o" && grep -q 'not checked: heuristics' "$T/e" ||
        fail "check without memory for its table: $(cat "$T/o" "$T/e")"
fi

# IDA* and A* end on the same solutions when a heuristic returns -1 or
# INT_MAX everywhere (the goal included), and IDA* runs without inverses
cp "$T/my.sources/lib.so" "$T/libpancake.so"
"$H" domain sample "$T/libpancake.so:7" -n 12 --walk 1-9 --seed 5 >"$T/s.txt"
"$H" solve --domain "$T/libpancake.so:7" --algo astar --heuristic gap "$T/s.txt" 2>/dev/null |
    grep -o ' length=[0-9-]*' >"$T/want"
[ "$(grep -c 'length=[0-9]' "$T/want")" = 12 ] || fail "A* on the good plug-in: $(cat "$T/want")"
for n in negative huge noinverse; do
    for a in idastar astar; do
        "$H" solve --domain "$BAD@$n:7" --algo $a --heuristic gap --max-expanded 3000000 "$T/s.txt" \
            >"$T/o" 2>"$T/e"
        grep -o ' length=[0-9-]*' "$T/o" >"$T/got"
        cmp -s "$T/want" "$T/got" || fail "$a on $n: $(head -c 300 "$T/o") $(head -c 300 "$T/e")"
    done
done
grep -q "heuristic gap returned -1" <("$H" solve --domain "$BAD@negative:7" --algo idastar --max-expanded 3000000 \
    --heuristic gap "$T/s.txt" 2>&1) || fail "no warning for a negative heuristic value"

# a negative estimate between two states: domain check fails on it, and
# IDA* windows read it as 0 (and never run past their frames)
expect 1 "between: -1000 to itself" "$H" domain check "$BAD@between:6" --walks 10
"$H" domain sample "$T/libpancake.so:24" -n 2 --walk 200 --seed 2 >"$T/s24.txt"
"$H" solve --domain "$BAD@between:24" --algo wastar --weight 3 --heuristic gap \
    --shortcut 40:20000:ida "$T/s24.txt" >"$T/o" 2>"$T/e"
grep -q 'solved=2' "$T/o" || fail "IDA* windows on a negative between: $(cat "$T/o" "$T/e")"

# the generic instance reader names the real problem (a bad file: exit 1)
printf 'a 1 2 3 4 5 6 7 8 9 10 11 12 13 14 14\n' >"$T/dup.txt"
expect 1 "dup.txt:1: tile 14 appears twice" "$H" solve --domain npuzzle:3x5 --algo astar "$T/dup.txt"
printf '7 x 0 1 2 3 4 5 6 7 8 9 10 11 12 13 14\n' >"$T/len.txt"
expect 1 "'x' after the id '7' is not a length" "$H" solve --domain npuzzle:3x5 --algo astar \
    "$T/len.txt"
f=$("$H" domain sample cube3 -n 1 --walk 3 --seed 1 | cut -d' ' -f2)
echo "c1 $f R U" >"$T/cube.txt"
expect 1 "cube.txt:1: the facelets and the scramble give different cubes" "$H" solve --domain cube3 \
    --algo astar --heuristic manhattan "$T/cube.txt"
echo "$f R U" >"$T/cube0.txt"
expect 1 "the facelets and the scramble give different cubes" "$H" solve --domain cube3 \
    --algo astar --heuristic manhattan "$T/cube0.txt"
mkdir "$T/folder"
expect 1 "folder is a directory, not an instance file" "$H" solve --domain npuzzle:3x5 --algo astar \
    "$T/folder"
exit $((fails > 0))
