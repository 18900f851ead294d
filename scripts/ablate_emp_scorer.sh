#!/usr/bin/env bash
# Offline ablation of the learned edge-matching move scorer (issue 7): network
# size and feature groups, judged on moves of instances the models never saw.
# For each variant it trains with `heurnet train` on TRAIN (emp-move-v1 rows of
# `heurnet emp gen-data`), predicts every row of TEST with `heurnet predict`
# and reports, per variant:
#   - R^2 and MSE of the predicted rollout gain on TEST;
#   - the ranking within a perturbation state (rows sharing /state), which is
#     what `emp solve --scorer` uses: the mean label of the move the model
#     ranks first, minus the mean label of all candidates of the state (= a
#     random pick), and that gain as a share of the oracle's (best label);
# next to the rule "least damaging move" (rank by the delta feature alone).
# A feature group is removed by zeroing its columns in both files, so every
# model keeps the emp-move-v1 width. Variants marked "centred" train on labels
# minus their state's mean label (a ranking target: the state's level, which
# no move changes, is taken out).
# Usage: scripts/ablate_emp_scorer.sh --train moves.h5 --test moves-test.h5
#        [--heurnet PATH] [--out DIR] [--epochs E]
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
H="$root/build/heurnet"; train=""; test=""; out=""; epochs=15
while [ $# -gt 0 ]; do
    case "$1" in
        --heurnet) H="$2"; shift ;;
        --train) train="$2"; shift ;;
        --test) test="$2"; shift ;;
        --out) out="$2"; shift ;;
        --epochs) epochs="$2"; shift ;;
        *) echo "usage: $0 --train MOVES.h5 --test MOVES.h5 [--heurnet PATH] [--out DIR] [--epochs E]" >&2
           exit 2 ;;
    esac
    shift
done
[ -f "$train" ] && [ -f "$test" ] || { echo "$0: --train and --test files are required" >&2; exit 2; }
py=/usr/bin/python3
[ -n "$out" ] || out=$(mktemp -d)
mkdir -p "$out"

# name|arch|zeroed columns (emp-move-v1 order, README "Encoder emp-move-v1")|centred
variants=(
    "linear|18-1|"
    "18-16-1|18-16-1|"
    "18-64-64-1 (shipped size)|18-64-64-1|"
    "18-256-256-1|18-256-256-1|"
    "no delta|18-64-64-1|0"
    "no after-move mismatches|18-64-64-1|7,9"
    "no board context (score, neighbours, size)|18-64-64-1|5,10,11,17"
    "no colour rarity|18-64-64-1|12,13"
    "no cell age|18-64-64-1|14,15"
    "no geometry (rotate, edge, corner, adjacent, dist)|18-64-64-1|1,2,3,4,16"
    "delta only|18-64-64-1|1,2,3,4,5,6,7,8,9,10,11,12,13,14,15,16,17"
    "state-centred labels|18-64-64-1||centred"
    "state-centred labels, 18-256-256-1|18-256-256-1||centred"
)

mask() { # in out cols centred
    "$py" - "$1" "$2" "$3" "$4" <<'EOF'
import sys, h5py, numpy as np
src, dst, cols, centred = sys.argv[1:5]
with h5py.File(src, "r") as f, h5py.File(dst, "w") as g:
    x = f["x"][...]
    if cols:
        x[:, [int(c) for c in cols.split(",")]] = 0
    y, s = f["y"][...], f["state"][...]
    if centred:
        _, inv, cnt = np.unique(s, return_inverse=True, return_counts=True)
        y = y - (np.bincount(inv, weights=y) / cnt)[inv]
    g["x"] = x
    g["y"] = y.astype(np.float32)
    g["state"] = s
    for k, v in f.attrs.items():
        g.attrs[k] = v
EOF
}

echo "| variant | params | train s | test R^2 | test MSE | within-state R^2 | top-1 gain over random | share of oracle |"
echo "|---|---:|---:|---:|---:|---:|---:|---:|"
i=0
for v in "${variants[@]}"; do
    i=$((i + 1))
    IFS='|' read -r name arch cols centred <<<"$v"
    tr="$out/train$i.h5"; te="$out/test$i.h5"; m="$out/model$i.h5"
    mask "$train" "$tr" "$cols" "$centred"
    mask "$test" "$te" "$cols" ""
    t0=$(date +%s.%N)
    "$H" train --data "$tr" --arch "$arch" --epochs "$epochs" --batch 512 --lr 0.002 \
        --lr-schedule cosine --dropout 0 --seed 1 --quiet -o "$m" >"$out/log$i.csv"
    t1=$(date +%s.%N)
    "$H" predict --model "$m" --data "$te" >"$out/pred$i.txt"
    params=$("$H" nn info "$m" | sed -n 's/^params=//p')
    "$py" - "$te" "$out/pred$i.txt" "$name" "${params:-?}" "$(awk -v a="$t0" -v b="$t1" 'BEGIN { print b - a }')" <<'EOF'
import sys, h5py, numpy as np
te, pred, name, params, secs = sys.argv[1:6]
with h5py.File(te, "r") as f:
    y = f["y"][...].astype(np.float64); s = f["state"][...]
p = np.loadtxt(pred, dtype=np.float64)
r2 = 1 - np.mean((p - y) ** 2) / np.var(y)
_, inv, cnt = np.unique(s, return_inverse=True, return_counts=True)
yc = y - (np.bincount(inv, weights=y) / cnt)[inv]
pc = p - (np.bincount(inv, weights=p) / cnt)[inv]
r2w = 1 - np.mean((pc - yc) ** 2) / np.var(yc)
# per state: label of the top-ranked move (ties averaged), mean label, best label
order = np.argsort(s, kind="stable"); y, p, s = y[order], p[order], s[order]
cuts = np.flatnonzero(np.diff(s)) + 1
top = rnd = orc = 0.0; n = 0
for ys, ps in zip(np.split(y, cuts), np.split(p, cuts)):
    if len(ys) < 2:
        continue
    top += ys[ps >= ps.max() - 1e-6].mean(); rnd += ys.mean(); orc += ys.max(); n += 1
gain, ogain = (top - rnd) / n, (orc - rnd) / n
print(f"| {name} | {params} | {float(secs):.1f} | {r2:.3f} | {np.mean((p - y) ** 2):.2f} | {r2w:.3f} | "
      f"{gain:+.3f} | {gain / ogain:.1%} |")
EOF
done
# the rule the h0 model learned: rank by the delta feature alone
"$py" - "$test" <<'EOF'
import sys, h5py, numpy as np
with h5py.File(sys.argv[1], "r") as f:
    y = f["y"][...].astype(np.float64); s = f["state"][...]; d = f["x"][:, 0].astype(np.float64)
order = np.argsort(s, kind="stable"); y, d, s = y[order], d[order], s[order]
cuts = np.flatnonzero(np.diff(s)) + 1
top = rnd = orc = 0.0; n = 0
for ys, ds in zip(np.split(y, cuts), np.split(d, cuts)):
    if len(ys) < 2:
        continue
    top += ys[ds == ds.max()].mean(); rnd += ys.mean(); orc += ys.max(); n += 1
print(f"| rule: least damaging move (delta) | 0 | 0 | | | | {(top - rnd) / n:+.3f} | "
      f"{(top - rnd) / (orc - rnd):.1%} |")
print(f"\n{n} test states, {len(y)} test moves; oracle gain over random "
      f"{(orc - rnd) / n:+.3f} joins per state")
EOF
