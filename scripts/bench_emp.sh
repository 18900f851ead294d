#!/usr/bin/env bash
# Edge-matching benchmarks for the README: the shape of Salassa et al.'s
# Table 1 (clique graph size, clique heuristic and GLPK MILP on 3x3..8x8) and
# the local search on the META / Eternity II instances. One thread per run;
# the local-search time limits count CPU time (--cpu), so a busy machine
# lengthens the wall time but not the search.
# `walk` times the annealed walk alone (Eternity II, random start, no other
# neighbourhood) for this build and, with --ref, another heurnet binary.
# Usage: scripts/bench_emp.sh [table1|ls|walk|all] [--heurnet PATH] [--ref PATH] [--time S]
#        [--milp-time S] [--selections Q] [--seeds "1 2 3"] [--e2-time S]
#        [--only REGEX]   (local-search rows whose name matches)
#        [--args "..."]   (extra emp solve options for every local-search row,
#                          e.g. the annealed walk: --args "--walk 10000000 --walk-temp 0.25 --slack 8")
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
H="$root/build/heurnet"; data="$root/instances/emp"
ref=""; what=all; t=30; milp_t=60; q=1000000; seeds="1 2 3"; e2_t=300; only=.; extra=
while [ $# -gt 0 ]; do
    case "$1" in
        table1|ls|walk|all) what="$1" ;;
        --heurnet) H="$2"; shift ;;
        --ref) ref="$2"; shift ;;
        --time) t="$2"; shift ;;
        --milp-time) milp_t="$2"; shift ;;
        --selections) q="$2"; shift ;;
        --seeds) seeds="$2"; shift ;;
        --e2-time) e2_t="$2"; shift ;;
        --only) only="$2"; shift ;;
        --args) extra="$2"; shift ;;
        *) echo "usage: $0 [table1|ls|walk|all] [--heurnet PATH] [--ref PATH] [--time S] [--milp-time S] [--selections Q] [--seeds LIST] [--e2-time S] [--only REGEX] [--args \"...\"]" >&2; exit 2 ;;
    esac
    shift
done
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
field() { sed -n "s/.*\b$1=\([^ ]*\).*/\1/p"; }

table1() {
    echo "| instance | opt | nodes | edges | density | clique E (CPU s), q=$q | MILP vars | MILP rows | GLPK E (CPU s), limit ${milp_t}s |"
    echo "|---|---|---|---|---|---|---|---|---|"
    for f in "$data"/owen_set1/b0[3-8]x0[3-8]s1.txt "$data"/small/pieces_0[5-8]x0[5-8].txt; do
        c=$("$H" emp clique "$f" --solve --selections "$q" --seed 1)
        m=$("$H" emp milp "$f" --solve --time "$milp_t" 2>&1 || true)
        ms=$(echo "$m" | field score); [ -z "$ms" ] && ms="none"
        opt=$(echo "$c" | field joins)
        echo "| $(basename "$f" .txt) | $opt | $(echo "$c" | field nodes) | $(echo "$c" | field edges) |" \
             "$(echo "$c" | awk '{for(i=1;i<=NF;i++) if($i ~ /^density=/){split($i,a,"="); printf "%.1f%%", 100*a[2]}}') |" \
             "$(echo "$c" | field score) ($(echo "$c" | field cpu_seconds)) |" \
             "$(echo "$m" | field variables) | $(echo "$m" | field constraints) |" \
             "$ms ($(echo "$m" | field cpu_seconds)$( [ "$(echo "$m" | field optimal)" = 1 ] && echo ", optimal")) |"
    done
}

ls_row() { # name file time extra-args...
    local name="$1" f="$2" tl="$3"; shift 3
    echo "$name" | grep -Eq -- "$only" || return 0
    local scores="" best=0 sum=0 k=0
    for s in $seeds; do
        # shellcheck disable=SC2086 # $extra is a list of options
        r=$("$H" emp solve -q --cpu --time "$tl" --seed "$s" $extra "$@" "$f" -o "$tmp/s.sol")
        v=$(echo "$r" | field score)
        "$H" emp score "$f" "$tmp/s.sol" "$@" >/dev/null 2>&1 || { echo "re-check failed: $f" >&2; exit 1; }
        scores="$scores $v"; sum=$((sum + v)); k=$((k + 1)); [ "$v" -gt "$best" ] && best=$v
    done
    echo "| $name | ${tl} s | $(echo "$r" | field joins) | $best | $(awk -v s=$sum -v k=$k 'BEGIN{printf "%.1f", s/k}') |$scores |"
}

lsbench() {
    "$H" emp gen --size 16 --frame-colours 5 --inner-colours 17 --seed 1 -o "$tmp/g16.txt" >/dev/null
    if [ "$only" = . ]; then
        echo "| instance | time | joins | best | mean | per seed ($seeds) |"
        echo "|---|---|---|---|---|---|"
    fi
    ls_row "META 10x10" "$data/meta_10x10.txt" "$t"
    ls_row "META 12x12" "$data/meta_12x12.txt" "$t"
    ls_row "META 14x14" "$data/meta_14x14.txt" "$t"
    ls_row "META 16x16" "$data/meta_16x16.txt" "$t"
    ls_row "generated 16x16 (5+17 colours)" "$tmp/g16.txt" "$t"
    ls_row "Eternity II + centre clue" "$data/eternity2.txt" "$e2_t" --clue 138,8,7,2
}

walk_row() { # binary: walk tries per CPU second, counted in whole walks of 10^7
    local r
    r=$("$1" emp solve -q --cpu --time 20 --start random --ta-n 0 --ro-n 0 --walk 10000000 \
        --walk-temp 0.25 --slack 1000 --clue 138,8,7,2 "$data/eternity2.txt" -o "$tmp/w.sol")
    awk -v c="$(echo "$r" | field cycles)" -v s="$(echo "$r" | field cpu_seconds)" \
        'BEGIN{printf "%.1f", c * 10 / s}'
}

walkbench() {
    local new old
    new=$(walk_row "$H")
    echo "| walk, Eternity II (M tries per CPU s) | this build | reference | ratio |"
    echo "|---|---|---|---|"
    if [ -n "$ref" ]; then
        old=$(walk_row "$ref")
        echo "| 10^7-try walks in 20 CPU s | $new | $old | $(awk -v a="$new" -v b="$old" 'BEGIN{printf "%.1fx", a / b}') |"
    else
        echo "| 10^7-try walks in 20 CPU s | $new | - | - |"
    fi
}

case "$what" in
    table1) table1 ;;
    ls) lsbench ;;
    walk) walkbench ;;
    all) table1; echo; lsbench ;;
esac
