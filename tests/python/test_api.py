"""The heurnet Python package against the command line: the same numbers
(predict, solve, gen, train, avi files) and heurnet's messages as
exceptions for bad input."""

import os
import unittest

import numpy as np

import heurnet
from common import HN, SRC, DATA, TMP, walk_boards, write_instances, run, records

M8 = os.path.join(SRC, "models", "8puzzle-annd.h5")
M15 = os.path.join(SRC, "models", "15puzzle-annd.h5")
KORF = os.path.join(DATA, "npuzzle", "korf100.txt")


def tmp(name):
    return os.path.join(TMP, name)


def read(path, mode="r"):
    with open(path, mode) as f:
        return f.read()


class Version(unittest.TestCase):
    def test_version_is_the_library_and_the_executable(self):
        v = run("--version").stdout.split()[1]
        self.assertEqual(heurnet.__version__, v)


class Predict(unittest.TestCase):
    def test_boards_equal_heurnet_predict(self):
        m = heurnet.Model.load(M15)
        want = [line.split("\t") for line in
                run("predict", "--model", M15, "--instances", KORF).stdout.splitlines()]
        boards = np.array([[int(t) for t in line.split()[2:]] for line in read(KORF).splitlines()
                           if line.strip() and not line.startswith("#")], dtype=np.uint8)
        got = m.predict_boards(boards)
        self.assertEqual(len(got), 100)
        self.assertEqual([w[1] for w in want], ["%.6g" % v for v in got])

    def test_rows_equal_heurnet_predict_and_no_copy(self):
        import h5py
        m = heurnet.Model.load(M8)
        x = np.zeros((50, 81), dtype=np.float32)
        rng = np.random.default_rng(3)
        for i, b in enumerate(walk_boards(50, 3, 40, 3)):
            x[i, np.arange(9) * 9 + np.argsort(b)] = 1  # one-hot: tile t at cell p
        x[-1] = rng.standard_normal(81)  # any floats go through
        with h5py.File(tmp("x.h5"), "w") as f:
            f["x"] = x
        want = run("predict", "--model", M8, "--data", tmp("x.h5")).stdout.split()
        out = np.empty((50, 1), dtype=np.float32)
        got = m.predict(x, out=out)
        self.assertIs(got, out)
        self.assertEqual(want, ["%.9g" % v for v in got[:, 0]])

    def test_info(self):
        m = heurnet.Model.load(M8)
        self.assertEqual((m.inputs, m.outputs, m.layers), (81, 1, 4))
        self.assertEqual(m.spec, "81-512-256-128-1")
        self.assertEqual(m.domain, "npuzzle:3x3")
        self.assertIn("best_epoch", m.attrs)
        self.assertEqual(m.params.dtype, np.float32)

    def test_refusals_name_the_problem(self):
        m = heurnet.Model.load(M8)
        x = np.zeros((4, 81), dtype=np.float32)
        cases = [(x.astype(np.float64), TypeError, "float32"),
                 (np.zeros((4, 80), dtype=np.float32), ValueError, "shape (n, 81)"),
                 (np.zeros(81, dtype=np.float32), ValueError, "shape (n, 81)"),
                 (np.asfortranarray(x), ValueError, "C-contiguous"),
                 (np.zeros((4, 162), dtype=np.float32)[:, ::2], ValueError, "C-contiguous"),
                 ([[0.0] * 81], TypeError, "numpy.ndarray")]
        nan = x.copy()
        nan[2, 5] = np.nan
        cases.append((nan, ValueError, "row 2 holds NaN"))
        for arr, exc, msg in cases:
            with self.assertRaises(exc) as cm:
                m.predict(arr)
            self.assertIn(msg, str(cm.exception))

    def test_from_spec_equals_nn_init_and_round_trips(self):
        run("nn", "init", "--arch", "81-32-16-1", "--seed", "7", "-o", tmp("init.h5"))
        cli = heurnet.Model.load(tmp("init.h5"))
        m = heurnet.Model.from_spec("81-32-16-1", seed=7)
        self.assertTrue(np.array_equal(cli.params, m.params))
        self.assertEqual(cli.spec, m.spec)
        m.set_attr("note", "python")
        m.set_attr("answer", 42)
        m.save(tmp("py.h5"))
        back = heurnet.Model.load(tmp("py.h5"))
        self.assertTrue(np.array_equal(back.params, m.params))
        self.assertEqual((back.attrs["note"], back.attrs["answer"]), ("python", 42.0))
        with self.assertRaises(heurnet.HeurnetValueError) as cm:
            heurnet.Model.from_spec("81-x-1")
        self.assertIn("81-x-1", str(cm.exception))


class Files(unittest.TestCase):
    def test_missing_and_damaged_files_raise(self):
        with self.assertRaises(heurnet.HeurnetError) as cm:
            heurnet.Model.load(tmp("nonexistent.h5"))
        self.assertIn("nonexistent.h5", str(cm.exception))
        data = read(M8, "rb")
        with open(tmp("cut.h5"), "wb") as f:
            f.write(data[: len(data) // 2])
        with self.assertRaises(heurnet.HeurnetError) as cm:
            heurnet.Model.load(tmp("cut.h5"))
        self.assertIn("cut.h5", str(cm.exception))

    def test_unverifiable_damaged_file_is_read_in_a_child(self):
        # without its checksum trailer a file cannot be verified: the reader
        # runs in a forked child first; flipped bytes must not end Python
        forks = []
        os.register_at_fork(after_in_parent=lambda: forks.append(1))
        data = bytearray(read(M8, "rb")[:-24])
        for k, off in enumerate(range(200, 4000, 97)):
            d = bytearray(data)
            d[off:off + 8] = b"\xff" * 8
            p = tmp("flip%d.h5" % k)
            with open(p, "wb") as f:
                f.write(d)
            try:
                heurnet.Model.load(p)
            except heurnet.HeurnetError as e:
                self.assertIn("flip%d.h5" % k, str(e))
        self.assertGreater(len(forks), 0, "no file was read in a child")


class Solve(unittest.TestCase):
    def compare(self, boards, width, cli_args, **kw):
        write_instances(tmp("b.txt"), boards)
        want = records(run("solve", "--puzzle", width * width - 1, "-q", *cli_args,
                           tmp("b.txt")).stdout)
        got = heurnet.solve(boards, puzzle=width * width - 1, **kw)
        self.assertEqual(len(want), len(got))
        for w, i in zip(want, range(len(got))):
            g = got[i]
            self.assertEqual(w["status"], g["status"])
            for k in ("length", "expanded", "generated", "h0"):
                self.assertEqual(int(w[k]), g[k], "board %d: %s" % (i, k))
            self.assertEqual(w["moves"], g["moves"])
        return got

    def test_idastar_pdb_equals_heurnet_solve(self):
        b = walk_boards(20, 3, 60, 1)
        got = self.compare(b, 3, ["--heuristic", "pdb:8"], heuristic="pdb:8")
        self.assertTrue((got.status == "solved").all())

    def test_astar_model_equals_heurnet_solve(self):
        b = walk_boards(10, 3, 60, 2)
        self.compare(b, 3, ["--model", M8], model=M8)
        got = self.compare(b, 3, ["--model", M8], model=heurnet.Model.load(M8))
        # as heurnet solve --model, the puzzle comes from the model
        self.assertTrue(np.array_equal(heurnet.solve(b, model=M8).expanded, got.expanded))

    def test_15puzzle_555_and_batch_astar(self):
        b = walk_boards(5, 4, 40, 4)
        self.compare(b, 4, ["--heuristic", "pdb:5-5-5"], heuristic="pdb:5-5-5")
        self.compare(b, 4, ["--heuristic", "pdb:5-5-5", "--algo", "bwas", "--batch", "16"],
                     heuristic="pdb:5-5-5", algo="batch-astar")
        self.compare(b, 4, ["--algo", "wastar", "--heuristic", "manhattan"],
                     heuristic="manhattan", algo="wastar")

    def test_limit_is_a_status_not_an_exception(self):
        b = walk_boards(2, 4, 200, 5)
        got = heurnet.solve(b, puzzle=15, heuristic="manhattan", max_expanded=5)
        self.assertEqual(list(got.status), ["limit", "limit"])
        self.assertEqual(list(got.length), [-1, -1])

    def test_refusals(self):
        b = walk_boards(1, 3, 10, 1)
        with self.assertRaises(ValueError) as cm:
            heurnet.solve(b, domain="rubik:3x3")
        self.assertIn("rubik:3x3", str(cm.exception))
        self.assertIn("cube3", str(cm.exception))  # the domains there are
        with self.assertRaises(ValueError):
            heurnet.solve(b, puzzle=35)
        with self.assertRaises(TypeError) as cm:
            heurnet.solve(b.astype(np.int64), puzzle=8)
        self.assertIn("uint8", str(cm.exception))
        bad = b.copy()
        bad[0, :2] = bad[0, 1::-1]  # one swap: the other parity class
        with self.assertRaises(heurnet.HeurnetValueError) as cm:
            heurnet.solve(bad, puzzle=8)
        self.assertIn("board 0 cannot reach", str(cm.exception))
        dup = b.copy()
        dup[0, 0] = dup[0, 1]
        with self.assertRaises(heurnet.HeurnetValueError):
            heurnet.solve(dup, puzzle=8)
        with self.assertRaises(heurnet.HeurnetValueError) as cm:
            heurnet.solve(b, puzzle=8, algo="dfs")
        self.assertIn("dfs", str(cm.exception))
        with self.assertRaises(heurnet.HeurnetValueError) as cm:
            heurnet.solve(b, puzzle=8, heuristic="pdb:9-9")
        self.assertIn("9-9", str(cm.exception))


class Gil(unittest.TestCase):
    def test_python_runs_during_a_solve(self):
        import threading
        import time
        boards = np.array([[int(t) for t in line.split()[2:]] for line in read(KORF).splitlines()
                           if line.strip() and not line.startswith("#")], dtype=np.uint8)
        t = threading.Thread(target=heurnet.solve, args=(boards,), kwargs={"model": M15})
        t0 = time.perf_counter()
        t.start()
        spins = 0
        while t.is_alive():
            if time.perf_counter() - t0 > 0.1:  # well inside the C call
                spins += 1
        t.join()
        # a call holding the GIL would leave this thread no turn until it returns
        self.assertGreater(spins, 100000)


class Pdb(unittest.TestCase):
    def test_lookup_equals_the_solvers_h0(self):
        b = walk_boards(30, 3, 40, 6)
        pdb = heurnet.PDB("8", puzzle=8)
        h = heurnet.Heuristic("pdb:8:noreflect", puzzle=8)
        sol = heurnet.solve(b, puzzle=8, heuristic="pdb:8:noreflect")
        self.assertTrue(np.array_equal(pdb.lookup(b), h.values(b)))
        self.assertTrue(np.array_equal(pdb.lookup(b), sol.h0))
        self.assertTrue((pdb.lookup(b) <= sol.length).all())
        pdb.save(tmp("p8.pdb"))
        self.assertGreater(os.path.getsize(tmp("p8.pdb")), 0)
        self.assertEqual(int(heurnet.PDB("8", puzzle=8).lookup(np.arange(9, dtype=np.uint8))[0]), 0)


class Learn(unittest.TestCase):
    def test_gen_writes_the_cli_file(self):
        import h5py
        run("gen", "--puzzle", "8", "--count", "300", "--seed", "5", "--threads", "1", "--quiet",
            "-o", tmp("cli.h5"))
        seen = []
        st = heurnet.gen(tmp("gen_py.h5"), count=300, puzzle=8, seed=5, threads=2,
                         progress=lambda d, t, e: seen.append((d, t)))
        self.assertEqual((st["rows"], st["complete"]), (300, 1))
        self.assertTrue(seen and seen[-1][0] == 300)
        with h5py.File(tmp("cli.h5"), "r") as a, h5py.File(tmp("gen_py.h5"), "r") as b:
            for k in a:
                self.assertTrue(np.array_equal(a[k][()], b[k][()]), k)
        # resumable: a second call finds the file complete
        self.assertEqual(heurnet.gen(tmp("gen_py.h5"), count=300, puzzle=8, seed=5)["boards"], 0)

    def test_train_and_avi_write_the_cli_files(self):
        run("gen", "--puzzle", "8", "--count", "400", "--seed", "9", "--quiet", "-o",
            tmp("d.h5"))
        run("train", "--data", tmp("d.h5"), "--arch", "81-32-1", "--epochs", "2", "--batch",
            "64", "--quiet", "--log", tmp("cli.csv"), "-o", tmp("cli_m.h5"))
        epochs = []
        m, hist = heurnet.train(tmp("d.h5"), tmp("py_m.h5"), arch="81-32-1", epochs=2, batch=64,
                                log=tmp("py.csv"), on_epoch=epochs.append)
        self.assertEqual([e["epoch"] for e in hist], [1, 2])
        self.assertEqual(len(epochs), 2)
        cli = heurnet.Model.load(tmp("cli_m.h5"))
        self.assertTrue(np.array_equal(cli.params, heurnet.Model.load(tmp("py_m.h5")).params))
        strip = lambda p: [",".join(r.split(",")[:6]) for r in read(p).splitlines()]  # noqa: E731
        self.assertEqual(strip(tmp("cli.csv")), strip(tmp("py.csv")))

        args = ["--arch", "81-16-1", "--rounds", "2", "--steps", "5", "--batch", "50"]
        run("avi", "--puzzle", "8", *args, "--quiet", "-o", tmp("cli_avi.h5"))
        a, rounds = heurnet.avi(tmp("py_avi.h5"), arch="81-16-1", puzzle=8, rounds=2,
                                steps_per_round=5, batch=50)
        self.assertEqual([r["round"] for r in rounds], [1, 2])
        self.assertTrue(np.array_equal(heurnet.Model.load(tmp("cli_avi.h5")).params, a.params))

    def test_callback_errors_and_bad_options_raise(self):
        run("gen", "--puzzle", "8", "--count", "200", "--seed", "2", "--quiet", "-o",
            tmp("d2.h5"))

        def boom(e):
            raise RuntimeError("stop here")
        with self.assertRaises(RuntimeError):
            heurnet.train(tmp("d2.h5"), arch="81-8-1", epochs=3, batch=32, on_epoch=boom)
        with self.assertRaises(heurnet.HeurnetValueError) as cm:
            heurnet.train(tmp("d2.h5"), arch="80-8-1", epochs=1)
        self.assertIn("80", str(cm.exception))
        with self.assertRaises(heurnet.HeurnetError) as cm:
            heurnet.train(tmp("none.h5"), arch="81-8-1")
        self.assertIn("none.h5", str(cm.exception))
        with self.assertRaises(ValueError):
            heurnet.gen(tmp("x.h5"), count=10, domain="nosuch:6")


if __name__ == "__main__":
    unittest.main()
