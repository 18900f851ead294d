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
expect 2 "--bound and --admissible are focal's" "$H" solve --domain $D --algo astar --bound 2 "$T/opt.txt"
expect 2 "--bound '0.9' is not 1..100" "$H" solve --domain $D --algo focal --bound 0.9 "$T/opt.txt"
expect 2 "unknown heuristic 'nosuch'" "$H" solve --domain $D --algo focal --admissible nosuch "$T/opt.txt"
expect 2 "must be an admissible heuristic" "$H" solve --model "$T/m.h5" --algo focal \
    --admissible "ann:$T/m.h5" "$T/opt.txt"

[ "$fails" = 0 ] && echo "cli_domain_focal: all checks passed" >&2
exit $((fails > 0))
