#!/usr/bin/env bash
# Benchmark of `heurnet pdb build`: an n-puzzle partition (7-8 of the
# 15-puzzle by default) built by an old binary and by a new one in one run,
# ROUNDS rounds of OLD then NEW so both see the same load. Each build starts
# from an empty cache folder. OLD may be a binary of the n-puzzle's own
# builder (it takes --puzzle N -o FILE; say so with OLD_STYLE=np) or one of
# the domain builder (--domain, the cache). CPU seconds (user + system),
# wall seconds and peak RSS per run; the summary gives NEW/OLD of the summed
# CPU and wall seconds and appends to $OUT [build/bench_pdb_build.txt].
# Usage: scripts/bench_pdb_build.sh OLD NEW [partition] [threads] [rounds] [domain]
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
usage="usage: scripts/bench_pdb_build.sh OLD NEW [partition] [threads] [rounds] [domain]"
old=${1:?$usage}
new=${2:?$usage}
partition=${3:-7-8}
threads=${4:-2}
rounds=${5:-2}
domain=${6:-npuzzle:4x4}
out=${OUT:-$root/build/bench_pdb_build.txt}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
side=$(sed -n 's/^npuzzle:\([0-9]*\)x\1$/\1/p' <<<"$domain")
# one build: "cpu_s wall_s peak_mb"
run() {
    local bin=$1 style=$2
    rm -rf "$tmp/cache" "$tmp/old.pdb"
    mkdir -p "$tmp/cache"
    if [ "$style" = np ]; then
        HEURNET_DATA="$tmp/cache" /usr/bin/time -f '%U %S %e %M' -o "$tmp/time" "$bin" pdb build \
            --puzzle $((side * side - 1)) --partition "$partition" --threads "$threads" -q \
            -o "$tmp/old.pdb" >"$tmp/log" 2>&1
    else
        HEURNET_DATA="$tmp/cache" /usr/bin/time -f '%U %S %e %M' -o "$tmp/time" "$bin" pdb build \
            --domain "$domain" --partition "$partition" --threads "$threads" -q >"$tmp/log" 2>&1
    fi
    awk '{printf "%.1f %.1f %.0f\n", $1 + $2, $3, $4 / 1024}' "$tmp/time"
}
co=0 cn=0 wo=0 wn=0
for r in $(seq 1 "$rounds"); do
    read -r c w m <<<"$(run "$old" "${OLD_STYLE:-np}")"
    echo "round=$r binary=old cpu_s=$c wall_s=$w peak_rss_mb=$m"
    co=$(awk -v a="$co" -v b="$c" 'BEGIN{print a+b}') wo=$(awk -v a="$wo" -v b="$w" 'BEGIN{print a+b}')
    read -r c w m <<<"$(run "$new" domain)"
    echo "round=$r binary=new cpu_s=$c wall_s=$w peak_rss_mb=$m"
    cn=$(awk -v a="$cn" -v b="$c" 'BEGIN{print a+b}') wn=$(awk -v a="$wn" -v b="$w" 'BEGIN{print a+b}')
done
result=$(awk -v co="$co" -v cn="$cn" -v wo="$wo" -v wn="$wn" -v p="$partition" -v t="$threads" \
    -v d="$domain" -v r="$rounds" 'BEGIN{printf "domain=%s partition=%s threads=%s rounds=%s old_cpu_s=%.1f new_cpu_s=%.1f cpu_new_over_old=%.3f old_wall_s=%.1f new_wall_s=%.1f wall_new_over_old=%.3f\n", d, p, t, r, co, cn, cn / co, wo, wn, wn / wo}')
echo "$result"
mkdir -p "$(dirname "$out")"
echo "$(date -u +%FT%TZ) $result" >>"$out"
