#!/usr/bin/env bash
# The cube's anytime search (models/cube3.h5's recorded search: a narrow
# beam, the learned beam, then IDA* on the fsst table below its length) at
# several splits of the time limit between the beam and the proof, on own
# cubes drawn as DeepCubeA's test cubes are (never on the test set). The
# splits run interleaved, chunk by chunk of CHUNK cubes (split A, split B,
# .. on the same chunk), so a loaded machine hits them alike. One search
# thread, one BLAS thread.
#
# Per split: cubes solved, proven optimal (proven=1), equal to the best
# length any split found for the cube, mean length, the first solution's
# seconds (mean, largest), the cubes the proof shortened, and the user CPU
# seconds of the runs (the time limit is wall time: on a loaded machine a
# search gets less CPU in its 20 s than on an idle one). The load average
# before and after is printed with them.
#
# usage: scripts/bench_cube_anytime.sh HEURNET [FILE] [LIMIT] [SPLITS] [CHUNK]
#   FILE   [instances/cube3/own/cube3-walk1000-10000.txt]
#   LIMIT  seconds per cube [20]
#   SPLITS the beam's shares, comma-separated [0.2,0.5]
#   CHUNK  cubes per run [10]
set -euo pipefail
cd "$(dirname "$0")/.."
bin=$1
file=${2:-instances/cube3/own/cube3-walk1000-10000.txt}
limit=${3:-20}
IFS=, read -r -a splits <<<"${4:-0.2,0.5}"
chunk=${5:-10}
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
export OPENBLAS_NUM_THREADS=1

grep -v '^#' "$file" | split -l "$chunk" - "$out/chunk."
echo "load average before: $(cut -d' ' -f1-3 /proc/loadavg)"
for c in "$out"/chunk.*; do
    for p in "${splits[@]}"; do
        /usr/bin/time -f "%U" -o "$out/t" nice "$bin" solve --model models/cube3.h5 --prove fsst \
            --prove-at "$p" --time-limit "$limit" --threads 1 "$c" >"$out/run" 2>"$out/err" || true
        cat "$out/err" >&2
        grep '^id=' "$out/run" >>"$out/rows.$p"
        tail -1 "$out/t" >>"$out/cpu.$p" # after "Command exited with non-zero status"
    done
done
echo "load average after: $(cut -d' ' -f1-3 /proc/loadavg)"

field() { grep -oE "(^| )$1=[^ ]*" | cut -d= -f2; }

# the best length any split found, by cube id
for p in "${splits[@]}"; do
    paste -d' ' <(field id <"$out/rows.$p") <(field length <"$out/rows.$p")
done | awk '$2 >= 0 && (!($1 in b) || $2 < b[$1]) { b[$1] = $2 } END { for (k in b) print k, b[k] }' \
    >"$out/best"

echo "| beam's share | time limit s | cubes | solved | proven optimal | equal to the best | mean length | first solution s (mean, largest) | shortened by the proof | user CPU s |"
echo "|---|---|---|---|---|---|---|---|---|---|"
for p in "${splits[@]}"; do
    cpu=$(paste -sd+ "$out/cpu.$p" | bc -l)
    paste -d' ' <(field id <"$out/rows.$p") <(field length <"$out/rows.$p") \
        <(field proven <"$out/rows.$p") <(field first_seconds <"$out/rows.$p") \
        <(field proof_from <"$out/rows.$p") |
        awk -v p="$p" -v lim="$limit" -v cpu="$cpu" '
            NR == FNR { best[$1] = $2; next }
            { n++; if ($2 >= 0) { s++; len += $2; eq += ($2 == best[$1]) }
              pr += $3; first += $4; if ($4 > most) most = $4; cut += ($5 > $2 && $2 >= 0) }
            END { printf "| %s | %s | %d | %d | %d (%.0f %%) | %d (%.0f %%) | %.2f | %.2f, %.2f | %d | %.0f |\n",
                         p, lim, n, s, pr, 100 * pr / n, eq, 100 * eq / n, len / s, first / n, most,
                         cut, cpu }' "$out/best" -
done
