"""heurnet.torch, where torch is installed (skipped otherwise): the
dataset over heurnet's files, a module as a search heuristic, the ONNX
import in process and back, tensors where arrays go; and the callback
heuristic under it (no torch needed)."""

import os
import threading
import unittest

import numpy as np

import heurnet
from common import TMP

try:
    import torch
    import heurnet.torch as ht
except ImportError:  # python3-torch: scripts/deps.sh --peers
    torch = None

CUBE = "cube3"


def tmp(name):
    return os.path.join(TMP, name)


class Callback(unittest.TestCase):
    def test_a_python_heuristic_orders_the_search_as_the_library_one(self):
        d = heurnet.Domain("npuzzle:3x3")
        lib_h = d.heuristic("manhattan")
        s = d.random_walks(10, (10, 30), seed=2)
        want = d.solve(s, algo="wastar", heuristic="manhattan", weight=2)
        seen = []
        with heurnet.CallbackHeuristic(d, lambda x: seen.append(len(x)) or
                                       lib_h.values(x)) as h:
            for threads in (1, 2):
                got = d.solve(s, algo="wastar", heuristic=h.spec, weight=2, threads=threads)
                self.assertTrue(np.array_equal(want.length, got.length))
                self.assertTrue(np.array_equal(want.expanded, got.expanded))
        self.assertGreater(max(seen), 1)  # batches, not one state per call
        with self.assertRaises(heurnet.HeurnetError):
            d.solve(s, algo="astar", heuristic=h.spec)  # closed: not registered

    def test_an_exception_in_fn_is_raised_by_solve(self):
        d = heurnet.Domain("npuzzle:3x3")

        def bad(x):
            raise KeyError("no value here")

        with heurnet.CallbackHeuristic(d, bad) as h:
            with self.assertRaises(KeyError):
                d.solve(d.random_walks(2, 10, seed=1), algo="astar", heuristic=h.spec)
            with self.assertRaises(ValueError):  # wrong count: refused
                h.fn = lambda x: np.zeros(len(x) + 1)
                d.solve(d.random_walks(2, 10, seed=1), algo="astar", heuristic=h.spec)
            h.fn = lambda x: np.zeros(len(x))
            self.assertEqual(d.solve(d.goal(), algo="astar", heuristic=h.spec).length[0], 0)


@unittest.skipIf(torch is None, "torch is not installed (scripts/deps.sh --peers)")
class Torch(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        torch.manual_seed(1)
        cls.d = heurnet.Domain(CUBE)
        cls.net = torch.nn.Sequential(torch.nn.Linear(cls.d.inputs, 32), torch.nn.ReLU(),
                                      torch.nn.Linear(32, 16), torch.nn.ELU(),
                                      torch.nn.Linear(16, 1)).eval()

    def test_dataset_rows_are_the_files(self):
        import h5py
        heurnet.gen(tmp("t_cube.h5"), count=60, domain=self.d, walk=(1, 5), seed=3, threads=1,
                    overwrite=True)
        ds = ht.Dataset(tmp("t_cube.h5"))
        with h5py.File(tmp("t_cube.h5"), "r") as f:
            states, cost = f["states"][:], f["cost"][:]
        self.assertEqual(len(ds), len(states))
        x, y = ds[7]
        self.assertTrue(torch.equal(x, torch.from_numpy(self.d.encode(states[7:8])[0])))
        self.assertEqual(float(y), float(cost[7]))
        X, Y = ds.tensors()
        self.assertEqual(tuple(X.shape), (len(states), self.d.inputs))
        self.assertTrue(np.array_equal(Y.numpy(), cost.astype(np.float32)))
        loader = torch.utils.data.DataLoader(ds, batch_size=16)
        self.assertEqual(sum(len(b[0]) for b in loader), len(ds))

    def test_import_export_and_search(self):
        s = self.d.random_walks(6, (2, 4), seed=4)
        x = self.d.encode(s)
        with torch.no_grad():
            want = self.net(torch.from_numpy(x))[:, 0].numpy()
        m = heurnet.Model.from_torch(self.net, self.d)
        self.assertEqual(m.domain, self.d.spec)
        self.assertEqual(m.encoder, self.d.encoding)
        self.assertLess(float(np.abs(m.predict(x)[:, 0] - want).max()), 1e-5)
        back = m.to_torch()
        with torch.no_grad():
            self.assertLess(float((back(torch.from_numpy(x))[:, 0] -
                                   torch.from_numpy(want)).abs().max()), 1e-5)
        # the module in the search and the imported model: the same values
        with ht.TorchHeuristic(self.net, self.d) as h:
            a = self.d.solve(s, algo="astar", heuristic=h.spec, max_expanded=3000)
            self.assertGreater(h.rows, 0)
        m.save(tmp("t_cube_net.h5"))
        lib_v = self.d.heuristic("ann:" + tmp("t_cube_net.h5") + ",float").values(s)
        self.assertLess(float(np.abs(lib_v - want).max()), 1e-5)
        b = self.d.solve(s, algo="astar", model=m, engine="float", max_expanded=3000)
        self.assertTrue(np.array_equal(a.status, b.status))
        self.assertTrue(np.array_equal(a.expanded, b.expanded))

    def test_tensors_where_arrays_go(self):
        s = self.d.random_walks(5, 3, seed=5)
        t = torch.from_numpy(s)
        self.assertTrue(np.array_equal(self.d.encode(t), self.d.encode(s)))
        m = heurnet.Model.from_torch(self.net, self.d)
        xt = torch.from_numpy(self.d.encode(s))
        self.assertTrue(np.array_equal(m.predict(xt), m.predict(xt.numpy())))
        with self.assertRaises(TypeError):
            m.predict(xt.double())  # the dtype is still checked

    def test_two_threads_on_one_heuristic(self):
        s = self.d.random_walks(4, (1, 3), seed=6)
        out = []
        with ht.TorchHeuristic(self.net, self.d) as h:
            ts = [threading.Thread(target=lambda: out.append(
                self.d.solve(s, algo="astar", heuristic=h.spec, max_expanded=500).expanded))
                for _ in range(2)]
            for t in ts:
                t.start()
            for t in ts:
                t.join()
        self.assertEqual(len(out), 2)
        self.assertTrue(np.array_equal(out[0], out[1]))


if __name__ == "__main__":
    unittest.main()
