#!/usr/bin/python3
"""A cube network trained in PyTorch on heurnet's walks, searched by heurnet.

heurnet draws random walks from the solved cube (Domain.random_walks: the
states `heurnet gen --walk` draws, with their walk lengths), PyTorch
trains a small multilayer perceptron on the encoded states (targets: the
walk lengths, an upper bound of the distance, as DeepCubeA's first
rounds), and heurnet's A* searches held-out scrambles three ways: calling
the PyTorch module in batches (heurnet.torch.TorchHeuristic), on the model
imported in process (Model.from_torch, heurnet's own ONNX reader), and on
that model turned back into PyTorch (Model.to_torch). Needs python3-torch
(scripts/deps.sh --peers) and h5py. Exits non-zero when a check fails.

usage: examples/torch_cube.py [--walks 20000] [--epochs 4] [--scrambles 20]
           [--max-walk 8] [--max-expanded 5000] [--seed 1]
"""
import argparse
import sys
import time

import numpy as np
import torch
from torch import nn

import heurnet
import heurnet.torch as ht


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--walks", type=int, default=20000)
    ap.add_argument("--epochs", type=int, default=4)
    ap.add_argument("--scrambles", type=int, default=20)
    ap.add_argument("--max-walk", type=int, default=8)
    ap.add_argument("--max-expanded", type=int, default=5000)
    ap.add_argument("--seed", type=int, default=1)
    a = ap.parse_args()
    torch.manual_seed(a.seed)
    torch.set_num_threads(1)
    cube = heurnet.Domain("cube3")

    # heurnet's walks: states and the moves each walk made
    states, lengths = cube.random_walks(a.walks, (0, a.max_walk), seed=a.seed,
                                        return_lengths=True)
    x = torch.from_numpy(cube.encode(states))
    y = torch.from_numpy(lengths.astype(np.float32))

    net = nn.Sequential(nn.Linear(cube.inputs, 256), nn.ReLU(), nn.Linear(256, 64), nn.ReLU(),
                        nn.Linear(64, 1))
    opt = torch.optim.Adam(net.parameters(), lr=1e-3)
    t0 = time.time()
    for epoch in range(a.epochs):
        perm = torch.randperm(len(x))
        total = 0.0
        for i in range(0, len(x), 256):
            idx = perm[i:i + 256]
            loss = nn.functional.mse_loss(net(x[idx])[:, 0], y[idx])
            opt.zero_grad()
            loss.backward()
            opt.step()
            total += float(loss) * len(idx)
        print("epoch %d loss %.4f" % (epoch + 1, total / len(x)))
    print("trained in %.1f s" % (time.time() - t0))
    net.eval()

    # held-out scrambles of 3..max-walk moves (another seed)
    test = cube.random_walks(a.scrambles, (3, a.max_walk), seed=a.seed + 1000)
    limits = {"max_expanded": a.max_expanded}
    failures = []

    with ht.TorchHeuristic(net, cube) as h:
        s_torch = cube.solve(test, algo="astar", heuristic=h.spec, **limits)
        print("torch module:   %s; %d batches, %d states through the module"
              % (summary(s_torch), h.calls, h.rows))

    model = heurnet.Model.from_torch(net, cube)  # in process, no file
    xt = cube.encode(test)
    with torch.no_grad():
        want = net(torch.from_numpy(xt))[:, 0].numpy()
    got = model.predict(xt)[:, 0]
    err = float(np.abs(got - want).max())
    print("from_torch: %s, max |heurnet - torch| = %.2g" % (model.spec, err))
    if err > 1e-4:
        failures.append("imported model's predictions differ by %g" % err)
    s_model = cube.solve(test, algo="astar", model=model, **limits)
    print("imported model: %s" % summary(s_model))

    back = model.to_torch()
    with torch.no_grad():
        err2 = float((back(torch.from_numpy(xt))[:, 0] - torch.from_numpy(got)).abs().max())
    print("to_torch: max |torch(to_torch) - heurnet| = %.2g" % err2)
    if err2 > 1e-4:
        failures.append("to_torch's predictions differ by %g" % err2)

    for name, s in (("torch", s_torch), ("model", s_model)):
        solved = s.status == "solved"
        if not solved.any():
            failures.append("%s: no scramble solved" % name)
        for i in np.nonzero(solved)[0]:
            if not cube.replay(test[i], s.moves[i]):
                failures.append("%s: solution %d does not reach the goal" % (name, i))
    both = (s_torch.status == "solved") & (s_model.status == "solved")
    same = int((s_torch.length[both] == s_model.length[both]).sum())
    print("same length on %d of the %d scrambles both solved" % (same, int(both.sum())))
    for f in failures:
        print("FAIL: " + f, file=sys.stderr)
    return 1 if failures else 0


def summary(s):
    ok = s.status == "solved"
    return "%d/%d solved, mean length %.2f, mean expanded %.0f" % (
        ok.sum(), len(s), s.length[ok].mean() if ok.any() else float("nan"),
        s.expanded.mean())


if __name__ == "__main__":
    sys.exit(main())
