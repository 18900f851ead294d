#!/bin/bash
# scripts/distill_labels.py on the 24-puzzle with a residual teacher: the
# boards are solvable permutations (random walks within their length of the
# goal), the labels are the teacher's network part floored at 0, the same seed
# gives the same boards, the file trains, and a teacher without a residual is
# refused with --residual; --around draws boards near a list's; path_boards.py
# writes the path boards for avi.
# Arguments: path of heurnet, shared data dir, source dir.
set -u
HN=$1
SRC=$3
. "$(dirname "$0")/lib_cli.sh"
need_h5py
D="$SRC/scripts/distill_labels.py"

# a small residual teacher over Manhattan distance, trained for two rounds so
# that its network part is not zero
"$HN" avi --puzzle 24 --arch 625-16-1 --no-bn --residual manhattan --rounds 2 --steps 3 \
    --batch 32 --walk-max 10 --seed 5 --quiet -o "$T/t.h5" >/dev/null ||
    fail "set-up: the teacher's avi run exited $?"
O=(--puzzle 24 --random 30 --walks 30 --walk-max 6 --seed 3 --no-mirror --residual)
$PY "$D" "$HN" "$T/t.h5" "$T/d.h5" "${O[@]}" >/dev/null || fail "distill_labels.py exited $?"
$PY "$D" "$HN" "$T/t.h5" "$T/d2.h5" "${O[@]}" >/dev/null || fail "distill_labels.py (again) exited $?"

# the teacher's full value (Manhattan + network) for every board
$PY - "$T/d.h5" "$T/b.txt" <<'EOF' || fail "set-up: cannot write the boards"
import sys, h5py
b = h5py.File(sys.argv[1], "r")["boards"][:]
with open(sys.argv[2], "w") as f:
    f.writelines(f"{i} 0 {' '.join(map(str, r))}\n" for i, r in enumerate(b.tolist()))
EOF
"$HN" predict --model "$T/t.h5" --instances "$T/b.txt" --goal blank-first >"$T/full" ||
    fail "predict exited $?"

$PY - "$T/d.h5" "$T/d2.h5" "$T/full" <<'EOF' || fail "the labelled boards are wrong (above)"
import sys
import h5py
import numpy as np
W = 5
f = h5py.File(sys.argv[1], "r")
b, y, src = f["boards"][:], f["cost"][:], f["source"][:]
bad = []
if b.shape != (60, 25) or list(np.bincount(src, minlength=3)) != [30, 0, 30]:
    bad.append(f"shape {b.shape}, sources {np.bincount(src)}")
if not (np.sort(b, 1) == np.arange(25)).all():
    bad.append("a board is not a permutation of 0..24")
man = np.zeros(len(b), np.int64)
for t in range(1, 25):
    p = np.argmax(b == t, 1)
    man += abs(p // W - t // W) + abs(p % W - t % W)
inv = np.zeros(len(b), np.int64)
for i in range(25):
    inv += ((b[:, i:i + 1] > b[:, i + 1:]) & (b[:, i + 1:] > 0)).sum(1)
if (inv % 2).any():  # odd width: solvable iff the tiles' inversions are even
    bad.append("an unsolvable board")
if (man[src == 2] > 6).any():
    bad.append("a walk board farther than its walk")
full = np.zeros(len(b))
for line in open(sys.argv[3]):
    i, v = line.split()[:2]
    full[int(i)] = float(v)
want = np.maximum(full - man, 0)
if np.abs(y - want).max() > 2e-3 or (y < 0).any():
    bad.append(f"labels differ from max(teacher - Manhattan, 0) by {np.abs(y - want).max()}")
if not (y > 0).any():
    bad.append("every label is 0: the teacher's network part was not read")
if not (h5py.File(sys.argv[2], "r")["boards"][:] == b).all():
    bad.append("the same seed gave other boards")
print("\n".join(bad))
sys.exit(1 if bad else 0)
EOF

"$HN" train --data "$T/d.h5" --arch 625-8-1 --epochs 1 --batch 16 --quiet -o "$T/s.h5" \
    >/dev/null || fail "heurnet train on the labels exited $?"

"$HN" nn init --arch 625-8-1 --encoder "npuzzle-onehot n=5" -o "$T/plain.h5" >/dev/null 2>&1 ||
    fail "set-up: nn init exited $?"
expect 1 "needs a teacher with a residual attribute" $PY "$D" "$HN" "$T/plain.h5" "$T/x.h5" \
    --puzzle 24 --random 3 --residual
[ ! -e "$T/x.h5" ] || fail "a refused run left its output"

# --paths: the boards on solutions found by search, labelled with the moves
# left less the teacher's base (Manhattan), each written K times; instance
# ids are words, or the board's number where a line has none
$PY - "$T/d.h5" "$T/w.txt" <<'EOF' || fail "set-up: cannot write the walk boards"
import sys, h5py
f = h5py.File(sys.argv[1], "r")
b = f["boards"][:][f["source"][:] == 2][:4]
with open(sys.argv[2], "w") as out:
    out.write("# walk boards, goal blank-first\n")
    out.writelines((f"w{10 + i} " if i < 2 else "") + " ".join(map(str, r)) + "\n"
                   for i, r in enumerate(b.tolist()))
EOF
"$HN" solve --puzzle 24 --goal blank-first --algo astar --heuristic manhattan -q "$T/w.txt" \
    >"$T/sol" 2>/dev/null || fail "set-up: solve exited $?"
$PY "$D" "$HN" "$T/t.h5" "$T/p.h5" --puzzle 24 --residual --paths "$T/w.txt:$T/sol:2" \
    >/dev/null || fail "distill_labels.py --paths exited $?"
$PY - "$T/p.h5" "$T/sol" "$T/w.txt" <<'EOF' || fail "the path rows are wrong (above)"
import sys
import h5py
import numpy as np
W = 5
f = h5py.File(sys.argv[1], "r")
b, y, src = f["boards"][:], f["cost"][:], f["source"][:]
lines = [l.split() for l in open(sys.argv[3]) if not l.startswith("#")]
start = {(v[0] if len(v) > 25 else str(n)): [int(t) for t in v[-25:]]
         for n, v in enumerate(lines, 1)}
if sorted(start) != ["3", "4", "w10", "w11"]:
    sys.exit(f"set-up: ids {sorted(start)}")
want_b, want_y = [], []
for line in open(sys.argv[2]):
    kv = dict(x.split("=", 1) for x in line.split() if "=" in x)
    if "moves" not in kv:
        continue
    s, step = list(start[kv["id"]]), {"U": -W, "D": W, "L": -1, "R": 1}
    for i, m in enumerate(kv["moves"]):
        man = sum(abs(p // W - t // W) + abs(p % W - t % W) for p, t in enumerate(s) if t)
        want_b += [list(s)] * 2
        want_y += [len(kv["moves"]) - i - man] * 2
        z = s.index(0)
        s[z], s[z + step[m]] = s[z + step[m]], s[z]
bad = []
if not len(want_y):
    bad.append("set-up: no solution in the solve output")
if (src != 5).any() or b.tolist() != want_b:
    bad.append(f"{len(b)} rows of sources {np.bincount(src)}, want {len(want_b)} path boards twice")
elif np.abs(y - np.array(want_y)).max() > 1e-6 or (y < 0).any():
    bad.append(f"labels differ from moves left - Manhattan by {np.abs(y - np.array(want_y)).max()}")
print("\n".join(bad))
sys.exit(1 if bad else 0)
EOF
# a solution that does not reach the goal, an unknown id: refused, naming the file
sed '0,/moves=\([UDLR]\)/s//moves=\1\1\1/' "$T/sol" >"$T/sol_bad"
expect 1 "sol_bad:" $PY "$D" "$HN" "$T/t.h5" "$T/x.h5" --puzzle 24 --paths "$T/w.txt:$T/sol_bad"
[ ! -e "$T/x.h5" ] || fail "a refused --paths run left its output"
sed '0,/id=w1[0-9]/s//id=99/' "$T/sol" >"$T/sol_id"
expect 1 "id 99 is not in" $PY "$D" "$HN" "$T/t.h5" "$T/x.h5" --puzzle 24 --paths "$T/w.txt:$T/sol_id"
expect 1 "INSTANCES:SOLVED" $PY "$D" "$HN" "$T/t.h5" "$T/x.h5" --puzzle 24 --paths "$T/w.txt"

# scripts/path_boards.py: the same path boards once each, as an instance file
# that heurnet avi --start-boards reads
PB="$SRC/scripts/path_boards.py"
$PY "$PB" "$T/w.txt:$T/sol" -o "$T/pb.txt" 2>/dev/null || fail "path_boards.py exited $?"
$PY - "$T/p.h5" "$T/pb.txt" <<'EOF' || fail "path_boards.py's boards differ from the path rows"
import sys
import h5py
rows = h5py.File(sys.argv[1], "r")["boards"][:].tolist()[::2]
lines = [l.split() for l in open(sys.argv[2]) if not l.startswith("#")]
sys.exit(0 if [[int(t) for t in v[1:]] for v in lines] == rows and rows else 1)
EOF
"$HN" avi --puzzle 24 --init-from "$T/t.h5" --residual manhattan --rounds 1 --steps 2 \
    --batch 32 --walk-max 10 --start-boards "$T/pb.txt" --quiet -o "$T/sb.h5" >/dev/null ||
    fail "avi --start-boards on path_boards.py's file exited $?"
# --around: boards a few moves from those of a list (here random boards, far
# from the goal and from each other), labelled by the teacher
$PY - "$T/d.h5" "$T/rb.txt" <<'EOF' || fail "set-up: cannot write the random boards"
import sys, h5py
f = h5py.File(sys.argv[1], "r")
b = f["boards"][:][f["source"][:] == 0][:5]
open(sys.argv[2], "w").writelines(f"r{i} " + " ".join(map(str, r)) + "\n"
                                  for i, r in enumerate(b.tolist()))
EOF
$PY "$D" "$HN" "$T/t.h5" "$T/a.h5" --puzzle 24 --residual --no-mirror --around "$T/rb.txt:40:3" \
    >/dev/null || fail "distill_labels.py --around exited $?"
$PY - "$T/a.h5" "$T/rb.txt" <<'EOF' || fail "the --around rows are wrong (above)"
import sys
import h5py
import numpy as np
f = h5py.File(sys.argv[1], "r")
b, src = f["boards"][:], f["source"][:]
listed = np.array([[int(t) for t in l.split()[1:]] for l in open(sys.argv[2])
                   if not l.startswith("#")])
# a walk of k moves moves k tiles at most: within 3 cells of some listed board
far = [r for r in b if ((listed != r) & (r != 0)).sum(axis=1).min() > 3]
bad = []
if len(b) != 40 or (src != 6).any():
    bad.append(f"{len(b)} rows of sources {np.bincount(src)}, want 40 of source 6")
if far:
    bad.append(f"{len(far)} rows more than 3 moves from every listed board")
if len({r.tobytes() for r in b}) < 2:
    bad.append("all rows are the same board")
print("\n".join(bad))
sys.exit(1 if bad else 0)
EOF
expect 1 "INSTANCES:N" $PY "$D" "$HN" "$T/t.h5" "$T/x.h5" --puzzle 24 --around "$T/rb.txt:x"
expect 1 "sol_bad:" $PY "$PB" "$T/w.txt:$T/sol_bad" -o "$T/pbx.txt"
[ ! -e "$T/pbx.txt" ] || fail "a refused path_boards.py run left its output"

[ $fails -eq 0 ] && echo "ok" || exit 1
