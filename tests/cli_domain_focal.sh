#!/usr/bin/env bash
# Focal search and recorded searches on a domain past the specialised code
# (npuzzle:3x4): `solve --algo focal` keeps every length within the bound
# times IDA*'s optimum (equal to it with bound 1), and a search recorded in
# a domain model with `nn set-search` is what `solve --model` and `eval
# --model` run when neither --algo nor --heuristic is given.
# Args: path of heurnet, instances dir, source dir.
set -u
H="$1"
. "$(dirname "$0")/lib_cli.sh"

D=npuzzle:3x4
"$H" domain sample $D -n 8 --walk 20-40 --seed 5 >"$T/w.txt" || fail "domain sample"
"$H" solve --domain $D --algo idastar "$T/w.txt" >"$T/ida.txt" || fail "solve idastar"
sed -n 's/^id=\([0-9]*\) status=solved length=\([0-9]*\) .*/\1 \2/p' "$T/ida.txt" |
    paste -d' ' - <(cut -d' ' -f2- "$T/w.txt") >"$T/opt.txt"
[ "$(wc -l <"$T/opt.txt")" = 8 ] || fail "IDA* did not solve the 8 states"
"$H" avi --domain $D --arch 144-32-1 --residual manhattan --rounds 2 --steps 10 --batch 50 \
    --walk-max 30 -o "$T/m.h5" --quiet >/dev/null 2>"$T/err" || fail "avi: $(cat "$T/err")"

# lengths within bound * optimum; the file's optima checked (exit 1 if bound 1 misses one)
within() { # FILE BOUND: every solved length <= BOUND * the optimum on its line
    awk -v b="$2" '/^id=/ {split($3, l, "="); split($0, o, " optimal="); split(o[2], v, " ");
        if ($2 != "status=solved" || l[2] > b * v[1] + 1e-9 || l[2] < v[1]) bad = 1; n++}
        END {exit bad || n != 8}' "$1"
}
for b in 1 1.2 2; do
    for extra in "" "--batch 4"; do
        # shellcheck disable=SC2086
        "$H" solve --model "$T/m.h5" --algo focal --bound $b $extra "$T/opt.txt" >"$T/f.txt" \
            2>"$T/err" || fail "focal bound $b $extra: $(cat "$T/err")"
        within "$T/f.txt" $b || fail "focal bound $b $extra: a length past the bound: $(cat "$T/f.txt")"
    done
done
grep -q "algo=focal heuristic=ann:$T/m.h5 bound=2 admissible=lc" "$T/f.txt" ||
    fail "focal summary: $(tail -1 "$T/f.txt")"
"$H" solve --domain $D --algo focal --bound 1 --admissible manhattan --heuristic lc "$T/opt.txt" \
    >"$T/f.txt" || fail "focal with an admissible guide"
grep -q 'not_optimal=0 ' "$T/f.txt" && grep -q 'proven=1' "$T/f.txt" ||
    fail "focal bound 1 not optimal: $(tail -1 "$T/f.txt")"
expect 2 "focal's, not" "$H" solve --domain $D --algo astar --bound 2 "$T/opt.txt"
expect 2 "--bound '0.9' is not 1..100" "$H" solve --domain $D --algo focal --bound 0.9 "$T/opt.txt"
expect 2 "unknown heuristic 'nosuch'" "$H" solve --domain $D --algo focal --admissible nosuch "$T/opt.txt"
expect 2 "must be an admissible heuristic" "$H" solve --model "$T/m.h5" --algo focal \
    --admissible "ann:$T/m.h5" "$T/opt.txt"

# a recorded search: checked on the model's domain, then what solve and eval run
M="$T/m.h5"
"$H" nn set-search "$M" "--algo focal --bound 1.5 --batch 2 --heuristic ann:SELF" >"$T/set.txt" ||
    fail "set-search on a domain model"
grep -q "domain=$D search=--algo focal" "$T/set.txt" || fail "set-search: $(cat "$T/set.txt")"
grep -qx 'attr.search=--algo focal --bound 1.5 --batch 2 --heuristic ann:SELF' <("$H" nn info "$M") ||
    fail "the attribute is not written"
"$H" solve --model "$M" "$T/opt.txt" >"$T/r.txt" 2>"$T/err" || fail "solve the record: $(cat "$T/err")"
grep -q "algo=focal heuristic=ann:$M bound=1.5 admissible=lc" "$T/r.txt" ||
    fail "solve did not run the record: $(tail -1 "$T/r.txt")"
grep -q "the search recorded in $M" "$T/err" || fail "solve does not say it runs the record"
within "$T/r.txt" 1.5 || fail "the recorded focal search past its bound"
"$H" solve --model "$M" --bound 1 -q "$T/opt.txt" >"$T/r.txt" || fail "solve --bound 1 over the record"
grep -q 'algo=focal .* bound=1 ' "$T/r.txt" && grep -q 'proven=1' "$T/r.txt" ||
    fail "an explicit --bound does not win: $(tail -1 "$T/r.txt")"
"$H" solve --model "$M" --algo astar -q "$T/opt.txt" >"$T/r.txt" || fail "solve --algo astar"
grep -q 'algo=astar heuristic=ann:' "$T/r.txt" || fail "an explicit --algo does not drop the record"
"$H" eval --model "$M" --instances "$T/opt.txt" -o "$T/rep" --quiet >"$T/e.txt" 2>"$T/err" ||
    fail "eval the record: $(cat "$T/err")"
grep -q 'focal, weight 1, batch 2, width 1024, bound 1.5 over lc' "$T/rep/summary.md" ||
    fail "eval did not run the record: $(grep search "$T/rep/summary.md")"
# bad settings are refused with exit 2 and leave the attribute as it was
expect 2 "needs an admissible heuristic" "$H" nn set-search "$M" "--algo idastar"
expect 2 "unknown heuristic 'nosuch'" "$H" nn set-search "$M" "--algo focal --admissible nosuch"
expect 2 "must be ann:SELF" "$H" nn set-search "$M" "--heuristic ann:$M"
expect 2 "unknown setting '--time-limit'" "$H" nn set-search "$M" "--time-limit 3"
expect 2 "unknown heuristic 'q9'" "$H" nn set-search "$M" "--heuristic ann:SELF,q9"
expect 2 "--bound '0' is not 1..100" "$H" nn set-search "$M" "--algo focal --bound 0"
expect 2 "focal's, not bwas's" "$H" nn set-search "$M" "--algo bwas --bound 2"
expect 2 "needs a value" "$H" nn set-search "$M" "--algo"
expect 2 "unknown domain 'nosuch:3'" "$H" nn set-search --domain nosuch:3 "$M" "--algo astar"
grep -qx 'attr.search=--algo focal --bound 1.5 --batch 2 --heuristic ann:SELF' <("$H" nn info "$M") ||
    fail "a refused setting changed the attribute"
"$H" nn set-search "$M" "" >/dev/null || fail "set-search '' clears"
"$H" solve --model "$M" -q "$T/opt.txt" >"$T/r.txt" || fail "solve after clearing"
grep -q 'algo=bwas heuristic=ann:' "$T/r.txt" || fail "a cleared record still runs: $(tail -1 "$T/r.txt")"

[ "$fails" = 0 ] && echo "cli_domain_focal: all checks passed" >&2
exit $((fails > 0))
