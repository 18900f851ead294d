"""Set up the export tests: give models non-trivial batch-norm statistics,
biases and target scaling (a freshly initialised model has mean 0, var 1),
and write input rows: one-hot n-puzzle boards (the npuzzle-onehot encoder)
plus Gaussian rows that reach the negative side of every activation.

usage: prepare.py DIR MODEL:MEAN:STD... ; writes DIR/x.h5 (/x<width> per
model width) and DIR/x<width>.f32 (the same rows, raw little-endian)."""
import sys

import h5py
import numpy as np

rng = np.random.default_rng(11)


def perturb(path, mean, std):
    with h5py.File(path, "r+") as f:
        f.attrs["target_mean"] = mean
        f.attrs["target_std"] = std
        for name in f["layers"]:
            g = f["layers"][name]
            n = g["bias"].shape[0]
            g["bias"][...] = rng.normal(0, 0.3, n)
            if "gamma" in g:
                g["gamma"][...] = rng.uniform(0.5, 1.5, n)
                g["beta"][...] = rng.normal(0, 0.3, n)
                g["moving_mean"][...] = rng.normal(0, 0.5, n)
                g["moving_variance"][...] = rng.uniform(0.3, 2.0, n)
        return f["layers/000/kernel"].shape[0]


def onehot_boards(width, count):
    """x[t*N*N + p] = 1 where cell p holds tile t (docs/formats.md)."""
    cells = width * width
    rows = np.zeros((count, cells * cells), np.float32)
    for i in range(count):
        tiles = rng.permutation(cells)  # tiles[p] = tile at cell p
        for p, t in enumerate(tiles):
            rows[i, t * cells + p] = 1.0
    return rows


def main():
    out = sys.argv[1]
    widths = set()
    for arg in sys.argv[2:]:
        path, mean, std = arg.split(":")
        widths.add(perturb(path, float(mean), float(std)))
    with h5py.File(f"{out}/x.h5", "w") as f:
        for w in sorted(widths):
            side = round(w ** 0.25)
            parts = [rng.normal(0, 1.5, (24, w)).astype(np.float32)]
            if side ** 4 == w:
                parts.insert(0, onehot_boards(side, 40))
            x = np.concatenate(parts)
            f[f"x{w}"] = x
            x.astype("<f4").tofile(f"{out}/x{w}.f32")


main()
