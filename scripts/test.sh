#!/usr/bin/env bash
# Installs what is missing, builds heurnet with warnings as errors and runs
# the unit tests. With --sanitize the build uses AddressSanitizer and
# UndefinedBehaviorSanitizer (in build-sanitize/). Extra arguments go to ctest.
set -euo pipefail
cd "$(dirname "$0")/.."
"$(dirname "$0")/deps.sh"
dir=build
opts=(-DCMAKE_BUILD_TYPE=Release -DHEURNET_WERROR=ON)
if [ "${1:-}" = "--sanitize" ]; then
    shift
    dir=build-sanitize
    opts=(-DCMAKE_BUILD_TYPE=Debug -DHEURNET_WERROR=ON -DHEURNET_SANITIZE=ON)
    export ASAN_OPTIONS=detect_leaks=1:abort_on_error=1
    export UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1
fi
cmake -S . -B "$dir" "${opts[@]}" >/dev/null
cmake --build "$dir" -j"$(nproc)"
cd "$dir"
ctest --output-on-failure -LE slow -j"$(nproc)" "$@"
