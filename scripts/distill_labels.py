#!/usr/bin/env python3
"""Label n-puzzle boards with a teacher network, for distilling it into a
smaller student (`heurnet train --data OUT.h5`).

The label of a board is the teacher's value: by default the mean of its
outputs for the board and for its mirror image across the main diagonal (the
value A* sees from `ann:TEACHER,mirror`), with --no-mirror the board's alone.
With --residual, for a teacher whose file names a `residual` base heuristic H
(its value is H + network), the label is the network's part alone, floored
at 0: the search takes max(H + network, H), so a negative part is never
seen. The student learns that part and is given the teacher's `residual`
attribute after training (models/MODELS.md, 24puzzle-search.h5).

The boards are those of `heurnet gen` datasets (their /source kept, their
optimal /cost kept as /optimal for checking); with --random N, N uniformly
random solvable boards (/source 0); with --walks N, N boards from random
walks of 0..K moves back from the goal (K = --walk-max, the length uniform,
no move undoing the one before; /source 2). Random and walk boards come from
one generator seeded by --seed, random boards first.

With --around INST:N[:J] (repeatable), N boards drawn uniformly from an
instance file (for example scripts/path_boards.py's boards on solution
paths), each walked 0..J (default 10) moves on, are labelled by the teacher
like the others (/source 6; after the random and walk boards, from the same
generator).

With --paths INST:SOLVED[:K] (repeatable), the boards on the solution paths
that `heurnet solve -q INST > SOLVED` found are added (/source 5), each
labelled with the moves left on its path: an upper bound on its distance,
and the distance itself where the solution is optimal. These labels come from
search, not from the teacher (bootstrapping, after Arfaee, Zilles and Holte
2011). With --residual they are taken as corrections to the teacher's base
heuristic H, as the teacher's labels are: moves left - H(board), which is
never negative for an admissible H. Each path board is written K times (1).

usage: distill_labels.py HEURNET TEACHER.h5 OUT.h5 [--puzzle 15|24]
                         [--from GEN.h5 ...] [--random N] [--walks N]
                         [--walk-max K] [--seed S] [--no-mirror] [--residual]
                         [--around INST:N[:J] ...] [--paths INST:SOLVED[:K] ...]

Boards are in the blank-first layout (as `heurnet gen` writes them by default).
"""
import argparse
import os
import shutil
import subprocess
import sys
import tempfile

import h5py
import numpy as np



def mirror(boards, w):
    """The diagonal mirror in the blank-first layout: cell p and tile p both
    go to the transposed cell (the goal puts tile t on cell t)."""
    t = np.array([(p % w) * w + p // w for p in range(w * w)], dtype=np.uint8)
    m = np.empty_like(boards)
    m[:, t] = t[boards]
    return m


def random_boards(n, rng, w):
    """Uniformly random solvable boards: a board is solvable when the parity
    of its permutation equals that of the blank's distance from cell 0."""
    cells = w * w
    b = np.argsort(rng.random((n, cells)), axis=1).astype(np.uint8)
    inv = np.zeros(n, dtype=np.int64)
    for i in range(cells):
        inv += (b[:, i:i + 1] > b[:, i + 1:]).sum(axis=1)
    blank = np.argmax(b == 0, axis=1)
    bad = (inv + blank // w + blank % w) % 2 == 1
    # swapping two tiles (not the blank) flips the permutation's parity only
    i = np.where(blank >= cells - 2, 0, cells - 2)
    rows = np.nonzero(bad)[0]
    b[rows, i[rows]], b[rows, i[rows] + 1] = b[rows, i[rows] + 1], b[rows, i[rows]].copy()
    return b


def walk_boards(n, kmax, rng, w, start=None):
    """n boards, each a random walk of the blank from the goal (or from the
    rows of `start`), its length uniform in 0..kmax; a step never undoes the
    step before."""
    b = np.tile(np.arange(w * w, dtype=np.uint8), (n, 1)) if start is None else start.copy()
    blank = np.argmax(b == 0, axis=1).astype(np.int64)
    prev = np.full(n, -1, dtype=np.int64)
    length = rng.integers(0, kmax + 1, n)
    rows = np.arange(n)
    step_of = np.array([-w, w, -1, 1])
    for step in range(kmax):
        live = length > step
        if not live.any():
            break
        r, c = blank // w, blank % w
        legal = np.stack([r > 0, r < w - 1, c > 0, c < w - 1], 1)
        legal &= blank[:, None] + step_of[None, :] != prev[:, None]
        move = np.argmax(rng.random((n, 4)) * legal, 1)  # a random legal one
        to = blank + step_of[move]
        a, t, bl = rows[live], to[live], blank[live]
        b[a, bl] = b[a, t]
        b[a, t] = 0
        prev[a] = bl
        blank[a] = t
    return b


def around_boards(spec, rng, w):
    """--around INST:N[:J]: N boards drawn uniformly from an instance file,
    each walked 0..J (10) moves on."""
    parts = spec.split(":")
    if len(parts) not in (2, 3) or not all(p.isdigit() for p in parts[1:]):
        sys.exit(f"--around {spec}: expected INSTANCES:N[:J]")
    listed = np.array(list(read_instances(parts[0], w * w).values()), np.uint8)
    if not len(listed):
        sys.exit(f"{parts[0]}: no boards")
    n, j = int(parts[1]), int(parts[2]) if len(parts) == 3 else 10
    return walk_boards(n, j, rng, w, listed[rng.integers(0, len(listed), n)])


def write_boards(path, boards):
    """The boards as an instance file for heurnet, ids 0..n-1 (no optimal)."""
    with open(path, "w") as f:
        f.write("# boards, goal blank-first: id tiles\n")
        f.writelines(f"{i} {' '.join(map(str, r))}\n" for i, r in enumerate(boards.tolist()))


def teacher(heurnet, model, boards):
    """The teacher's output for each board (`heurnet predict --instances`)."""
    with tempfile.TemporaryDirectory() as tmp:
        inst = os.path.join(tmp, "boards.txt")
        write_boards(inst, boards)
        out = subprocess.run([heurnet, "predict", "--model", model, "--instances", inst,
                              "--goal", "blank-first"], check=True, capture_output=True, text=True)
    y = np.zeros(len(boards), dtype=np.float64)
    got = 0
    for line in out.stdout.splitlines():
        if line and not line.startswith("#"):
            i, v = line.split()[:2]
            y[int(i)] = float(v)
            got += 1
    if got != len(boards):
        sys.exit(f"heurnet predict printed {got} values for {len(boards)} boards")
    return y


def teacher_base(teacher):
    """The base heuristic a residual teacher names (its `residual` attribute)."""
    with h5py.File(teacher, "r") as f:
        base = f.attrs.get("residual", b"")
    base = base.decode() if isinstance(base, bytes) else str(base)
    if not base:
        sys.exit(f"{teacher}: --residual needs a teacher with a residual attribute")
    return base


def raw_teacher(heurnet, teacher, tmp):
    """A copy of a residual teacher without its `residual` attribute, so that
    `heurnet predict` prints the network's part alone."""
    teacher_base(teacher)
    path = os.path.join(tmp, "raw.h5")
    shutil.copyfile(teacher, path)
    with h5py.File(path, "r+") as f:
        del f.attrs["residual"]
    subprocess.run([heurnet, "nn", "upgrade", path], check=True, capture_output=True)
    return path


def load_sources(paths, cells, boards, source, optimal):
    for path in paths:
        with h5py.File(path, "r") as f:
            if "states" in f:  # an n-puzzle state: the tiles, then the blank's cell
                dom = f.attrs["domain"]
                goal = "blank-last" if str(dom).rstrip("'").endswith(":blank-last") else "blank-first"
                tiles = f["states"][:, :-1]
            else:
                goal = f.attrs.get("goal", b"blank-first")
                goal = goal.decode() if isinstance(goal, bytes) else str(goal)
                tiles = f["boards"][:]
            if goal != "blank-first":
                sys.exit(f"{path}: boards must be in the blank-first layout")
            if tiles.shape[1] != cells:
                sys.exit(f"{path}: boards of {tiles.shape[1]} cells, not {cells}")
            boards.append(tiles)
            source.append(f["source"][:] if "source" in f else np.zeros(len(boards[-1]), np.uint8))
            optimal.append(f["cost"][:].astype(np.int32))


def read_instances(path, cells):
    """id -> board of an instance file (docs/formats.md: lines of the tiles,
    with an id and an optimal length before them or not; a board without an
    id is named by its 1-based number, as heurnet names it)."""
    boards, count = {}, 0
    with open(path) as f:
        for n, line in enumerate(f, 1):
            v = line.split("#")[0].split()
            if not v:
                continue
            try:
                if len(v) not in (cells, cells + 1, cells + 2):
                    raise ValueError
                tiles = [int(t) for t in v[-cells:]]
            except ValueError:
                sys.exit(f"{path}:{n}: not an instance line ([id [optimal]] {cells} tiles)")
            if sorted(tiles) != list(range(cells)):
                sys.exit(f"{path}:{n}: the tiles are not a permutation of 0..{cells - 1}")
            count += 1
            boards[v[0] if len(v) > cells else str(count)] = tiles
    return boards


def replay(board, moves, w):
    """The boards before each move of a solution (moves: the blank's U/D/L/R),
    or None when a move leaves the board or the end is not the blank-first goal."""
    step = {"U": -w, "D": w, "L": -1, "R": 1}
    b, out = list(board), []
    for m in moves:
        z = b.index(0)
        t = z + step.get(m, 0)
        if m not in step or not 0 <= t < w * w or (m in "LR" and t // w != z // w):
            return None
        out.append(list(b))
        b[z], b[t] = b[t], b[z]
    return out if b == list(range(w * w)) else None


def read_paths(spec, w):
    """Boards, moves-left labels and K of the solutions in SOLVED (--paths
    INST:SOLVED[:K])."""
    parts = spec.split(":")
    if len(parts) not in (2, 3) or (len(parts) == 3 and not parts[2].isdigit()):
        sys.exit(f"{spec}: expected INSTANCES:SOLVED[:K]")
    inst, solved = read_instances(parts[0], w * w), parts[1]
    k = int(parts[2]) if len(parts) == 3 else 1
    if k < 1:
        sys.exit(f"{spec}: K must be at least 1")
    boards, left = [], []
    with open(solved) as f:
        for n, line in enumerate(f, 1):
            kv = dict(x.split("=", 1) for x in line.split() if "=" in x)
            if "moves" not in kv:
                continue
            if kv.get("id") not in inst:
                sys.exit(f"{solved}:{n}: id {kv.get('id')} is not in {parts[0]}")
            states = replay(inst[kv["id"]], kv["moves"], w)
            if states is None:
                sys.exit(f"{solved}:{n}: the moves do not lead board {kv['id']} to the "
                         "blank-first goal")
            boards += states
            left += range(len(states), 0, -1)
    if not boards:
        sys.exit(f"{solved}: no solution (moves=...) in it")
    return np.array(boards, np.uint8), np.array(left, np.float64), k


def base_values(heurnet, heur, puzzle, boards):
    """The residual base heuristic of every board, read back from the h0= of
    a one-expansion search (`heurnet solve`)."""
    with tempfile.TemporaryDirectory() as tmp:
        inst = os.path.join(tmp, "boards.txt")
        write_boards(inst, boards)
        out = subprocess.run([heurnet, "solve", "--puzzle", str(puzzle), "--goal", "blank-first",
                              "--algo", "astar", "--heuristic", heur, "--max-expanded", "1",
                              "-q", inst], capture_output=True, text=True)
    h = np.full(len(boards), -1.0)
    for line in out.stdout.splitlines():
        kv = dict(x.split("=", 1) for x in line.split() if "=" in x)
        if "id" in kv and "h0" in kv:
            h[int(kv["id"])] = float(kv["h0"])
    if (h < 0).any():
        sys.exit(f"heurnet solve --heuristic {heur} gave no h0 for some boards: {out.stderr[-300:]}")
    return h


def path_rows(a, w):
    """Boards and labels of every --paths (corrections to the teacher's base
    with --residual), each spec's rows K times."""
    paths = [read_paths(p, w) for p in a.paths]
    boards, y = np.concatenate([p[0] for p in paths]), np.concatenate([p[1] for p in paths])
    if a.residual:
        base = teacher_base(a.teacher)
        # paths share their boards near the goal: each distinct board is looked up once
        uniq, inv = np.unique(boards, axis=0, return_inverse=True)
        y = y - base_values(a.heurnet, base, a.puzzle, uniq)[inv.ravel()]
        if (y < 0).any():
            sys.exit(f"a path label is below the base {base}: the solutions are not valid")
    k = np.concatenate([np.full(len(p[0]), p[2]) for p in paths])
    return np.repeat(boards, k, axis=0), np.repeat(y, k)


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("heurnet")
    ap.add_argument("teacher")
    ap.add_argument("out")
    ap.add_argument("--puzzle", type=int, choices=[15, 24], default=15)
    ap.add_argument("--from", dest="sources", action="append", default=[])
    ap.add_argument("--random", type=int, default=0)
    ap.add_argument("--walks", type=int, default=0)
    ap.add_argument("--walk-max", type=int, default=500)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--no-mirror", action="store_true")
    ap.add_argument("--residual", action="store_true")
    ap.add_argument("--paths", action="append", default=[])
    ap.add_argument("--around", action="append", default=[])
    a = ap.parse_args()
    if a.random < 0 or a.walks < 0 or a.walk_max < 0:
        sys.exit("--random, --walks and --walk-max must be >= 0")
    w = 5 if a.puzzle == 24 else 4
    boards, source, optimal = [], [], []
    load_sources(a.sources, w * w, boards, source, optimal)
    rng = np.random.default_rng(a.seed)
    for n, make, kind in ((a.random, lambda n: random_boards(n, rng, w), 0),
                          (a.walks, lambda n: walk_boards(n, a.walk_max, rng, w), 2)):
        if n:
            boards.append(make(n))
            source.append(np.full(n, kind, np.uint8))
            optimal.append(np.full(n, -1, np.int32))  # unknown
    for spec in a.around:
        boards.append(around_boards(spec, rng, w))
        source.append(np.full(len(boards[-1]), 6, np.uint8))
        optimal.append(np.full(len(boards[-1]), -1, np.int32))
    if not boards and not a.paths:
        sys.exit("nothing to label: give --from, --random, --walks, --around or --paths")
    pb, py = path_rows(a, w) if a.paths else (np.zeros((0, w * w), np.uint8), np.zeros(0))
    boards = np.concatenate(boards) if boards else np.zeros((0, w * w), np.uint8)
    y = teacher_rows(a, boards, w) if len(boards) else np.zeros(0)
    if a.paths:
        source.append(np.full(len(pb), 5, np.uint8))
        optimal.append(np.full(len(pb), -1, np.int32))
    y = np.concatenate([y, py])
    write_labels(a.out, np.concatenate([boards, pb]), y, np.concatenate(source),
                 np.concatenate(optimal), a.teacher, label_text(a, len(boards) > 0))
    print(f"{a.out}: {len(boards)} teacher boards, {len(pb)} path rows, mean label {y.mean():.3f}")


def label_text(a, has_teacher_rows):
    """The file's `label` attribute: how each kind of row was labelled."""
    label = []
    if has_teacher_rows:
        label.append(("the teacher on the board" if a.no_mirror else
                      "mean of the teacher on the board and its diagonal mirror") +
                     (": the network's part over the residual base, floored at 0"
                      if a.residual else ""))
    if a.paths:
        label.append("/source 5: moves left on a solution found by search" +
                     (", less the base" if a.residual else ""))
    return "; ".join(label)


def write_labels(out, boards, y, source, optimal, teacher_path, label):
    """The dataset `heurnet train --data` reads, written to OUT.tmp and then
    renamed: a full disk or Ctrl-C leaves no half file under the name OUT."""
    tmp = out + ".tmp"
    try:
        with h5py.File(tmp, "w") as f:
            f.create_dataset("boards", data=boards)
            f.create_dataset("cost", data=y.astype(np.float32))
            f.create_dataset("source", data=source)
            f.create_dataset("optimal", data=optimal)
            f.attrs["goal"] = "blank-first"
            f.attrs["teacher"] = os.path.basename(teacher_path)
            f.attrs["label"] = label
        os.replace(tmp, out)
    except BaseException as e:
        if os.path.exists(tmp):
            os.remove(tmp)
        if isinstance(e, OSError):
            sys.exit(f"{out}: cannot write it: {e}")
        raise

def teacher_rows(a, boards, w):
    """The teacher's labels of the boards (mirror-averaged unless --no-mirror;
    with --residual its network part, floored at 0)."""
    with tempfile.TemporaryDirectory() as tmp:
        model = raw_teacher(a.heurnet, a.teacher, tmp) if a.residual else a.teacher
        chunk = 1 << 20
        parts = []
        for i in range(0, len(boards), chunk):
            y = teacher(a.heurnet, model, boards[i:i + chunk])
            if not a.no_mirror:
                y = (y + teacher(a.heurnet, model, mirror(boards[i:i + chunk], w))) / 2
            parts.append(y)
    y = np.concatenate(parts)
    return np.maximum(y, 0.0) if a.residual else y


if __name__ == "__main__":
    main()
