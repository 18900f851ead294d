"""heurnet.Domain on the 8-puzzle, the 48-puzzle (7x7, blank-last), the cube
and the pancake plug-in (examples/domain_pancake.c, built here): facts,
the batched calls checked against each other and against the command
line (solutions, node counts, estimates), and hostile calls."""

import os
import pickle
import subprocess
import threading
import unittest

import numpy as np

import heurnet
from common import HN, SRC, TMP, run

PANCAKE = os.path.join(TMP, "libpancake.so")


def build_pancake():
    if os.path.exists(PANCAKE):
        return
    inc = os.path.join(os.path.dirname(HN), "include")
    subprocess.run(["cc", "-shared", "-fPIC", "-O1", "-std=c11", "-I" + inc,
                    os.path.join(SRC, "examples", "domain_pancake.c"), "-o", PANCAKE], check=True)


def solve_records(text):
    """heurnet solve --domain's records: key=value words, moves= the rest of
    the line (move text may hold blanks)."""
    out = []
    for line in text.splitlines():
        if line.startswith("#") or not line.startswith("id="):
            continue
        head, _, moves = line.partition(" moves=")
        rec = dict(kv.split("=", 1) for kv in head.split())
        rec["moves"] = moves
        out.append(rec)
    return out


def write_states(path, d, states):
    with open(path, "w") as f:
        for i, t in enumerate(d.format(states)):
            f.write("s%d %s\n" % (i, t))


def specs():
    build_pancake()
    return ["npuzzle:3x3", "npuzzle:7x7:blank-last", "cube3", PANCAKE + ":8"]


class DomainCalls(unittest.TestCase):
    def test_builtins_listed(self):
        names = [x["name"] for x in heurnet.domains()]
        self.assertIn("npuzzle", names)
        self.assertIn("cube3", names)

    def test_facts_and_calls_agree(self):
        for spec in specs():
            with self.subTest(spec=spec):
                d = heurnet.Domain(spec)
                self.assertEqual(len(d.moves), d.nmoves)
                inv = d.inverse
                self.assertTrue(all(inv[inv[m]] == m for m in range(d.nmoves) if inv[m] >= 0))
                g = d.goal()
                self.assertTrue(d.is_goal(g)[0])
                s, walked = d.random_walks(200, (1, 12), seed=5, return_lengths=True)
                self.assertTrue((walked >= 1).all() and (walked <= 12).all())
                e = d.expand(s)
                for m in range(d.nmoves):
                    after, legal = d.apply(s, m)
                    for i in range(0, 200, 17):
                        j = np.nonzero(e.moves[i, :e.count[i]] == m)[0]
                        self.assertEqual(bool(legal[i]), len(j) == 1)
                        if legal[i]:
                            np.testing.assert_array_equal(e.children[i, j[0]], after[i])
                            self.assertEqual(e.costs[i, j[0]], d.costs[m])
                            if inv[m] >= 0:  # the inverse undoes it
                                back, ok = d.apply(after[i], int(inv[m]))
                                self.assertTrue(ok[0])
                                np.testing.assert_array_equal(back[0], s[i])
                self.assertTrue((e.moves[np.arange(d.nmoves)[None, :] >= e.count[:, None]]
                                 == 255).all())
                x = d.encode(s)
                act, cnt = d.encode(s, dense=False)
                np.testing.assert_array_equal(x.sum(axis=1), cnt)
                for i in range(0, 200, 23):
                    np.testing.assert_array_equal(np.sort(np.nonzero(x[i])[0]),
                                                  np.sort(act[i, :cnt[i]]))
                np.testing.assert_array_equal(d.parse(d.format(s)), s)
                path = os.path.join(TMP, "inst-%d.txt" % abs(hash(spec)))
                write_states(path, d, s[:10])
                inst = d.read_instances(path)
                np.testing.assert_array_equal(inst.states, s[:10])
                self.assertEqual(inst.ids, ["s%d" % i for i in range(10)])
                # walks are the gen's stream: the same seed, the same states
                np.testing.assert_array_equal(d.random_walks(200, (1, 12), seed=5), s)
                self.assertFalse((d.random_walks(200, (1, 12), seed=6) == s).all())
                text = d.format_moves(e.moves[0, :e.count[0]])
                np.testing.assert_array_equal(d.parse_moves(text), e.moves[0, :e.count[0]])
                d2 = pickle.loads(pickle.dumps(d))
                self.assertEqual(d2.spec, d.spec)

    def test_solve_equals_the_command_line(self):
        cases = [("npuzzle:3x3", "idastar", "manhattan", 30, {}),
                 ("npuzzle:3x3", "astar", "lc", 30, {}),
                 ("npuzzle:7x7:blank-last", "wastar", "lc", 40, {}),
                 ("npuzzle:7x7", "anytime", "manhattan", 30,
                  {"weights": "3,2,1", "max_expanded": 50000}),
                 ("cube3", "idastar", "manhattan", 7, {}),
                 (PANCAKE + ":8", "idastar", "gap", 20, {}),
                 (PANCAKE + ":8", "beam", "gap", 20, {"width": 64})]
        build_pancake()
        for spec, algo, heur, walk, opts in cases:
            with self.subTest(spec=spec, algo=algo):
                d = heurnet.Domain(spec)
                s = d.random_walks(8, walk, seed=3)
                path = os.path.join(TMP, "solve-%s.txt" % algo)
                write_states(path, d, s)
                words = sum((["--" + k.replace("_", "-"), str(v)] for k, v in opts.items()), [])
                cli = solve_records(run("solve", "--domain", spec, "--algo", algo,
                                        "--heuristic", heur, *words, path).stdout)
                py = d.solve(s, algo=algo, heuristic=heur, **opts)
                self.assertEqual([int(r["length"]) for r in cli], py.length.tolist())
                self.assertEqual([int(r["expanded"]) for r in cli], py.expanded.tolist())
                self.assertEqual([int(r["h0"]) for r in cli], py.h0.tolist())
                self.assertEqual([r["moves"] for r in cli], py.move_text)
                for i in range(len(s)):
                    self.assertTrue(d.replay(s[i], py.moves[i]))
                # heurnet.solve takes any other domain the same way (the
                # square n-puzzles up to 5x5 take tile rows there, without
                # the blank's cell a Domain's state ends with)
                if not opts and spec != "npuzzle:3x3":
                    again = heurnet.solve(s, domain=spec, algo=algo, heuristic=heur)
                    self.assertEqual(again.expanded.tolist(), py.expanded.tolist())
                # an admissible heuristic's values are the searches' h0
                np.testing.assert_array_equal(d.heuristic(heur).values(s), py.h0)

    def test_network_and_recorded_search(self):
        d = heurnet.Domain("cube3")
        model = os.path.join(SRC, "models", "cube3.h5")
        s = d.random_walks(6, 8, seed=11)
        path = os.path.join(TMP, "cube-net.txt")
        write_states(path, d, s)
        # heurnet predict --instances prints each estimate with %.6g; its q8
        # engine is the heuristic's default one here (float is predict's)
        cli = [float(l.split("\t")[1]) for l in
               run("predict", "--model", model, "--instances", path,
                   "--engine", "q8").stdout.splitlines()]
        est = d.heuristic("ann:" + model).values(s)
        np.testing.assert_allclose(est, cli, rtol=1e-5)
        self.assertEqual(heurnet.Model.load(model).domain, "cube3")
        # the model's recorded search, with a node limit, as heurnet solve;
        # its proof stage off, which would build the 1.67 GB fsst table
        cli = solve_records(run("solve", "--domain", "cube3", "--model", model,
                                "--max-expanded", "20000", "--prove", "off", path).stdout)
        py = d.solve(s, model=model, max_expanded=20000, prove="off")
        self.assertEqual([int(r["length"]) for r in cli], py.length.tolist())
        self.assertEqual([int(r["expanded"]) for r in cli], py.expanded.tolist())
        self.assertTrue(py.search)


def info_histogram(path):
    """cost -> rows of heurnet data info."""
    out = {}
    for line in run("data", "info", path).stdout.splitlines():
        f = line.split("\t")
        if len(f) >= 2 and f[0].isdigit():
            out[int(f[0])] = int(f[1])
    return out


class DomainPipeline(unittest.TestCase):
    """gen, train and avi on the pancake plug-in and the cube give the
    command line's files and networks."""

    def test_gen_train_avi_equal_the_command_line(self):
        build_pancake()
        for spec, walk, arch in ((PANCAKE + ":8", (3, 9), "64-16-1"),
                                 ("cube3", (1, 5), "480-16-1")):
            with self.subTest(spec=spec):
                d = heurnet.Domain(spec)
                cli, py = os.path.join(TMP, "g-cli.h5"), os.path.join(TMP, "g-py.h5")
                for f in (cli, py):
                    if os.path.exists(f):
                        os.unlink(f)
                # the domain's first heuristic labels (gen's cube default is a 1.67 GB PDB)
                label = d.heuristics[0]
                run("gen", "--domain", spec, "--walk", "%d-%d" % walk, "-n", 300, "--seed", 4,
                    "--threads", 2, "--heuristic", label, "-o", cli)
                st = heurnet.gen(py, 300, domain=d, walk=walk, seed=4, threads=2, label=label)
                self.assertEqual((st["rows"], st["complete"]), (300, 1))
                with open(cli, "rb") as a, open(py, "rb") as b:
                    self.assertTrue(a.read() == b.read(), "the gen files differ")
                # the file's states are random_walks' (same costs)
                s = d.random_walks(300, walk, seed=4)
                cost = d.solve(s, algo="idastar").cost
                hist = {int(c): int(k) for c, k in zip(*np.unique(cost, return_counts=True))}
                self.assertEqual(hist, info_histogram(cli))
                # train and avi: the same network as the command line's
                mc, mp = os.path.join(TMP, "t-cli.h5"), os.path.join(TMP, "t-py.h5")
                run("train", "--data", cli, "--domain", spec, "--arch", arch, "--epochs", 2,
                    "--batch", 64, "-o", mc)
                m, hist = heurnet.train(py, mp, arch=arch, epochs=2, batch=64, domain=d)
                self.assertEqual(len(hist), 2)
                self.assertEqual(m.domain, d.spec)
                x = d.encode(s)
                np.testing.assert_array_equal(m.predict(x), heurnet.Model.load(mc).predict(x))
                run("avi", "--domain", spec, "--arch", arch, "--rounds", 2, "--steps", 5,
                    "--batch", 50, "-o", mc)
                m, hist = heurnet.avi(mp, arch=arch, domain=spec, rounds=2, steps_per_round=5,
                                      batch=50)
                self.assertEqual(m.domain, d.spec)
                np.testing.assert_array_equal(m.predict(x), heurnet.Model.load(mc).predict(x))
                # the trained network as a heuristic and in a search
                v = d.heuristic("ann:" + mp).values(s[:20])
                self.assertEqual(v.shape, (20,))
                sol = d.solve(s[:5], algo="bwas", model=m, batch=4)
                self.assertTrue((sol.status == "solved").all())


class DomainHostile(unittest.TestCase):
    def setUp(self):
        self.d = heurnet.Domain("npuzzle:3x3")
        self.s = self.d.random_walks(50, 20, seed=1)

    def test_bad_arrays(self):
        d, s = self.d, self.s
        with self.assertRaises(TypeError):
            d.expand(s.astype(np.int64))
        with self.assertRaises(TypeError):
            d.encode([[0.5] * d.state_bytes])
        with self.assertRaises(ValueError):
            d.is_goal(s[:, :-1])
        with self.assertRaises(ValueError):
            d.encode(s[:, ::2])
        with self.assertRaises(ValueError):
            d.encode(np.vstack([s, s])[::2])
        bad = s.copy()
        bad[7, 0] = 200
        for call in (d.expand, d.encode, d.is_goal, d.format, d.heuristic("lc").values,
                     lambda x: d.apply(x, 0), d.solve):
            with self.assertRaisesRegex(heurnet.HeurnetValueError, "state 7"):
                call(bad)
        dup = s.copy()
        dup[3, :2] = 1
        with self.assertRaisesRegex(heurnet.HeurnetValueError, "state 3"):
            d.expand(dup)
        with self.assertRaises(ValueError):
            d.apply(s, 4)
        with self.assertRaises(ValueError):
            d.apply(s, np.zeros(3, np.int32))
        with self.assertRaises(TypeError):
            d.apply(s, 0.5)
        with self.assertRaises(heurnet.HeurnetValueError):
            d.parse(["1 2 3"])
        with self.assertRaises(heurnet.HeurnetValueError):
            heurnet.Domain("nosuch:3")
        with self.assertRaises(heurnet.HeurnetValueError):
            heurnet.Domain("cube3").heuristic("nosuch")
        with self.assertRaises(heurnet.HeurnetValueError):
            d.solve(s[:2], algo="nosuch")
        with self.assertRaises(heurnet.HeurnetValueError):
            d.solve(s[:2], weight="abc", algo="wastar")
        with self.assertRaises(heurnet.HeurnetValueError):
            d.solve(s[:2], no_such_setting=3)
        with self.assertRaises(ValueError):
            d.solve(s[:2], time_limit=float("nan"))
        with self.assertRaises(ValueError):
            d.random_walks(3, (5, 2))

    def test_read_only_arrays(self):
        d, s = self.d, self.s.copy()
        s.flags.writeable = False
        x = d.encode(s)  # a read-only input is only read
        ro = np.zeros_like(x)
        ro.flags.writeable = False
        with self.assertRaisesRegex(ValueError, "read-only"):
            d.encode(s, out=ro)
        out = np.zeros_like(x)
        self.assertIs(d.encode(s, out=out), out)
        np.testing.assert_array_equal(out, x)
        with self.assertRaisesRegex(ValueError, "shares memory"):
            d.apply(self.s, 0, out=self.s[:, :])

    def test_random_bytes_never_crash(self):
        rng = np.random.default_rng(7)
        build_pancake()
        for spec in ("npuzzle:3x3", "npuzzle:7x7:blank-last", "cube3", PANCAKE + ":8"):
            d = heurnet.Domain(spec)
            junk = rng.integers(0, 256, size=(64, d.state_bytes), dtype=np.uint8)
            for call in (d.expand, d.encode, d.is_goal, d.format):
                with self.assertRaises(heurnet.HeurnetValueError):
                    call(junk)

    def test_two_threads(self):
        d = heurnet.Domain("cube3")
        s = d.random_walks(3000, (1, 20), seed=9)
        ref = (d.expand(s).children, d.encode(s), d.heuristic().values(s))
        h = d.heuristic()
        errors = []

        def work(k):
            try:
                for _ in range(3):
                    got = (d.expand(s).children, d.encode(s), h.values(s))
                    for a, b in zip(got, ref):
                        np.testing.assert_array_equal(a, b)
                    bad = s.copy()
                    bad[k, 0] = 250
                    try:
                        d.encode(bad)
                        errors.append("no error for a bad state")
                    except heurnet.HeurnetValueError as e:
                        if "state %d" % k not in str(e):
                            errors.append(str(e))
            except Exception as e:  # reported to the main thread
                errors.append(repr(e))

        ts = [threading.Thread(target=work, args=(k,)) for k in (5, 11)]
        for t in ts:
            t.start()
        for t in ts:
            t.join()
        self.assertEqual(errors, [])


if __name__ == "__main__":
    unittest.main()
