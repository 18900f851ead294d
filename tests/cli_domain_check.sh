#!/usr/bin/env bash
# `heurnet domain check` on every built-in domain: inverse moves, expand
# against apply, encoding deltas, text round trips and admissible heuristics
# against breadth-first distances (heuristics with small or no tables: the
# large pattern databases are checked by the domains' own tests).
# Args: path of heurnet, instances dir, source dir.
set -u
H="$1"
. "$(dirname "$0")/lib_cli.sh"
export HEURNET_DATA="$T/cache"
check() {
    local spec=$1
    shift
    "$H" domain check "$spec" --walks 150 "$@" >"$T/out" 2>"$T/err" ||
        fail "domain check $spec: $(cat "$T/err" "$T/out")"
    grep -q 'failures=0' "$T/out" || fail "domain check $spec: $(cat "$T/out")"
}
check npuzzle:3x3
check npuzzle:3x3:blank-last
check npuzzle:4x4 --heuristics lc,manhattan,pdb:4-4-4-3
check npuzzle:4x4:blank-last --heuristics lc,manhattan
check npuzzle:3x5 --heuristics lc,manhattan
check npuzzle:5x3:blank-last --heuristics lc,manhattan
check npuzzle:6x6:blank-last --heuristics lc,manhattan
check npuzzle:7x7:blank-last --heuristics lc,manhattan
check npuzzle:8x8 --heuristics lc,manhattan
# an explicit partition longer than 160 characters (63 tiles in pairs) is
# read whole, not cut short into "tile N is in no group"
pairs=$(for ((t = 1; t < 64; t += 2)); do printf '%s%s' "${pairs_sep-}" "$t$([ $t -lt 63 ] && echo ".$((t + 1))")"; pairs_sep=/; done)
check npuzzle:8x8 --heuristics "pdb:$pairs" --bfs-depth 4
check cube3 --heuristics manhattan,pdb:edges4 --bfs-depth 6
# every built-in domain is listed and was checked above
for name in $("$H" domain list | tail -n +2 | cut -f1); do
    grep -q "^check $name" "$0" || fail "built-in domain $name is not checked here"
done
exit $((fails > 0))
