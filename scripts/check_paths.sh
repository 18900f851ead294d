#!/usr/bin/env bash
# Fails when a tracked text file names a path outside the repository: the
# repository must stand alone, so data lives in instances/ and formats in
# docs/formats.md. Binary files (models) are skipped; the pattern below
# is written with groups so that it does not match itself.
# Usage: scripts/check_paths.sh [SOURCE_DIR]
set -euo pipefail
cd "${1:-$(dirname "$0")/..}"
pat='\.\./(s)hared|/(w)ork/|/(h)ome/|/(r)oot/' # groups: this line does not match itself
if git rev-parse --is-inside-work-tree >/dev/null 2>&1; then
    hits=$(git grep -n -I -E "$pat" -- . || true)
else # an unpacked release: every text file
    hits=$(grep -rnI -E "$pat" --exclude-dir='build*' . || true)
fi
if [ -n "$hits" ]; then
    echo "paths outside the repository (use instances/ or docs/):" >&2
    echo "$hits" >&2
    exit 1
fi
echo "check_paths: no path outside the repository"
