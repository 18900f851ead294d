#!/usr/bin/env bash
# A/B of the learned candidate order and break gate of the backtracker (issue
# 21): emp solve with and without a place or break model (--scorer MODEL) at equal
# CPU time (--cpu), seeds 1..N per arm, on instances not used for training:
# Eternity II with its centre clue, META 16x16 and generated 16x16s (seeds
# 901, 902; the training pool is 101..104). Prints the conditions, then the
# Markdown table of `heurnet emp ab-stats` (mean, sd, standard error, paired
# and Welch t-test p-values against the arm "off", else the first arm) and one
# of the backtracker's figures.
#   --mode start     (default) the backtracking start alone: --backtrack-time =
#                    --time, the value is the start board's score
#   --mode pipeline  the whole run (backtracking start for time/10, then the
#                    local search), the value is the final score
#   --mode walk      the local search alone with the annealed walk (greedy
#                    start, --walk 10000000 --walk-temp 0.25 --slack 8), the
#                    value is the final score
# Arms: off (no scorer), place (the model at its recorded temperature),
# place:T (--scorer-temp T), break (a break model --model gating the break
# phases at its recorded threshold), break:T (--scorer-gate T; break:random:P
# refuses a context with chance P instead, the ablation), bound:B (no
# scorer, --scan-bound B), walk:K (the
# move model --move-model picks among K sideways moves of the walk), and with
# new descents every 2 s without a better board (--restart 2): restart (from
# the start board), kick:K (from the first of K kicked copies of the best,
# --stage K) and stage:K (the copy of highest value, --stage-weights W).
# The issue's full protocol (10 seeds x 10 CPU min, and 3 x 60-min E2 pipelines):
#   scripts/ab_emp_place.sh --time 600 --seeds 10 --only "e2 meta16 gen16"
#   scripts/ab_emp_place.sh --mode pipeline --time 3600 --seeds 3 --only e2
# Usage: scripts/ab_emp_place.sh [--heurnet PATH] [--model M.h5] [--time S]
#        [--seeds N] [--jobs J] [--arms "off place"] [--only "e2 meta16 gen16 gen16b"]
#        [--mode start|pipeline|walk] [--move-model M.h5] [--stage-weights W]
#        [--keep DIR]
# --keep DIR keeps the records and solutions there, and a second call with the
# same DIR and settings runs only what is missing.
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
H="$root/build/heurnet"; model="$root/models/emp-scorer.h5"; data="$root/instances/emp"
move_model="$root/models/emp-move-scorer.h5"; stage_w=""
t=60; nseeds=10; jobs=2; arms="off place"; only="e2 meta16 gen16"; mode=start; keep=""
while [ $# -gt 0 ]; do
    case "$1" in
        --heurnet) H="$2"; shift ;;
        --model) model="$2"; shift ;;
        --move-model) move_model="$2"; shift ;;
        --stage-weights) stage_w="$2"; shift ;;
        --time) t="$2"; shift ;;
        --seeds) nseeds="$2"; shift ;;
        --jobs) jobs="$2"; shift ;;
        --arms) arms="$2"; shift ;;
        --only) only="$2"; shift ;;
        --mode) mode="$2"; shift ;;
        --keep) keep="$2"; shift ;;
        *) echo "usage: $0 [--heurnet PATH] [--model M.h5] [--time S] [--seeds N] [--jobs J]" \
                "[--arms LIST] [--only LIST] [--mode start|pipeline] [--keep DIR]" >&2; exit 2 ;;
    esac
    shift
done
case "$mode" in start|pipeline|walk) ;; *) echo "$0: --mode must be start, pipeline or walk" >&2; exit 2 ;; esac
if [ -n "$keep" ]; then tmp="$keep"; mkdir -p "$tmp"; else tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT; fi
"$H" emp gen --size 16 --frame-colours 5 --inner-colours 17 --seed 901 -o "$tmp/g16.txt" >/dev/null
"$H" emp gen --size 16 --frame-colours 5 --inner-colours 17 --seed 902 -o "$tmp/g16b.txt" >/dev/null
declare -A file=([e2]="$data/eternity2.txt" [meta16]="$data/meta_16x16.txt"
                 [gen16]="$tmp/g16.txt" [gen16b]="$tmp/g16b.txt")
: >"$tmp/jobs"
for name in $only; do
    [ -n "${file[$name]:-}" ] || { echo "$0: unknown instance '$name'" >&2; exit 2; }
done
# seed by seed, so a run cut short still has every arm on the same seeds
for s in $(seq 1 "$nseeds"); do for name in $only; do for a in $arms; do
    echo "$name ${file[$name]} $a $s" >>"$tmp/jobs"
done; done; done
export H model move_model stage_w t tmp mode
# up to --jobs runs at a time; each: name file arm seed; a run whose record
# is already in --keep DIR is not repeated (a cut run resumes)
xargs -P "$jobs" -L 1 bash -c 'name=$0 f=$1 a=$2 s=$3 sc="" ex="" bt=""
    grep -qs "^instance=" "$tmp/r.$name.$a.$s" && exit 0
    case "$a" in off) ;; place) sc="--scorer $model" ;;
                 place:*) sc="--scorer $model --scorer-temp ${a#place:}" ;;
                 break) sc="--scorer $model" ;;
                 break:*) sc="--scorer $model --scorer-gate ${a#break:}" ;;
                 bound:*) sc="--scan-bound ${a#bound:}" ;;
                 walk:*) sc="--scorer $move_model --walk-choose ${a#walk:}" ;;
                 restart) sc="--restart 2" ;;
                 kick:*) sc="--restart 2 --stage ${a#kick:}" ;;
                 stage:*) sc="--restart 2 --stage ${a#stage:} --stage-weights $stage_w" ;; esac
    [ "$name" = e2 ] && ex="--clue 138,8,7,2"
    st="--start backtrack"
    [ "$mode" = start ] && bt="--backtrack-time $t"
    [ "$mode" = walk ] && st="--start greedy --walk 10000000 --walk-temp 0.25 --slack 8"
    "$H" emp solve -q --cpu --time "$t" $bt $st --seed "$s" $sc $ex "$f" \
        -o "$tmp/s.$name.$a.$s.sol" >"$tmp/r.$name.$a.$s" || echo "run failed: $f $a seed $s" >&2' \
    <"$tmp/jobs"
field=$([ "$mode" = start ] && echo start_score || echo score)
: >"$tmp/results"
while read -r name f a s; do
    v=$(grep -o "^instance=.* $field=[0-9]*" "$tmp/r.$name.$a.$s" 2>/dev/null | grep -o "$field=[0-9]*" |
        tail -1 | cut -d= -f2) || true
    [ -n "$v" ] && echo "$name $a $s $v" >>"$tmp/results"
done <"$tmp/jobs"
echo "conditions: --mode $mode, --cpu --time $t per run, seeds 1..$nseeds, $jobs runs at a time," \
     "load $(cut -d' ' -f1-3 /proc/loadavg), $(nproc) cores, $(date -u +%F), model $(basename "$model")"
echo
base=off # the arm the others are compared with: off, else the first one
case " $arms " in *" off "*) ;; *) base=${arms%% *} ;; esac
"$H" emp ab-stats --base "$base" "$tmp/results"
[ "$mode" = walk ] && exit 0 # no backtracking figures
echo
echo "| instance | arm | scan nodes / CPU s | complete boards | scorer CPU share | cache hits | breaks denied |"
echo "|---|---|---:|---:|---:|---:|---:|"
for name in $only; do for a in $arms; do
    cat "$tmp"/r."$name"."$a".* 2>/dev/null | awk -v n="$name" -v arm="$a" '
        /^instance=/ { for (k = 1; k <= NF; k++) { split($k, kv, "="); v[kv[1]] = kv[2] }
                       runs++; nodes += v["scan_nodes"]; sec += v["scan_seconds"]; boards += v["scan_boards"] }
        /^scorer_decision=/ { for (k = 1; k <= NF; k++) { split($k, kv, "="); w[kv[1]] = kv[2] }
                              share += w["scorer_share"]; hits += w["scorer_hits"]; calls += w["scorer_calls"]
                              den += w["scorer_denied"]; alw += w["scorer_allowed"] }
        END { if (!runs) exit
              printf "| %s | %s | %.2f M | %.1f | %.2f%% | %s | %s |\n", n, arm, nodes / sec / 1e6, boards / runs,
                     100 * share / runs, calls ? sprintf("%.2f%%", 100 * hits / (hits + calls)) : "",
                     den + alw ? sprintf("%.1f%%", 100 * den / (den + alw)) : "" }'
done; done
