#!/usr/bin/env bash
# Fails when a tracked C source or header differs from what the checked-in
# .clang-format makes of it; `clang-format -i FILE` fixes one.
set -euo pipefail
cd "$(dirname "$0")/.."
cf=$(command -v clang-format || command -v clang-format-14 || true)
if [ -z "$cf" ]; then
    echo "check_format: clang-format is not installed (scripts/deps.sh installs it)" >&2
    exit 1
fi
mapfile -t files < <(git ls-files '*.c' '*.h')
"$cf" --dry-run -Werror "${files[@]}"
echo "check_format: ${#files[@]} files formatted as .clang-format says"
