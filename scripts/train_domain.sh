#!/usr/bin/env bash
# The long training runs of the 35-puzzle and the 48-puzzle (DAVI on a
# residual over the domain's admissible heuristic) and of the Rubik's cube
# (cube3-walk: the walk length, CayleyPy's diffusion distance; cube3: a
# smaller Q network, one output per move, taught by cube3-walk), no optimal
# label, sized for this 2-core machine and meant to run in the background
# over several sessions:
#   - with DIR/ck.h5 present the run resumes that checkpoint;
#   - else with models/<name>.h5 present (the committed snapshot) it starts
#     from those weights (--init-from), so a new machine continues;
#   - else it starts fresh.
# Ctrl-C (or SIGTERM) writes the checkpoint; the CSV log is DIR/log.csv.
# Commit a snapshot as it improves: scripts/train_domain.sh NAME DIR --snapshot
# copies the checkpoint's network (without the optimizer) to models/<name>.h5.
#
# usage: scripts/train_domain.sh 35puzzle|48puzzle|cube3-walk|cube3 DIR [--snapshot] [avi options]
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
HN=${HEURNET:-$root/build/heurnet}
name=${1:?usage: $0 35puzzle|48puzzle|cube3-walk|cube3 DIR [--snapshot] [avi options]}
dir=${2:?usage: $0 NAME DIR}
shift 2
# The puzzles ran at lr 1e-3 to about rounds 288 (35) and 220 (48), then
# 1.5e-4, the 24-puzzle run's rate (a lower rate, less noise in the values
# the next targets back up).
case $name in
35puzzle)
    domain=npuzzle:6x6:blank-last
    base=max:lc,pdb:5-5-5-5-5-5-5
    arch=1296-1000-500-250-1
    walk=(--walk-max 2000 --states uniform:0.2 --lookahead 2 --residual "$base" --floor "$base"
          --target-engine q8 --lr 1.5e-4) ;;
48puzzle)
    domain=npuzzle:7x7:blank-last
    base=max:lc,pdb:4-4-4-4-4-4-4-4-4-4-4-4
    arch=2401-1000-500-250-1
    walk=(--walk-max 4000 --states uniform:0.2 --lookahead 2 --residual "$base" --floor "$base"
          --target-engine q8 --lr 1.5e-4) ;;
cube3-walk)
    # 951 rounds on walks of 0..30 at lr 1e-3, then walks of 0..24 at 3e-4
    # (far cubes' walk lengths saturate less)
    domain=cube3
    arch=480-1000-500-250-1
    # --target-scale: the committed model's (the default is now 0.9 x and
    # 0.25 x the typical distance, 18.9,5.25 on the cube)
    walk=(--walk-max 24 --targets walk --lr 3e-4 --target-scale 12.6,5.25) ;;
cube3)
    # the teacher is the committed walk-length network; a fresh run starts
    # from random weights (the committed one began as a distilled
    # 480-1000-128-64-1 student, its output repeated)
    domain=cube3
    arch=480-1000-128-64-12
    walk=(--walk-max 30 --targets "q:$root/models/cube3-walk.h5" --target-engine q8 --lr 1e-3
        --target-scale 12.6,5.25) ;;
*)
    echo "$0: unknown run '$name' (35puzzle, 48puzzle, cube3-walk, cube3)" >&2
    exit 2 ;;
esac
mkdir -p "$dir"
snapshot=$root/models/$name.h5
if [ "${1:-}" = "--snapshot" ]; then
    [ -e "$dir/ck.h5" ] || { echo "$0: no checkpoint $dir/ck.h5" >&2; exit 1; }
    /usr/bin/python3 - "$dir/ck.h5" "$snapshot.part" <<'EOF'
import sys, h5py
src, dst = sys.argv[1], sys.argv[2]
with h5py.File(src, "r") as f, h5py.File(dst, "w") as g:
    for k, v in f.attrs.items():
        g.attrs[k] = v
    f.copy("layers", g)
EOF
    "$HN" nn upgrade "$snapshot.part" >/dev/null
    mv "$snapshot.part" "$snapshot"
    "$HN" nn info "$snapshot" | grep -E '^(spec|attr.domain|attr.residual|attr.avi_rounds|attr.avi_seconds)='
    exit 0
fi
args=(avi --domain "$domain" "${walk[@]}" --steps 100
      --batch 1000 --lr-decay 0.99999 --rounds 100000 --threads 1 --blas-threads 1
      --checkpoint "$dir/ck.h5" --log "$dir/log.csv" -o "$dir/final.h5" --quiet)
if [ -e "$dir/ck.h5" ]; then
    exec "$HN" "${args[@]}" --resume "$dir/ck.h5" "$@"
elif [ -e "$snapshot" ]; then
    exec "$HN" "${args[@]}" --init-from "$snapshot" "$@"
fi
exec "$HN" "${args[@]}" --arch "$arch" --no-bn "$@"
