#!/usr/bin/env bash
# The figures of docs/inference.md: the network inside search, float vs
# int8 (q8) and full vs incremental first layer.
#   1. accuracy cost of q8: MAE of the raw network (1/1000-move values, no
#      search) against the known optima of Korf's 100 and DeepCubeA's 500
#   2. one network call (heurnet bench nn): the shipped 256-512-256-128-1 at
#      batch 1 and 8, the paper's 256-1024-1024-512-128-64-1 at batch 1
#   3. A* on DeepCubeA's 500 boards with the search network (dense, sparse,
#      q8, and q8 without the board cache, the setting tuned on generated
#      boards) next to A* with the 7-8 PDB, board by board in one run
#      (heurnet bench search)
#   4. the distilled search network (models/15puzzle-search.h5, its recorded
#      heuristic) and the q8 teacher next to A* with the 7-8 PDB: --repeats
#      runs of section 3's kind, each board by board in one run; prints each
#      run's CPU ratio network / PDB and their median, minimum and maximum
# Prints every record; sections 3 and 4 take a few minutes each on one core.
#
# usage: scripts/bench_inference.sh [--heurnet PATH] [--limit N] [--out DIR] [--skip-search]
#                                   [--repeats R]
set -euo pipefail
cd "$(dirname "$0")/.."
HN=build/heurnet
limit=500
out=bench-inference
search=1
repeats=5
while [ $# -gt 0 ]; do
    case $1 in
    --heurnet) HN=$2; shift ;;
    --limit) limit=$2; shift ;;
    --out) out=$2; shift ;;
    --skip-search) search=0 ;;
    --repeats) repeats=$2; shift ;;
    *) sed -n '18,19p' "$0" >&2; exit 2 ;;
    esac
    shift
done
mkdir -p "$out"
korf=instances/npuzzle/korf100.txt
dca=instances/npuzzle/deepcubea_test_15puzzle.txt
echo "# $("$HN" version), $(nproc) cores, load $(cut -d' ' -f1-3 /proc/loadavg), $(date -u +%Y-%m-%dT%H:%MZ)"

# mae MODEL FILE GOAL ENGINE: mean |h - optimal| of the start boards (a
# search limited to one expansion only computes h)
mae() {
    local dir="$out/mae-$(basename "$1" .h5)-$(basename "$2" .txt)-$4"
    "$HN" eval --model "$1" --instances "$2" --goal "$3" --heuristic "ann:$1,scale:1000,$4" \
        --baseline-algo none --max-expanded 1 --force -q -o "$dir" >/dev/null 2>&1
    awk -F'\t' -v m="$1" -v f="$2" -v e="$4" \
        'NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i; next }
         { d = $c["h_error"]; s += d < 0 ? -d : d; n++ }
         END { printf "mae model=%s instances=%s engine=%s boards=%d mae=%.4f\n", m, f, e, n, s / n }' \
        "$dir/instances.tsv"
}
for m in models/15puzzle-annd.h5 models/15puzzle-annd-q35.h5; do
    for e in dense sparse q8; do
        mae "$m" "$korf" blank-first "$e"
        mae "$m" "$dca" blank-last "$e"
    done
done

for e in dense sparse q8; do
    for b in 1 8; do
        "$HN" bench nn --arch 256-512-256-128-1 --mode infer --input onehot --batch "$b" \
            --engine "$e" --seconds 2
    done
done
"$HN" bench nn --mode infer --input gauss --batch 1 --seconds 3
for e in dense sparse q8; do
    "$HN" bench nn --mode infer --input onehot --batch 1 --engine "$e" --seconds 3
done

if [ "$search" = 1 ]; then
    q=ann:models/15puzzle-annd-q35.h5,scale:10,mirror
    "$HN" bench search --instances "$dca" --goal blank-last --limit "$limit" -q --algo astar \
        -H "$q,dense" -H "$q" -H "$q,q8" -H "$q,q8,cache:0"
fi

if [ "$search" = 1 ]; then
    student=$("$HN" nn info models/15puzzle-search.h5 | sed -n 's/^attr.search=.*--heuristic ann:SELF\([^ ]*\).*/\1/p')
    s=ann:models/15puzzle-search.h5$student
    t=ann:models/15puzzle-annd-q35.h5,scale:10,mirror,q8,cache:0
    for i in $(seq "$repeats"); do
        "$HN" bench search --instances "$dca" --goal blank-last --limit "$limit" -q --algo astar \
            -H "$s" -H "$t"
    done | tee "$out/repeats.txt"
    # each run's CPU seconds per board: network / PDB, run by run
    awk '{ for (i = 1; i <= NF; i++) if ($i ~ /^cpu_s_per_board=/) c = substr($i, 18) }
         /^heuristic=pdb/ { p = c } /^heuristic=ann:models\/15puzzle-search/ { r[n++] = c / p }
         /^heuristic=ann:models\/15puzzle-annd-q35/ { q[m++] = c / p }
         function med(a, k,   i, j, t) { for (i = 0; i < k; i++) for (j = i + 1; j < k; j++)
             if (a[j] < a[i]) { t = a[i]; a[i] = a[j]; a[j] = t } return a[int((k - 1) / 2)] }
         END { a = med(r, n); b = med(q, m) # sorts r and q: [0] is the minimum
               printf "ratio student/pdb runs=%d median=%.3f min=%.3f max=%.3f\n", n, a, r[0], r[n - 1]
               printf "ratio teacher/pdb runs=%d median=%.3f min=%.3f max=%.3f\n", m, b, q[0], q[m - 1] }' \
        "$out/repeats.txt"
fi
