#!/usr/bin/env bash
# The domain interface end to end: the pancake example built as a plug-in
# against the build tree's public headers, `heurnet domain list/info/check`
# on it, broken plug-ins refused or caught by the checker, and DAVI on the
# plug-in (a model that records its domain, resumable, refused on another).
# Args: path of heurnet, instances dir, source dir.
set -u
H="$1"; DATA="$2"; SRC="$3"
. "$(dirname "$0")/lib_cli.sh"
B="$(cd "$(dirname "$H")" && pwd)"
CC=${CC:-cc}
flags=(-shared -fPIC -O1 -std=c11 -Wall -Wextra -Werror -I"$B/include")
if grep -q '^HEURNET_SANITIZE:BOOL=ON' "$B/CMakeCache.txt"; then
    flags+=(-fsanitize=address,undefined) # the host's runtime resolves them
fi
$CC "${flags[@]}" "$SRC/examples/domain_pancake.c" -o "$T/libpancake.so" ||
    { fail "the pancake example does not build"; exit 1; }
$CC "${flags[@]}" -Wno-unused-function "$SRC/tests/domains/domain_bad.c" -o "$T/libbad.so" ||
    { fail "the broken plug-ins do not build"; exit 1; }

# list and info
"$H" domain list >"$T/list" || fail "domain list"
head -1 "$T/list" | grep -q '^name' || fail "domain list has no header"
"$H" domain info "$T/libpancake.so:10" >"$T/info" || fail "domain info"
grep -qx 'domain=pancake:10' "$T/info" || fail "info: canonical domain $(head -2 "$T/info")"
grep -qx 'moves=9' "$T/info" || fail "info: 9 flips of 10 pancakes"
grep -qx 'inputs=100' "$T/info" || fail "info: 100 inputs"
grep -qx 'symmetries=1' "$T/info" || fail "info: the pancakes have no symmetric map"
"$H" domain info cube3 >"$T/cinfo" || fail "domain info cube3"
grep -qx 'symmetries=40' "$T/cinfo" && grep -qx 'symmetric_paths=1' "$T/cinfo" &&
    grep -qx 'relative=1' "$T/cinfo" || fail "info: the cube's maps $(tail -4 "$T/cinfo")"

# check passes on the good plug-in, with heuristic checks against BFS
"$H" domain check "$T/libpancake.so:7" --walks 100 >"$T/ck" 2>"$T/ckerr" || fail "check: $(cat "$T/ckerr")"
grep -q 'failures=0' "$T/ck" || fail "check: $(cat "$T/ck")"
n=$(sed -n 's/.*bfs_states=\([0-9]*\).*/\1/p' "$T/ck")
[ "$n" = 5040 ] || fail "BFS over 7 pancakes should see all 7! = 5040 stacks, saw $n"

# the checker finds each defect (exit 1, the kind named)
for k in inverse:inverse delta:encode_delta heuristic:heuristic; do
    expect 1 "${k#*:}" "$H" domain check "$T/libbad.so@${k%%:*}:6" --walks 50
done
# the host refuses what it cannot load (exit 2, the reason named)
expect 2 "ABI version 99" "$H" domain info "$T/libbad.so@version:6"
expect 2 "has no expand" "$H" domain info "$T/libbad.so@missing:6"
expect 2 "definition of 16 bytes" "$H" domain info "$T/libbad.so@small:6"
expect 2 "exports no domain named" "$H" domain info "$T/libbad.so@nosuch"
expect 2 "cannot load domain plug-in" "$H" domain info "$T/nothere.so"
expect 2 "N must be 3..32" "$H" domain info "$T/libpancake.so:99"
expect 2 "unknown domain" "$H" domain info "nosuchdomain:3"
expect 2 "exactly one DOMAIN" "$H" domain check
expect 2 "--walks" "$H" domain check "$T/libpancake.so" --walks 0

# DAVI on the plug-in: residual over gap, checkpoint, resume, domain recorded
A=(avi --domain "$T/libpancake.so:7" --arch 49-64-32-1 --steps 20 --batch 100 --walk-max 10
   --residual gap --checkpoint "$T/p.ck" --quiet)
"$H" "${A[@]}" --rounds 3 -o "$T/p.h5" >"$T/avi.csv" 2>"$T/avi.err" || fail "avi: $(cat "$T/avi.err")"
[ "$(grep -c '^[0-9]' "$T/avi.csv")" = 3 ] || fail "avi: 3 rounds in the CSV"
"$H" nn info "$T/p.h5" >"$T/ni" || fail "nn info"
grep -qx 'attr.domain=pancake:7' "$T/ni" || fail "the model does not record its domain"
grep -qx 'attr.residual=gap' "$T/ni" || fail "the model does not record its residual"
grep -qx 'encoder=pancake-onehot n=7' "$T/ni" || fail "encoder: $(grep encoder "$T/ni")"
"$H" "${A[@]}" --rounds 5 --resume "$T/p.ck" -o "$T/p5.h5" >"$T/avi5.csv" 2>"$T/avi.err" ||
    fail "avi --resume: $(cat "$T/avi.err")"
grep -q '^5,' "$T/avi5.csv" || fail "resumed run did not reach round 5"
grep -qx 'attr.avi_rounds=5' <("$H" nn info "$T/p5.h5") || fail "resumed model: 5 rounds"
# int8 target network: the same round's targets as float within 2 %, recorded
for e in float q8; do
    cp "$T/p.ck" "$T/p_$e.ck"
    "$H" "${A[@]}" --rounds 6 --resume "$T/p_$e.ck" --checkpoint "$T/p_$e.ck" --target-engine $e \
        -o "$T/p_$e.h5" >"$T/avi_$e.csv" 2>"$T/avi.err" || fail "avi --target-engine $e: $(cat "$T/avi.err")"
done
awk -F, 'FNR==1{next} /^6,/{v[++n]=$5} END{d=v[1]-v[2]; if(d<0)d=-d; exit !(n==2 && v[1]>0 && d<=0.02*v[1])}' \
    "$T/avi_float.csv" "$T/avi_q8.csv" ||
    fail "q8 targets differ from float: $(grep -h '^6,' "$T/avi_float.csv" "$T/avi_q8.csv")"
grep -qx 'attr.avi_target_q8=1' <("$H" nn info "$T/p_q8.h5") || fail "q8 targets not recorded"
expect 2 "'q4' is not one of float, q8" "$H" "${A[@]}" --rounds 1 --target-engine q4 -o "$T/x.h5"
# --parity: the cube's distance parity rounds the leaves, and is recorded
"$H" avi --domain cube3 --arch 480-8-1 --steps 2 --batch 20 --walk-max 8 --rounds 2 --parity parity \
    -o "$T/c.h5" --quiet >"$T/c.csv" 2>"$T/avi.err" || fail "avi --parity: $(cat "$T/avi.err")"
grep -qx 'attr.avi_parity=1' <("$H" nn info "$T/c.h5") || fail "--parity not recorded"
# round 1 (no target network yet, leaves 0): with parity an even cube's
# leaves round up to 1, so its target is 2 instead of 1 (mean 4/9 + 8/9
# over walks of 0..8 against 8/9)
for p in plain parity; do
    "$H" avi --domain cube3 --arch 480-8-1 --steps 5 --batch 200 --walk-max 8 --rounds 1 \
        $([ $p = parity ] && echo --parity parity) -o "$T/r1.h5" >"$T/r1_$p.csv" 2>"$T/avi.err" ||
        fail "avi round 1 ($p): $(cat "$T/avi.err")"
done
awk -F, 'FNR==1{next} /^1,/{v[++n]=$5} END{exit !(n==2 && v[1]<1 && v[2]>1.2)}' \
    "$T/r1_plain.csv" "$T/r1_parity.csv" ||
    fail "--parity round-1 targets: $(grep -h '^1,' "$T/r1_plain.csv" "$T/r1_parity.csv")"
expect 2 "unknown heuristic" "$H" avi --domain cube3 --arch 480-8-1 --parity odd -o "$T/x.h5"
# the n-puzzle runs on the same path: --parity there too
"$H" avi --puzzle 8 --arch 81-8-1 --parity manhattan --rounds 1 --steps 5 --batch 50 --quiet \
    -o "$T/np.h5" >/dev/null || fail "avi --puzzle 8 --parity manhattan exited $?"
"$H" nn info "$T/np.h5" 2>&1 | grep -q "avi_parity=1" || fail "--puzzle 8: parity not recorded"
# --targets walk: the walk length is the target (mean target = mean walk, 0..8 -> 4)
"$H" avi --domain cube3 --arch 480-8-1 --steps 5 --batch 200 --walk-max 8 --rounds 2 --targets walk \
    -o "$T/w.h5" >"$T/w.csv" 2>"$T/avi.err" || fail "avi --targets walk: $(cat "$T/avi.err")"
grep -qx 'attr.avi_walk_targets=1' <("$H" nn info "$T/w.h5") || fail "--targets walk not recorded"
awk -F, '/^2,/{exit !($5 > 3.5 && $5 < 4.5 && $6 == 8)}' "$T/w.csv" ||
    fail "walk targets: $(grep '^2,' "$T/w.csv")"
expect 2 "walks only" "$H" avi --domain cube3 --arch 480-8-1 --targets walk --states uniform -o "$T/x.h5"
# sym:2 averages the small walk network over the inverse cube: a beam with it
# solves a scramble; the cube has one map
# (7 moves: the whole third depth kept, the ball of 4 ends every path)
printf "1 R U F' L D B U\n" >"$T/scr.txt"
"$H" solve --domain cube3 --algo beam --width 2000 --ball 4 --heuristic "ann:$T/w.h5,sym:2" "$T/scr.txt" \
    >"$T/sym.txt" 2>"$T/sym.err" || fail "sym:2: $(cat "$T/sym.err")"
grep -q 'status=solved' "$T/sym.txt" || fail "sym:2: $(cat "$T/sym.txt")"
expect 2 "symmetric map" "$H" solve --domain cube3 --algo beam --heuristic "ann:$T/w.h5,sym:41" "$T/scr.txt"
expect 2 "bad setting 'sym:0'" "$H" solve --domain cube3 --algo beam --heuristic "ann:$T/w.h5,sym:0" \
    "$T/scr.txt"
expect 2 "is not bellman, walk, q, q:TEACHER.h5 or distill:TEACHER.h5" "$H" avi --domain cube3 --arch 480-8-1 \
    --targets diffusion -o "$T/x.h5"
# --targets q:TEACHER: a network with one output per move, started from the
# teacher, recorded; a beam with it solves the scramble
"$H" avi --domain cube3 --targets "q:$T/w.h5" --init-from "$T/w.h5" --steps 5 --batch 200 \
    --walk-max 8 --rounds 2 -o "$T/q.h5" >"$T/q.csv" 2>"$T/avi.err" || fail "avi q: $(cat "$T/avi.err")"
"$H" nn info "$T/q.h5" >"$T/qinfo.txt"
grep -qx 'outputs=12' "$T/qinfo.txt" && grep -qx 'attr.avi_q_outputs=12' "$T/qinfo.txt" ||
    fail "Q network: $(grep -E 'outputs|avi_q' "$T/qinfo.txt")"
"$H" solve --domain cube3 --algo beam --width 2000 --ball 4 --heuristic "ann:$T/q.h5" "$T/scr.txt" \
    >"$T/qs.txt" 2>"$T/qs.err" || fail "beam with Q: $(cat "$T/qs.err")"
grep -q 'status=solved' "$T/qs.txt" || fail "beam with Q: $(cat "$T/qs.txt")"
expect 1 "the teacher must have one output" "$H" avi --domain cube3 --targets "q:$T/q.h5" \
    --arch 480-8-12 -o "$T/x.h5"
expect 1 "has 12 output(s)" "$H" avi --domain cube3 --targets "q:$T/w.h5" --arch 480-8-1 -o "$T/x.h5"
expect 2 "no --residual" "$H" avi --domain cube3 --targets "q:$T/w.h5" --residual pdb:corners \
    --arch 480-8-12 -o "$T/x.h5"
# --targets q: Bellman values of the children from the Q network itself,
# recorded; one-move backups only
"$H" avi --domain cube3 --targets q --init-from "$T/q.h5" --steps 5 --batch 200 --walk-max 8 \
    --rounds 2 --parity parity -o "$T/qb.h5" >"$T/qb.csv" 2>"$T/avi.err" || fail "avi q: $(cat "$T/avi.err")"
grep -q '^attr.avi_q_targets=Bellman' <("$H" nn info "$T/qb.h5") || fail "--targets q: not recorded"
expect 2 "backs up one move" "$H" avi --domain cube3 --targets q --lookahead 2 --arch 480-8-12 \
    -o "$T/x.h5"
expect 2 "no --residual" "$H" avi --domain cube3 --targets q --residual pdb:corners --arch 480-8-12 \
    -o "$T/x.h5"
# --targets distill:TEACHER: a student of another shape, recorded
"$H" avi --domain cube3 --targets "distill:$T/w.h5" --arch 480-16-1 --steps 5 --batch 200 \
    --walk-max 8 --rounds 2 -o "$T/d.h5" >"$T/d.csv" 2>"$T/avi.err" || fail "avi distill: $(cat "$T/avi.err")"
grep -qx "attr.avi_teacher=$T/w.h5" <("$H" nn info "$T/d.h5") || fail "distill: teacher not recorded"
# a Q network averaged over maps that commute with the turns (the cube has 19)
"$H" solve --domain cube3 --algo beam --width 2000 --ball 4 --heuristic "ann:$T/q.h5,sym:3" \
    "$T/scr.txt" >"$T/qs.txt" 2>"$T/qs.err" || fail "Q sym:3: $(cat "$T/qs.err")"
grep -q 'status=solved' "$T/qs.txt" || fail "Q sym:3: $(cat "$T/qs.txt")"
expect 2 "commute with the moves" "$H" solve --domain cube3 --algo beam \
    --heuristic "ann:$T/q.h5,sym:21" "$T/scr.txt"
# --blend W:H adds W x an admissible H to the network's value
"$H" solve --domain cube3 --algo beam --width 2000 --ball 4 --heuristic "ann:$T/q.h5" \
    --blend 0.6:pdb:edges4 "$T/scr.txt" >"$T/qb.txt" 2>"$T/qb.err" || fail "--blend: $(cat "$T/qb.err")"
grep -q 'status=solved' "$T/qb.txt" || fail "--blend: $(cat "$T/qb.txt")"
# a floor that does not open is refused with its message (it crashed once:
# the heuristic was freed twice)
expect 2 "floor nosuch" "$H" solve --domain cube3 --algo beam --heuristic "ann:$T/q.h5" \
    --floor nosuch "$T/scr.txt"
expect 2 "unknown heuristic" "$H" solve --domain cube3 --algo beam --heuristic "ann:$T/q.h5" \
    --floor "ann:$T/q.h5" "$T/scr.txt"
# blends add up (up to 4); a fifth is refused
"$H" solve --domain cube3 --algo beam --width 2000 --ball 4 --heuristic "ann:$T/q.h5" \
    --blend 0.5:pdb:edges4 --blend 0.2:manhattan "$T/scr.txt" >"$T/qb2.txt" 2>"$T/qb2.err" ||
    fail "two --blend: $(cat "$T/qb2.err")"
grep -q 'status=solved' "$T/qb2.txt" || fail "two --blend: $(cat "$T/qb2.txt")"
expect 2 "at most 4 blends" "$H" solve --domain cube3 --algo beam --heuristic "ann:$T/q.h5" \
    --blend 1:pdb:edges4 --blend 1:pdb:edges4 --blend 1:pdb:edges4 --blend 1:pdb:edges4 \
    --blend 1:pdb:edges4 "$T/scr.txt"
expect 2 "weight must be over 0" "$H" solve --domain cube3 --algo beam --heuristic "ann:$T/q.h5" \
    --blend 0:pdb:edges4 "$T/scr.txt"
expect 2 "not W:H" "$H" solve --domain cube3 --algo beam --heuristic "ann:$T/q.h5" --blend 0.5 \
    "$T/scr.txt"
expect 2 "not W:H" "$H" solve --domain cube3 --algo beam --heuristic "ann:$T/q.h5" \
    --blend "0.$(printf '%080d' 5):pdb:edges4" "$T/scr.txt"
expect 2 "not W:H" "$H" solve --domain cube3 --algo beam --heuristic "ann:$T/q.h5" --blend 0.5: \
    "$T/scr.txt"
expect 2 "blend nosuch" "$H" solve --domain cube3 --algo beam --heuristic "ann:$T/q.h5" \
    --blend 0.5:nosuch "$T/scr.txt"
expect 2 "unknown heuristic" "$H" solve --domain cube3 --algo beam --heuristic "ann:$T/q.h5" \
    --blend "0.5:ann:$T/q.h5" "$T/scr.txt"
# IDA* windows: a weighted-A* 3x4 solution comes back never longer and replays;
# the cube has no estimate between two states
printf '1 %s\n' "$("$H" domain sample npuzzle:3x4 -n 1 --walk 60 --seed 9 | cut -d' ' -f2-)" >"$T/b34.txt"
"$H" solve --domain npuzzle:3x4 --algo astar --weight 4 --heuristic manhattan --shortcut 40:ida \
    "$T/b34.txt" >"$T/ida.txt" 2>"$T/ida.err" || fail "--shortcut 40:ida: $(cat "$T/ida.err")"
grep -q 'status=solved' "$T/ida.txt" || fail "--shortcut 40:ida: $(cat "$T/ida.txt")"
expect 2 "needs --admissible H" "$H" solve --domain cube3 --heuristic manhattan --algo astar \
    --weight 2 --shortcut 30:ida "$T/b34.txt"
expect 2 "must be an admissible heuristic" "$H" solve --domain cube3 --heuristic manhattan \
    --algo beam --shortcut 30:ida --admissible "ann:$T/q.h5" "$T/scr.txt"
# on the cube the windows run from the relative state under --admissible H,
# after a beam that leaves them part of its time
"$H" solve --domain cube3 --algo beam --width 2000 --ball 4 --heuristic "ann:$T/q.h5" --time-limit 20 \
    --shortcut 20:ida --admissible max:manhattan,pdb:edges4 "$T/scr.txt" >"$T/qw.txt" 2>"$T/qw.err" ||
    fail "cube windows: $(cat "$T/qw.err")"
grep -q 'status=solved' "$T/qw.txt" || fail "cube windows: $(cat "$T/qw.txt")"
# beam variants: the cube and its inverse in turn; refused where no map
# carries paths, off the beam and out of range
"$H" solve --domain cube3 --algo beam --width 2000 --ball 4 --heuristic "ann:$T/q.h5" --variants 2 \
    "$T/scr.txt" >"$T/qv.txt" 2>"$T/qv.err" || fail "cube variants: $(cat "$T/qv.err")"
grep -q 'status=solved' "$T/qv.txt" || fail "cube variants: $(cat "$T/qv.txt")"
expect 2 "carry paths" "$H" solve --domain npuzzle:3x4 --algo beam --variants 2 "$T/b34.txt"
expect 2 "--variants is beam's" "$H" solve --domain cube3 --algo astar --variants 2 "$T/scr.txt"
expect 2 "--variants '0' is not 1..64" "$H" solve --domain cube3 --algo beam --variants 0 "$T/scr.txt"
expect 2 "is not 0 (off) or over 1" "$H" solve --domain npuzzle:3x4 --algo beam --widen 1 "$T/b34.txt"
expect 2 "--widen is beam's" "$H" solve --domain npuzzle:3x4 --algo astar --widen 2 "$T/b34.txt"
"$H" solve --domain npuzzle:3x4 --algo beam --width 100 --widen 4 --heuristic manhattan "$T/b34.txt" \
    >"$T/beam.txt" 2>"$T/beam.err" || fail "beam --widen: $(cat "$T/beam.err")"
grep -q 'status=solved' "$T/beam.txt" || fail "beam --widen: $(cat "$T/beam.txt")"
expect 2 "is not W[:N][:ida][:rR]" "$H" solve --domain npuzzle:3x4 --shortcut 30:idb "$T/b34.txt"
# the goal's ball: a board inside it is solved optimally with no search,
# one outside through it; refused off the beam and out of range
expect 2 "is not a radius" "$H" solve --domain npuzzle:3x4 --algo beam --ball 31 "$T/b34.txt"
expect 2 "--ball is beam's" "$H" solve --domain npuzzle:3x4 --algo astar --ball 3 "$T/b34.txt"
printf '1 %s\n' "$("$H" domain sample npuzzle:3x4 -n 1 --walk 9 --seed 4 | cut -d' ' -f2-)" >"$T/near34.txt"
"$H" solve --domain npuzzle:3x4 --algo astar --heuristic manhattan "$T/near34.txt" >"$T/opt34.txt" ||
    fail "A* on a near board"
opt=$(sed -n 's/.* length=\([0-9]*\).*/\1/p' "$T/opt34.txt" | head -1)
"$H" solve --domain npuzzle:3x4 --algo beam --width 2 --ball 12 --heuristic manhattan "$T/near34.txt" \
    >"$T/nb.txt" 2>"$T/nb.err" || fail "beam --ball: $(cat "$T/nb.err")"
grep -q "length=$opt .*proven=1 " "$T/nb.txt" && grep -q ' expanded=0 ' "$T/nb.txt" ||
    fail "beam --ball on a board inside: $(cat "$T/nb.txt"), optimum $opt"
"$H" eval --domain npuzzle:3x4 --algo beam --width 50 --ball 10 --heuristic manhattan \
    --instances "$T/b34.txt" -o "$T/ball-eval" -q >/dev/null 2>"$T/be.err" || fail "eval --ball: $(cat "$T/be.err")"
grep -q 'ball 10 (' "$T/ball-eval/summary.md" && grep -q 'solved	1' "$T/ball-eval/instances.tsv" ||
    fail "eval --ball: $(cat "$T/ball-eval/summary.md" "$T/ball-eval/instances.tsv")"
# bootstrapping on the plug-in: solved paths fill the buffer, which a
# checkpoint keeps; a damaged buffered state is refused on resume
B=(avi --domain "$T/libpancake.so:7" --method bootstrap --arch 49-32-1 --steps 10 --batch 50
   --boards 20 --budget 500 --walk 4 --walk-step 2 --walk-max 12 --floor gap --quiet)
"$H" "${B[@]}" --rounds 3 --checkpoint "$T/b.ck" -o "$T/b.h5" >"$T/b.csv" 2>"$T/avi.err" ||
    fail "avi bootstrap: $(cat "$T/avi.err")"
awk -F, '/^[0-9]/{s+=$10; if($14+0>0)buf=1} END{exit !(s>0 && buf)}' "$T/b.csv" ||
    fail "bootstrap solved nothing or kept no state: $(cat "$T/b.csv")"
grep -q 'attr.avi_method=bootstrap' <("$H" nn info "$T/b.h5") || fail "bootstrap not recorded"
"$H" "${B[@]}" --rounds 4 --resume "$T/b.ck" --checkpoint "$T/b.ck" -o "$T/b4.h5" >"$T/b4.csv" \
    2>"$T/avi.err" || fail "avi bootstrap --resume: $(cat "$T/avi.err")"
awk -F, -v b="$(awk -F, '/^3,/{print $14}' "$T/b.csv")" '/^4,/{exit !($14+0 >= b+0)}' "$T/b4.csv" ||
    fail "the resumed buffer lost states: $(cat "$T/b.csv" "$T/b4.csv")"
if /usr/bin/python3 -c 'import h5py' 2>/dev/null; then
    cp "$T/b.ck" "$T/bad.ck"
    /usr/bin/python3 - "$T/bad.ck" <<'PY'
import sys, h5py
with h5py.File(sys.argv[1], "r+") as f:
    d = f["avi/buffer_boards"]
    v = d[...]
    v[0] = 77
    d[...] = v
PY
    expect 1 "is not a state of" "$H" "${B[@]}" --rounds 5 --resume "$T/bad.ck" -o "$T/x.h5"
fi
expect 1 'is for domain "pancake:7"' "$H" avi --domain "$T/libpancake.so:8" --resume "$T/p.ck" --batch 100 \
    --rounds 6 --residual gap -o "$T/x.h5" --quiet
expect 1 "reads 49 inputs" "$H" avi --domain "$T/libpancake.so:7" --arch 64-8-1 --rounds 1 -o "$T/x.h5" --quiet
# a target table over all 5,040 stacks of the plug-in
"$H" avi --domain "$T/libpancake.so:7" --arch 49-8-1 --table --lookahead 4 --rounds 2 --steps 5 \
    --batch 50 --quiet -o "$T/pt.h5" >/dev/null || fail "avi --table on the plug-in exited $?"
"$H" nn info "$T/pt.h5" 2>&1 | grep -q "avi_table=1" || fail "plug-in table run: avi_table not recorded"
expect 2 "unknown heuristic" "$H" avi --domain "$T/libpancake.so:7" --arch 49-8-1 --residual nosuch \
    --rounds 1 -o "$T/x.h5" --quiet
[ ! -e "$T/x.h5" ] || fail "a refused run left a model behind"

# solve on the plug-in: IDA* and A* with gap agree on optimal lengths; the
# network found by avi solves every stack (replayed by the search itself)
"$H" domain check "$T/libpancake.so:7" --walks 1 --bfs-states 0 >/dev/null || fail "check"
for s in "3 1 4 0 6 5 2" "6 5 4 3 2 1 0" "0 2 1 4 3 6 5" "5 0 6 2 4 1 3"; do echo "$s"; done >"$T/p7.txt"
"$H" solve --domain "$T/libpancake.so:7" --algo idastar "$T/p7.txt" >"$T/ida.txt" ||
    fail "solve idastar: $(cat "$T/ida.txt")"
"$H" solve --domain "$T/libpancake.so:7" --algo astar --heuristic gap "$T/p7.txt" >"$T/astar.txt" ||
    fail "solve astar"
[ "$(grep -o 'length=[0-9]*' "$T/ida.txt")" = "$(grep -o 'length=[0-9]*' "$T/astar.txt")" ] ||
    fail "IDA* and A* lengths differ: $(grep -o 'length=[0-9]*' "$T/ida.txt" "$T/astar.txt")"
grep -q 'id=2 status=solved length=1 ' "$T/ida.txt" || fail "one flip sorts 6 5 4 3 2 1 0"
"$H" solve --domain "$T/libpancake.so:7" --model "$T/p5.h5" --algo bwas --batch 8 "$T/p7.txt" \
    >"$T/net.txt" 2>"$T/err" || fail "solve with the avi model: $(cat "$T/err")"
[ "$(grep -c 'status=solved' "$T/net.txt")" = 4 ] || fail "the network did not solve all 4"
grep -q 'domain=pancake:7' "$T/net.txt" || fail "solve's summary does not name the domain"
expect 2 'domain' "$H" solve --domain "$T/libpancake.so:8" --model "$T/p5.h5" "$T/p7.txt"
expect 2 "needs an admissible heuristic" "$H" solve --domain "$T/libpancake.so:7" \
    --model "$T/p5.h5" --algo idastar "$T/p7.txt"
printf '1 2 3\n0 0 1 2 3 4 5\n' >"$T/bad.txt"
expect 1 "bad.txt:1:" "$H" solve --domain "$T/libpancake.so:7" "$T/bad.txt"
expect 1 "appears twice" "$H" solve --domain "$T/libpancake.so:7" "$T/bad.txt"

# eval on the plug-in: optimal lengths from IDA*, a report with figures
sed -n 's/^id=\([0-9]*\) status=solved length=\([0-9]*\) .*/\1 \2/p' "$T/ida.txt" |
    paste -d' ' - "$T/p7.txt" >"$T/p7opt.txt"
"$H" eval --domain "$T/libpancake.so:7" --model "$T/p5.h5" --instances "$T/p7opt.txt" -o "$T/rep" --algo astar --quiet \
    >"$T/eval.txt" 2>"$T/err" || fail "eval: $(cat "$T/err")"
grep -q 'states=4 solved=4' "$T/eval.txt" || fail "eval headline: $(cat "$T/eval.txt")"
grep -q 'optimal=[0-9]/4' "$T/eval.txt" || fail "eval: optimal share against the file's lengths"
for f in instances.tsv summary.md plots.gp; do [ -s "$T/rep/$f" ] || fail "report lacks $f"; done
[ "$(tail -n +2 "$T/rep/instances.tsv" | wc -l)" = 4 ] || fail "instances.tsv: 4 rows"
if command -v gnuplot >/dev/null; then
    for f in length.png diff.png seconds.png; do [ -s "$T/rep/$f" ] || fail "no figure $f"; done
fi
"$H" eval --domain "$T/libpancake.so:7" --model "$T/p5.h5" --instances "$T/p7opt.txt" -o "$T/rep" --reference --quiet \
    >"$T/eval.txt" 2>/dev/null && fail "eval replaced an existing report without --force"
"$H" eval --domain "$T/libpancake.so:7" --model "$T/p5.h5" --instances "$T/p7opt.txt" -o "$T/rep" --reference --force \
    --quiet >"$T/eval.txt" || fail "eval --force"
grep -q 'shorter=0 equal=[0-9]' "$T/eval.txt" || fail "eval --reference: $(cat "$T/eval.txt")"
# avi --eval on a domain: the network's MAE against the file's optimal lengths each round
"$H" avi --domain "$T/libpancake.so:7" --arch 49-16-1 --rounds 2 --steps 5 --batch 50 \
    --walk-max 10 --residual gap --eval "$T/p7opt.txt" -o "$T/pe.h5" --quiet >"$T/pe.csv" ||
    fail "avi --eval on a domain"
awk -F, 'NR > 1 && ($18 == "nan" || $18 < 0 || $19 < 0 || $19 > 1) {bad = 1} END {exit bad}' \
    "$T/pe.csv" || fail "avi --eval: no MAE in the CSV: $(cat "$T/pe.csv")"
expect 1 "no optimal length" "$H" avi --domain "$T/libpancake.so:7" --arch 49-16-1 --rounds 1 \
    --steps 5 --batch 50 --eval "$T/p7.txt" -o "$T/pe2.h5" --quiet
expect 2 "--time-budget" "$H" eval --domain "$T/libpancake.so:7" --model "$T/p5.h5" --instances "$T/p7opt.txt" -o "$T/r2" \
    --time-budget 0

# a built-in domain past the specialised code (a 3x4 board): avi, then solve
# and eval take the domain from the model alone
"$H" avi --domain npuzzle:3x4 --arch 144-32-1 --residual manhattan --rounds 2 --steps 10 \
    --batch 50 --walk-max 30 -o "$T/n34.h5" --quiet >/dev/null 2>"$T/err" || fail "avi 3x4: $(cat "$T/err")"
printf '1 0 2 3 4 5 6 7 8 9 10 11\n3 1 2 0 4 5 6 7 8 9 10 11\n' >"$T/n34.txt"
"$H" solve --model "$T/n34.h5" --algo astar "$T/n34.txt" >"$T/n34.out" 2>"$T/err" ||
    fail "solve --model (3x4): $(cat "$T/err")"
grep -q 'domain=npuzzle:3x4' "$T/n34.out" || fail "solve did not take npuzzle:3x4 from the model"
grep -q 'id=1 status=solved length=1 .*moves=L$' "$T/n34.out" || fail "3x4: one move L: $(head -1 "$T/n34.out")"
expect 2 "npuzzle:3x4" "$H" solve --domain npuzzle:4x3 --model "$T/n34.h5" "$T/n34.txt"
# predict: one estimate per state, the same as the search's h0 (scale 1)
"$H" predict --model "$T/n34.h5" --instances "$T/n34.txt" >"$T/pred" 2>"$T/err" ||
    fail "predict 3x4: $(cat "$T/err")"
[ "$(wc -l <"$T/pred")" = 2 ] && awk -F'\t' '$2 < 0 || $2 > 40 {exit 1}' "$T/pred" ||
    fail "predict 3x4: $(cat "$T/pred")"
"$H" predict --domain "$T/libpancake.so:7" --model "$T/p5.h5" --instances "$T/p7.txt" >"$T/pred" ||
    fail "predict on the plug-in"
[ "$(cut -f1 "$T/pred" | tr '\n' ' ')" = "1 2 3 4 " ] || fail "predict ids: $(cat "$T/pred")"
expect 2 "pancake:7" "$H" predict --domain npuzzle:3x4 --model "$T/p5.h5" --instances "$T/n34.txt"

# --domain on gen and pdb: the n-puzzle up to 5x5 as --puzzle, others named
HEURNET_DATA="$T/cache" "$H" gen --domain npuzzle:3x3:blank-last --count 5 -o "$T/g.h5" --quiet ||
    fail "gen --domain npuzzle:3x3"
grep -q 'goal=blank-last' <("$H" data info "$T/g.h5" 2>&1) || fail "gen --domain: the goal is not blank-last"
expect 2 "--heuristic nosuch" "$H" gen --domain "$T/libpancake.so:7" --count 5 --heuristic nosuch -o "$T/g2.h5"
expect 2 "needs --partition" "$H" pdb build --domain "$T/libpancake.so:7"
expect 2 "patterns are bigK" "$H" pdb build --domain "$T/libpancake.so:7" --partition x

# a search recorded in a plug-in model: the plug-in's file must be named
cp "$T/p5.h5" "$T/rec.h5"
expect 2 "give --domain PATH.so" "$H" nn set-search "$T/rec.h5" "--algo focal"
"$H" nn set-search --domain "$T/libpancake.so:7" "$T/rec.h5" "--algo focal --bound 1.5" >/dev/null ||
    fail "set-search --domain on the plug-in model"
"$H" solve --domain "$T/libpancake.so:7" --model "$T/rec.h5" -q "$T/p7.txt" >"$T/rec.txt" ||
    fail "solve the plug-in model's record"
grep -q 'algo=focal heuristic=ann:.* bound=1.5 admissible=gap' "$T/rec.txt" ||
    fail "the plug-in model's record: $(tail -1 "$T/rec.txt")"

exit $((fails > 0))
