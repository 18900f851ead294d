#!/usr/bin/env python3
"""Label 15-puzzle boards with a teacher network, for distilling it into a
smaller student (`heurnet train --data OUT.h5`).

The label of a board is the mean of the teacher's outputs for the board and
for its mirror image across the main diagonal: the value A* sees from
`ann:TEACHER,mirror`. The boards are those of `heurnet gen` datasets (their
/source kept, their optimal /cost kept as /optimal for checking) and, with
--random N, N uniformly random solvable boards (/source 0).

usage: distill_labels.py HEURNET TEACHER.h5 OUT.h5 [--from GEN.h5 ...]
                         [--random N] [--seed S]

Boards are in the blank-first layout (as `heurnet gen` writes them by default).
"""
import argparse
import os
import subprocess
import sys
import tempfile

import h5py
import numpy as np

W = 4
CELLS = W * W
# the diagonal mirror in the blank-first layout: cell p and tile p both go
# to the transposed cell (the goal puts tile t on cell t)
T = np.array([(p % W) * W + p // W for p in range(CELLS)], dtype=np.uint8)


def mirror(boards):
    m = np.empty_like(boards)
    m[:, T] = T[boards]
    return m


def random_boards(n, seed):
    """Uniformly random solvable boards: a board is solvable when the parity
    of its permutation equals that of the blank's distance from cell 0."""
    rng = np.random.default_rng(seed)
    b = np.argsort(rng.random((n, CELLS)), axis=1).astype(np.uint8)
    inv = np.zeros(n, dtype=np.int64)
    for i in range(CELLS):
        inv += (b[:, i:i + 1] > b[:, i + 1:]).sum(axis=1)
    blank = np.argmax(b == 0, axis=1)
    bad = (inv + blank // W + blank % W) % 2 == 1
    # swapping two tiles (not the blank) flips the permutation's parity only
    i = np.where(blank >= CELLS - 2, 0, CELLS - 2)
    rows = np.nonzero(bad)[0]
    b[rows, i[rows]], b[rows, i[rows] + 1] = b[rows, i[rows] + 1], b[rows, i[rows]].copy()
    return b


def teacher(heurnet, model, boards):
    """The teacher's output for each board (`heurnet predict --instances`)."""
    with tempfile.TemporaryDirectory() as tmp:
        inst = os.path.join(tmp, "boards.txt")
        with open(inst, "w") as f:
            f.write("# boards, goal blank-first: id optimal tiles\n")
            lines = (" ".join(map(str, row)) for row in boards.tolist())
            f.writelines(f"{i} 0 {s}\n" for i, s in enumerate(lines))
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


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("heurnet")
    ap.add_argument("teacher")
    ap.add_argument("out")
    ap.add_argument("--from", dest="sources", action="append", default=[])
    ap.add_argument("--random", type=int, default=0)
    ap.add_argument("--seed", type=int, default=1)
    a = ap.parse_args()
    boards, source, optimal = [], [], []
    for path in a.sources:
        with h5py.File(path, "r") as f:
            goal = f.attrs.get("goal", b"blank-first")
            if (goal.decode() if isinstance(goal, bytes) else str(goal)) != "blank-first":
                sys.exit(f"{path}: boards must be in the blank-first layout")
            boards.append(f["boards"][:])
            source.append(f["source"][:] if "source" in f else np.zeros(len(boards[-1]), np.uint8))
            optimal.append(f["cost"][:].astype(np.int32))
    if a.random:
        boards.append(random_boards(a.random, a.seed))
        source.append(np.zeros(a.random, np.uint8))
        optimal.append(np.full(a.random, -1, np.int32))  # unknown
    if not boards:
        sys.exit("nothing to label: give --from or --random")
    boards = np.concatenate(boards)
    chunk = 1 << 20
    y = np.concatenate([(teacher(a.heurnet, a.teacher, boards[i:i + chunk]) +
                         teacher(a.heurnet, a.teacher, mirror(boards[i:i + chunk]))) / 2
                        for i in range(0, len(boards), chunk)])
    with h5py.File(a.out, "w") as f:
        f.create_dataset("boards", data=boards)
        f.create_dataset("cost", data=y.astype(np.float32))
        f.create_dataset("source", data=np.concatenate(source))
        f.create_dataset("optimal", data=np.concatenate(optimal))
        f.attrs["goal"] = "blank-first"
        f.attrs["teacher"] = os.path.basename(a.teacher)
        f.attrs["label"] = "mean of the teacher on the board and its diagonal mirror"
    print(f"{a.out}: {len(boards)} boards, mean label {y.mean():.3f}")


if __name__ == "__main__":
    main()
