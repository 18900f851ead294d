#!/bin/bash
# heurnet train / ablate / predict --instances through the executable: a tiny
# training run (CSV lines, log, model record), SIGTERM mid-epoch leaves a
# checkpoint that resumes, and bad data files (missing /cost, wrong dtype or
# shape, NaN or negative costs, no rows, boards of another puzzle size than
# the spec) each give a message naming the file and dataset, exit 1 and no
# model file. Arguments: path of heurnet, instances dir, source dir.
set -u
HN=$1
DATA=$2
. "$(dirname "$0")/lib_cli.sh"

need_h5py

# --- data files ------------------------------------------------------------
$PY - "$T" <<'PYEOF' || fail "python set-up failed"
import sys, h5py, numpy as np
t = sys.argv[1]
rng = np.random.default_rng(1)
def perms(n, cells):
    return np.argsort(rng.random((n, cells)), axis=1).astype(np.uint8)
def write(name, boards, cost, goal="blank-first", **extra):
    with h5py.File(f"{t}/{name}.h5", "w") as f:
        if boards is not None:
            f["boards"] = boards
        if cost is not None:
            f["cost"] = cost
        f.attrs["goal"] = goal
        for k, v in extra.items():
            f.attrs[k] = v
b = perms(3000, 9)
# a learnable target: the Manhattan distance of the board
goal = np.arange(9)
def manhattan(row):
    return sum(abs(p // 3 - int(v) // 3) + abs(p % 3 - int(v) % 3) for p, v in enumerate(row) if v)
c = np.array([manhattan(r) for r in b], dtype=np.uint16)
write("good", b, c, committed=np.uint64(2900))
big = perms(60000, 9)
write("big", big, rng.integers(0, 30, 60000).astype(np.uint16))
with h5py.File(f"{t}/src.h5", "w") as f:
    f["boards"] = b
    f["cost"] = c
    f["source"] = (np.arange(len(b)) % 3 == 0).astype(np.uint8)  # 1000 rows of source 1
write("nocost", b, None)
write("floatboards", b.astype(np.float32), c)
write("cost2d", b, np.stack([c, c], axis=1))
cn = c.astype(np.float32); cn[17] = np.nan
write("nancost", b, cn)
cneg = c.astype(np.int16); cneg[5] = -3
write("negcost", b, cneg)
write("empty", np.zeros((0, 9), np.uint8), np.zeros((0,), np.uint16))
write("fifteen", perms(100, 16), np.ones(100, np.uint16))
bad = b.copy(); bad[9, 0] = bad[9, 1]
write("notperm", bad, c)
with h5py.File(f"{t}/xy.h5", "w") as f:
    x = rng.standard_normal((2000, 5)).astype(np.float32)
    f["x"] = x
    f["y"] = (x @ np.arange(5, dtype=np.float32) + 10).astype(np.float32)
    f.attrs["encoder"] = "test-features-v1"
PYEOF

# --- normal use ----------------------------------------------------------------
for c in train ablate; do
    "$HN" $c --help >"$T/out" 2>&1 || fail "$c --help exited non-zero"
    for o in --data --arch --loss --batch --epochs --lr --lr-schedule --val-fraction --seed --threads --patience; do
        grep -q -- "$o" "$T/out" || fail "$c --help lacks $o"
    done
done
"$HN" predict --help | grep -q -- "--instances" || fail "predict --help lacks --instances"
expect 2 "--data" "$HN" train --arch 81-8-1 -o "$T/m.h5"
expect 2 "--arch" "$HN" train --data "$T/good.h5" -o "$T/m.h5"
expect 2 "--loss" "$HN" train --data "$T/good.h5" --arch 81-8-1 --loss huber -o "$T/m.h5"
expect 2 "quantile" "$HN" train --data "$T/good.h5" --arch 81-8-1 --loss quantile:1 -o "$T/m.h5"

"$HN" train --data "$T/good.h5" --arch 81-32-1 --dropout 0 --epochs 3 --batch 64 --lr 3e-3 \
    --lr-schedule cosine --seed 3 --threads 1 --log "$T/log.csv" -o "$T/m.h5" >"$T/out" 2>"$T/err" ||
    fail "train failed: $(cat "$T/err")"
[ "$(head -1 "$T/out")" = "epoch,train_loss,val_loss,val_mae,val_exact,val_over,samples_per_s,seconds" ] ||
    fail "train CSV header: $(head -1 "$T/out")"
[ $(grep -c '^[0-9]' "$T/out") -eq 3 ] || fail "train printed $(grep -c '^[0-9]' "$T/out") epoch lines"
cmp -s "$T/out" "$T/log.csv" || fail "--log differs from stdout"
[ -e "$T/m.h5" ] && no_part "$T/m.h5" || fail "train left no model or a .part file"
$PY - "$T/m.h5" <<'PYEOF' || fail "model record incomplete"
import sys, h5py
a = h5py.File(sys.argv[1], "r").attrs
need = ["train_spec", "train_loss", "train_epochs", "best_val_mae", "train_seed", "train_revision",
        "data0.path", "data0.rows_used", "data0.goal", "encoder", "target_mean", "target_std"]
missing = [k for k in need if k not in a]
assert not missing, missing
assert a["data0.rows_used"] == 2900, a["data0.rows_used"]
assert a["encoder"] in ("npuzzle-onehot n=3 goal=blank-first", b"npuzzle-onehot n=3 goal=blank-first")
PYEOF
# the pinball loss: recorded as such, and train and validation losses in the same (raw) unit
"$HN" train --data "$T/good.h5" --arch 81-32-1 --dropout 0 --epochs 2 --batch 64 --lr 3e-3 \
    --loss quantile:0.1 --seed 3 --threads 1 -o "$T/q.h5" >"$T/qout" 2>"$T/err" ||
    fail "quantile train failed: $(cat "$T/err")"
$PY - "$T/q.h5" "$T/qout" <<'PYEOF' || fail "quantile run: loss record or units wrong"
import sys, h5py
loss = h5py.File(sys.argv[1], "r").attrs["train_loss"]
assert loss in ("quantile:0.1", b"quantile:0.1"), loss
row = open(sys.argv[2]).read().strip().splitlines()[-1].split(",")
tl, vl = float(row[1]), float(row[2])
assert 0.5 < tl / vl < 2, (tl, vl)
PYEOF
# the last epoch's validation MAE on a Manhattan target: well below the spread (~2.3)
mae=$(tail -1 "$T/out" | cut -d, -f4)
$PY -c "import sys; sys.exit(0 if float('$mae') < 1.5 else 1)" || fail "val_mae $mae not < 1.5"

# fine-tuning from the model: starts where it ended (first epoch no worse than the last one)
"$HN" train --data "$T/good.h5" --init-from "$T/m.h5" --epochs 1 --batch 64 --lr 1e-4 --threads 1 --quiet \
    -o "$T/ft.h5" >"$T/out2" 2>"$T/err" || fail "--init-from failed: $(cat "$T/err")"
ft=$(tail -1 "$T/out2" | cut -d, -f4)
$PY -c "import sys; sys.exit(0 if float('$ft') < float('$mae') + 0.1 else 1)" || fail "--init-from val_mae $ft vs $mae"
expect 1 "differs from --arch" "$HN" train --data "$T/good.h5" --init-from "$T/m.h5" --arch 81-16-1 -o "$T/ft2.h5"

# rows selected by /source
"$HN" train --data "$T/src.h5" --sources random --arch 81-8-1 --epochs 1 --threads 1 --quiet \
    -o "$T/src_m.h5" >/dev/null 2>"$T/err" || fail "--sources failed: $(cat "$T/err")"
$PY -c "import h5py,sys; a=h5py.File('$T/src_m.h5','r').attrs; sys.exit(0 if a['data0.rows_used'] == 2000 and a['data_sources_mask'] == 1 else 1)" ||
    fail "--sources random did not keep the 2000 random rows"
expect 1 "/source is missing" "$HN" train --data "$T/good.h5" --sources path --arch 81-8-1 -o "$T/bad.h5"
expect 2 "--sources" "$HN" train --data "$T/src.h5" --sources bogus --arch 81-8-1 -o "$T/bad.h5"

# generic /x + /y rows, early stopping
"$HN" train --data "$T/xy.h5" --arch 5-16-1 --no-bn --dropout 0 --epochs 4 --batch 32 --patience 1 \
    --threads 1 --quiet -o "$T/xy_m.h5" >"$T/out" 2>"$T/err" || fail "x/y train failed: $(cat "$T/err")"
"$HN" predict --model "$T/xy_m.h5" --data "$T/xy.h5" >/dev/null || fail "predict on the x/y model failed"

# predict --instances converts goal layouts; 8-puzzle instances here
printf '# test\na 0 1 2 3 4 5 6 7 8\nb 1 2 3 4 5 6 7 8 0\n' >"$T/inst.txt"
"$HN" predict --model "$T/m.h5" --instances "$T/inst.txt" >"$T/p1" || fail "predict --instances failed"
"$HN" predict --model "$T/m.h5" --instances "$T/inst.txt" --goal blank-last >"$T/p2" ||
    fail "predict --instances --goal blank-last failed"
[ $(wc -l <"$T/p1") -eq 2 ] && grep -q "^a	" "$T/p1" || fail "predict --instances output: $(cat "$T/p1")"
# board a is the blank-first goal, board b the blank-last goal: same prediction
[ "$(cut -f2 "$T/p1" | head -1)" = "$(cut -f2 "$T/p2" | tail -1)" ] || fail "goal conversion: $(cat "$T/p1" "$T/p2")"
expect 1 "xy_m.h5" "$HN" predict --model "$T/xy_m.h5" --instances "$T/inst.txt"
# the file's layout named by its domain is --goal's; q8 stays within a tenth of a move of
# float on these boards; --goal on a domain without layouts is misuse
"$HN" predict --model "$T/m.h5" --instances "$T/inst.txt" --domain npuzzle:3x3:blank-last \
    >"$T/p3" || fail "predict --domain npuzzle:3x3:blank-last failed"
cmp -s "$T/p2" "$T/p3" || fail "--domain ...:blank-last differs from --goal: $(cat "$T/p2" "$T/p3")"
"$HN" predict --model "$T/m.h5" --instances "$T/inst.txt" --engine q8 >"$T/p4" || fail "q8 failed"
paste "$T/p1" "$T/p4" | awk '{ d = $2 - $4; if (d < -0.1 || d > 0.1 || $1 != $3) bad = 1 }
    END { exit bad || NR != 2 }' || fail "q8 far from float: $(paste "$T/p1" "$T/p4")"
expect 2 "no goal layouts" "$HN" predict --model "$T/m.h5" --instances "$T/inst.txt" \
    --domain cube3 --goal blank-last
expect 2 "float or q8" "$HN" predict --model "$T/m.h5" --instances "$T/inst.txt" --engine f16

# ablate: two variants, Markdown table and CSV
"$HN" ablate --data "$T/good.h5" --arch 81-16-1 --arch 81-16-1@amse:2 --dropout 0 --epochs 1 --batch 64 \
    --threads 1 --quiet --instances "$T/inst.txt" --csv "$T/abl.csv" >"$T/out" 2>"$T/err" ||
    fail "ablate failed: $(cat "$T/err")"
[ $(grep -c '^| 81-16-1' "$T/out") -eq 2 ] || fail "ablate table: $(cat "$T/out")"
[ $(wc -l <"$T/abl.csv") -eq 3 ] && head -1 "$T/abl.csv" | grep -q "^variant,seed,config,params" || fail "ablate CSV: $(cat "$T/abl.csv")"

# --- SIGTERM mid-epoch, then resume -------------------------------------------
A0=(--data "$T/big.h5" --arch 81-256-256-1 --dropout 0.1 --seed 2 --threads 1)
A=("${A0[@]}" --batch 16)
# several epochs, so a fast machine is still training when the signal comes
"$HN" train "${A[@]}" --epochs 4 --checkpoint "$T/ck.h5" -o "$T/s.h5" >"$T/out" 2>"$T/err" &
pid=$!
# wait until the data is read and training runs, then a little more
for i in $(seq 1 100); do
    grep -q "training rows" "$T/err" 2>/dev/null && break
    sleep 0.1
done
sleep 0.3
kill -TERM $pid
wait $pid
rc=$?
[ $rc -ne 0 ] || fail "train after SIGTERM exited 0 (finished before the signal?)"
grep -q "checkpoint $T/ck.h5 written" "$T/err" || fail "no checkpoint message: $(cat "$T/err")"
[ -e "$T/ck.h5" ] && [ ! -e "$T/s.h5" ] && no_part "$T/s.h5" || fail "after SIGTERM: checkpoint missing or model written"
# The signal lands mid-epoch or, less often, during an epoch's validation (then
# the checkpoint sits at the next epoch's start); either way it holds progress.
# (test_trn_train checks a stop at an exact mid-epoch batch bit for bit.)
pos=$($PY -c "import h5py; a=h5py.File('$T/ck.h5')['checkpoint'].attrs; print(int(a['epoch']) * 1000000 + int(a['cursor']))")
[ "$pos" -gt 0 ] || fail "checkpoint at epoch 0 batch 0: no progress saved"
"$HN" train "${A[@]}" --quiet --epochs 4 --resume "$T/ck.h5" -o "$T/s.h5" >"$T/out" 2>"$T/err" || fail "resume failed: $(cat "$T/err")"
grep -q '^4,' "$T/out" && [ -e "$T/s.h5" ] || fail "resume did not finish epoch 4: $(cat "$T/out")"
# (a batch other than the checkpoint's; not "${A[@]/16/32}", which also
# rewrote a temporary folder whose random name held "16")
expect 1 "batch" "$HN" train "${A0[@]}" --batch 32 --epochs 4 --resume "$T/ck.h5" -o "$T/s2.h5"
expect 1 "not a checkpoint" "$HN" train --data "$T/good.h5" --arch 81-32-1 --resume "$T/m.h5" -o "$T/s3.h5"

# --- bad data ----------------------------------------------------------------
bad() { # bad FILE PATTERN [arch]
    local arch=${3:-81-8-1}
    expect 1 "$2" "$HN" train --data "$T/$1.h5" --arch "$arch" --epochs 1 -o "$T/bad.h5"
    grep -qF "$T/$1.h5" "$T/err" || fail "$1: message does not name the file: $(cat "$T/err")"
    [ ! -e "$T/bad.h5" ] && no_part "$T/bad.h5" || fail "$1: a model file was left behind"
}
bad nocost "dataset /cost is missing"
bad floatboards "dataset /boards has the wrong dtype"
bad cost2d "dataset /cost has rank 2"
bad nancost "/cost row 17 is NaN"
bad negcost "/cost row 5 is negative"
bad empty "/boards holds no (committed) rows"
bad fifteen "/boards rows have 16 cells (15-puzzle"
bad notperm "/boards row 9 is not a permutation"
expect 1 "missing.h5" "$HN" train --data "$T/missing.h5" --arch 81-8-1 -o "$T/bad.h5"
expect 1 "first data file" "$HN" train --data "$T/good.h5" --data "$T/fifteen.h5" --arch 81-8-1 -o "$T/bad.h5"

[ $fails -eq 0 ] && echo "cli_train: all passed"
exit $((fails > 0))
