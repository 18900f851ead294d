#!/usr/bin/env bash
# The anytime recipe on a domain through `heurnet solve --domain`: deltas
# ending in inf prove IDA*'s optimal lengths (proven=1, phases=), the window
# shortcut shortens weighted A*'s solutions (saved=) and never lengthens
# them, and bad values of the new options exit 2 with a message.
# Args: path of heurnet, instances dir, source dir.
set -u
H="$1"
. "$(dirname "$0")/lib_cli.sh"

field() { sed -n "s/.* $1=\([^ ]*\).*/\1/p" "$2"; }

"$H" domain sample npuzzle:3x4 -n 6 --walk 24-40 --seed 5 >"$T/a" || fail "sample"
"$H" solve --domain npuzzle:3x4 --heuristic lc --algo idastar -q "$T/a" >"$T/ida" ||
    fail "IDA*: $(tail -1 "$T/ida")"
"$H" solve --domain npuzzle:3x4 --heuristic manhattan --algo anytime --weights 3 \
    --deltas 1,inf --admissible lc -q "$T/a" >"$T/any" || fail "anytime: $(tail -1 "$T/any")"
[ "$(field length "$T/any")" = "$(field length "$T/ida")" ] ||
    fail "anytime lengths $(field length "$T/any" | tr '\n' ' ') differ from IDA*'s"
[ "$(grep -c ' proven=1 ' "$T/any")" = 6 ] || fail "anytime did not prove every length"
grep -q ' phases=[1-9]' "$T/any" || fail "anytime prints no phases="

# --phases: continuing phases and restarting ones prove the same optima;
# continuing, each phase pays only for its new states (fewer expansions
# over the six boards, every state through the heuristic once)
"$H" solve --domain npuzzle:3x4 --heuristic manhattan --algo anytime --weights 3,2 \
    --deltas 1,inf --admissible lc --phases restart -q "$T/a" >"$T/rst" || fail "--phases restart"
[ "$(field length "$T/rst")" = "$(field length "$T/ida")" ] || fail "restart: lengths differ"
[ "$(grep -c ' proven=1 ' "$T/rst")" = 6 ] || fail "restart: not every length proven"
"$H" solve --domain npuzzle:3x4 --heuristic manhattan --algo anytime --weights 3,2 \
    --deltas 1,inf --admissible lc -q "$T/a" >"$T/cont" || fail "--phases continue"
[ "$(field length "$T/cont")" = "$(field length "$T/ida")" ] || fail "continue: lengths differ"
[ "$(grep -c ' proven=1 ' "$T/cont")" = 6 ] || fail "continue: not every length proven"
paste <(field expanded "$T/cont") <(field expanded "$T/rst") |
    awk '{ c += $1; r += $2 } END { exit !(c < r) }' ||
    fail "continuing phases expanded no fewer states than restarting ones"

# --weights none: the inf phase alone finds and proves each optimum
"$H" solve --domain npuzzle:3x4 --heuristic manhattan --algo anytime --weights none \
    --deltas inf -q "$T/a" >"$T/inf" || fail "inf alone"
[ "$(field length "$T/inf")" = "$(field length "$T/ida")" ] || fail "inf alone: lengths differ"
[ "$(grep -c ' proven=1 phases=1 ' "$T/inf")" = 6 ] || fail "inf alone: not one proving phase"

# the shortcut: never longer, some shorter, never below the optimum
"$H" solve --domain npuzzle:3x4 --heuristic manhattan --algo wastar --weight 5 -q "$T/a" \
    >"$T/w" || fail "wastar"
"$H" solve --domain npuzzle:3x4 --heuristic manhattan --algo wastar --weight 5 \
    --shortcut 16:200000 -q "$T/a" >"$T/ws" || fail "wastar --shortcut"
paste <(field length "$T/w") <(field length "$T/ws") <(field saved "$T/ws") \
    <(field length "$T/ida") >"$T/cmp"
awk '$2 > $1 || $2 < $4 || $1 - $2 != $3 { bad = 1 } END { exit bad }' "$T/cmp" ||
    fail "shortcut lengths wrong (plain, shortened, saved, optimal): $(tr '\n' ';' <"$T/cmp")"
awk '$3 > 0 { n++ } END { exit !(n >= 1) }' "$T/cmp" || fail "the shortcut saved nothing"

# rounds: one round of windows saves no more than eight, and both keep
# the plain solution's replayable shortening
"$H" solve --domain npuzzle:3x4 --heuristic manhattan --algo wastar --weight 5 \
    --shortcut 16:200000:r1 -q "$T/a" >"$T/ws1" || fail "--shortcut 16:200000:r1"
paste <(field length "$T/w") <(field length "$T/ws1") <(field saved "$T/ws1") \
    <(field saved "$T/ws") >"$T/cmp1"
awk '$1 - $2 != $3 || $3 > $4 { bad = 1 } END { exit bad }' "$T/cmp1" ||
    fail "one round (plain, shortened, saved, saved by 8 rounds): $(tr '\n' ';' <"$T/cmp1")"

# cube3: short scrambles, H a pattern database, the shortcut on incumbents
"$H" domain sample cube3 -n 3 --walk 5-6 --seed 3 >"$T/c" || fail "cube sample"
"$H" solve --domain cube3 --heuristic manhattan --algo idastar -q "$T/c" >"$T/cida" ||
    fail "cube IDA*"
"$H" solve --domain cube3 --heuristic manhattan --algo anytime --weights 3 --deltas 0,inf \
    --admissible pdb:edges4 --shortcut 6 --ida plain -q "$T/c" >"$T/cany" || fail "cube anytime"
[ "$(field length "$T/cany")" = "$(field length "$T/cida")" ] || fail "cube: lengths differ"
[ "$(grep -c ' proven=1 ' "$T/cany")" = 3 ] || fail "cube: not proven"

# bad values: exit 2, the option named
for bad in "--deltas 2,1" "--deltas inf,3" "--deltas x" "--shortcut 1" "--shortcut 10:0" \
    "--shortcut 500" "--shortcut 10:r0" "--shortcut 10::ida" "--shortcut 10:r2:ida" \
    "--shortcut 10:ida:" "--phases sometimes" "--ida bands" "--ida-at 2" "--admissible nosuch"; do
    # shellcheck disable=SC2086
    expect 2 "${bad%% *}" "$H" solve --domain npuzzle:3x4 --heuristic manhattan --algo anytime \
        $bad "$T/a"
done
expect 2 "anytime's" "$H" solve --domain npuzzle:3x4 --algo astar --deltas 0,inf "$T/a"
"$H" solve --domain npuzzle:3x4 --help | grep -q -- '--shortcut W\[:N\]' || fail "help lacks --shortcut"
exit $((fails > 0))
