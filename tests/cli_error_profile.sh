#!/bin/bash
# scripts/error_profile.py on 8-puzzle boards labelled by heurnet gen (IDA*,
# optimal), in both goal layouts (a dataset's own is used): its error figures
# for Manhattan distance equal ones computed here from the boards, an
# admissible heuristic never over-estimates and correlates 1 with itself as
# the reference, the supervised 8-puzzle network is close to the optimum, and
# malformed or mismatched board files, a goal that contradicts the dataset's
# and non-integer costs are refused by name.
# Arguments: path of heurnet, shared data dir, source dir.
set -u
HN=$1
SRC=$3
. "$(dirname "$0")/lib_cli.sh"
need_h5py
E="$SRC/scripts/error_profile.py"

"$HN" gen --puzzle 8 --count 150 --seed 3 --quiet -o "$T/g.h5" >/dev/null ||
    fail "set-up: gen exited $?"
$PY "$E" "$HN" "$T/g.h5" --puzzle 8 --spec manhattan --spec "ann:$SRC/models/8puzzle-annd.h5" \
    --ref manhattan --bands 0,12 >"$T/p.md" 2>"$T/p.err" || fail "error_profile.py exited $?: $(cat "$T/p.err")"

check() { # check DATASET PROFILE GOAL: the Manhattan rows against the boards
$PY - "$1" "$2" "$3" <<'EOF'
import sys
import h5py
import numpy as np
f = h5py.File(sys.argv[1], "r")
b = f["states"][:, :9] if "states" in f else f["boards"][:]  # a state: the tiles, then the blank
opt = f["cost"][:].astype(int)
last = sys.argv[3] == "blank-last"
man = np.zeros(len(b), np.int64)
for t in range(1, 9):
    p, g = np.argmax(b == t, 1), t - 1 if last else t
    man += abs(p // 3 - g // 3) + abs(p % 3 - g % 3)
rows = {}
for line in open(sys.argv[2]):
    c = [x.strip() for x in line.strip().strip("|").split("|")]
    if len(c) == 10 and c[1].isdigit():
        rows[(c[0].split(":")[0], int(c[1]))] = c
bad = []
for lo in (0, 12):
    m = opt >= lo
    e = man[m] - opt[m]
    r = rows.get(("manhattan", lo))
    if not r:
        bad.append(f"no manhattan row for band {lo}")
        continue
    want = [str(m.sum()), f"{e.mean():+.2f}", f"{e.std():.2f}", f"{abs(e).mean():.2f}"]
    if r[2:6] != want:
        bad.append(f"manhattan band {lo}: {r[2:6]}, computed {want}")
    if r[6:9] != ["0.000"] * 3 or r[9] != "1.000":
        bad.append(f"manhattan band {lo}: over-estimates or correlation {r[6:]}")
r = rows.get(("ann", 0))
if not r or float(r[5]) > 0.2:
    bad.append(f"the 8-puzzle network's row: {r}")
if bad:
    print("\n".join(bad), file=sys.stderr)
    sys.exit(1)
EOF
}
check "$T/g.h5" "$T/p.md" blank-first || fail "the error profile is wrong (above)"

# a blank-last dataset is read in its own layout (the network converts boards)
"$HN" gen --puzzle 8 --goal blank-last --count 150 --seed 4 --quiet -o "$T/gl.h5" >/dev/null ||
    fail "set-up: gen (blank-last) exited $?"
$PY "$E" "$HN" "$T/gl.h5" --puzzle 8 --spec manhattan --spec "ann:$SRC/models/8puzzle-annd.h5" \
    --ref manhattan --bands 0,12 >"$T/pl.md" 2>"$T/pl.err" ||
    fail "error_profile.py (blank-last) exited $?: $(cat "$T/pl.err")"
check "$T/gl.h5" "$T/pl.md" blank-last || fail "the blank-last error profile is wrong (above)"

# bad input: a malformed line, boards of another puzzle, no optimum column
printf '1 5 1 2 3 4 5 6 7 8 0\n2 x 1 2 3\n' >"$T/bad.txt"
expect 1 "bad.txt:2" $PY "$E" "$HN" "$T/bad.txt" --puzzle 8 --spec manhattan
printf '1 5 1 2 3 4 5 6 7 8 0\n' >"$T/p8.txt"
expect 1 "not the 15-puzzle" $PY "$E" "$HN" "$T/p8.txt" --puzzle 15 --spec manhattan
expect 1 "no /boards and /cost" $PY "$E" "$HN" "$SRC/models/8puzzle-annd.h5" --puzzle 8 --spec manhattan
expect 1 "boards for the blank-last goal, not blank-first" $PY "$E" "$HN" "$T/gl.h5" --puzzle 8 \
    --goal blank-first --spec manhattan
$PY -c "import h5py, sys; f = h5py.File(sys.argv[1], 'w'); f['boards'] = [[1, 2, 3, 4, 5, 6, 7, 8, 0]]; f['cost'] = [2.5]" \
    "$T/float.h5" || fail "set-up: cannot write a float-cost file"
expect 1 "float.h5: /cost is not integer" $PY "$E" "$HN" "$T/float.h5" --puzzle 8 --spec manhattan

[ $fails -eq 0 ] || exit 1
echo "error_profile: figures, over-estimates and bad input checked"
