#!/usr/bin/env bash
# heurnet domain sample: walks and uniform states that read back, the same
# seed the same states, and refusals with exit 2.
# Args: path of heurnet, instances dir, source dir.
set -u
H="$1"
. "$(dirname "$0")/lib_cli.sh"
export HEURNET_DATA="$T/cache"
"$H" domain sample npuzzle:4x4 -n 30 --walk 5-40 --seed 3 >"$T/a" || fail "sample walks"
"$H" domain sample npuzzle:4x4 -n 30 --walk 5-40 --seed 3 >"$T/b" || fail "sample again"
cmp -s "$T/a" "$T/b" || fail "the same seed gave other states"
"$H" domain sample npuzzle:4x4 -n 30 --walk 5-40 --seed 4 >"$T/c" || fail "sample seed 4"
cmp -s "$T/a" "$T/c" && fail "another seed gave the same states"
[ "$(wc -l <"$T/a")" = 30 ] || fail "not 30 lines: $(wc -l <"$T/a")"
# walks of at most 40 moves: optimal lengths at most 40, each read back
"$H" solve --domain npuzzle:4x4 --heuristic lc --algo idastar -q "$T/a" >"$T/s" ||
    fail "solve the sampled boards: $(tail -3 "$T/s")"
awk '/^id=/{split($3,a,"=");if(a[2]>40)bad=1}END{exit bad}' "$T/s" || fail "a walk of 40 is longer"
# a walk of 0 moves is the goal
"$H" domain sample cube3 -n 3 --walk 0 >"$T/g" || fail "walk 0"
[ "$(cut -d' ' -f2 "$T/g" | sort -u)" = UUUUUUUUURRRRRRRRRFFFFFFFFFDDDDDDDDDLLLLLLLLLBBBBBBBBB ] ||
    fail "walk 0 is not the goal: $(cat "$T/g")"
"$H" domain sample cube3 -n 5 --uniform --seed 9 >"$T/u" || fail "uniform cubes"
"$H" solve --domain cube3 --heuristic zero --algo astar --max-expanded 1 -q "$T/u" >"$T/us" 2>&1
grep -q 'bad\|error' "$T/us" && fail "uniform cubes do not read back: $(cat "$T/us")"
[ "$(grep -c '^id=' "$T/us")" = 5 ] || fail "uniform cubes not read: $(cat "$T/us")"
# refusals
for bad in "-n 0 --walk 3" "-n 3" "-n 3 --walk 3 --uniform" "-n 3 --walk 9-2" "-n 3 --walk x" \
    "-n 3 --walk -3" "-n 3 --walk 3 --seed q"; do
    # shellcheck disable=SC2086
    "$H" domain sample npuzzle:3x3 $bad >"$T/o" 2>"$T/e"
    [ $? = 2 ] || fail "sample $bad: not exit 2"
    [ -s "$T/o" ] && fail "sample $bad wrote states"
done
"$H" domain sample nosuch:3 -n 2 --walk 3 >/dev/null 2>&1
[ $? = 2 ] || fail "an unknown domain is not exit 2"
# a full disk is an error, not a silent short file
if [ -w /dev/full ]; then
    "$H" domain sample npuzzle:3x3 -n 1000 --walk 3 >/dev/full 2>"$T/e" && fail "/dev/full: exit 0"
    grep -q 'writing' "$T/e" || fail "/dev/full: no message: $(cat "$T/e")"
fi
exit $((fails > 0))
