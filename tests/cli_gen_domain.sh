#!/usr/bin/env bash
# heurnet gen on any domain (issue 44): optimal labels by IDA* on the pancake
# plug-in, npuzzle:3x4 and cube3 checked against breadth-first distances (and
# their walks' lengths), the file written under its name only when complete
# and continued after a stop, train on the labels through the domain's
# encoding and solve with the model; refusals of bad options, another
# domain's data or model, and damaged files.
# Args: path of heurnet, instances dir, source dir.
set -u
H="$1"; DATA="$2"; SRC="$3"
. "$(dirname "$0")/lib_cli.sh"
need_h5py
B="$(cd "$(dirname "$H")" && pwd)"
CC=${CC:-cc}
flags=(-shared -fPIC -O1 -std=c11 -Wall -Wextra -Werror -I"$B/include")
if grep -q '^HEURNET_SANITIZE:BOOL=ON' "$B/CMakeCache.txt"; then
    flags+=(-fsanitize=address,undefined)
fi
$CC "${flags[@]}" "$SRC/examples/domain_pancake.c" -o "$T/libpancake.so" ||
    { fail "the pancake example does not build"; exit 1; }
export HEURNET_DATA="$T/cache"
P="$T/libpancake.so:7"

# check.py FILE KIND: labels equal BFS distances from the goal (pancake: all
# 7! stacks; npuzzle:3x4: the ball around the goal as deep as the walks) and
# never exceed the walk; path rows are one move apart down to the goal.
cat >"$T/check.py" <<'EOF'
import sys, collections, h5py, numpy as np
path, kind = sys.argv[1], sys.argv[2]
f = h5py.File(path, "r")
a = {k: (v.decode() if isinstance(v, bytes) else v) for k, v in f.attrs.items()}
S, C, W, SRC = f["states"][:], f["cost"][:], f["walk"][:], f["source"][:]
n = int(a["committed"])
assert a["format"] == "heurnet-dom-dataset", a["format"]
assert S.shape[0] == n and C.shape[0] == n and W.shape[0] == n, "rows"
def pancake_nb(s):
    for k in range(2, len(s) + 1):
        yield s[:k][::-1] + s[k:]
def np34_nb(s):
    b = s[-1]; r, c = divmod(b, 3); t = list(s[:-1])
    for dr, dc in ((-1, 0), (1, 0), (0, -1), (0, 1)):
        rr, cc = r + dr, c + dc
        if 0 <= rr < 4 and 0 <= cc < 3:
            nb = rr * 3 + cc; u = t[:]; u[b], u[nb] = u[nb], u[b]
            yield tuple(u) + (nb,)
goal = tuple(int(x) for x in S[np.argmin(C)])
assert C.min() == 0
nb = pancake_nb if kind == "pancake" else np34_nb
depth = int(a["walk_max"]) if kind != "pancake" else 99
dist = {goal: 0}; q = collections.deque([goal])
while q:
    s = q.popleft()
    if dist[s] >= depth: continue
    for t in nb(s):
        if t not in dist:
            dist[t] = dist[s] + 1; q.append(t)
bad = 0
for i in range(n):
    s = tuple(int(x) for x in S[i])
    if dist.get(s) != int(C[i]): bad += 1
    if SRC[i] == 2 and C[i] > W[i]: bad += 1
print("rows=%d wrong=%d" % (n, bad))
sys.exit(1 if bad else 0)
EOF

# ---- labels on the pancake plug-in, with path states ----
"$H" gen --domain "$P" -n 400 --walk 0-9 --path-states --seed 3 --threads 2 -o "$T/p.h5" \
    --quiet >"$T/out" 2>"$T/err" || fail "gen pancake: $(cat "$T/err")"
grep -q 'complete=1' "$T/out" || fail "gen pancake: not complete: $(cat "$T/out")"
no_part "$T/p.h5" || fail "gen pancake left a .part file"
$PY "$T/check.py" "$T/p.h5" pancake >"$T/ck" || fail "pancake labels: $(cat "$T/ck")"
# the labels must be able to fail: a wrong label is found
cp "$T/p.h5" "$T/pbad.h5"
$PY -c "import h5py; f=h5py.File('$T/pbad.h5','r+'); c=f['cost']; c[5]=c[5]+1" 2>/dev/null
$PY "$T/check.py" "$T/pbad.h5" pancake >/dev/null && fail "check.py misses a wrong label"

# the same settings give the same file on any thread count
"$H" gen --domain "$P" -n 400 --walk 0-9 --path-states --seed 3 --threads 1 -o "$T/p1.h5" \
    --quiet >/dev/null 2>&1 || fail "gen pancake on 1 thread"
$PY -c "
import h5py, numpy as np, sys
a, b = h5py.File('$T/p.h5','r'), h5py.File('$T/p1.h5','r')
sys.exit(0 if all(np.array_equal(a[k][:], b[k][:]) for k in ('states','cost','walk','source')) else 1)
" || fail "gen pancake: 1 and 2 threads differ"

# ---- npuzzle:3x4 with lc: BFS distances ----
"$H" gen --domain npuzzle:3x4 --heuristic lc -n 300 --walk 0-12 --seed 5 -o "$T/n.h5" \
    --quiet >"$T/out" 2>"$T/err" || fail "gen npuzzle:3x4: $(cat "$T/err")"
$PY "$T/check.py" "$T/n.h5" np34 >"$T/ck" || fail "npuzzle:3x4 labels: $(cat "$T/ck")"
$PY -c "import h5py; a=h5py.File('$T/n.h5','r').attrs; assert a['domain'] in ('npuzzle:3x4', b'npuzzle:3x4') and a['heuristic'] in ('lc', b'lc')" ||
    fail "npuzzle:3x4: attributes domain/heuristic"

# ---- cube3 with manhattan, walks <= 5: the labels of h = 0 (pure iterative
# deepening) on the same states, and <= the walk ----
"$H" gen --domain cube3 --heuristic manhattan -n 60 --walk 0-5 --seed 7 -o "$T/c.h5" \
    --quiet >/dev/null 2>"$T/err" || fail "gen cube3: $(cat "$T/err")"
"$H" gen --domain cube3 --heuristic zero -n 60 --walk 0-5 --seed 7 -o "$T/c0.h5" \
    --quiet >/dev/null 2>"$T/err" || fail "gen cube3 zero: $(cat "$T/err")"
$PY -c "
import h5py, numpy as np, sys
a, b = h5py.File('$T/c.h5','r'), h5py.File('$T/c0.h5','r')
ok = np.array_equal(a['states'][:], b['states'][:]) and np.array_equal(a['cost'][:], b['cost'][:])
ok = ok and (a['cost'][:] <= a['walk'][:]).all() and a['cost'][:].max() >= 4
sys.exit(0 if ok else 1)
" || fail "cube3: manhattan labels differ from h = 0 ones or exceed the walk"

# ---- stop and continue: FILE only once complete, the result as in one run ----
expect 1 "rerun the same command" "$H" gen --domain "$P" -n 400 --walk 0-9 --path-states \
    --seed 3 -o "$T/r.h5" --stop-after 150 --quiet
[ -e "$T/r.h5" ] && fail "a stopped gen left a file under the final name"
[ -e "$T/r.h5.part" ] || fail "a stopped gen left no .part file to continue"
"$H" gen --domain "$P" -n 400 --walk 0-9 --path-states --seed 3 -o "$T/r.h5" --quiet \
    >"$T/out" 2>"$T/err" || fail "continuing: $(cat "$T/err")"
grep -q 'resumed_from=150' "$T/out" || fail "continuing did not start at 150: $(cat "$T/out")"
cmp <($PY -c "import h5py; f=h5py.File('$T/r.h5','r'); print(f['states'][:].tobytes().hex(), f['cost'][:].tolist())") \
    <($PY -c "import h5py; f=h5py.File('$T/p.h5','r'); print(f['states'][:].tobytes().hex(), f['cost'][:].tolist())") \
    >/dev/null || fail "stopped and continued differs from one run"
# a continued .part with other settings is refused; the same finished file is kept
expect 1 "" "$H" gen --domain "$P" -n 400 --walk 0-9 --seed 3 -o "$T/r2.h5" --stop-after 10 --quiet
expect 2 "other settings" "$H" gen --domain "$P" -n 400 --walk 0-8 --seed 3 -o "$T/r2.h5" --quiet
"$H" gen --domain "$P" -n 400 --walk 0-9 --path-states --seed 3 -o "$T/p.h5" --quiet >/dev/null ||
    fail "rerunning a finished gen"
expect 2 "other settings" "$H" gen --domain "$P" -n 401 --walk 0-9 --path-states --seed 3 -o "$T/p.h5"
# Ctrl-C: no file under the final name, the .part continues
"$H" gen --domain cube3 --heuristic manhattan -n 100000 --walk 6-9 --threads 1 -o "$T/i.h5" \
    --quiet >/dev/null 2>&1 &
pid=$!
sleep 1
kill -INT $pid
wait $pid
[ $? -eq 1 ] || fail "gen after SIGINT did not exit 1"
[ -e "$T/i.h5" ] && fail "SIGINT left a file under the final name"
[ -e "$T/i.h5.part" ] || fail "SIGINT left no .part"

# ---- bad options (exit 2, named) ----
expect 2 "-n N" "$H" gen --domain "$P" -o "$T/x.h5"
expect 2 "--walk" "$H" gen --domain "$P" -n 5 --walk 5-2 -o "$T/x.h5"
expect 2 "exclude" "$H" gen --domain "$P" -n 5 --walk 2 --uniform -o "$T/x.h5"
expect 2 "--heuristic nosuch" "$H" gen --domain "$P" -n 5 --heuristic nosuch -o "$T/x.h5"
expect 2 "--threads" "$H" gen --domain "$P" -n 5 --threads 0 -o "$T/x.h5"
expect 2 "nosuchdomain" "$H" gen --domain nosuchdomain -n 5 -o "$T/x.h5"
[ -e "$T/x.h5" ] || [ -e "$T/x.h5.part" ] && fail "a refused gen left a file"

# a state beyond --max-expanded stops the run, naming the state
expect 1 "state 0 (" "$H" gen --domain cube3 --heuristic manhattan -n 5 --walk 6-7 --max-expanded 5 -o "$T/lim.h5" --quiet
[ -e "$T/lim.h5" ] && fail "a gen stopped by a limit left a file under the final name"

# ---- train through the domain's encoding, then solve with the model ----
"$H" train --data "$T/n.h5" --arch 144-32-1 --epochs 3 --batch 64 -o "$T/mn.h5" --quiet \
    >/dev/null 2>"$T/err" || fail "train on npuzzle:3x4: $(cat "$T/err")"
"$H" nn info "$T/mn.h5" 2>/dev/null | grep -q 'npuzzle:3x4' ||
    $PY -c "import h5py,sys; f=h5py.File('$T/mn.h5','r'); sys.exit(0 if 'npuzzle:3x4' in str(dict(f.attrs)) else 1)" ||
    fail "the model does not record domain npuzzle:3x4"
"$H" domain sample npuzzle:3x4 --walk 8-12 -n 4 --seed 2 >"$T/inst"
"$H" solve --model "$T/mn.h5" "$T/inst" >"$T/sol" 2>"$T/err" || fail "solve --model: $(cat "$T/err")"
[ "$(grep -c 'status=solved' "$T/sol")" = 4 ] || fail "solve --model: $(head -3 "$T/sol")"
grep -q 'domain=npuzzle:3x4' "$T/sol" || fail "solve did not take the model's domain"
"$H" train --data "$T/p.h5" --domain "$P" --arch 49-32-1 --epochs 3 --batch 64 -o "$T/mp.h5" \
    --quiet >/dev/null 2>"$T/err" || fail "train on pancake: $(cat "$T/err")"
"$H" domain sample "$P" --walk 5-7 -n 3 >"$T/pinst"
"$H" solve --domain "$P" --model "$T/mp.h5" "$T/pinst" >"$T/sol" 2>"$T/err" || fail "solve pancake: $(cat "$T/err")"
[ "$(grep -c 'status=solved' "$T/sol")" = 3 ] || fail "solve pancake: $(head -3 "$T/sol")"
# fine-tuning on more data of the domain works
"$H" train --data "$T/n.h5" --init-from "$T/mn.h5" --epochs 1 --batch 64 -o "$T/mn2.h5" --quiet \
    >/dev/null 2>"$T/err" || fail "train --init-from: $(cat "$T/err")"

# ---- refusals in train: another domain (exit 2), no domain, bad width ----
expect 2 "not of pancake:8" "$H" train --data "$T/p.h5" --domain "$T/libpancake.so:8" --arch 64-8-1 -o "$T/y.h5"
expect 2 "name it with --domain" "$H" train --data "$T/p.h5" --arch 49-8-1 -o "$T/y.h5"
expect 2 "not of npuzzle:3x4" "$H" train --data "$T/c.h5" --domain npuzzle:3x4 --arch 144-8-1 -o "$T/y.h5"
expect 2 "a dataset of domain cube3, not of npuzzle:3x4" "$H" train --data "$T/c.h5" --init-from "$T/mn.h5" -o "$T/y.h5"
expect 2 "not of cube3" "$H" train --data "$T/n.h5" --domain cube3 --arch 480-8-1 -o "$T/y.h5"
expect 1 "reads 100 inputs" "$H" train --data "$T/n.h5" --arch 100-8-1 -o "$T/y.h5"
[ -e "$T/y.h5" ] && fail "a refused train wrote a model"

# ---- damaged files: a message naming the file, never a crash ----
head -c 3000 "$T/n.h5" >"$T/cut.h5"
expect 1 "cut.h5" "$H" train --data "$T/cut.h5" --domain npuzzle:3x4 --arch 144-8-1 -o "$T/y.h5"
cp "$T/n.h5" "$T/flip.h5"
printf '\x55\x55\x55\x55' | dd of="$T/flip.h5" bs=1 seek=2500 conv=notrunc 2>/dev/null
expect 1 "flip.h5" "$H" train --data "$T/flip.h5" --arch 144-8-1 -o "$T/y.h5"
# an unsealed file (written by h5py) whose state rows are not states
$PY - "$T/n.h5" "$T/bad.h5" <<'EOF'
import sys, h5py
src, dst = h5py.File(sys.argv[1], "r"), h5py.File(sys.argv[2], "w")
for k in ("states", "cost", "expanded", "source", "walk"):
    dst[k] = src[k][:]
for k, v in src.attrs.items():
    dst.attrs[k] = v
s = dst["states"]; row = s[3]; row[0] = row[1]; s[3] = row
EOF
expect 1 "bad.h5: /states row 3 is not a state of npuzzle:3x4" \
    "$H" train --data "$T/bad.h5" --arch 144-8-1 -o "$T/y.h5"
$PY - "$T/n.h5" "$T/noattr.h5" <<'EOF'
import sys, h5py
src, dst = h5py.File(sys.argv[1], "r"), h5py.File(sys.argv[2], "w")
dst["states"] = src["states"][:]
dst["cost"] = src["cost"][:]
EOF
expect 1 "noattr.h5" "$H" train --data "$T/noattr.h5" --domain npuzzle:3x4 --arch 144-8-1 -o "$T/y.h5"
# gen refuses to continue a damaged .part
"$H" gen --domain "$P" -n 50 --walk 0-5 -o "$T/d.h5" --stop-after 20 --quiet >/dev/null 2>&1
head -c 1000 "$T/d.h5.part" >"$T/d.cut" && mv "$T/d.cut" "$T/d.h5.part"
expect 1 "d.h5.part" "$H" gen --domain "$P" -n 50 --walk 0-5 -o "$T/d.h5" --quiet
"$H" gen --domain "$P" -n 50 --walk 0-5 -o "$T/d.h5" --force --quiet >/dev/null 2>&1 ||
    fail "--force does not start afresh over a damaged .part"

# data info reads a domain dataset: its domain, and a histogram over every row
"$H" data info "$T/n.h5" >"$T/info" 2>"$T/err" || fail "data info on a domain dataset: $(cat "$T/err")"
grep -q '^domain=npuzzle:3x4 ' "$T/info" || fail "data info: no domain line: $(head -3 "$T/info")"
rows=$(sed -n 's/^rows=\([0-9]*\) .*/\1/p' "$T/info")
sum=$(awk -F'\t' '/^[0-9]+\t/{s+=$2} END{print s+0}' "$T/info")
[ -n "$rows" ] && [ "$rows" = "$sum" ] || fail "data info: histogram sums to $sum, not rows=$rows"
max=$(sed -n 's/^cost_min=.* cost_max=\([0-9]*\) .*/\1/p' "$T/info")
[ "${max:-99}" -le 12 ] || fail "data info: cost_max $max above the walks' 12"
head -c 3000 "$T/n.h5" >"$T/ncut.h5"
expect 1 "ncut.h5" "$H" data info "$T/ncut.h5"

# ---- shards: --shard i/N files merge (copied or virtual) to the unsharded one ----
for i in 0 1; do
    "$H" gen --domain npuzzle:3x4 --heuristic lc -n 300 --walk 0-12 --seed 5 --shard $i/2 \
        -o "$T/n$i.h5" --quiet >/dev/null 2>"$T/err" || fail "gen --shard $i/2: $(cat "$T/err")"
done
"$H" data merge -o "$T/nm.h5" "$T/n1.h5" "$T/n0.h5" >"$T/out" 2>"$T/err" ||
    fail "data merge of domain shards: $(cat "$T/err")"
grep -q 'rows=300 states=300 virtual=0' "$T/out" || fail "data merge: $(cat "$T/out")"
"$H" data merge --virtual -o "$T/nv.h5" "$T/n0.h5" "$T/n1.h5" >/dev/null 2>"$T/err" ||
    fail "data merge --virtual of domain shards: $(cat "$T/err")"
for f in nm nv; do
    for d in /states /cost /walk /source /expanded; do
        h5diff -q "$T/n.h5" "$T/$f.h5" $d $d >/dev/null || fail "merged $f.h5: $d differs"
    done
done
"$H" data info "$T/nv.h5" | grep -q '^shard=0/1 .* merged=2 virtual=1' || fail "data info of a merge"
expect 1 "missing" "$H" data merge -o "$T/m.h5" "$T/n0.h5"
expect 1 "different runs" "$H" data merge -o "$T/m.h5" "$T/n0.h5" "$T/p.h5"
[ ! -e "$T/m.h5" ] || fail "a refused data merge left a file"
mv "$T/n1.h5" "$T/n1.away"
expect 1 "n1.h5, which is missing" "$H" data info "$T/nv.h5"
mv "$T/n1.away" "$T/n1.h5"

# ---- --from FILE: its states in order, the file and its CRC recorded ----
"$H" domain sample npuzzle:3x4 --walk 8-12 -n 5 --seed 4 >"$T/from.txt"
"$H" gen --domain npuzzle:3x4 --heuristic lc --from "$T/from.txt" -o "$T/f.h5" --quiet \
    >/dev/null 2>"$T/err" || fail "gen --from: $(cat "$T/err")"
"$H" data info "$T/f.h5" >"$T/info"
grep -q "source=file .*from=$T/from.txt from_crc32=$(crc32 "$T/from.txt" 2>/dev/null || $PY -c "import zlib,sys; print('%08x' % zlib.crc32(open(sys.argv[1],'rb').read()))" "$T/from.txt")" "$T/info" ||
    fail "gen --from: data info $(head -4 "$T/info")"
grep -q '^rows_random=0 rows_path=0 rows_random_walk=0 rows_file=5 ' "$T/info" || fail "gen --from: rows"
expect 2 "does not go with --from" "$H" gen --domain npuzzle:3x4 --from "$T/from.txt" -n 3 -o "$T/x.h5"

# ---- --all: every state by breadth-first search (npuzzle:2x4: 20,160, up to 36) ----
"$H" gen --domain npuzzle:2x4 --all -o "$T/all.h5" --quiet >/dev/null 2>"$T/err" ||
    fail "gen --all: $(cat "$T/err")"
"$H" data info "$T/all.h5" >"$T/info"
grep -q '^rows=20160 ' "$T/info" && grep -q 'cost_max=36 ' "$T/info" || fail "gen --all: $(cat "$T/info" | head -9)"
expect 1 "more than" "$H" gen --domain cube3 --all -o "$T/x.h5" --quiet
expect 2 "breadth-first" "$H" gen --domain npuzzle:2x4 --all --heuristic lc -o "$T/x.h5"

[ "$fails" -eq 0 ] || { echo "$fails failure(s)" >&2; exit 1; }
echo "cli_gen_domain: ok"
