#!/usr/bin/env python3
"""The boards on the solutions that `heurnet solve -q INST > SOLVED` found, as
an instance file (`id tiles`, one line per board before each move, the goal
left out), for `heurnet avi --start-boards`: DAVI then backs up values on
the boards a search meets (docs/value-iteration.md, "Start boards").

usage: path_boards.py INST:SOLVED [INST:SOLVED ...] -o OUT.txt [--puzzle 15|24]

Boards are in the blank-first layout (as the solutions must end there). The
output is written to OUT.txt.tmp and renamed, so a failed run leaves no
partial OUT.txt.
"""
import argparse
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from distill_labels import read_paths, write_boards  # noqa: E402

import numpy as np  # noqa: E402


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("paths", nargs="+", metavar="INST:SOLVED")
    ap.add_argument("-o", dest="out", required=True)
    ap.add_argument("--puzzle", type=int, choices=[15, 24], default=24)
    a = ap.parse_args()
    w = 4 if a.puzzle == 15 else 5
    boards = np.concatenate([read_paths(p, w)[0] for p in a.paths])
    tmp = a.out + ".tmp"
    try:
        write_boards(tmp, boards)
        os.replace(tmp, a.out)
    except OSError as e:
        if os.path.exists(tmp):
            os.remove(tmp)
        sys.exit(f"{a.out}: cannot write the boards: {e.strerror}")
    print(f"{a.out}: {len(boards)} boards from {len(a.paths)} solution file(s)", file=sys.stderr)


if __name__ == "__main__":
    main()
