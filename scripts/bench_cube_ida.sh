#!/usr/bin/env bash
# Optimal IDA* on the cube's fsst table, two heurnet executables side by
# side in one run (say the build before the cube's own IDA* and the current
# one) on own cubes of known optimum (instances/cube3/own/cube3-optimal18.txt):
# per cube the search's seconds, nodes expanded and generated per second,
# and the ratio new/old; then each executable's CPU seconds of search, its
# user CPU time less that of a run on the solved cube (loading the table).
# Every length must equal the file's optimum, with proven=1.
#
# A cube's CPU seconds are estimated as its share of the search's wall
# seconds times the search's CPU seconds: on a shared machine wall time
# is not CPU time.
#
# usage: scripts/bench_cube_ida.sh OLD_HEURNET NEW_HEURNET [FILE]
set -euo pipefail
cd "$(dirname "$0")/.."
old=$1
new=$2
file=${3:-instances/cube3/own/cube3-optimal18.txt}
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
echo "1 UUUUUUUUURRRRRRRRRFFFFFFFFFDDDDDDDDDLLLLLLLLLBBBBBBBBB" >"$out/solved.txt"

# user CPU seconds of one solve over $3; its stdout goes to $out/$2.txt
timed() {
    local bin=$1 tag=$2 what=$3
    /usr/bin/time -f "%U" -o "$out/t" nice "$bin" solve --domain cube3 --heuristic fsst \
        --algo idastar "$what" >"$out/$tag.txt" 2>/dev/null
    cat "$out/t"
}

field() { grep -o " $1=[^ ]*" | cut -d= -f2; }

for tag in old new; do
    bin=$old
    [ "$tag" = new ] && bin=$new
    base=$(timed "$bin" "$tag-base" "$out/solved.txt")
    all=$(timed "$bin" "$tag" "$file")
    grep '^id=' "$out/$tag.txt" >"$out/$tag.rows"
    walls=$(field seconds <"$out/$tag.rows" | paste -sd+ | bc -l)
    echo "$all - $base" | bc -l >"$out/$tag.cpu"
    echo "($all - $base) / $walls" | bc -l >"$out/$tag.scale"
done

echo "| cube | optimum | old s | old expanded | old M generated/s | new s | new expanded | new M generated/s | new/old s | new CPU s (est.) |"
echo "|---|---|---|---|---|---|---|---|---|---|"
grep -v '^#' "$file" | awk '{print $2}' >"$out/opt"
paste -d' ' "$out/opt" \
    <(field length <"$out/old.rows") <(field seconds <"$out/old.rows") \
    <(field expanded <"$out/old.rows") <(field generated <"$out/old.rows") \
    <(field length <"$out/new.rows") <(field seconds <"$out/new.rows") \
    <(field expanded <"$out/new.rows") <(field generated <"$out/new.rows") \
    <(field proven <"$out/new.rows") |
    awk -v so="$(cat "$out/old.scale")" -v sn="$(cat "$out/new.scale")" '
        { wrong += ($2 != $1 || $6 != $1 || $10 != 1)
          printf "| %d | %d | %.2f | %d | %.2f | %.3f | %d | %.2f | %.3f | %.3f |\n",
                 NR, $1, $3, $4, $5 / $3 / 1e6, $7, $8, $9 / $7 / 1e6, $7 / $3, $7 * sn
          to += $3; tn += $7; cpu = $7 * sn; if (cpu > most) most = cpu }
        END { printf "\nsum of seconds: old %.2f, new %.2f (new/old %.3f); ", to, tn, tn / to
              printf "new CPU s per cube: mean %.3f, largest %.3f; lengths off the optimum or unproven: %d\n",
                     tn * sn / NR, most, wrong }'
printf 'search CPU s (user less the load on the solved cube): old %.2f, new %.2f (new/old %.4f)\n' \
    "$(cat "$out/old.cpu")" "$(cat "$out/new.cpu")" "$(echo "$(cat "$out/new.cpu") / $(cat "$out/old.cpu")" | bc -l)"
