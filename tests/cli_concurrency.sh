#!/bin/bash
# Several processes on one shared file (issue 48): four solvers needing the
# same PDB in an empty cache build each table once (the others wait for its
# lock and load the file) and leave sound files and no temporary files; a
# builder killed in its build leaves no table and no lock that blocks the
# next one, which removes the killed one's temporary file; three ablate
# processes on one journal train each run once (the others wait, then find
# every run in). Repeat it to look for races:
#   ctest -R cli_concurrency --repeat until-fail:50
# Arguments: path of heurnet, shared data dir, source dir.
set -u
HN=$1
. "$(dirname "$0")/lib_cli.sh"
export HEURNET_DATA=$T/cache # private: never the user's cache

# --- four builders of one PDB (three tables) --------------------------------------
grep -v '^#' "$2/npuzzle/korf100.txt" | sed -n 2p >"$T/one.txt" # Korf's #2: quick
S=(solve --domain npuzzle:4x4 --heuristic pdb:5-5-5 "$T/one.txt")
pids=()
for i in 1 2 3 4; do
    "$HN" "${S[@]}" >"$T/solve$i.out" 2>"$T/solve$i.err" &
    pids+=($!)
done
for i in 1 2 3 4; do
    wait "${pids[$((i - 1))]}" || fail "solver $i exited $?: $(cat "$T/solve$i.err")"
    grep -q "status=solved length=" "$T/solve$i.out" || fail "solver $i solved nothing"
done
built=$(cat "$T"/solve*.err | grep -c "pattern database of 5 tiles .* built in")
[ "$built" -eq 3 ] || fail "3 tables built $built times, want 3: $(cat "$T"/solve*.err)"
grep -h "warning" "$T"/solve*.err && fail "a builder warned"
[ "$(find "$T/cache" -name '*.pdb' | wc -l)" -eq 3 ] || fail "tables: $(ls "$T/cache")"
"$HN" "${S[@]}" >/dev/null 2>"$T/err" || fail "reuse failed"
grep -q "built in" "$T/err" && fail "the cached PDB was not used: $(cat "$T/err")"
left=$(find "$T/cache" -name '*.part' -o -name '*.lock')
[ -z "$left" ] || fail "temporary or lock files left in the cache: $left"

# --- a builder killed in its build -------------------------------------------------
# A builds the 6-tile table (seconds) holding its lock; B waits for it; A is
# killed: no table under the final name, B builds it and removes the
# temporary file a killed writer left (planted: a dead process's name).
P=(pdb build --domain npuzzle:4x4 --partition 6-5-4 --threads 1)
six=$T/cache/npuzzle-4x4-blank0-cells-1.2.3.4.5.6.pdb
"$HN" "${P[@]}" >"$T/a.out" 2>"$T/a.err" &
a=$!
for _ in $(seq 600); do # until A holds the lock
    [ -e "$six.lock" ] && ! flock -n "$six.lock" true && break
    sleep 0.05
done
flock -n "$six.lock" true && fail "the builder took no lock: $(cat "$T/a.err")"
dead=$(sh -c 'echo $$')
echo half >"$six.$dead-abc123.part"
"$HN" "${P[@]}" >"$T/b.out" 2>"$T/b.err" &
b=$!
for _ in $(seq 600); do
    grep -q "waiting for another process building $six" "$T/b.err" && break
    sleep 0.05
done
grep -q "waiting for another process" "$T/b.err" || fail "B did not wait: $(cat "$T/b.err")"
kill -9 $a
wait $a 2>/dev/null
[ -e "$six" ] && fail "a killed build left $six"
wait $b || fail "B exited $? after A was killed: $(cat "$T/b.err")"
grep -q "pattern database of 6 tiles .* built in" "$T/b.err" || fail "B built no table: $(cat "$T/b.err")"
"$HN" pdb info "$six" >"$T/info" 2>&1 || fail "pdb info on B's table: $(cat "$T/info")"
grep -q "reached=5765760" "$T/info" || fail "B's table: $(cat "$T/info")"
left=$(find "$T/cache" -name '*.part' -o -name '*.lock')
[ -z "$left" ] || fail "temporary or lock files left after the killed build: $left"

# --- three ablate processes on one journal ---------------------------------------
"$HN" gen --puzzle 8 --count 20000 --seed 1 --threads 1 --quiet -o "$T/d.h5" >/dev/null ||
    fail "gen failed"
A=(--data "$T/d.h5" --quiet --threads 1 --epochs 4 --batch 64 --arch 81-16-1 --seeds 3
   --csv "$T/j.csv")
pids=()
for i in 1 2 3; do
    "$HN" ablate "${A[@]}" >"$T/ab$i.out" 2>"$T/ab$i.err" &
    pids+=($!)
done
for i in 1 2 3; do
    wait "${pids[$((i - 1))]}" || fail "ablate $i exited $?: $(cat "$T/ab$i.err")"
done
[ "$(cat "$T"/ab*.err | grep -c "3 of 3 runs are already in")" -eq 2 ] ||
    fail "more than one process trained: $(cat "$T"/ab*.err)"
[ "$(tail -n +2 "$T/j.csv" | cut -d, -f1,2 | tr '\n' ' ')" = "81-16-1,1 81-16-1,2 81-16-1,3 " ] ||
    fail "journal rows: $(cut -d, -f1,2 "$T/j.csv" | tr '\n' ' ')"
left=$(find "$T" -name 'j.csv.*part')
[ -z "$left" ] || fail "temporary journal files left: $left"

[ $fails -eq 0 ] && echo "ok" || exit 1
