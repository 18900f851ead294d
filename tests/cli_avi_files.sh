#!/usr/bin/env bash
# heurnet avi's files and misuse (issue 63, defect 18): an unknown --floor,
# --residual or --parity heuristic is misuse (exit 2, as in solve and gen),
# on the n-puzzle path and on a domain; --checkpoint F refuses an existing
# unrelated F before any round (exit 1, F unchanged) unless --force, and
# continues F itself with --resume F.
# Args: path of heurnet, instances dir, source dir.
set -u
H="$1"
. "$(dirname "$0")/lib_cli.sh"
A=(avi --puzzle 8 --arch 81-16-1 --steps 5 --batch 32 --walk-max 6 --quiet)
D=(avi --domain npuzzle:3x4 --arch 144-16-1 --steps 5 --batch 32 --walk-max 6 --quiet)

for o in --floor --residual; do
    expect 2 "unknown heuristic 'bogus'" "$H" "${A[@]}" "$o" bogus -o "$T/x.h5"
    expect 2 "unknown heuristic 'bogus'" "$H" "${D[@]}" "$o" bogus -o "$T/x.h5"
done
expect 2 "unknown heuristic 'bogus'" "$H" "${D[@]}" --parity bogus -o "$T/x.h5"
[ -e "$T/x.h5" ] && fail "a refused run wrote its -o"

echo "my notes" >"$T/ck.h5"
expect 1 "--checkpoint $T/ck.h5 exists" "$H" "${A[@]}" --rounds 1 --checkpoint "$T/ck.h5" -o "$T/m.h5"
[ "$(cat "$T/ck.h5")" = "my notes" ] || fail "the refused checkpoint file was changed"
[ -e "$T/m.h5" ] && fail "the refused run wrote its -o"
"$H" "${A[@]}" --rounds 1 --checkpoint "$T/ck.h5" --force -o "$T/m.h5" >/dev/null 2>"$T/err" ||
    fail "--force: $(cat "$T/err")"
"$H" nn info "$T/ck.h5" >/dev/null 2>&1 || fail "--force did not write the checkpoint"
"$H" "${A[@]}" --rounds 2 --resume "$T/ck.h5" --checkpoint "$T/ck.h5" -o "$T/m2.h5" \
    >/dev/null 2>"$T/err" || fail "--resume F --checkpoint F: $(cat "$T/err")"
cp "$T/ck.h5" "$T/ck2.h5"
expect 1 "exists" "$H" "${A[@]}" --rounds 3 --resume "$T/ck.h5" --checkpoint "$T/ck2.h5" -o "$T/m3.h5"
mkdir "$T/dir"
expect 1 "is a folder" "$H" "${A[@]}" --rounds 1 --checkpoint "$T/dir" -o "$T/m4.h5"

[ "$fails" -eq 0 ] || exit 1
echo "cli_avi_files: ok"
