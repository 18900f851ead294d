#!/bin/bash
# scripts/error_profile.py on 8-puzzle boards labelled by heurnet gen (IDA*,
# optimal): its error figures for Manhattan distance equal ones computed here
# from the boards, an admissible heuristic never over-estimates and correlates
# 1 with itself as the reference, the supervised 8-puzzle network is close to
# the optimum, and malformed or mismatched board files are refused by name.
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

$PY - "$T/g.h5" "$T/p.md" <<'EOF' || fail "the error profile is wrong (above)"
import sys
import h5py
import numpy as np
f = h5py.File(sys.argv[1], "r")
b, opt = f["boards"][:], f["cost"][:].astype(int)
man = np.zeros(len(b), np.int64)
for t in range(1, 9):
    p = np.argmax(b == t, 1)
    man += abs(p // 3 - t // 3) + abs(p % 3 - t % 3)
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

# bad input: a malformed line, boards of another puzzle, no optimum column
printf '1 5 1 2 3 4 5 6 7 8 0\n2 x 1 2 3\n' >"$T/bad.txt"
expect 1 "bad.txt:2" $PY "$E" "$HN" "$T/bad.txt" --puzzle 8 --spec manhattan
printf '1 5 1 2 3 4 5 6 7 8 0\n' >"$T/p8.txt"
expect 1 "not the 15-puzzle" $PY "$E" "$HN" "$T/p8.txt" --puzzle 15 --spec manhattan
expect 1 "no /boards and /cost" $PY "$E" "$HN" "$SRC/models/8puzzle-annd.h5" --puzzle 8 --spec manhattan

[ $fails -eq 0 ] || exit 1
echo "error_profile: figures, over-estimates and bad input checked"
