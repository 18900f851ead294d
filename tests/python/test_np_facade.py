"""The square n-puzzles' old calls (solve, Heuristic, PDB, predict_boards)
run on the domain facade: their numbers against a second route, the
command line, on the same boards (both goal layouts, the old algorithm
words translated), and the PDB's tables against heurnet pdb info."""

import os
import unittest

import numpy as np

import heurnet
from common import SRC, TMP, walk_boards, write_instances, run, records

M8 = os.path.join(SRC, "models", "8puzzle-annd.h5")


def tmp(name):
    return os.path.join(TMP, name)


def blank_last_boards(n, seed):
    """Boards solvable for the blank-last goal: walks on its Domain."""
    d = heurnet.Domain("npuzzle:3x3:blank-last")
    return np.ascontiguousarray(d.random_walks(n, (10, 40), seed=seed)[:, :9])


def cli_solve(boards, *args):
    write_instances(tmp("np.txt"), boards)
    return records(run("solve", "-q", *args, tmp("np.txt")).stdout)


class SolveWords(unittest.TestCase):
    """heurnet.solve's words against heurnet solve --puzzle's."""

    def same(self, boards, cli_args, **kw):
        want = cli_solve(boards, "--puzzle", 8, *cli_args)
        got = heurnet.solve(boards, puzzle=8, **kw)
        self.assertEqual(len(want), len(got))
        for i, w in enumerate(want):
            g = got[i]
            self.assertEqual(w["status"], g["status"], "board %d" % i)
            for k in ("length", "expanded", "generated", "h0"):
                self.assertEqual(int(w[k]), g[k], "board %d: %s (%s)" % (i, k, cli_args))
            self.assertEqual(w["moves"], g["moves"])

    def test_algorithms(self):
        b = walk_boards(15, 3, 50, 21)
        # batch-astar: the old word, bwas at weight 1 on the one core
        self.same(b, ["--heuristic", "lc", "--algo", "bwas", "--weight", "1", "--batch", "5"],
                  heuristic="lc", algo="batch-astar", batch=5)
        self.same(b, ["--heuristic", "manhattan", "--algo", "wastar", "--weight", "2.5"],
                  heuristic="manhattan", algo="wastar", weight=2.5)
        self.same(b, ["--heuristic", "ann:" + M8, "--algo", "focal", "--admissible", "pdb:8"],
                  heuristic="ann:" + M8, algo="focal")
        self.same(b, ["--heuristic", "max:manhattan,lc", "--algo", "astar"],
                  heuristic="max:manhattan,lc", algo="astar")

    def test_blank_last(self):
        b = blank_last_boards(15, 22)
        want = cli_solve(b, "--puzzle", 8, "--goal", "blank-last", "--heuristic", "manhattan",
                         "--algo", "astar")
        got = heurnet.solve(b, puzzle=8, goal="blank-last", heuristic="manhattan", algo="astar")
        self.assertEqual([int(w["expanded"]) for w in want], list(got.expanded))
        self.assertEqual([w["moves"] for w in want], got.moves)
        bad = b[:1].copy()
        i, j = np.nonzero(bad[0])[0][:2]
        bad[0, [i, j]] = bad[0, [j, i]]  # two tiles swapped: the other parity class
        with self.assertRaises(heurnet.HeurnetValueError) as cm:
            heurnet.solve(bad, puzzle=8, goal="blank-last")
        self.assertIn("board 0 cannot reach the blank-last goal", str(cm.exception))

    def test_old_refusals_stay(self):
        b = walk_boards(1, 3, 10, 1)
        for kw, msg in (({"algo": "wastar", "batch": 4}, "one node at a time"),
                        ({"algo": "bwas", "weight": 1.5}, "out of range"),
                        ({"algo": "wastar", "weight": 0.5}, "out of range")):
            with self.assertRaises(heurnet.HeurnetValueError) as cm:
                heurnet.solve(b, puzzle=8, **kw)
            self.assertIn(msg, str(cm.exception))


class Values(unittest.TestCase):
    def test_heuristic_values_are_the_solvers_h0(self):
        b = walk_boards(25, 3, 60, 23)
        bl = blank_last_boards(25, 24)
        for name in ("manhattan", "lc", "pdb:8", "ann:" + M8):
            for boards, goal in ((b, "blank-first"), (bl, "blank-last")):
                want = cli_solve(boards, "--puzzle", 8, "--goal", goal, "--heuristic", name,
                                 "--algo", "astar")
                got = heurnet.Heuristic(name, puzzle=8, goal=goal).values(boards)
                self.assertEqual(got.dtype, np.int32)
                self.assertEqual([int(w["h0"]) for w in want], list(got), (name, goal))

    def test_predict_boards_blank_last_needs_its_goal(self):
        m = heurnet.Model.load(M8)
        self.assertEqual(m.domain, "npuzzle:3x3")
        b = walk_boards(5, 3, 30, 25)
        d = heurnet.Domain("npuzzle:3x3")
        x = d.encode(np.c_[b, np.argmin(b, axis=1)].astype(np.uint8))
        self.assertTrue(np.array_equal(m.predict_boards(b), m.predict(x)[:, 0]))
        m.encoder = "npuzzle-onehot n=3 goal=blank-last"
        self.assertEqual(m.domain, "npuzzle:3x3:blank-last")


class Tables(unittest.TestCase):
    def test_tables_and_save_equal_heurnet_pdb_info(self):
        p = heurnet.PDB("5-5-5", puzzle=15)
        tables = p.tables
        self.assertEqual(len(tables), 3)
        folder = tmp("pdb555")
        p.save(folder)
        for t in tables:
            self.assertFalse(t["table"].flags.writeable)
            self.assertEqual(t["table"].size, t["entries"])
            info = dict(kv.split("=", 1) for kv in
                        run("pdb", "info", os.path.join(folder, t["file"])).stdout.split()
                        if "=" in kv and not kv.startswith("#"))
            reached = t["table"][t["table"] != 255]
            self.assertEqual(int(info["entries"]), t["entries"])
            self.assertEqual(int(info["reached"]), reached.size)
            self.assertEqual(int(info["max"]), int(reached.max()))
            self.assertEqual(info["domain"], t["domain"])
        del p  # the views keep the tables alive
        self.assertGreater(int(tables[0]["table"].max()), 0)
        with self.assertRaises(heurnet.HeurnetError):
            heurnet.PDB("9-9", puzzle=15)


if __name__ == "__main__":
    unittest.main()
