#!/usr/bin/env bash
# The 24-puzzle benchmark of issue 19: a model's recommended search (the
# `search` attribute, see docs/search-24.md) on DeepCubeA's 500 test boards
# and Korf's 50, next to weighted A* with the 6-6-6-6 PDB (weights 1.1 and
# 1.2, 20 s per board). One search thread and one BLAS thread throughout.
# Every solution is replayed to the goal; optimal lengths come from the files.
#
#   scripts/bench_24.sh [--model M.h5] [--limit N] [--sets S] [--time-limit S]
#                       [--time-budget S] [--base-time-limit S] [--max-nodes N]
#                       [--search "..."] [--no-baseline] [--no-model] [--out DIR]
#
# --time-budget S: the network search gets S s per board on average instead of
# a cap of --time-limit per board (heurnet eval --time-budget: time that boards
# finished early leave goes to the boards after them).
# --sets: deepcubea, korf50, or FILE@GOAL for boards of your own (tune on
# those, never on the test sets). --limit N takes the first N boards of
# each set (0 = all). --search replaces
# the model's recorded search (heurnet solve options, SELF = the model).
# Reports go to DIR/<set>-model/ (heurnet eval) and DIR/<set>-wastar<W>.txt.
set -euo pipefail

root=$(cd "$(dirname "$0")/.." && pwd)
HN=${HEURNET:-$root/build/heurnet}
model=$root/models/24puzzle-search.h5
limit=0
sets="deepcubea korf50"
time_limit=60
time_budget=""
base_time=20
max_nodes=20000000
search=""
do_base=1
do_model=1
out=bench24-out

usage() {
    sed -n '2,20p' "$0" | sed 's/^# \{0,1\}//'
    echo "defaults: --model models/24puzzle-search.h5 --limit 0 --sets \"$sets\" --time-limit $time_limit"
    echo "          --base-time-limit $base_time --max-nodes $max_nodes --out $out"
}

while [ $# -gt 0 ]; do
    case $1 in
    --model) model=$2; shift 2 ;;
    --limit) limit=$2; shift 2 ;;
    --sets) sets=$2; shift 2 ;;
    --time-limit) time_limit=$2; shift 2 ;;
    --time-budget) time_budget=$2; shift 2 ;;
    --base-time-limit) base_time=$2; shift 2 ;;
    --max-nodes) max_nodes=$2; shift 2 ;;
    --search) search=$2; shift 2 ;;
    --no-baseline) do_base=0; shift ;;
    --no-model) do_model=0; shift ;;
    --out) out=$2; shift 2 ;;
    -h | --help) usage; exit 0 ;;
    *) echo "bench_24.sh: unknown option '$1' (see --help)" >&2; exit 2 ;;
    esac
done

[ -x "$HN" ] || { echo "bench_24.sh: $HN not found: build first (or set HEURNET)" >&2; exit 1; }
if [ $do_model = 1 ] && [ ! -f "$model" ]; then
    echo "bench_24.sh: model $model not found (--model M.h5, or --no-model)" >&2
    exit 1
fi
export OPENBLAS_NUM_THREADS=1
mkdir -p "$out"

set_file() { # set_file NAME: instance file and goal layout
    case $1 in
    deepcubea) echo "$root/instances/npuzzle/deepcubea_test_24puzzle.txt blank-last" ;;
    korf50) echo "$root/instances/npuzzle/korf50_24puzzle.txt blank-first" ;;
    *@blank-first | *@blank-last) echo "${1%@*} ${1##*@}" ;;
    *) echo "bench_24.sh: unknown set '$1' (deepcubea, korf50, FILE@blank-first|blank-last)" >&2
        exit 2 ;;
    esac
}

# The first N boards of FILE (all for N = 0), comments dropped.
take() { # one awk, no `| head`: under pipefail, grep killed by SIGPIPE ended the script
    awk -v n="$2" '!/^#/ && (n <= 0 || k++ < n)' "$1"
}

# Summarise `heurnet solve` records of a 24-puzzle run: replay every
# solution (awk), compare with the optimum in the file.
# Prints: boards solved valid optimal known excess_mean seconds_all expanded_mean
summarize_solve() { # summarize_solve INSTANCES GOAL RECORDS
    awk -v goal="$2" -v inst="$1" '
    BEGIN { while ((getline l < inst) > 0) { if (l ~ /^#/ || l ~ /^ *$/) continue
                n = split(l, a, " "); tiles[a[1]] = l } }
    /^id=/ {
        for (i = 1; i <= NF; i++) { p = index($i, "="); r[substr($i, 1, p - 1)] = substr($i, p + 1) }
        boards++; secs += r["seconds"]
        if (r["status"] != "solved") next
        solved++; sumexp += r["expanded"]
        split(tiles[r["id"]], t, " ")
        for (c = 0; c < 25; c++) { cell[c] = t[c + 3]; if (cell[c] == 0) z = c }
        m = r["moves"]; ok = length(m) == r["length"]
        for (k = 1; k <= length(m) && ok; k++) {
            d = substr(m, k, 1)
            nz = d == "U" ? z - 5 : d == "D" ? z + 5 : d == "L" ? z - 1 : z + 1
            if (nz < 0 || nz > 24 || ((d == "L" || d == "R") && int(nz / 5) != int(z / 5))) ok = 0
            else { cell[z] = cell[nz]; cell[nz] = 0; z = nz }
        }
        for (c = 0; c < 25 && ok; c++)
            if (cell[c] != (goal == "blank-first" ? c : (c == 24 ? 0 : c + 1))) ok = 0
        valid += ok
        if (r["optimal"] != "") { known++; opt += r["length"] == r["optimal"]; exc += r["length"] - r["optimal"] }
    }
    END { printf "%d %d %d %d %d %.3f %.2f %.0f\n", boards, solved, valid, opt, known,
              known ? exc / known : 0, boards ? secs / boards : 0, solved ? sumexp / solved : 0 }' "$3"
}

row() { # row SET SEARCH boards solved valid optimal known excess seconds expanded
    local pct # optimal share of all boards (the files give every optimum)
    pct=$(awk -v o="$6" -v n="$3" 'BEGIN { printf "%.1f", n ? 100 * o / n : 0 }')
    printf '| %s | %s | %s/%s | %s | %s/%s (%s %%) | %s | %s | %s |\n' \
        "$1" "$2" "$4" "$3" "$5" "$6" "$3" "$pct" "$8" "$9" "${10}"
}

model_row() { # model_row SET: the row of heurnet eval's headline and summary
    local h algo opt
    h=$(cat "$out/$1-model.headline")
    kv() { sed -n "s/.* $1=\([^ ]*\).*/\1/p" <<<" $h"; }
    # shellcheck disable=SC2016 # the backquotes are Markdown, not a command
    algo=$(sed -n 's/^- network search: `\(.*\)`\(.*\)$/\1\2/p' "$out/$1-model/summary.md" |
        sed "s|$model|$(basename "$model")|g")
    opt=$(kv optimal)
    row "$1" "$algo" "$(kv boards)" "$(kv solved)" "$(kv valid)" "${opt%%/*}" "${opt##*/}" \
        "$(kv mean_excess)" "$(printf %.2f "$(kv mean_seconds_all)")" \
        "$(printf %.0f "$(kv mean_expanded)")"
}

table=$out/table.md
{
    echo "| set | search | solved | valid | optimal | mean excess | mean s/board | mean expanded |"
    echo "|---|---|---:|---:|---:|---:|---:|---:|"
} >"$table"
echo "# $("$HN" --version 2>/dev/null || true) bench_24: limit=$limit sets=\"$sets\"" \
    "model=$model time_limit=$time_limit time_budget=${time_budget:-none} base_time_limit=$base_time max_nodes=$max_nodes" >&2

for spec in $sets; do
    read -r file goal <<<"$(set_file "$spec")"
    s=$(basename "${spec%@*}" .txt)
    take "$file" "$limit" >"$out/$s.txt"
    if [ $do_model = 1 ]; then
        extra=()
        if [ -n "$search" ]; then
            # shellcheck disable=SC2206
            extra=(${search//SELF/$model})
        fi
        echo "== $s: $(basename "$model") ${search:-recorded search}" >&2
        rm -rf "$out/$s-model"
        if [ -n "$time_budget" ]; then
            extra+=(--time-budget "$time_budget")
        else
            extra+=(--time-limit "$time_limit")
        fi
        "$HN" eval --model "$model" --instances "$out/$s.txt" --goal "$goal" --blas-threads 1 \
            --baseline-algo none --max-nodes "$max_nodes" \
            "${extra[@]}" --force -q -o "$out/$s-model" >"$out/$s-model.headline" ||
            echo "bench_24.sh: eval on $s exited $? (see $out/$s-model.headline)" >&2
        if [ -f "$out/$s-model/summary.md" ]; then
            model_row "$s" >>"$table"
        else
            echo "| $s | heurnet eval failed (see the messages above) | | | | | | |" >>"$table"
        fi
    fi
    if [ $do_base = 1 ]; then
        for w in 1.1 1.2; do
            echo "== $s: wastar $w pdb:6-6-6-6, ${base_time} s per board" >&2
            "$HN" solve --puzzle 24 --goal "$goal" --algo wastar --weight "$w" \
                --heuristic pdb:6-6-6-6 --time-limit "$base_time" --max-nodes "$max_nodes" \
                --threads 1 -q "$out/$s.txt" >"$out/$s-wastar$w.txt" || true
            # shellcheck disable=SC2046
            row "$s" "wastar --weight $w pdb:6-6-6-6 (${base_time} s cap)" \
                $(summarize_solve "$out/$s.txt" "$goal" "$out/$s-wastar$w.txt") >>"$table"
        done
    fi
done
cat "$table"
