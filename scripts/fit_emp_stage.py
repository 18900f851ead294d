#!/usr/bin/env python3
"""Fit the STAGE value of `heurnet emp solve --stage` (issue 21): a linear
(ridge) regression of what a descent reached, relative to the run's best when
it began, on the board features of its start, from the TSV lines that
`--stage-log` writes (8 features, best before, reached). Prints the
cross-validated fit next to a constant and a score-only model, then the
weights as the comma-separated list `--stage-weights` takes (bias first).
Pure Python (no numpy), as the data are a few hundred rows.

Usage: scripts/fit_emp_stage.py [--ridge L] [--folds K] LOG.tsv...
"""
import random
import sys

DIM = 8
NAMES = ["score", "mm1_cells", "mm2_cells", "frame_breaks", "clustered", "isolated",
         "distance", "rare_unmatched"]


def read(paths):
    rows = []
    for path in paths:
        with open(path) as fp:
            for n, line in enumerate(fp, 1):
                cols = line.split()
                if len(cols) != DIM + 2:
                    sys.exit(f"{path}:{n}: expected {DIM + 2} columns, got {len(cols)}")
                f = [float(c) for c in cols[:DIM]]
                rows.append((f, float(cols[DIM + 1]) - float(cols[DIM])))
    return rows


def solve(a, b):
    """Gaussian elimination with partial pivoting: a x = b."""
    n = len(b)
    m = [row[:] + [b[i]] for i, row in enumerate(a)]
    for c in range(n):
        p = max(range(c, n), key=lambda r: abs(m[r][c]))
        m[c], m[p] = m[p], m[c]
        if abs(m[c][c]) < 1e-12:
            continue
        for r in range(n):
            if r != c:
                k = m[r][c] / m[c][c]
                for j in range(c, n + 1):
                    m[r][j] -= k * m[c][j]
    return [m[i][n] / m[i][i] if abs(m[i][i]) >= 1e-12 else 0.0 for i in range(n)]


def fit(rows, cols, ridge):
    """Weights [bias, w_k for k in cols] by ridge least squares (bias free)."""
    x = [[1.0] + [f[k] for k in cols] for f, _ in rows]
    n = len(cols) + 1
    a = [[sum(r[i] * r[j] for r in x) + (ridge if i == j and i > 0 else 0.0) for j in range(n)]
         for i in range(n)]
    b = [sum(r[i] * y for r, (_, y) in zip(x, rows)) for i in range(n)]
    return solve(a, b)


def predict(w, cols, f):
    return w[0] + sum(wk * f[k] for wk, k in zip(w[1:], cols))


def cv_mse(rows, cols, ridge, folds, seed=1):
    idx = list(range(len(rows)))
    random.Random(seed).shuffle(idx)
    err = 0.0
    for k in range(folds):
        test = set(idx[k::folds])
        train = [rows[i] for i in idx if i not in test]
        w = fit(train, cols, ridge)
        err += sum((predict(w, cols, rows[i][0]) - rows[i][1]) ** 2 for i in test)
    return err / len(rows)


def main():
    args, ridge, folds = sys.argv[1:], 1e-3, 5
    while args and args[0].startswith("--"):
        if args[0] == "--ridge":
            ridge = float(args[1])
        elif args[0] == "--folds":
            folds = int(args[1])
        else:
            sys.exit(__doc__)
        args = args[2:]
    if not args:
        sys.exit(__doc__)
    rows = read(args)
    if len(rows) < 2 * folds:
        sys.exit(f"{len(rows)} descents: too few to fit")
    ys = [y for _, y in rows]
    mean = sum(ys) / len(ys)
    var = sum((y - mean) ** 2 for y in ys) / len(ys)
    print(f"descents={len(rows)} target: reached - best before, mean={mean:.3f} "
          f"var={var:.3f}")
    full = list(range(DIM))
    for name, cols in (("constant", []), ("score only", [0]), ("all features", full)):
        mse = cv_mse(rows, cols, ridge, folds)
        print(f"{folds}-fold CV: {name:13s} mse={mse:.3f} R2={1 - mse / var:+.3f}")
    w = fit(rows, full, ridge)
    for k, name in enumerate(NAMES):
        print(f"w[{name}]={w[k + 1]:+.4f}")
    print("--stage-weights " + ",".join(f"{v:.6g}" for v in w))


if __name__ == "__main__":
    main()
