"""A domain written in Python (heurnet.PythonDomain): the pancake stack of
examples/domain_pancake.c as a class of numpy callbacks gives the C
plug-in's results: its walks and uniform states, batched calls, gen's
dataset rows, solve's solutions and node counts, and avi's network."""

import os
import sys
import unittest

import numpy as np

import heurnet
from common import SRC, TMP
from test_domain import PANCAKE, build_pancake

sys.path.insert(0, os.path.join(SRC, "examples"))
from domain_pancake import N, PyPancake  # noqa: E402


def tmp(name):
    return os.path.join(TMP, name)


class PythonPancake(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        build_pancake()
        cls.c = heurnet.Domain(PANCAKE + ":%d" % N)
        cls.py = heurnet.Domain(PyPancake())

    def test_facts_and_batched_calls(self):
        c, py = self.c, self.py
        for k in ("canonical", "state_bytes", "nmoves", "moves", "inputs", "max_active",
                  "encoding", "heuristics", "has_uniform", "move_sep"):
            self.assertEqual(getattr(c, k), getattr(py, k), k)
        s = c.random_walks(300, (1, 20), seed=3)
        self.assertTrue(np.array_equal(s, py.random_walks(300, (1, 20), seed=3)))
        self.assertTrue(np.array_equal(c.uniform(100, seed=4), py.uniform(100, seed=4)))
        for a, b in zip(c.expand(s), py.expand(s)):
            self.assertTrue(np.array_equal(a, b))
        self.assertTrue(np.array_equal(c.encode(s), py.encode(s)))
        self.assertTrue(np.array_equal(c.heuristic("gap").values(s),
                                       py.heuristic("gap").values(s)))
        self.assertEqual(c.format(s[:5]), py.format(s[:5]))
        self.assertTrue(np.array_equal(py.parse(c.format(s[:5])), s[:5]))

    def test_gen_rows_equal(self):
        import h5py
        rows = {}
        for name, d in (("c", self.c), ("py", self.py)):
            heurnet.gen(tmp("pd_%s.h5" % name), count=150, domain=d, walk=(1, 12), seed=5,
                        label="gap", threads=1, overwrite=True)
            with h5py.File(tmp("pd_%s.h5" % name), "r") as f:
                rows[name] = {k: f[k][:] for k in ("states", "cost", "expanded", "walk")}
        for k in rows["c"]:
            self.assertTrue(np.array_equal(rows["c"][k], rows["py"][k]), k)
        self.assertGreater(int(rows["c"]["cost"].max()), 3)

    def test_solve_equal(self):
        s = self.c.random_walks(12, (5, 20), seed=6)
        for algo, kw in (("astar", {}), ("idastar", {}), ("beam", {"width": 32})):
            a = self.c.solve(s, algo=algo, heuristic="gap", **kw)
            b = self.py.solve(s, algo=algo, heuristic="gap", **kw)
            for k in ("status", "length", "expanded", "generated"):
                self.assertTrue(np.array_equal(getattr(a, k), getattr(b, k)), (algo, k))
            self.assertEqual(a.move_text, b.move_text)
            self.assertTrue((a.status == "solved").all())

    def test_avi_equal(self):
        models = []
        for name, d in (("c", self.c), ("py", self.py)):
            m, _ = heurnet.avi(tmp("pd_avi_%s.h5" % name), arch="64-32-1", domain=d, rounds=2,
                               steps_per_round=20, batch=64, walk_max=10, seed=7, threads=1)
            models.append(m)
        self.assertEqual(models[0].attrs.get("domain"), models[1].attrs.get("domain"))
        self.assertTrue(np.array_equal(models[0].params, models[1].params))

    def test_an_exception_in_a_callback_is_raised(self):
        class Broken(PyPancake):
            name = "brokencake"

            def __init__(self):
                super().__init__(5)
                self.canonical = "brokencake:5"

            def expand(self, states):
                raise RuntimeError("expand broke")

        d = heurnet.Domain(Broken())
        with self.assertRaises(RuntimeError) as cm:
            d.solve(d.random_walks(1, 0, seed=1)[:, ::-1].copy(), algo="astar", heuristic="gap")
        self.assertIn("expand broke", str(cm.exception))


if __name__ == "__main__":
    unittest.main()
