#!/usr/bin/env bash
# A long fuzzing campaign: runs each harness for RUNS executions (or until
# LIMIT seconds, whichever comes first) and prints a Markdown row per harness
# with the executions, the seconds and the findings, for the table in
# docs/reliability.md. Uses the build of scripts/fuzz.sh (run it first).
# Usage: scripts/fuzz_campaign.sh RUNS LIMIT_SECONDS HARNESS ...
set -uo pipefail
cd "$(dirname "$0")/.."
if [ $# -lt 3 ]; then
    echo "usage: scripts/fuzz_campaign.sh RUNS LIMIT_SECONDS HARNESS ..." >&2
    exit 2
fi
runs=$1 limit=$2
shift 2
export HEURNET_FUZZ_DATA=$PWD/tests/fuzz/corpus/dataset/seed.h5
export ASAN_OPTIONS=detect_leaks=1:abort_on_error=1:allocator_may_return_null=1
export UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1
export LSAN_OPTIONS=suppressions=$PWD/tests/fuzz/lsan.supp
out=build-fuzz/campaign
mkdir -p "$out"
echo "| harness | executions | seconds | executions/s | findings |"
echo "|---|---:|---:|---:|---|"
status=0
for h in "$@"; do
    bin=build-fuzz/tests/fuzz/fuzz_$h
    if [ ! -x "$bin" ]; then
        echo "fuzz_campaign: $bin is missing (run scripts/fuzz.sh 0 first)" >&2
        exit 2
    fi
    mkdir -p "$out/$h" "$out/artifacts"
    log=$out/$h.log
    t0=$(date +%s)
    "$bin" -artifact_prefix="$out/artifacts/$h-" -timeout=25 -rss_limit_mb=2048 \
        -malloc_limit_mb=2000000000 -runs="$runs" -max_total_time="$limit" \
        -print_final_stats=1 "$out/$h" "tests/fuzz/corpus/$h" >"$log" 2>&1
    rc=$?
    secs=$(($(date +%s) - t0))
    n=$(sed -n 's/^stat::number_of_executed_units: *//p' "$log" | tail -n 1)
    n=${n:-0}
    finding=0
    [ $rc -ne 0 ] && finding="1 (see $log)" && status=1
    echo "| \`$h\` | $n | $secs | $((n / (secs > 0 ? secs : 1))) | $finding |"
done
exit $status
