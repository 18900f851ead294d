#!/usr/bin/env bash
# Value iteration on the 8-puzzle before and after a change, side by side in
# one run: two heurnet executables (say the binary of the commit before the
# n-puzzle moved onto the one avi path, and the current one) train the same
# network with the same seed and sample budget (the settings of the first
# session of models/8puzzle-avi.h5, fewer rounds), both at once at nice 5;
# each reports the rounded network's MAE and exact share on 5,000 own states
# (drawn with seed 5 from all 181,440, labelled by breadth-first search),
# never trained on. Prints both runs' last round, their ratios new/old, and
# the user CPU seconds.
#
# usage: scripts/bench_avi_paths.sh OLD_HEURNET NEW_HEURNET [ROUNDS] [OUT]
set -euo pipefail
old=$(realpath "$1")
new=$(realpath "$2")
rounds=${3:-30}
out=${4:-$(mktemp -d)}
mkdir -p "$out"
cd "$out"

# every state with its BFS distance, then a seeded sample of 5,000
"$new" gen --puzzle 8 --all -o all8.h5 --quiet >/dev/null
/usr/bin/python3 - <<'EOF'
import random, h5py
f = h5py.File("all8.h5")
rows = [f"{i} {c} " + " ".join(map(str, b)) for i, (b, c) in enumerate(zip(f["boards"][...], f["cost"][...]))]
random.seed(5)
open("eval8.txt", "w").write("\n".join(random.sample(rows, 5000)) + "\n")
EOF

A=(--puzzle 8 --table --states uniform:0.9 --walk-max 40 --integer-targets --batch 256
    --lr-cosine --threads 1 --blas-threads 1 --seed 19 --arch 81-512-256-128-1 --no-bn
    --lookahead 4 --rounds "$rounds" --steps 700 --lr 1e-3 --eval eval8.txt --quiet)
/usr/bin/time -f "%U" -o old.time nice -n 5 "$old" avi "${A[@]}" -o old.h5 >old.csv 2>old.err &
/usr/bin/time -f "%U" -o new.time nice -n 5 "$new" avi "${A[@]}" -o new.h5 >new.csv 2>new.err &
wait

# columns: 1 round, 3 samples, 15 target_seconds, 18 eval_mae, 19 eval_exact
last() { tail -n 1 "$1"; }
awk -F, -v ot="$(cat old.time)" -v nt="$(cat new.time)" '
    FNR == 1 { next }
    FILENAME == ARGV[1] { o = $0; next }
    { n = $0 }
    END {
        split(o, a, ","); split(n, b, ",")
        printf "rounds=%d samples=%d\n", a[1], a[3]
        printf "old: eval_mae=%.4f eval_exact=%.4f user_seconds=%s\n", a[18], a[19], ot
        printf "new: eval_mae=%.4f eval_exact=%.4f user_seconds=%s\n", b[18], b[19], nt
        printf "new/old: mae=%.3f exact=%.3f user_seconds=%.3f\n", b[18] / a[18], b[19] / a[19], nt / ot
    }' <(last old.csv | sed '1i h') <(last new.csv | sed '1i h')
echo "round lines: $out/old.csv $out/new.csv"
