#!/bin/bash
# heurnet avi --residual / --lookahead through the executable: bad values
# exit 2; bootstrapping runs on a residual; a residual model records its base, predicts base + network (a
# fresh one exactly Manhattan distance) in predict and solve; resuming it
# without the residual, and a model whose residual attribute is not an
# admissible heuristic, are refused with the file named.
# Arguments: path of heurnet, shared data dir, source dir.
set -u
HN=$1
. "$(dirname "$0")/lib_cli.sh"

A=(--puzzle 8 --arch 81-16-1 --no-bn --steps 5 --batch 32 --walk-max 10 --quiet)
expect 2 "--lookahead" "$HN" avi "${A[@]}" --lookahead 4 -o "$T/m.h5"
"$HN" avi "${A[@]}" --method bootstrap --walk 3 --boards 10 --rounds 1 --residual lc \
    -o "$T/boot.h5" >/dev/null || fail "bootstrap on a residual exited $?"
"$HN" nn info "$T/boot.h5" 2>&1 | grep -q "residual=lc" || fail "bootstrap: no residual recorded"
expect 2 "not a network" "$HN" avi "${A[@]}" --residual ann:x.h5 -o "$T/m.h5"

# id optimal tiles: the goal, one move away, and two far boards (optimal
# lengths by BFS)
printf '%s\n' "g 0 0 1 2 3 4 5 6 7 8" "a 1 1 0 2 3 4 5 6 7 8" \
    "b 30 0 7 6 5 8 1 2 4 3" "c 20 0 1 2 7 4 3 5 8 6" >"$T/b.txt"
# Manhattan distance of each board (goal blank-first: tile t on cell t)
awk 'function abs(x) { return x < 0 ? -x : x }
    { s = 0; for (p = 0; p < 9; p++) { t = $(p + 3)
        if (t) s += abs(int(p / 3) - int(t / 3)) + abs(p % 3 - t % 3) }
      print $1 "\t" s }' "$T/b.txt" >"$T/md"

"$HN" avi "${A[@]}" --residual manhattan --rounds 0 -o "$T/r0.h5" >/dev/null ||
    fail "a 0-round residual run exited $?"
"$HN" predict --model "$T/r0.h5" --instances "$T/b.txt" >"$T/p0" || fail "predict exited $?"
cmp -s "$T/p0" "$T/md" || fail "a fresh residual model is not Manhattan: $(paste "$T/p0" "$T/md")"

"$HN" avi "${A[@]}" --residual manhattan --lookahead 2 --rounds 2 --checkpoint "$T/ck.h5" \
    -o "$T/r.h5" >/dev/null || fail "a residual run exited $?"
"$HN" nn info "$T/r.h5" >"$T/info" 2>&1 || fail "nn info exited $?"
grep -q "residual=manhattan" "$T/info" || fail "the model does not record its residual"
grep -q "avi_lookahead=2" "$T/info" || fail "the model does not record the lookahead"
"$HN" predict --model "$T/r.h5" --instances "$T/b.txt" >"$T/p" || fail "predict exited $?"
awk 'NR == FNR { m[$1] = $2; next } { d = $2 - m[$1]; if (d < -3 || d > 3) bad++ }
    END { exit bad > 0 }' "$T/md" "$T/p" || fail "residual predictions far from base: $(cat "$T/p")"
"$HN" solve --puzzle 8 --algo astar --heuristic "ann:$T/r0.h5" "$T/b.txt" >"$T/s" 2>/dev/null ||
    fail "solve with a residual model exited $?"
grep -q "^id=c status=solved length=20 " "$T/s" || fail "solve: $(grep id=c "$T/s")"
expect 1 'residual over "manhattan"' "$HN" avi --puzzle 8 --resume "$T/ck.h5" --rounds 3 \
    --steps 5 --batch 32 --quiet -o "$T/x.h5"

if $PY -c "import h5py" 2>/dev/null; then
    cp "$T/r.h5" "$T/bad.h5"
    $PY -c 'import h5py, sys; f = h5py.File(sys.argv[1], "r+"); f.attrs["residual"] = "pdb:9-9"' \
        "$T/bad.h5" || fail "set-up: cannot edit the attribute"
    "$HN" nn upgrade "$T/bad.h5" >/dev/null 2>&1 # the edit changed the checksum
    expect 1 "bad.h5: attribute residual" "$HN" predict --model "$T/bad.h5" --instances "$T/b.txt"
    expect 2 "bad.h5: residual base \"pdb:9-9\"" "$HN" solve --puzzle 8 --heuristic "ann:$T/bad.h5" \
        "$T/b.txt"
else
    echo "note: python3 h5py missing; the bad-attribute cases were skipped"
fi

[ $fails -eq 0 ] && echo "ok" || exit 1
