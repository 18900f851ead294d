"""The Python package against a hostile or unlucky caller (issue 63,
defects 1, 5, 6 and 10): bad tiles, read-only outputs and bad scalars
raise an exception and never crash the interpreter or write anything;
two threads on one model get exactly the single-thread values; ~2,000
randomized wrong calls are all refused (hostile_calls.py, in a child
interpreter so that a crash is a failed test, not a lost run)."""

import os
import subprocess
import sys
import threading
import unittest

import numpy as np

import heurnet
from common import SRC, TMP, walk_boards

M8 = os.path.join(SRC, "models", "8puzzle-annd.h5")
M24 = os.path.join(SRC, "models", "24puzzle-annd.h5")
HERE = os.path.dirname(os.path.abspath(__file__))
ROUNDS = int(os.environ.get("HN_HOSTILE_ROUNDS", "2000"))


def child(code, timeout=120):
    """Run code in a fresh interpreter with this one's environment: the
    completed process (a negative returncode is the signal that ended it)."""
    env = dict(os.environ, PYTHONPATH=os.pathsep.join(p for p in sys.path if p))
    return subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                          env=env, timeout=timeout)


def onehot(boards):
    x = np.zeros((len(boards), 81), dtype=np.float32)
    x[np.arange(len(boards))[:, None], np.arange(9) * 9 + np.argsort(boards, axis=1)] = 1
    return x


class Tiles(unittest.TestCase):
    """#1: predict_boards checks every tile (the one-hot encoder indexes by
    tile: 255 wrote past the inputs, realloc(): invalid old size)."""

    def test_bad_3x3_boards_raise(self):
        m = heurnet.Model.load(M8)
        good = walk_boards(1, 3, 20, 4)
        self.assertEqual(m.predict_boards(good).shape, (1,))
        cases = [([9, 1, 2, 3, 4, 5, 6, 7, 8], "tile 9 is out of range 0..8"),
                 ([0] * 9, "tile 0 appears 9 times"),
                 ([1, 1, 2, 3, 4, 5, 6, 7, 8], "tile 1 appears 2 times"),
                 ([2, 1, 0, 3, 4, 5, 6, 7, 8], "cannot reach")]  # a permutation, other parity
        for tiles, msg in cases:
            for states in (np.array(tiles, np.uint8), [tiles]):
                with self.assertRaises(ValueError) as cm:
                    m.predict_boards(states)
                self.assertIn(msg, str(cm.exception))
        with self.assertRaises(TypeError):
            m.predict_boards([[0.5, 1, 2, 3, 4, 5, 6, 7, 8]])  # not truncated to 0
        two = np.concatenate([good, good])
        two[1, 3] = 200
        with self.assertRaises(ValueError) as cm:
            m.predict_boards(two)
        self.assertIn("board 1", str(cm.exception))

    def test_24puzzle_tiles_of_255_in_a_loop_do_not_kill_python(self):
        p = child("""
import numpy as np, heurnet
m = heurnet.Model.load(%r)
refused = 0
for i in range(300):
    try:
        m.predict_boards(np.full((1 + i %% 3, 25), 255, np.uint8))
    except ValueError as e:
        refused += 1
        assert "out of range 0..24" in str(e), e
print("refused", refused)
""" % M24)
        self.assertEqual(p.returncode, 0, "exit %d: %s" % (p.returncode, p.stderr[-800:]))
        self.assertIn("refused 300", p.stdout)


class Threads(unittest.TestCase):
    """#5: two threads on one model get exactly the single-thread values."""

    def test_two_threads_on_one_model_equal_one_thread(self):
        m = heurnet.Model.load(M8)
        rng = np.random.default_rng(8)
        batches = [rng.standard_normal((int(rng.integers(1, 300)), 81)).astype(np.float32)
                   for _ in range(12)]
        boards = [walk_boards(int(rng.integers(1, 40)), 3, 30, int(s)) for s in range(6)]
        want = [m.predict(x).copy() for x in batches]
        want_b = [m.predict_boards(b).copy() for b in boards]
        h = heurnet.Heuristic("ann:" + M8, puzzle=8)
        want_h = [h.values(b).copy() for b in boards]
        calls, wrong, errors = [0], [], []

        def work(seed):
            r = np.random.default_rng(seed)
            try:
                for k in range(150):
                    i = int(r.integers(len(batches)))
                    j = i % len(boards)
                    kind = k % 3
                    if kind == 0:
                        ok = np.array_equal(m.predict(batches[i]), want[i])
                    elif kind == 1:
                        ok = np.array_equal(m.predict_boards(boards[j]), want_b[j])
                    else:
                        ok = np.array_equal(h.values(boards[j]), want_h[j])
                    calls[0] += 1
                    if not ok:
                        wrong.append((seed, k, kind))
            except Exception as e:  # noqa: BLE001 - reported by the main thread
                errors.append(e)

        ts = [threading.Thread(target=work, args=(s,)) for s in (1, 2)]
        for t in ts:
            t.start()
        for t in ts:
            t.join()
        self.assertEqual(errors, [])
        self.assertEqual(calls[0], 300)
        self.assertEqual(wrong, [], "%d of 300 calls differ from one thread" % len(wrong))

    def test_copies_run_in_parallel_with_the_same_values(self):
        m = heurnet.Model.load(M8)
        x = onehot(walk_boards(64, 3, 30, 9))
        want = m.predict(x).copy()
        copies = [m.copy() for _ in range(2)]
        got = [None, None]

        def work(i):
            got[i] = [copies[i].predict(x).copy() for _ in range(20)]

        ts = [threading.Thread(target=work, args=(i,)) for i in range(2)]
        for t in ts:
            t.start()
        for t in ts:
            t.join()
        for g in got:
            for y in g:
                self.assertTrue(np.array_equal(y, want))

    def test_written_params_are_seen_by_predict(self):
        # the workspace is a snapshot of the weights: a live params view
        # makes predict fold it again, so no stale values are returned
        m = heurnet.Model.load(M8)
        x = onehot(walk_boards(8, 3, 30, 10))
        p = m.params
        before = m.predict(x).copy()
        p *= np.float32(1.01)
        after = m.predict(x).copy()
        m.save(os.path.join(TMP, "scaled.h5"))
        fresh = heurnet.Model.load(os.path.join(TMP, "scaled.h5")).predict(x)
        self.assertFalse(np.array_equal(before, after))
        self.assertTrue(np.array_equal(after, fresh))


class Outputs(unittest.TestCase):
    """#6: out= is never a read-only, mistyped, misshapen or overlapping array."""

    def test_read_only_and_wrong_outputs_are_refused(self):
        m = heurnet.Model.load(M8)
        x = onehot(walk_boards(3, 3, 20, 5))
        frozen = bytes(12)
        ro = np.zeros((3, 1), np.float32)
        ro.flags.writeable = False
        buf = np.zeros(3 * 81 + 3, np.float32)
        xo = buf[:243].reshape(3, 81)
        xo[:] = x
        cases = [(np.frombuffer(frozen, np.float32).reshape(3, 1), ValueError, "read-only"),
                 (ro, ValueError, "read-only"),
                 (np.broadcast_to(np.zeros((1, 1), np.float32), (3, 1)), ValueError, "read-only"),
                 (np.zeros((3, 1), np.float64), TypeError, "float32"),
                 (np.zeros((3, 1), ">f4"), TypeError, "float32"),
                 (np.zeros((3, 2), np.float32), ValueError, "shape"),
                 (np.zeros(3, np.float32), ValueError, "shape"),
                 (np.zeros((3, 2), np.float32)[:, :1], ValueError, "C-contiguous"),
                 ([0.0, 0.0, 0.0], TypeError, "numpy.ndarray"),
                 (np.ma.masked_array(np.zeros((3, 1), np.float32)), TypeError, "masked")]
        for out, exc, msg in cases:
            with self.assertRaises(exc) as cm:
                m.predict(x, out=out)
            self.assertIn(msg, str(cm.exception))
        with self.assertRaises(ValueError) as cm:
            m.predict(xo, out=buf[242:245].reshape(3, 1))
        self.assertIn("shares memory", str(cm.exception))
        self.assertEqual(frozen, bytes(12))
        self.assertTrue((ro == 0).all())
        out = np.zeros((3, 1), np.float32)
        self.assertIs(m.predict(x, out=out), out)
        self.assertTrue(np.array_equal(out, m.predict(x)))

    def test_read_only_memmap_does_not_crash(self):
        path = os.path.join(TMP, "ro.f32")
        with open(path, "wb") as f:
            f.write(b"\x01" * 12)
        p = child("""
import numpy as np, heurnet
m = heurnet.Model.load(%r)
out = np.memmap(%r, dtype=np.float32, mode="r", shape=(3, 1))
try:
    m.predict(np.zeros((3, 81), np.float32), out=out)
except ValueError as e:
    print("refused:", e)
""" % (M8, path))
        self.assertEqual(p.returncode, 0, "exit %d: %s" % (p.returncode, p.stderr[-800:]))
        self.assertIn("refused:", p.stdout)
        with open(path, "rb") as f:
            self.assertEqual(f.read(), b"\x01" * 12)


class Scalars(unittest.TestCase):
    """#10: scalars out of range, non-finite, of the wrong kind, and strings
    with NUL bytes are refused before anything runs."""

    board = np.array([[3, 1, 2, 0, 4, 5, 6, 7, 8]], np.uint8)

    def refused(self, exc, msg, fn, *args, **kw):
        with self.assertRaises(exc) as cm:
            fn(*args, **kw)
        self.assertIn(msg, str(cm.exception))

    def test_solve(self):
        s = heurnet.solve
        b = self.board
        kw = {"puzzle": 8, "heuristic": "manhattan"}
        self.refused(ValueError, "max_expanded=18446744073709551621", s, b,
                     max_expanded=2**64 + 5, **kw)
        self.refused(ValueError, "max_expanded=-1", s, b, max_expanded=-1, **kw)
        self.refused(ValueError, "max_nodes", s, b, max_nodes=2**64, **kw)
        self.refused(TypeError, "max_expanded", s, b, max_expanded=1e6, **kw)
        self.refused(ValueError, "time_limit=nan", s, b, time_limit=float("nan"), **kw)
        self.refused(ValueError, "time_limit=-1.0", s, b, time_limit=-1.0, **kw)
        self.refused(ValueError, "time_limit=inf", s, b, time_limit=float("inf"), **kw)
        for t in (-1, 0, 10000, 257):
            self.refused(ValueError, "threads=%d" % t, s, b, threads=t, **kw)
        self.refused(ValueError, "expected 1..%d" % heurnet.MAX_THREADS, s, b, threads=0, **kw)
        self.refused(TypeError, "threads", s, b, threads=2.0, **kw)
        self.refused(ValueError, "bound", s, b, bound=0.5, **kw)
        self.refused(ValueError, "weight", s, b, weight=float("nan"), **kw)
        self.refused(ValueError, "batch", s, b, batch=70000, **kw)
        self.refused(ValueError, "NUL", s, b, puzzle=8, heuristic="manhattan\0pdb")
        self.refused(ValueError, "NUL", s, b, model=M8 + "\0x")
        self.assertEqual(s(b, threads=heurnet.MAX_THREADS, time_limit=5.0, **kw).length[0], 1)

    def test_model(self):
        self.refused(ValueError, "NUL", heurnet.Model.load, M8 + "\0/x")
        self.refused(ValueError, "NUL", heurnet.Model.load, "a\0/x")
        self.refused(ValueError, "seed", heurnet.Model.from_spec, "4-2-1", seed=2**64 + 1)
        self.refused(ValueError, "seed", heurnet.Model.from_spec, "4-2-1", seed=-1)
        self.refused(ValueError, "dropout", heurnet.Model.from_spec, "4-2-1", dropout=float("nan"))
        self.refused(ValueError, "dropout", heurnet.Model.from_spec, "4-2-1", dropout=1.0)
        self.refused(ValueError, "target mean", heurnet.Model.from_spec, "4-2-1",
                     target=(float("nan"), 1.0))
        m = heurnet.Model.from_spec("4-2-1")
        self.refused(ValueError, "NUL", m.set_attr, "k\0ey", 1.0)
        self.refused(ValueError, "NUL", m.save, os.path.join(TMP, "m.h5\0x"))
        self.assertFalse(os.path.exists(os.path.join(TMP, "m.h5")))
        self.refused(ValueError, "NUL", setattr, m, "encoder", "npuzzle\0")

    def test_gen_writes_nothing_for_a_bad_scalar(self):
        out = os.path.join(TMP, "bad_gen.h5")
        kw = {"puzzle": 8, "walk": 5, "threads": 1}
        self.refused(ValueError, "count=", heurnet.gen, out, count=2**64 + 3, **kw)
        self.refused(ValueError, "count=-1", heurnet.gen, out, count=-1, **kw)
        self.refused(ValueError, "seed", heurnet.gen, out, count=3, seed=2**64, puzzle=8)
        self.refused(ValueError, "max_expanded", heurnet.gen, out, count=3, max_expanded=-1,
                     puzzle=8)
        for t in (-1, 0, 10000):
            self.refused(ValueError, "threads", heurnet.gen, out, count=3, puzzle=8, threads=t)
        self.refused(ValueError, "walk", heurnet.gen, out, count=3, puzzle=8, walk=-2)
        self.refused(ValueError, "NUL", heurnet.gen, out + "\0x", count=3, **kw)
        for f in (out, out + ".part"):
            self.assertFalse(os.path.exists(f), f)

    def test_train_and_avi(self):
        data = os.path.join(TMP, "none.h5")  # never reached
        tr = heurnet.train
        self.refused(ValueError, "threads", tr, data, arch="81-4-1", threads=0)
        self.refused(ValueError, "threads", tr, data, arch="81-4-1", threads=10000)
        self.refused(ValueError, "lr", tr, data, arch="81-4-1", lr=float("nan"))
        self.refused(ValueError, "epochs", tr, data, arch="81-4-1", epochs=2**32 + 1)
        self.refused(ValueError, "seed", tr, data, arch="81-4-1", seed=2**64)
        self.refused(ValueError, "dropout", tr, data, arch="81-4-1", dropout=-0.1)
        self.refused(ValueError, "NUL", tr, data + "\0x", arch="81-4-1")
        self.refused(ValueError, "no files", tr, [], arch="81-4-1")
        av = heurnet.avi
        self.refused(ValueError, "rounds", av, arch="81-4-1", puzzle=8, rounds=2**32 + 1)
        self.refused(ValueError, "threads", av, arch="81-4-1", puzzle=8, threads=-1)
        self.refused(ValueError, "lookahead", av, arch="81-4-1", puzzle=8, lookahead=9)
        self.refused(ValueError, "lr", av, arch="81-4-1", puzzle=8, lr=float("inf"))
        self.refused(ValueError, "seed", av, arch="81-4-1", puzzle=8, seed=-1)
        self.refused(ValueError, "NUL", av, arch="81-4-1", puzzle=8, checkpoint="c\0.h5")

    def test_misc(self):
        self.refused(ValueError, "blas_threads", heurnet.blas_threads, 0)
        self.refused(ValueError, "blas_threads", heurnet.blas_threads, 10**6)
        self.refused(TypeError, "puzzle", heurnet.domain_width, puzzle=True)
        self.refused(ValueError, "n=-1", heurnet.walk_boards, -1, 3, puzzle=8)
        self.refused(ValueError, "NUL", heurnet.Heuristic, "lc\0", puzzle=8)
        self.refused(ValueError, "NUL", heurnet.PDB, "8\0", puzzle=8)


class Randomized(unittest.TestCase):
    def test_randomized_wrong_calls_are_all_refused(self):
        scratch = os.path.join(TMP, "hostile")
        os.makedirs(scratch, exist_ok=True)
        env = dict(os.environ, PYTHONPATH=os.pathsep.join(p for p in sys.path if p))
        for seed in (1, 2):
            p = subprocess.run([sys.executable, os.path.join(HERE, "hostile_calls.py"),
                                str(ROUNDS // 2), str(seed), scratch], capture_output=True,
                               text=True, env=env, timeout=300)
            self.assertEqual(p.returncode, 0, "seed %d: exit %d: %s%s"
                             % (seed, p.returncode, p.stdout[-800:], p.stderr[-800:]))
            self.assertIn("refused=%d" % (ROUNDS // 2), p.stdout)


if __name__ == "__main__":
    unittest.main()
