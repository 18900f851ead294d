#!/usr/bin/python3
"""The pancake stack of examples/domain_pancake.c written in Python: a
heurnet.PythonDomain of batched numpy callbacks. heurnet.Domain(PyPancake(8))
runs it through every call (gen, train, avi, solve) with the C plug-in's
results (tests/python/test_pydomain.py checks them); run this file to
solve a few stacks with it.

usage: examples/domain_pancake.py [N]
"""
import sys

import numpy as np

import heurnet

N = 8


class PyPancake(heurnet.PythonDomain):
    """The pancake stack of N, as examples/domain_pancake.c defines it."""
    name = "pancake"

    def __init__(self, n=N):
        moves = n - 1
        # the plug-in's pruning: never the same flip twice in a row
        prune = np.array([[255 if q == m + 1 else m + 1 for m in range(moves)]
                          for q in range(moves + 1)], np.uint8)
        super().__init__(canonical="pancake:%d" % n, encoding="pancake-onehot n=%d" % n,
                         state_bytes=n, moves=[str(k) for k in range(2, n + 1)],
                         inverse=list(range(moves)), inputs=n * n, max_active=n,
                         heuristics=["gap"], has_uniform=True, typical_depth=n, prune=prune)
        self.n = n

    def goal(self):
        return np.arange(self.n, dtype=np.uint8)

    def expand(self, states):
        kids = np.repeat(states[:, None, :], self.n - 1, axis=1)
        for m in range(self.n - 1):
            k = m + 2
            kids[:, m, :k] = states[:, k - 1::-1]
        return kids, np.ones((len(states), self.n - 1), bool)

    def encode(self, states):
        return states.astype(np.int32) * self.n + np.arange(self.n, dtype=np.int32)

    def random_state(self, draw):
        s = np.arange(self.n, dtype=np.uint8)
        for i in range(self.n - 1, 0, -1):
            j = draw() % (i + 1)
            s[i], s[j] = s[j], s[i]
        return s

    def heuristic(self, name, states):
        below = np.concatenate([states[:, 1:].astype(int),
                                np.full((len(states), 1), self.n)], axis=1)
        return (np.abs(states.astype(int) - below) > 1).sum(axis=1)


if __name__ == "__main__":
    dom = heurnet.Domain(PyPancake(int(sys.argv[1]) if len(sys.argv) > 1 else N))
    stacks = dom.random_walks(5, (5, 15), seed=1)
    sol = dom.solve(stacks, algo="astar", heuristic="gap")
    for s, moves in zip(dom.format(stacks), sol.move_text):
        print("%s: flips %s" % (s, moves))
