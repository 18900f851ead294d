#!/usr/bin/env bash
# A/B of the learned move scorer (issue 7): emp solve with and without
# --scorer at equal CPU time (--cpu), on instances not used for training:
# generated ones with other seeds than the training pool (101..104), META
# 12x12 and 16x16, and Eternity II with its centre clue. Prints a Markdown
# table: mean and standard deviation of the final score over the seeds, and
# moves evaluated per CPU second.
# Usage: scripts/bench_emp_scorer.sh [--heurnet PATH] [--model M.h5] [--time S]
#        [--seeds "1 2 ..."] [--jobs J] [--arms "off best softmax:1"] [--only NAME]
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
H="$root/build/heurnet"; model="$root/models/emp-move-scorer.h5"; data="$root/instances/emp"
t=10; seeds="1 2 3 4 5 6 7 8 9 10"; jobs=2; arms="off best"; only=""
while [ $# -gt 0 ]; do
    case "$1" in
        --heurnet) H="$2"; shift ;;
        --model) model="$2"; shift ;;
        --time) t="$2"; shift ;;
        --seeds) seeds="$2"; shift ;;
        --jobs) jobs="$2"; shift ;;
        --arms) arms="$2"; shift ;;
        --only) only="$2"; shift ;;
        *) echo "usage: $0 [--heurnet PATH] [--model M.h5] [--time S] [--seeds LIST] [--jobs J] [--arms LIST] [--only NAME]" >&2; exit 2 ;;
    esac
    shift
done
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
"$H" emp gen --size 12 --frame-colours 4 --inner-colours 12 --seed 901 -o "$tmp/g12.txt" >/dev/null
"$H" emp gen --size 16 --frame-colours 5 --inner-colours 17 --seed 901 -o "$tmp/g16.txt" >/dev/null
names=("gen12" "gen16" "meta12" "meta16" "e2")
labels=("generated 12x12 (4+12 colours, seed 901)" "generated 16x16 (5+17 colours, seed 901)"
        "META 12x12" "META 16x16" "Eternity II + centre clue")
files=("$tmp/g12.txt" "$tmp/g16.txt" "$data/meta_12x12.txt" "$data/meta_16x16.txt" "$data/eternity2.txt")

# one job per line: name arm seed; results in $tmp/r.name.arm.seed
: >"$tmp/jobs"
for i in "${!names[@]}"; do
    [ -n "$only" ] && [ "$only" != "${names[$i]}" ] && continue
    for a in $arms; do for s in $seeds; do echo "$i $a $s" >>"$tmp/jobs"; done; done
done
printf '%s\n' "${files[@]}" >"$tmp/files"
export H model t tmp
# up to --jobs runs at a time; each: index arm seed
xargs -P "$jobs" -L 1 bash -c 'i=$0 a=$1 s=$2 sc="" ex=""
    [ "$a" != off ] && sc="--scorer $model --scorer-pick $a"
    [ "$i" = 4 ] && ex="--clue 138,8,7,2"
    f=$(sed -n "$((i + 1))p" "$tmp/files")
    "$H" emp solve -q --cpu --time "$t" --seed "$s" $sc $ex "$f" -o "$tmp/s.$i.$a.$s.sol" \
        >"$tmp/r.$i.$a.$s" || echo "run failed: $f $a seed $s" >&2' <"$tmp/jobs"
echo "conditions: --cpu --time $t per run, $jobs runs at a time, load $(cut -d' ' -f1-3 /proc/loadavg)," \
     "$(nproc) cores, $(date -u +%F)"
echo
echo "| instance | scorer | runs | mean score | std | min | max | moves/CPU s | scorer CPU share |"
echo "|---|---|---|---|---|---|---|---|---|"
for i in "${!names[@]}"; do
    [ -n "$only" ] && [ "$only" != "${names[$i]}" ] && continue
    for a in $arms; do
        cat "$tmp"/r."$i"."$a".* 2>/dev/null | awk -v lab="${labels[$i]}" -v arm="$a" '
            /^instance=/ { for (k = 1; k <= NF; k++) { split($k, kv, "="); v[kv[1]] = kv[2] }
                           n++; s += v["score"]; q += v["score"] ^ 2; mv += v["moves"]; cpu += v["cpu_seconds"]
                           if (n == 1 || v["score"] < lo) lo = v["score"]; if (v["score"] > hi) hi = v["score"] }
            /^scorer_calls=/ { split($3, kv, "="); ssec += kv[2] }
            END { if (!n) { print "| " lab " | " arm " | 0 | failed |||||"; exit }
                  m = s / n; sd = n > 1 ? sqrt((q - n * m * m) / (n - 1)) : 0
                  printf "| %s | %s | %d | %.1f | %.2f | %d | %d | %.0f | %.2f%% |\n", lab, arm, n, m, sd, lo, hi, mv / cpu, 100 * ssec / cpu }'
    done
done
