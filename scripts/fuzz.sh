#!/usr/bin/env bash
# Builds the libFuzzer harnesses of tests/fuzz (clang, ASan + UBSan, in
# build-fuzz/), replays each seed corpus, then fuzzes each harness for
# SECONDS (default 20; 0 = replay only). New inputs go to
# build-fuzz/corpus/<harness>/ (the repository's seeds are not changed);
# a crash, leak or timeout leaves build-fuzz/artifacts/<harness>-* and makes
# the script exit 1 after the other harnesses have run.
# Usage: scripts/fuzz.sh [SECONDS] [HARNESS ...]   (names without fuzz_)
set -uo pipefail
cd "$(dirname "$0")/.."
secs=${1:-20}
shift || true
"$(dirname "$0")/deps.sh"
cmake -S . -B build-fuzz -DCMAKE_C_COMPILER=clang-14 -DCMAKE_BUILD_TYPE=Debug -DHEURNET_FUZZ=ON \
    >/dev/null || exit 1
cmake --build build-fuzz -j"$(nproc)" >/dev/null || exit 1
names=("$@")
if [ ${#names[@]} -eq 0 ]; then
    for d in tests/fuzz/corpus/*/; do names+=("$(basename "$d")"); done
fi
export HEURNET_FUZZ_DATA=$PWD/tests/fuzz/corpus/dataset/seed.h5 # fuzz_ckpt resumes on it
# A huge malloc returns NULL, as glibc does in a release build (libhdf5 then
# reports an error), instead of counting as a crash.
export ASAN_OPTIONS=detect_leaks=1:abort_on_error=1:allocator_may_return_null=1
export UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1
export LSAN_OPTIONS=suppressions=$PWD/tests/fuzz/lsan.supp
mkdir -p build-fuzz/artifacts
failed=()
for h in "${names[@]}"; do
    bin=build-fuzz/tests/fuzz/fuzz_$h
    seeds=tests/fuzz/corpus/$h
    work=build-fuzz/corpus/$h
    mkdir -p "$work"
    opts=(-artifact_prefix="build-fuzz/artifacts/$h-" -timeout=25 -rss_limit_mb=2048
          -malloc_limit_mb=2000000000)
    if ! "$bin" "${opts[@]}" -runs=0 "$seeds" >"build-fuzz/$h.replay.log" 2>&1; then
        echo "fuzz $h: the seed corpus fails (build-fuzz/$h.replay.log)" >&2
        failed+=("$h")
        continue
    fi
    if [ "$secs" -gt 0 ]; then
        if "$bin" "${opts[@]}" -max_total_time="$secs" -print_final_stats=1 "$work" "$seeds" \
            >"build-fuzz/$h.log" 2>&1; then
            runs=$(sed -n 's/^stat::number_of_executed_units: *//p' "build-fuzz/$h.log" | tail -n 1)
            echo "fuzz $h: ${runs:-?} executions in $secs s, no finding"
        else
            echo "fuzz $h: FINDING, see build-fuzz/$h.log and build-fuzz/artifacts/" >&2
            failed+=("$h")
        fi
    else
        echo "fuzz $h: seed corpus replayed"
    fi
done
if [ ${#failed[@]} -gt 0 ]; then
    echo "fuzz: findings in ${failed[*]}" >&2
    exit 1
fi
