#!/usr/bin/env bash
# heurnet under mpirun with 2 ranks: gen shards join to the 1-rank dataset;
# data-parallel train (stripes of each batch, summed gradients, synchronised
# batch norm) follows the 1-process run; a checkpoint of a 2-rank run
# resumes to the uninterrupted result; a run stopped by SIGTERM to mpirun
# resumes. Skipped (77) without an MPI build or mpirun.
# Arguments: path of heurnet, shared data dir, source dir.
set -u
HN=$(realpath "$1")
. "$(dirname "$0")/lib_cli.sh"
. "$(dirname "$0")/lib_mpi.sh"
cd "$T"

# --- gen: 2 shards + a virtual file equal the 1-rank dataset ------------------
G=(gen --puzzle 8 --label manhattan --seed 5 --quiet --count 600 --path-states --threads 1)
"$HN" "${G[@]}" -o one.h5 >/dev/null || fail "gen 1 process"
"${MPI[@]}" "$HN" "${G[@]}" -o two.h5 >/dev/null 2>"$T/err" || fail "mpirun gen: $(head -c 300 "$T/err")"
[ -e two.shard0-of-2.h5 ] && [ -e two.shard1-of-2.h5 ] || fail "mpirun gen: no shard per rank"
for d in /states /cost /expanded /source /walk; do
    h5diff -q one.h5 two.h5 $d $d >/dev/null || fail "mpirun gen: $d differs from 1 rank"
done

# --- train: 2 ranks x 32 rows = 1 process x 64 rows ----------------------------
# (a small file without path states: few steps, as 2 ranks on a busy machine
# wait for each other at every sum)
"$HN" gen --puzzle 8 --label manhattan --seed 6 --quiet --count 1500 --threads 1 -o small.h5 >/dev/null ||
    fail "gen training data"
A=(--data small.h5 --arch 81-64-32-1 --dropout 0 --batch 64 --seed 3 --threads 1 --quiet)
"$HN" train "${A[@]}" --epochs 3 -o m1.h5 >m1.csv || fail "train 1 process"
"${MPI[@]}" "$HN" train "${A[@]}" --epochs 3 -o m2.h5 >m2.csv 2>"$T/err" || fail "mpirun train: $(head -c 300 "$T/err")"
compare m1.h5 m2.h5 1e-4 || fail "2 ranks differ from 1 process"
# the epochs' training losses agree (validation uses the running mean, see above)
$PY - m1.csv m2.csv <<'PYEOF' || fail "training losses differ: $(cat m1.csv m2.csv)"
import sys
rows = [[l.split(",") for l in open(p).read().split()[1:]] for p in sys.argv[1:]]
assert len(rows[0]) == len(rows[1]) == 3
for r1, r2 in zip(*rows):
    assert abs(float(r1[1]) - float(r2[1])) <= 1e-4 * abs(float(r1[1])), (r1, r2)
PYEOF
expect 1 "not a multiple of the 2 processes" "${MPI[@]}" "$HN" train "${A[@]/64/63}" --epochs 1 -o odd.h5

# --- a 2-rank checkpoint resumes to the uninterrupted run ----------------------
"${MPI[@]}" "$HN" train "${A[@]}" --epochs 1 --checkpoint ck.h5 -o r1.h5 >/dev/null || fail "checkpointed run"
"${MPI[@]}" "$HN" train "${A[@]}" --epochs 3 --resume ck.h5 -o r3.h5 >r3.csv 2>"$T/err" || fail "mpirun resume: $(head -c 300 "$T/err")"
grep -q '^3,' r3.csv || fail "resume did not run epochs 2-3: $(cat r3.csv)"
compare m2.h5 r3.h5 1e-6 || fail "resumed 2-rank run differs from the uninterrupted one"
# a 2-rank checkpoint also continues in one process (the same global batch)
"$HN" train "${A[@]}" --epochs 3 --resume ck.h5 -o s3.h5 >/dev/null || fail "1-process resume"
compare m1.h5 s3.h5 1e-4 || fail "1-process resume of a 2-rank checkpoint differs"

# --- SIGTERM to mpirun mid-run: a checkpoint that resumes ----------------------
B=(--data small.h5 --arch 81-64-32-1 --dropout 0 --batch 32 --seed 4 --threads 1 --quiet)
stop_resume train --epochs "${B[@]}"

[ $fails -eq 0 ] || exit 1
echo "cli_mpi: all checks passed"
