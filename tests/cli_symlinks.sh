#!/bin/bash
# Symlinks planted in the PDB cache and in output folders (issue 48): at the
# temporary names writers used to share (PATH.part), at the lock files, and
# for the pids a writer may get next. Each points at a victim file or at a
# file that does not exist yet in a victim folder. After every writer ran,
# the victim is unchanged, nothing new is in the victim folder, and every
# planted link is still a link. A planted lock of an ablate journal stops
# that ablate with a message naming it.
# Arguments: path of heurnet, shared data dir, source dir.
set -u
HN=$1
. "$(dirname "$0")/lib_cli.sh"
V=$T/victim
C=$T/cache
O=$T/outdir
mkdir -p "$V" "$C" "$O"
echo "precious" >"$V/file"
export HEURNET_DATA=$C

plant() { # plant PATH: a link to the victim, and PATH.<pid>.part links for the next pids
    ln -s "$V/file" "$1"
    local p
    for ((p = $$ + 1; p < $$ + 40; p++)); do
        ln -s "$V/new-$(basename "$1")-$p" "$1.$p.part"
    done
}
P8=$C/npuzzle-3x3-blank0-cells-1.2.3.4.5.6.7.8.pdb # the 8-puzzle's exact table
for f in "$P8.part" "$P8.lock" "$P8.raw.part" \
    "$O/p.pdb.part" "$O/m.h5.part" "$O/j.csv.part" "$O/d.h5.part" "$O/sol.txt.part"; do
    plant "$f"
done
ln -s "$V/new-lock" "$O/k.csv.lock"

printf '1 4 1 2 5 3 0 4 6 7 8\n' >"$T/b8.txt"
"$HN" solve --puzzle 8 --heuristic pdb:8 "$T/b8.txt" >/dev/null 2>"$T/err" ||
    fail "solve with a planted cache exited $?: $(cat "$T/err")"
[ -f "$P8" ] && [ ! -L "$P8" ] || fail "no PDB in the cache: $(ls "$C")"
HEURNET_DATA="$O/pc" "$HN" pdb build --puzzle 8 --partition 8 -q >/dev/null 2>"$T/err" ||
    fail "pdb build exited $?: $(cat "$T/err")"
[ -f "$O/pc/npuzzle-3x3-blank0-cells-1.2.3.4.5.6.7.8.pdb" ] || fail "pdb build kept no table"
"$HN" nn init --arch 81-8-1 --encoder "npuzzle-onehot n=3 goal=blank-first" -o "$O/m.h5" \
    >/dev/null 2>"$T/err" || fail "nn init exited $?: $(cat "$T/err")"
"$HN" nn upgrade "$O/m.h5" >/dev/null 2>"$T/err" || fail "nn upgrade exited $?: $(cat "$T/err")"
"$HN" gen --puzzle 8 --count 1000 --seed 1 --threads 1 --quiet --shard 0/2 -o "$T/d0.h5" >/dev/null 2>&1 &&
    "$HN" gen --puzzle 8 --count 1000 --seed 1 --threads 1 --quiet --shard 1/2 -o "$T/d1.h5" >/dev/null 2>&1 ||
    fail "gen failed"
"$HN" data merge -o "$O/d.h5" "$T/d0.h5" "$T/d1.h5" >/dev/null 2>"$T/err" ||
    fail "data merge exited $?: $(cat "$T/err")"
A=(--data "$T/d0.h5" --quiet --threads 1 --epochs 1 --batch 64 --arch 81-8-1 --seeds 2)
"$HN" ablate "${A[@]}" --csv "$O/j.csv" >/dev/null 2>"$T/err" || fail "ablate exited $?: $(cat "$T/err")"
expect 1 "k.csv.lock" "$HN" ablate "${A[@]}" --csv "$O/k.csv"
"$HN" emp solve -q --time 0.2 "$3/instances/emp/small/pieces_05x05.txt" -o "$O/sol.txt" \
    >/dev/null 2>"$T/err" || fail "emp solve -o exited $?: $(cat "$T/err")"

[ "$(cat "$V/file")" = "precious" ] || fail "the victim was written through a link"
[ "$(ls "$V")" = "file" ] || fail "files created through links: $(ls "$V")"
n=$(find "$C" "$O" -type l | wc -l)
[ "$n" -eq $((8 * 40 + 1)) ] || fail "planted links replaced: $n of $((8 * 40 + 1)) left"
[ -L "$O/k.csv.lock" ] && [ ! -e "$O/k.csv" ] || fail "the refused ablate wrote its journal"

[ $fails -eq 0 ] && echo "ok" || exit 1
