#!/bin/bash
# Several processes on one shared file (issue 48): four solvers needing the
# same PDB in an empty cache build it once (the others wait for the lock and
# load the file) and leave one sound file and no temporary files; three
# ablate processes on one journal train each run once (the others wait,
# then find every run in). Repeat it to look for races:
#   ctest -R cli_concurrency --repeat until-fail:50
# Arguments: path of heurnet, shared data dir, source dir.
set -u
HN=$1
. "$(dirname "$0")/lib_cli.sh"
export HEURNET_DATA=$T/cache # private: never the user's cache

# --- four builders of one PDB ---------------------------------------------------
grep -v '^#' "$2/npuzzle/korf100.txt" | sed -n 2p >"$T/one.txt" # Korf's #2: quick
pids=()
for i in 1 2 3 4; do
    "$HN" solve --puzzle 15 --heuristic pdb:5-5-5 "$T/one.txt" >"$T/solve$i.out" 2>"$T/solve$i.err" &
    pids+=($!)
done
for i in 1 2 3 4; do
    wait "${pids[$((i - 1))]}" || fail "solver $i exited $?: $(cat "$T/solve$i.err")"
    grep -q "status=solved length=" "$T/solve$i.out" || fail "solver $i solved nothing"
done
built=$(cat "$T"/solve*.err | grep -c "building it once")
[ "$built" -eq 1 ] || fail "the PDB was built $built times, want once: $(cat "$T"/solve*.err)"
grep -h "warning" "$T"/solve*.err && fail "a builder warned"
"$HN" solve --puzzle 15 --heuristic pdb:5-5-5 "$T/one.txt" >/dev/null 2>"$T/err" || fail "reuse failed"
grep -q "building" "$T/err" && fail "the cached PDB was not used: $(cat "$T/err")"
left=$(find "$T/cache" -name '*.part')
[ -z "$left" ] || fail "temporary files left in the cache: $left"

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
