#!/usr/bin/env bash
# heurnet avi under mpirun with 2 ranks: DAVI with the targets made half by
# each rank equals the 1-process run with the same seed and global batch
# (within float tolerance: the gradient sums round differently); the first
# bootstrap round (searches with the same network) too; a 2-rank checkpoint
# resumes to the uninterrupted run exactly; a run stopped by SIGTERM to
# mpirun resumes. Skipped (77) without an MPI build, mpirun or h5py.
# Arguments: path of heurnet, shared data dir, source dir.
set -u
HN=$(realpath "$1")
. "$(dirname "$0")/lib_cli.sh"
. "$(dirname "$0")/lib_mpi.sh"
cd "$T"

# columns 1-3 and 5-14 of the round lines (not the loss and the timings)
rounds() { grep '^[0-9]' "$1" | cut -d, -f1-3,5-14; }

# --- DAVI: 5120 states a round = 5 chunks, split 2 + 3 over the ranks ---------
A=(--puzzle 8 --arch 81-32-16-1 --steps 40 --batch 128 --walk-max 12 --seed 7 --quiet)
"$HN" avi "${A[@]}" --rounds 4 -o d1.h5 >d1.csv || fail "avi 1 process"
"${MPI[@]}" "$HN" avi "${A[@]}" --rounds 4 -o d2.h5 >d2.csv 2>"$T/err" ||
    fail "mpirun avi: $(head -c 300 "$T/err")"
[ "$(grep -c '^[0-9]' d2.csv)" -eq 4 ] || fail "mpirun avi: want 4 round lines once: $(cat d2.csv)"
compare d1.h5 d2.h5 1e-4 || fail "2-rank DAVI differs from 1 process"
# round 1 labels with h = 0, round 2 with first networks that agree to 1e-5
# (the printed target means agree)
[ "$(rounds d1.csv | head -2)" = "$(rounds d2.csv | head -2)" ] ||
    fail "2-rank targets differ: $(cat d1.csv d2.csv)"
# the residual over Manhattan distance and 2-move look-ahead: each rank's
# base values travel with its rows
R=("${A[@]}" --residual manhattan --lookahead 2)
"$HN" avi "${R[@]}" --rounds 3 -o r1.h5 >/dev/null || fail "residual avi 1 process"
"${MPI[@]}" "$HN" avi "${R[@]}" --rounds 3 -o r2.h5 >/dev/null 2>"$T/err" ||
    fail "mpirun residual avi: $(head -c 300 "$T/err")"
compare r1.h5 r2.h5 1e-4 || fail "2-rank residual DAVI differs from 1 process"
expect 1 "not a multiple of the 2 processes" "${MPI[@]}" "$HN" avi "${A[@]/128/127}" --rounds 1 -o odd.h5

# --- a 2-rank checkpoint resumes exactly, and also in 1 process ---------------
"${MPI[@]}" "$HN" avi "${A[@]}" --rounds 2 --checkpoint ck.h5 -o h2.h5 >/dev/null 2>&1 ||
    fail "checkpointed mpirun avi"
"${MPI[@]}" "$HN" avi "${A[@]}" --rounds 4 --resume ck.h5 -o h4.h5 >h4.csv 2>"$T/err" ||
    fail "mpirun avi --resume: $(head -c 300 "$T/err")"
grep -q '^4,160,' h4.csv || fail "resume did not run rounds 3-4: $(cat h4.csv)"
compare d2.h5 h4.h5 0 || fail "resumed 2-rank run differs from the uninterrupted one"
"$HN" avi "${A[@]}" --rounds 4 --resume ck.h5 -o s4.h5 >/dev/null 2>&1 || fail "1-process resume"
compare d1.h5 s4.h5 1e-4 || fail "1-process resume of a 2-rank checkpoint differs"

# --- bootstrap: the ranks solve half the boards each ---------------------------
B=(--puzzle 8 --arch 81-32-16-1 --method bootstrap --floor manhattan --steps 20 --batch 64
    --boards 30 --walk 4 --walk-max 12 --seed 7 --quiet)
"$HN" avi "${B[@]}" --rounds 1 -o b1.h5 >b1.csv || fail "bootstrap 1 process"
"${MPI[@]}" "$HN" avi "${B[@]}" --rounds 1 -o b2.h5 >b2.csv 2>"$T/err" ||
    fail "mpirun bootstrap: $(head -c 300 "$T/err")"
[ "$(rounds b1.csv)" = "$(rounds b2.csv)" ] || fail "2-rank bootstrap solved other boards: $(cat b1.csv b2.csv)"
compare b1.h5 b2.h5 1e-4 || fail "2-rank bootstrap differs from 1 process"
"${MPI[@]}" "$HN" avi "${B[@]}" --rounds 3 -o b3.h5 >b3.csv 2>"$T/err" ||
    fail "mpirun bootstrap, 3 rounds: $(head -c 300 "$T/err")"
awk -F, '/^[0-9]/ { n++; s += $10 } END { exit !(n == 3 && s > 0) }' b3.csv ||
    fail "mpirun bootstrap: want 3 rounds that solve boards: $(cat b3.csv)"

# --- SIGTERM to mpirun mid-run: the checkpoint resumes --------------------------
K=(--puzzle 8 --arch 81-32-16-1 --steps 20 --batch 64 --walk-max 12 --seed 8 --quiet)
stop_resume avi --rounds "${K[@]}"

[ $fails -eq 0 ] || exit 1
echo "cli_mpi_avi: all checks passed"
