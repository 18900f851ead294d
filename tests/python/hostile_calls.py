"""Randomized wrong calls across the public API of the heurnet package
(run by test_hostile.py in a child interpreter, so that a crash is seen
as a signal, not as a lost test run).

Each call gets exactly one wrong argument (a wrong dtype, shape, layout,
tile, read-only output, out-of-range or non-finite scalar, a str with a
NUL byte) and valid, cheap values for the rest, so every call must raise
TypeError, ValueError or OverflowError (heurnet's HeurnetValueError is a
ValueError): a call that returns, raises anything else (e.g. an OSError
because a bad scalar reached a file) or changes a read-only buffer is a
failure. Usage: hostile_calls.py ROUNDS SEED SCRATCH_DIR; prints
"calls=N refused=N" and exits 0 when every call was refused."""

import os
import sys

import numpy as np

import heurnet

OK = (TypeError, ValueError, OverflowError)
SRC = os.environ["HN_SRC"]
M8 = os.path.join(SRC, "models", "8puzzle-annd.h5")

BAD_INT = [2**64 + 5, 2**64, 2**63 * 4, -1, -2**63, -2**64 - 3, 1.5, 3.0, float("nan"), "3",
           b"3", True, None, [1], 1 + 2j, np.float32(2)]
BAD_COUNT = [2**64 + 3, 2**64, -1, -5, 2.0, float("inf"), "7", True, [3]]
BAD_REAL = [float("nan"), float("inf"), -float("inf"), 10**400, "1.0", b"1", None, 1j, True,
            [0.5], np.float64("nan")]
BAD_STR = ["a\0b", "\0", "manhattan\0x", b"x\0y", 12, 3.5, ["a"], object()]
BAD_PATH = ["a\0/x", "\0", b"m.h5\0z", 7, 2.5, ["a.h5"], object()]


class Ctx:
    """Valid objects shared by the calls (built once: the calls must be cheap)."""

    def __init__(self, rng, scratch):
        self.rng = rng
        self.scratch = scratch
        self.model = heurnet.Model.load(M8)
        self.heur = heurnet.Heuristic("manhattan", puzzle=8)
        self.boards = heurnet.walk_boards(3, 20, puzzle=8, seed=5)
        self.x = np.zeros((3, 81), dtype=np.float32)
        self.x[np.arange(3)[:, None], np.arange(9) * 9 + np.argsort(self.boards, axis=1)] = 1
        self.ro_bytes = bytes(4 * 3)
        path = os.path.join(scratch, "ro.bin")
        with open(path, "wb") as f:
            f.write(b"\x01" * 12)
        self.ro_map = np.memmap(path, dtype=np.float32, mode="r", shape=(3, 1))
        self.calls = 0


def pick(rng, seq):
    return seq[int(rng.integers(len(seq)))]


# ---- wrong arrays -------------------------------------------------------

def wrong_rows(c):
    """An x for predict that is wrong in one way."""
    rng = c.rng
    n = int(rng.integers(2, 6))
    x = rng.standard_normal((n, 81)).astype(np.float32)
    k = int(rng.integers(10))
    if k == 0:
        return x.astype(pick(rng, [np.float64, np.float16, np.int32, np.uint8, np.int64,
                                   np.complex64, np.bool_, ">f4"]))
    if k == 1:
        return x[:, : int(pick(rng, [0, 1, 80, 9]))].copy()
    if k == 2:
        return np.zeros((n, 82), np.float32)
    if k == 3:
        return x.reshape(-1) if rng.random() < 0.5 else x.reshape(1, n, 81)
    if k == 4:
        return np.asfortranarray(x)
    if k == 5:
        return np.zeros((n, 162), np.float32)[:, ::2]
    if k == 6:
        x.flat[int(rng.integers(x.size))] = pick(rng, [np.nan, np.inf, -np.inf])
        return x
    if k == 7:
        return np.zeros((0, 81), np.float32)
    if k == 8:
        return np.ma.masked_array(x, mask=np.zeros_like(x, bool))
    return x.tolist() if rng.random() < 0.5 else np.float32(1)


def wrong_out(c, n):
    """An out= for predict of n rows that C must not write into."""
    rng = c.rng
    k = int(rng.integers(9))
    if k == 0:
        return np.frombuffer(bytes(4 * n), dtype=np.float32).reshape(n, 1), "bytes"
    if k == 1:
        o = np.zeros((n, 1), np.float32)
        o.flags.writeable = False
        return o, "ro"
    if k == 2:
        return np.empty((n, 1), pick(rng, [np.float64, np.int32, np.float16, ">f4"])), None
    if k == 3:
        return np.empty(pick(rng, [(n,), (n + 1, 1), (n, 2), (1, n), (n, 1, 1)]), np.float32), None
    if k == 4:
        return np.empty((n, 2), np.float32)[:, :1], None
    if k == 5:
        return [0.0] * n, None
    if k == 6:
        return np.broadcast_to(np.zeros((1, 1), np.float32), (n, 1)), None
    if k == 7:
        return None, "overlap"
    return None, "memmap"


def wrong_boards(c, cells=9):
    """States for an 8-puzzle call that are wrong in one way."""
    rng = c.rng
    n = int(rng.integers(1, 4))
    b = heurnet.walk_boards(n, int(rng.integers(1, 30)), puzzle=8, seed=int(rng.integers(1 << 30)))
    i = int(rng.integers(n))
    k = int(rng.integers(11))
    if k == 0:
        b[i, int(rng.integers(cells))] = int(rng.integers(cells, 256))  # out of range
        return b
    if k == 1:
        p, q = rng.choice(cells, 2, replace=False)
        b[i, p] = b[i, q]  # a duplicate tile
        return b
    if k == 2:
        return np.zeros((n, cells), np.uint8) if rng.random() < 0.5 else np.full((n, cells), 255,
                                                                               np.uint8)
    if k == 3:
        p = [t for t in range(cells) if b[i, t] != 0][:2]
        b[i, p[0]], b[i, p[1]] = b[i, p[1]], b[i, p[0]]  # the other parity: unsolvable
        return b
    if k == 4:
        return b.astype(pick(rng, [np.int64, np.int8, np.uint16, np.float32, np.float64]))
    if k == 5:
        return b[:, : int(pick(rng, [0, 4, 8]))].copy() if rng.random() < 0.5 else \
            np.zeros((n, 16), np.uint8)
    if k == 6:
        return np.zeros((n, 2 * cells), np.uint8)[:, ::2]
    if k == 7:
        bb = b.tolist()
        bb[i][0] = pick(rng, [1.5, -1, 9, 300, "a", None])
        return bb
    if k == 8:
        return np.asfortranarray(np.concatenate([b, b]))
    if k == 9:
        return b.reshape(1, n, cells)
    return np.ma.masked_array(b)


# ---- calls with one wrong argument -----------------------------------------

def call_predict(c):
    rng = c.rng
    if rng.random() < 0.5:
        return "predict(x)", lambda: c.model.predict(wrong_rows(c))
    out, kind = wrong_out(c, 3)
    if kind == "overlap":
        buf = np.zeros(3 * 81 + 3, np.float32)
        x = buf[: 3 * 81].reshape(3, 81)
        x[:] = c.x
        out = buf[3 * 81 - 1: 3 * 81 + 2].reshape(3, 1)
    elif kind == "memmap":
        out = c.ro_map
    return "predict(out=%s)" % (kind or type(out).__name__), \
        lambda: c.model.predict(c.x if kind != "overlap" else x, out=out)


def call_predict_boards(c):
    return "predict_boards", lambda: c.model.predict_boards(wrong_boards(c))


def call_values(c):
    return "Heuristic.values", lambda: c.heur.values(wrong_boards(c))


SOLVE_BAD = {"time_limit": BAD_REAL + [-1.0, -1e-9], "max_expanded": BAD_COUNT,
             "max_nodes": BAD_COUNT, "threads": BAD_INT + [0, -1, 257, 10000],
             "batch": BAD_INT + [65537, -3], "weight": BAD_REAL + [-0.5],
             "bound": BAD_REAL + [0.5, 101.0, -1.0], "algo": BAD_STR,
             "heuristic": BAD_STR, "admissible": BAD_STR,
             "puzzle": [v for v in BAD_INT if v is not None] + [9, 0, 16.0],
             "domain": BAD_STR + ["npuzzle:6x6"], "goal": BAD_STR + ["blank-middle"],
             "model": BAD_PATH}


def call_solve(c):
    rng = c.rng
    if rng.random() < 0.3:
        return "solve(states)", lambda: heurnet.solve(wrong_boards(c), puzzle=8,
                                                      heuristic="manhattan")
    k = pick(rng, sorted(SOLVE_BAD))
    v = pick(rng, SOLVE_BAD[k])
    kw = {"heuristic": "manhattan", "puzzle": 8, "max_expanded": 1000}
    if k == "domain":
        del kw["puzzle"]
    if k == "model":
        del kw["heuristic"]
    kw[k] = v
    return "solve(%s=%r)" % (k, v), lambda: heurnet.solve(c.boards, **kw)


def call_model(c):
    rng = c.rng
    m = c.model
    k = int(rng.integers(9))
    if k == 0:
        v = pick(rng, BAD_PATH)
        return "Model.load(%r)" % (v,), lambda: heurnet.Model.load(v)
    if k == 1:
        v = pick(rng, BAD_COUNT)
        return "from_spec(seed=%r)" % (v,), lambda: heurnet.Model.from_spec("4-3-1", seed=v)
    if k == 2:
        v = pick(rng, BAD_REAL + [1.0, -0.1, 2.0])
        return "from_spec(dropout=%r)" % (v,), lambda: heurnet.Model.from_spec("4-3-1", dropout=v)
    if k == 3:
        v = pick(rng, BAD_STR)
        return "from_spec(arch=%r)" % (v,), lambda: heurnet.Model.from_spec(v)
    if k == 4:
        v = pick(rng, [(float("nan"), 1.0), (0.0, float("inf")), (0.0, 0.0), (0.0, -1.0), ("a", 1),
                       (1.0,), 5, None, (1e40, 1.0)])
        return "from_spec(target=%r)" % (v,), lambda: heurnet.Model.from_spec("4-3-1", target=v)
    if k == 5:
        v = pick(rng, BAD_STR)
        return "set_attr(%r)" % (v,), lambda: m.set_attr(v, 1.0)
    if k == 6:
        v = pick(rng, [b"x", None, [1], 1j, True, "a\0b"])
        return "set_attr(value=%r)" % (v,), lambda: m.set_attr("note", v)
    if k == 7:
        v = pick(rng, BAD_PATH)
        return "save(%r)" % (v,), lambda: m.save(v)
    v = pick(rng, [(float("nan"), 1.0), (0.0, 0.0), "ab", (1.0, 2.0, 3.0), None])
    return "target=%r" % (v,), lambda: setattr(heurnet.Model.from_spec("4-3-1"), "target", v)


def call_search_misc(c):
    rng = c.rng
    k = int(rng.integers(6))
    if k == 0:
        v = pick(rng, BAD_STR)
        return "Heuristic(%r)" % (v,), lambda: heurnet.Heuristic(v, puzzle=8)
    if k == 1:
        v = pick(rng, BAD_STR)
        return "PDB(%r)" % (v,), lambda: heurnet.PDB(v, puzzle=8)
    if k == 2:
        v = pick(rng, [v for v in BAD_INT if v is not None] + [7, 25, 0])
        return "domain_width(puzzle=%r)" % (v,), lambda: heurnet.domain_width(puzzle=v)
    if k == 3:
        which = pick(rng, ["n", "steps", "seed"])
        v = pick(rng, BAD_INT if which != "seed" else BAD_COUNT)
        kw = {"n": 2, "steps": 3, "puzzle": 8}
        kw[which] = v
        return "walk_boards(%s=%r)" % (which, v), lambda: heurnet.walk_boards(**kw)
    if k == 4:
        v = pick(rng, BAD_INT + [0, 257, 10**6])
        return "blas_threads(%r)" % (v,), lambda: heurnet.blas_threads(v)
    v = pick(rng, BAD_STR + ["left"])
    return "Heuristic(goal=%r)" % (v,), lambda: heurnet.Heuristic("manhattan", puzzle=8, goal=v)


GEN_BAD = {"count": BAD_COUNT + [0], "seed": BAD_COUNT, "max_expanded": BAD_COUNT,
           "threads": BAD_INT + [0, -1, 257, 10000], "walk": BAD_INT + [65536, (5, 2), (1, 2, 3)],
           "label": BAD_STR, "path": BAD_PATH, "progress": [1, "f", [print]],
           "puzzle": [v for v in BAD_INT if v is not None] + [9]}


def call_gen(c):
    rng = c.rng
    k = pick(rng, sorted(GEN_BAD))
    v = pick(rng, [v for v in GEN_BAD[k] if v is not None or k != "threads"])  # None: the CPUs
    target = os.path.join(c.scratch, "gen%d.h5" % c.calls)
    kw = {"path": target, "count": 2, "puzzle": 8, "threads": 1, "walk": 3}
    kw[k] = v

    def run():
        try:
            heurnet.gen(**kw)
        finally:
            # nothing may be written for a refused call
            for f in (target, target + ".part"):
                if os.path.exists(f):
                    raise AssertionError("gen(%s=%r) left %s" % (k, v, f))
    return "gen(%s=%r)" % (k, v), run


TRAIN_BAD = {"epochs": BAD_INT + [0, 10**6 + 1], "batch": BAD_INT + [1, 0, 65537],
             "lr": BAD_REAL + [0.0, -1e-3, 11.0], "seed": BAD_COUNT,
             "threads": BAD_INT + [0, -1, 257], "val_fraction": BAD_REAL + [1.0, -0.1],
             "dropout": BAD_REAL + [1.0, -0.1], "patience": BAD_INT + [-1],
             "arch": BAD_STR, "checkpoint": BAD_PATH, "init": BAD_PATH, "resume": BAD_PATH,
             "output": BAD_PATH, "log": BAD_PATH,
             "data": [v for v in BAD_PATH if not isinstance(v, list)]
             + [[], [None], ["a\0b"], [b"x", 3]],
             "on_epoch": [1, "x"], "progress": [2.5]}


def call_train(c):
    rng = c.rng
    k = pick(rng, sorted(TRAIN_BAD))
    v = pick(rng, TRAIN_BAD[k])
    # the data file does not exist: a bad scalar that got through would be
    # an OSError (not accepted), not a run
    kw = {"data": os.path.join(c.scratch, "none.h5"), "arch": "81-4-1", "epochs": 1}
    kw[k] = v
    return "train(%s=%r)" % (k, v), lambda: heurnet.train(**kw)


AVI_BAD = {"rounds": BAD_INT + [-1, 10**8 + 1], "steps_per_round": BAD_INT + [0],
           "batch": BAD_INT + [1, 10**6 + 1], "walk_max": BAD_INT + [-1, 100001],
           "threads": BAD_INT + [0, 257], "lookahead": BAD_INT + [0, 5],
           "lr": BAD_REAL + [0.0, 11.0], "lr_decay": BAD_REAL + [0.0, 1.5],
           "update_loss": BAD_REAL + [-1.0], "seed": BAD_COUNT, "arch": BAD_STR,
           "floor": BAD_STR, "checkpoint": BAD_PATH, "init": BAD_PATH, "output": BAD_PATH,
           "goal": BAD_STR, "puzzle": BAD_INT + [9], "on_round": [3]}


def call_avi(c):
    rng = c.rng
    k = pick(rng, sorted(AVI_BAD))
    v = pick(rng, [v for v in AVI_BAD[k] if v is not None])  # None: the default
    # the init file does not exist: a bad scalar that got through fails on
    # it with an OSError, which is not accepted
    kw = {"init": os.path.join(c.scratch, "none.h5"), "puzzle": 8, "rounds": 1,
          "steps_per_round": 1, "batch": 8}
    kw[k] = v
    return "avi(%s=%r)" % (k, v), lambda: heurnet.avi(**kw)


CALLS = [(call_predict, 5), (call_predict_boards, 3), (call_values, 2), (call_solve, 4),
         (call_model, 3), (call_search_misc, 2), (call_gen, 2), (call_train, 2), (call_avi, 2)]


def main(rounds, seed, scratch):
    rng = np.random.default_rng(seed)
    c = Ctx(rng, scratch)
    fns = [f for f, w in CALLS for _ in range(w)]
    kinds = {}
    for i in range(rounds):
        c.calls = i
        what, thunk = pick(rng, fns)(c)
        try:
            thunk()
        except OK:
            fn = what.split("(")[0].split("=")[0]
            kinds[fn] = kinds.get(fn, 0) + 1
        except BaseException as e:
            print("FAIL call %d %s raised %s: %s" % (i, what, type(e).__name__, e))
            return 1
        else:
            print("FAIL call %d %s was accepted" % (i, what))
            return 1
        if c.ro_bytes != bytes(12) or bytes(c.ro_map.tobytes()) != b"\x01" * 12:
            print("FAIL call %d %s changed a read-only buffer" % (i, what))
            return 1
    print("calls=%d refused=%d %s" % (rounds, sum(kinds.values()),
                                      " ".join("%s=%d" % kv for kv in sorted(kinds.items()))))
    return 0


if __name__ == "__main__":
    sys.exit(main(int(sys.argv[1]), int(sys.argv[2]), sys.argv[3]))
