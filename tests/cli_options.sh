#!/bin/bash
# Numeric options through the executable: every option reads its value with
# one strict parser, so a blank, a sign where none belongs, trailing
# garbage, hex, an overflow or a non-finite real is misuse (exit 2), while
# the same command line with a good value runs (exit 0). Also the memory
# the ann: cache:N setting takes is stated and capped.
# Arguments: path of heurnet, shared data dir, source dir.
set -u
HN=$1
SRC=$3
. "$(dirname "$0")/lib_cli.sh"

printf '1 0 2 3 4 5 6 7 8\n3 1 2 0 4 5 6 7 8\n' >"$T/eight.txt"
EMP=$SRC/instances/emp/owen_set1/b04x04s1.txt
$HN gen --puzzle 8 --label manhattan --count 40 --threads 1 --quiet -o "$T/d.h5" >/dev/null ||
    fail "gen of the training data failed"

# try GOOD BAD... -- cmd...: the command with OPTVAL replaced by GOOD exits 0,
# and by each BAD exits 2.
try() {
    local good=$1
    shift
    local bads=()
    while [ "$1" != "--" ]; do
        bads+=("$1")
        shift
    done
    shift
    local args=("$@") i run
    run() {
        local v=$1 out=() a
        for a in "${args[@]}"; do
            out+=("${a//OPTVAL/$v}")
        done
        "${out[@]}" >"$T/out" 2>"$T/err"
    }
    run "$good"
    local rc=$?
    [ $rc -eq 0 ] || fail "${args[*]} with '$good' exited $rc: $(head -c 300 "$T/err")"
    for i in "${bads[@]}"; do
        run "$i"
        rc=$?
        [ $rc -eq 2 ] || fail "${args[*]} with '$i' exited $rc, want 2"
    done
}

INT_BAD=(" -1" "-1" "+1" "1x" "" " 1" "1 " "0x10" "99999999999999999999999" "1e3" "nan")
REAL_BAD=(" 1" "1 " "+1" "1x" "" "0x1p3" "nan" "inf" "-inf" "1e999" "1e-400" "." "1e" "1..2")

SOLVE=($HN solve --puzzle 8 --heuristic manhattan -q)
for opt in --threads --max-expanded --max-nodes; do
    try 1 "${INT_BAD[@]}" -- "${SOLVE[@]}" $opt OPTVAL "$T/eight.txt"
done
try 0.5 "${REAL_BAD[@]}" -- "${SOLVE[@]}" --time-limit OPTVAL "$T/eight.txt"
try 1.5 "${REAL_BAD[@]}" -- "${SOLVE[@]}" --algo wastar --weight OPTVAL "$T/eight.txt"
try 2 "${REAL_BAD[@]}" -- "${SOLVE[@]}" --heuristic "ann:$SRC/models/8puzzle-annd.h5,delta:OPTVAL" \
    "$T/eight.txt"

GEN=($HN gen --puzzle 8 --label manhattan --threads 1 --quiet --force -o "$T/g.h5")
try 3 "${INT_BAD[@]}" -- "${GEN[@]}" --count OPTVAL
try 0 "${INT_BAD[@]}" -- "${GEN[@]}" --count 3 --max-expanded OPTVAL
for opt in --seed --threads; do
    try 1 "${INT_BAD[@]}" -- "${GEN[@]}" --count 3 $opt OPTVAL
done
try 0/1 " 0/1" "0/ 1" "-0/1" "0/+1" "0/1x" "0/1/" -- "${GEN[@]}" --count 3 --shard OPTVAL

TRAIN=($HN train --data "$T/d.h5" --arch 81-4-1 --epochs 1 --batch 8 --quiet -o "$T/m.h5")
try 1 "${INT_BAD[@]}" -- "${TRAIN[@]}" --seed OPTVAL
try 0.01 "${REAL_BAD[@]}" -- "${TRAIN[@]}" --lr OPTVAL

EMPS=($HN emp solve "$EMP" -o "$T/s.txt")
try 1 "${INT_BAD[@]}" -- "${EMPS[@]}" --time 0.2 --seed OPTVAL
try 0.2 "${REAL_BAD[@]}" -- "${EMPS[@]}" --time OPTVAL

try 1 "${INT_BAD[@]}" -- $HN nn init --seed OPTVAL --arch 81-4-1 -o "$T/i.h5"

# the option tables (cli/opt.h): the same strict parsing, also through a
# shared table (--dropout) and for an option given by a prefix (--thread)
AVI=($HN avi --puzzle 8 --arch 81-4-1 --rounds 0 --quiet -o "$T/a.h5")
try 1 "${INT_BAD[@]}" -- "${AVI[@]}" --thread OPTVAL
try 0.001 "${REAL_BAD[@]}" -- "${AVI[@]}" --lr OPTVAL
try 0.5 "${REAL_BAD[@]}" 1 -- "${AVI[@]}" --dropout OPTVAL
try davi bootstrapp "" -- "${AVI[@]}" --method OPTVAL

# --- the ann: cache: its memory per search thread is in the help, and a
# cache larger than physical memory is refused with the figure
$HN solve --help 2>&1 | grep -qF "(16 + state" ||
    fail "solve --help does not state the memory of cache:BITS"
# (under a 2 GB address-space limit, without the cap this fails instead of
# allocating 6.4 GB a thread; AddressSanitizer cannot start under that limit)
(
    { (ulimit -v 2000000 && $HN --version) >/dev/null 2>&1; } 2>/dev/null && ulimit -v 2000000
    expect 2 "physical memory" "${SOLVE[@]}" --heuristic "ann:$SRC/models/8puzzle-annd.h5,cache:28" \
        --threads 256 "$T/eight.txt"
    grep -q "use cache:2[0-9] or less" "$T/err" || fail "no cache size that fits is named: $(cat "$T/err")"
    exit $fails
) || fails=$((fails + 1))

[ $fails -eq 0 ] && echo "cli_options: all checks passed"
exit $((fails > 0))
