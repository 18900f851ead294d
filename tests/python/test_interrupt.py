"""Ctrl-C during a long call: SIGINT to a Python process inside train or
solve stops the call, raises KeyboardInterrupt with Python's handler back,
and training leaves a checkpoint that a second call resumes."""

import os
import signal
import subprocess
import textwrap
import time
import unittest

import heurnet
from common import PY, TMP, run

CHILD = textwrap.dedent("""
    import signal, sys
    import heurnet
    started = []
    def progress(done, total, extra):
        if not started:
            started.append(1)
            print("running", flush=True)
    try:
        %s
    except KeyboardInterrupt:
        ok = signal.getsignal(signal.SIGINT) is signal.default_int_handler
        print("interrupted", "handler-restored" if ok else "handler-lost", flush=True)
        sys.exit(3)
    print("finished", flush=True)
""")


def interrupt(call):
    """Run `call` in a child, SIGINT it once it reports progress; its
    (exit code, output)."""
    p = subprocess.Popen([PY, "-c", CHILD % call], stdout=subprocess.PIPE, text=True,
                         env=dict(os.environ))
    first = p.stdout.readline()
    if first.strip() == "running":
        time.sleep(0.5)  # well inside the call, past its signal hook
        p.send_signal(signal.SIGINT)
    rest = p.stdout.read()
    p.stdout.close()
    return p.wait(timeout=300), first + rest


class Interrupt(unittest.TestCase):
    def test_train_stops_with_a_checkpoint_and_resumes(self):
        data, ckpt, out = (os.path.join(TMP, n) for n in ("big.h5", "ckpt.h5", "int_m.h5"))
        for f in (ckpt, out):
            if os.path.exists(f):
                os.remove(f)
        run("gen", "--puzzle", "8", "--count", "20000", "--seed", "4", "--quiet", "-o", data)
        rc, text = interrupt("heurnet.train(%r, %r, arch='81-512-512-1', epochs=1000, batch=64, "
                             "checkpoint=%r, progress=progress)" % (data, out, ckpt))
        self.assertEqual(rc, 3, text)
        self.assertIn("interrupted handler-restored", text)
        self.assertTrue(os.path.exists(ckpt), "no checkpoint after Ctrl-C")
        self.assertFalse(os.path.exists(out), "a model was written by a stopped run")
        m, hist = heurnet.train(data, out, arch="81-512-512-1", epochs=2, batch=64, resume=ckpt)
        self.assertTrue(os.path.exists(out))
        self.assertEqual(hist[-1]["epoch"], 2)

    def test_solve_stops(self):
        korf = os.path.join(os.environ["HN_DATA"], "npuzzle", "korf100.txt")
        call = textwrap.dedent("""
            import numpy as np
            b = np.array([[int(t) for t in l.split()[2:]] for l in open(%r)
                          if l.strip() and not l.startswith('#')], dtype=np.uint8)
            print("running", flush=True)
            heurnet.solve(b, puzzle=15, heuristic='manhattan', time_limit=60)""" % korf)
        rc, text = interrupt(textwrap.indent(call, "    ").strip())
        self.assertEqual(rc, 3, text)
        self.assertIn("interrupted handler-restored", text)


if __name__ == "__main__":
    unittest.main()
