#!/usr/bin/env bash
# heurnet ablate under mpirun with 2 ranks: the runs are dealt over the
# ranks and rank 0 writes the CSV, which equals that of --jobs 1 (timing
# columns aside); a CSV cut to some rows (an interrupted ablation) is
# completed by a 2-rank rerun that trains only the missing runs (the kept
# rows, timings included, stay as they were). Skipped (77) without an MPI
# build, mpirun or h5py.
# Arguments: path of heurnet, shared data dir, source dir.
set -u
HN=$(realpath "$1")
. "$(dirname "$0")/lib_cli.sh"
. "$(dirname "$0")/lib_mpi.sh"
cd "$T"

# the columns that depend on the machine's load, by name
untimed() {
    awk -F, 'NR == 1 { for (i = 1; i <= NF; i++) skip[i] = $i ~ /^(train_s|samples_per_s)$/ }
             { s = ""; for (i = 1; i <= NF; i++) if (!skip[i]) s = s $i ","; print s }' "$1"
}

"$HN" gen --puzzle 8 --count 3000 --seed 1 --threads 1 --quiet -o d.h5 >/dev/null || fail "gen"
A=(--data d.h5 --quiet --threads 1 --dropout 0 --epochs 2 --batch 128 --grid '81-{8,16,4}-1'
    --seeds 3 --baseline 1)
"$HN" ablate "${A[@]}" --jobs 1 --csv one.csv >one.md || fail "ablate --jobs 1"
"${MPI[@]}" "$HN" ablate "${A[@]}" --csv two.csv >two.md 2>"$T/err" ||
    fail "mpirun ablate: $(head -c 300 "$T/err")"
[ "$(grep -c . two.csv)" -eq 10 ] || fail "mpirun ablate: want 9 runs: $(cat two.csv)"
[ "$(untimed one.csv)" = "$(untimed two.csv)" ] || fail "2 ranks differ from --jobs 1: $(cat one.csv two.csv)"
[ "$(grep -c '^| 81-' two.md)" -ge 3 ] || fail "mpirun ablate: no table on stdout: $(cat two.md)"
[ "$(grep -c '^| 81-' two.md)" -eq "$(grep -c '^| 81-' one.md)" ] ||
    fail "the tables differ in size: $(cat one.md two.md)"

# --- an interrupted ablation: 4 of 9 rows kept, the rerun trains 5 ------------
head -5 two.csv >cut.csv
"${MPI[@]}" "$HN" ablate "${A[@]}" --csv cut.csv >cut.md 2>"$T/err" ||
    fail "mpirun ablate rerun: $(head -c 300 "$T/err")"
grep -q "4 of 9 runs are already in cut.csv; training the 5 missing" "$T/err" ||
    fail "the rerun does not say it trains the 5 missing runs: $(head -c 300 "$T/err")"
[ "$(untimed cut.csv)" = "$(untimed one.csv)" ] || fail "the resumed CSV differs: $(cat cut.csv)"
[ "$(head -5 cut.csv)" = "$(head -5 two.csv)" ] || fail "the kept rows were trained again"

[ $fails -eq 0 ] || exit 1
echo "cli_mpi_ablate: all checks passed"
