#!/usr/bin/env python3
"""Write the boards of a `heurnet gen` dataset as an instance file with their
optimal lengths ("id optimal t0 .. tn" a line, the dataset's goal layout named
in a comment), e.g. for `heurnet ablate --search FILE@GOAL`.
usage: dataset_to_instances.py DATA.h5 OUT.txt"""
import sys

import h5py

if len(sys.argv) != 3:
    sys.exit(__doc__)
with h5py.File(sys.argv[1], "r") as f:
    cost = f["cost"][:]
    if "states" in f:  # an n-puzzle state: the tiles, then the blank's cell
        boards = f["states"][:, :-1]
        dom = f.attrs["domain"]
        dom = dom.decode() if isinstance(dom, bytes) else str(dom)
        goal = "blank-last" if dom.endswith(":blank-last") else "blank-first"
    else:
        boards = f["boards"][:]
        goal = f.attrs.get("goal", b"blank-first")
        goal = goal.decode() if isinstance(goal, bytes) else str(goal)
with open(sys.argv[2], "w") as out:
    out.write(f"# {len(boards)} boards of {sys.argv[1].split('/')[-1]}, goal {goal}: id optimal tiles\n")
    for i, (b, c) in enumerate(zip(boards, cost)):
        out.write(f"{i + 1} {int(c)} " + " ".join(str(int(t)) for t in b) + "\n")
