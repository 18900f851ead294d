#!/usr/bin/env bash
# Side-by-side timing of two heurnet executables on Korf's 100 with IDA* and
# the 7-8 PDB, as whole processes: user, system and wall seconds of each run
# (/usr/bin/time), the runs interleaved A B A B so that drifting load hits
# both, medians and the median of the pairwise ratios A/B. A second pass on
# an instance file with no boards times the loading alone, so korf - empty
# is the search. --cold drops the cache files from the page cache before
# every run (dd iflag=nocache), so each load reads the disk.
#
# usage: scripts/bench_pdb_tables.sh OTHER [--heurnet PATH] [--runs N] [--cold]
#   OTHER      the executable to compare with (B), e.g. an older build
#   --heurnet  the executable under test (A) [build/heurnet]
#   --runs     runs of each [5]
# Both use the cache $HEURNET_DATA (default ~/.cache/heurnet); build the 7-8
# PDB there first (heurnet pdb build --partition 7-8) and run A once, which
# keeps its uncompressed copy.
set -euo pipefail
cd "$(dirname "$0")/.."
[ $# -ge 1 ] || { echo "usage: $0 OTHER [--heurnet PATH] [--runs N] [--cold]" >&2; exit 2; }
B=$1
shift
A=build/heurnet
runs=5
cold=0
while [ $# -gt 0 ]; do
    case $1 in
    --heurnet) A=$2; shift ;;
    --runs) runs=$2; shift ;;
    --cold) cold=1 ;;
    *) echo "usage: $0 OTHER [--heurnet PATH] [--runs N] [--cold]" >&2; exit 2 ;;
    esac
    shift
done
cache=${HEURNET_DATA:-$HOME/.cache/heurnet}
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
head -1 instances/npuzzle/korf100.txt >"$out/empty.txt" # a comment: no boards

one() { # one EXE INSTANCES: appends "user sys wall" of one run to stdout
    if [ $cold = 1 ]; then
        for f in "$cache"/npuzzle15-7-8.pdb "$cache"/npuzzle15-7-8.pdb.raw; do
            [ -e "$f" ] && dd if="$f" iflag=nocache count=0 status=none
        done
    fi
    /usr/bin/time -f "%U %S %e" -o "$out/t" "$1" solve --puzzle 15 --algo idastar \
        --heuristic pdb:7-8 -q "$2" >"$out/o" 2>/dev/null
    grep -q "all_optimal=yes\|count=0" "$out/o" || { echo "$1: $(tail -1 "$out/o")" >&2; exit 1; }
    cat "$out/t"
}

median() { sort -g | awk '{ v[NR] = $1 } END { print (NR % 2) ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2 }'; }

for set in korf empty; do
    inst=instances/npuzzle/korf100.txt
    [ $set = empty ] && inst=$out/empty.txt
    : >"$out/$set.a"
    : >"$out/$set.b"
    for ((i = 0; i < runs; i++)); do
        one "$A" "$inst" >>"$out/$set.a"
        one "$B" "$inst" >>"$out/$set.b"
    done
done

echo "# A = $A ($("$A" version)), B = $B; $runs runs each, $([ $cold = 1 ] && echo cold || echo warm) page cache; load $(cut -d' ' -f1-3 /proc/loadavg)"
echo
echo "| boards | figure | A median | B median | A/B (median of pairs) |"
echo "|---|---|---:|---:|---:|"
for set in korf empty; do
    for col in 1:user 2:sys 3:wall; do
        c=${col%%:*}
        a=$(cut -d' ' -f"$c" "$out/$set.a" | median)
        b=$(cut -d' ' -f"$c" "$out/$set.b" | median)
        r=$(paste -d' ' "$out/$set.a" "$out/$set.b" |
            awk -v c="$c" '{ print ($(c + 3) > 0 ? $c / $(c + 3) : 0) }' | median)
        printf '| %s | %s s | %.3f | %.3f | %.2f |\n' \
            "$([ $set = korf ] && echo "Korf's 100" || echo "none (load)")" "${col#*:}" "$a" "$b" "$r"
    done
done
