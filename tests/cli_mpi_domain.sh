#!/usr/bin/env bash
# A domain plug-in under mpirun: gen writes a shard per rank joined by a
# virtual file equal to the 1-process dataset; DAVI with 2 ranks gives the
# weights of one process (within 1e-4), as for the n-puzzle (cli_mpi_avi.sh).
# Args: path of heurnet, instances dir, source dir.
set -u
HN="$(cd "$(dirname "$1")" && pwd)/$(basename "$1")"
SRC="$3"
. "$(dirname "$0")/lib_cli.sh"
. "$(dirname "$0")/lib_mpi.sh"
B="$(dirname "$HN")"
flags=(-shared -fPIC -O1 -std=c11 -I"$B/include")
grep -q '^HEURNET_SANITIZE:BOOL=ON' "$B/CMakeCache.txt" && flags+=(-fsanitize=address,undefined)
${CC:-cc} "${flags[@]}" "$SRC/examples/domain_pancake.c" -o "$T/libpancake.so" ||
    { fail "the pancake example does not build"; exit 1; }
G=(gen --domain "$T/libpancake.so:7" -n 300 --walk 0-9 --path-states --seed 2 --threads 1 --quiet)
"$HN" "${G[@]}" -o "$T/g1.h5" >/dev/null 2>"$T/err" || fail "gen, one process: $(cat "$T/err")"
"${MPI[@]}" "$HN" "${G[@]}" -o "$T/g2.h5" >/dev/null 2>"$T/err" || fail "gen under mpirun: $(cat "$T/err")"
[ -e "$T/g2.shard0-of-2.h5" ] && [ -e "$T/g2.shard1-of-2.h5" ] || fail "mpirun gen: no shard per rank"
for d in /states /cost /walk /source /expanded; do
    h5diff -q "$T/g1.h5" "$T/g2.h5" $d $d >/dev/null || fail "mpirun gen: $d differs from 1 process"
done
A=(avi --domain "$T/libpancake.so:7" --arch 49-32-16-1 --rounds 3 --steps 10 --batch 100
   --walk-max 10 --residual gap --quiet)
"$HN" "${A[@]}" -o "$T/one.h5" >"$T/one.csv" 2>"$T/err" || fail "avi, one process: $(cat "$T/err")"
"${MPI[@]}" "$HN" "${A[@]}" -o "$T/two.h5" >"$T/two.csv" 2>"$T/err" ||
    fail "avi under mpirun: $(cat "$T/err")"
[ "$(grep -c '^[0-9]' "$T/two.csv")" = 3 ] || fail "mpirun: not 3 rounds: $(cat "$T/two.csv")"
compare "$T/one.h5" "$T/two.h5" 1e-4 || fail "2 ranks differ from one process"
exit $((fails > 0))
