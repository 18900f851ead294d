#!/usr/bin/env bash
# Searching with a learned heuristic: the paper's experiment (A* with the
# network against A* with the 7-8 PDB) and the trade-off across algorithms
# and settings, with heurnet eval on the DeepCubeA 15-puzzle test boards
# (goal blank-last; a blank-first model gets converted boards). Prints a
# Markdown table for the README; every eval report stays in the output folder.
#
# usage: scripts/bench_ann.sh [--heurnet PATH] [--model M.h5] [--search-model M.h5]
#                             [--instances FILE] [--goal G] [--limit N] [--out DIR] [--quick]
#   --heurnet    executable [build/heurnet]
#   --model      network [models/15puzzle-annd.h5]
#   --search-model  the search variant (a low quantile) [models/15puzzle-annd-q35.h5]
#   --instances  boards with known optima [instances/npuzzle/deepcubea_test_15puzzle.txt]
#   --goal       goal layout of the boards [blank-last]
#   --limit      first N boards [500]
#   --out        folder for the reports [bench-ann]
#   --quick      only A* (with the baseline), A* and batch A* B=16 with
#                max(ann - 2, pdb), batch A* B=16 and focal 1.05
# The baseline (A* with pdb:7-8) runs once, in the first eval (folder paper/);
# the other settings use the file's optimal lengths (--baseline-algo none).
set -euo pipefail
cd "$(dirname "$0")/.."
HN=build/heurnet
model=models/15puzzle-annd.h5
search=models/15puzzle-annd-q35.h5
inst=instances/npuzzle/deepcubea_test_15puzzle.txt
goal=blank-last
limit=500
out=bench-ann
quick=0
while [ $# -gt 0 ]; do
    case $1 in
    --heurnet) HN=$2; shift ;;
    --model) model=$2; shift ;;
    --search-model) search=$2; shift ;;
    --instances) inst=$2; shift ;;
    --goal) goal=$2; shift ;;
    --limit) limit=$2; shift ;;
    --out) out=$2; shift ;;
    --quick) quick=1 ;;
    *) sed -n '8,18p' "$0" >&2; exit 2 ;;
    esac
    shift
done
mkdir -p "$out"
field() { sed -n "s/.*\b$1=\([^ ]*\).*/\1/p" <<<"$2"; }
echo "# $("$HN" version), $(nproc) cores, model $model, $limit boards of $inst, $(date -u +%Y-%m-%dT%H:%MZ)" >&2

rows=()
# run NAME SETTING [eval options...]: one eval, one table row (network: $M,
# else --model)
run() {
    local name=$1 setting=$2
    shift 2
    local dir="$out/$name" line
    line=$("$HN" eval --model "${M:-$model}" --instances "$inst" --goal "$goal" --limit "$limit" \
        --force -q -o "$dir" "$@")
    echo "$name: $line" >&2
    [ "$name" = paper ] || rows+=("| $setting | $(field optimal "$line") $(sed -n 's/.* optimal=[^ ]* (\([0-9.]*%\)).*/(\1)/p' <<<"$line") | $(field mean_excess "$line") | $(field max_excess "$line") | $(field mean_expanded "$line") | $(field median_expanded "$line") | $(field mean_seconds "$line") |")
    if [ "$name" = paper ]; then
        rows+=("| A* pdb:7-8 (baseline) | 100% (admissible) | 0 | 0 | $(field base_mean_expanded "$line") | $(sed -n 's/^| median expanded | [^|]* | \([^|]*\) |/\1/p' "$dir/summary.md" | tr -d ' ') | $(field base_mean_seconds "$line") |")
    fi
}

none=(--baseline-algo none)
mx() { echo "ann:$model,pdb:7-8,delta:$1,scale:10"; } # max(ann - D, pdb:7-8), 1/10-move values
# the paper's experiment: A* with the network and A* with the PDB on the same
# boards (report with Table 1 and figures); the timed A* row comes from a run
# without the baseline, whose 500 MB table lookups would evict the network's
# weights from the caches between boards
run paper "" --algo astar
run astar "A* ann (rounded h)" --algo astar "${none[@]}"
run batch16 "batch A* ann B=16" --algo batch-astar --batch 16 "${none[@]}"
run astar_max2 "A* max(ann - 2, pdb:7-8)" --algo astar --heuristic "$(mx 2)" "${none[@]}"
run batch16_max2 "batch A* max(ann - 2, pdb) B=16" --algo batch-astar --batch 16 --heuristic "$(mx 2)" "${none[@]}"
run focal105 "focal 1.05 (open: pdb:7-8, focal: ann)" --algo focal --bound 1.05 "${none[@]}"
# the search variant: plain A* with one network, 1/10-move values, each board
# evaluated with its diagonal mirror (mean of the two outputs)
q="ann:$search,scale:10,mirror"
M=$search run q_mirror "A* search variant (\`$(basename "$search")\`), \`scale:10,mirror\`" --algo astar --heuristic "$q" "${none[@]}"
M=$search run q_batch16 "batch A* search variant B=16, \`scale:10,mirror\`" --algo batch-astar --batch 16 --heuristic "$q" "${none[@]}"
if [ $quick = 0 ]; then
    run astar_fixed "A* ann (fixed point, 1/100 move)" --algo astar --heuristic "ann:$model,scale:100" "${none[@]}"
    run astar_max0 "A* max(ann, pdb:7-8)" --algo astar --heuristic "$(mx 0)" "${none[@]}"
    run astar_max1 "A* max(ann - 1, pdb:7-8)" --algo astar --heuristic "$(mx 1)" "${none[@]}"
    run astar_max3 "A* max(ann - 3, pdb:7-8)" --algo astar --heuristic "$(mx 3)" "${none[@]}"
    run batch4 "batch A* ann B=4" --algo batch-astar --batch 4 "${none[@]}"
    run batch64 "batch A* ann B=64" --algo batch-astar --batch 64 "${none[@]}"
    run batch256 "batch A* ann B=256" --algo batch-astar --batch 256 "${none[@]}"
    run focal102 "focal 1.02 (open: pdb:7-8, focal: ann)" --algo focal --bound 1.02 "${none[@]}"
    run wastar12 "weighted A* ann W=1.2" --algo wastar --weight 1.2 "${none[@]}"
    run wastar15 "weighted A* ann W=1.5" --algo wastar --weight 1.5 "${none[@]}"
    M=$search run q_round "A* search variant, rounded" --algo astar "${none[@]}"
    M=$search run q_scale "A* search variant, \`scale:10\`" --algo astar --heuristic "ann:$search,scale:10" "${none[@]}"
    M=$search run q_max "A* max(search variant, pdb:7-8), \`scale:10,mirror\`" --algo astar --heuristic "$q,pdb:7-8" "${none[@]}"
fi

echo "| search | optimal | mean excess | max excess | mean expanded | median expanded | mean s/board |"
echo "|---|---:|---:|---:|---:|---:|---:|"
printf '%s\n' "${rows[@]}"
