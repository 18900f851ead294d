"""Shared by the Python tests (run by tests/cli_python.sh): the heurnet
executable, the source tree, a scratch folder, and boards made by random
walks so that every board is solvable."""

import os
import subprocess
import sys
import tempfile

import numpy as np

HN = os.environ["HN"]
SRC = os.environ["HN_SRC"]
DATA = os.environ["HN_DATA"]
TMP = os.environ.get("HN_TMP") or tempfile.mkdtemp()
PY = sys.executable

_MOVES = ((-1, 0), (1, 0), (0, -1), (0, 1))


def walk_boards(n, width, steps, seed):
    """n boards walked `steps` random blank moves from the blank-first goal."""
    rng = np.random.default_rng(seed)
    out = np.empty((n, width * width), dtype=np.uint8)
    for i in range(n):
        b = np.arange(width * width, dtype=np.uint8)
        r = c = 0
        for _ in range(steps):
            dr, dc = _MOVES[rng.integers(4)]
            if 0 <= r + dr < width and 0 <= c + dc < width:
                b[r * width + c], b[(r + dr) * width + c + dc] = b[(r + dr) * width + c + dc], 0
                r, c = r + dr, c + dc
        out[i] = b
    return out


def write_instances(path, boards):
    with open(path, "w") as f:
        for i, b in enumerate(boards):
            f.write("b%d %s\n" % (i, " ".join(str(int(t)) for t in b)))


def run(*args, **kw):
    """Run heurnet with args; the completed process (stdout text)."""
    p = subprocess.run([HN] + [str(a) for a in args], capture_output=True, text=True, **kw)
    if p.returncode != 0:
        raise AssertionError("heurnet %s exited %d: %s" % (" ".join(map(str, args)), p.returncode,
                                                         p.stderr[-500:]))
    return p


def records(text):
    """key=value records of heurnet solve (the '#' summary skipped)."""
    out = []
    for line in text.splitlines():
        if line.startswith("#") or not line.strip():
            continue
        out.append(dict(kv.split("=", 1) for kv in line.split()))
    return out
