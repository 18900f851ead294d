"""A randomized robustness check of the array side of the package: wrong
dtypes, ranks, shapes, strides, NaN and infinity, random boards and spec
strings must raise TypeError / ValueError / HeurnetError, never crash the
interpreter; arrays that pass give results of the right shape."""

import os
import unittest

import numpy as np

import heurnet
from common import SRC

DTYPES = [np.float16, np.float32, np.float64, np.int8, np.uint8, np.int32, np.int64, np.bool_,
          np.complex64, object]
OK = (TypeError, ValueError, heurnet.HeurnetError)
ROUNDS = int(os.environ.get("HN_FUZZ_ROUNDS", "1500"))


def random_array(rng, width):
    """An array that is sometimes right: dtype, rank, shape, strides and
    non-finite values drawn at random."""
    dt = DTYPES[rng.integers(len(DTYPES))] if rng.random() < 0.5 else np.float32
    ndim = int(rng.choice([0, 1, 2, 2, 2, 3]))
    shape = tuple(int(rng.choice([0, 1, 2, 5, width, width + 1, 2 * width]))
                  for _ in range(ndim))
    if ndim == 2 and rng.random() < 0.5:
        shape = (shape[0], width)
    a = (rng.standard_normal(shape) * 30).astype(dt) if dt is not object else np.empty(shape, dt)
    r = rng.random()
    if ndim == 2 and r < 0.2 and a.shape[1] > 1:
        a = a[:, ::2]
    elif ndim == 2 and r < 0.3:
        a = np.asfortranarray(a)
    elif ndim >= 1 and r < 0.4 and a.shape[0] > 1:
        a = a[::-1]
    if a.dtype.kind == "f" and a.size and rng.random() < 0.3:
        a.flat[rng.integers(a.size)] = rng.choice([np.nan, np.inf, -np.inf])
    return a


def random_boards(rng, cells):
    n = int(rng.integers(0, 4))
    r = rng.random()
    if r < 0.4:
        return np.array([rng.permutation(cells) for _ in range(n)], dtype=np.uint8).reshape(n, cells)
    if r < 0.7:
        return rng.integers(0, 256, size=(n, cells)).astype(np.uint8)
    return random_array(rng, cells)


class Fuzz(unittest.TestCase):
    def test_predict(self):
        rng = np.random.default_rng(11)
        m = heurnet.Model.load(os.path.join(SRC, "models", "8puzzle-annd.h5"))
        passed = 0
        for _ in range(ROUNDS):
            a = random_array(rng, 81)
            try:
                y = m.predict(a)
            except OK:
                continue
            passed += 1
            self.assertEqual(y.shape, (a.shape[0], 1))
            self.assertTrue(np.isfinite(y).all())
        self.assertGreater(passed, 10)

    def test_boards(self):
        rng = np.random.default_rng(12)
        h = heurnet.Heuristic("manhattan", puzzle=8)
        for _ in range(ROUNDS // 3):
            b = random_boards(rng, 9)
            for f in (h.values, lambda x: heurnet.solve(x, puzzle=8, max_expanded=200)):
                try:
                    out = f(b)
                except OK:
                    continue
                self.assertEqual(len(out), b.shape[0])

    def test_specs(self):
        rng = np.random.default_rng(13)
        alphabet = list("0123456789-:,=.abdeilnoru ") + ["relu", "elu", "nobn", "do=", "-1"]
        for _ in range(ROUNDS // 3):
            s = "".join(rng.choice(alphabet) for _ in range(int(rng.integers(0, 12))))
            try:
                m = heurnet.Model.from_spec("4-" + s, seed=int(rng.integers(1 << 30)))
            except OK:
                continue
            self.assertEqual(m.inputs, 4)


if __name__ == "__main__":
    unittest.main()
