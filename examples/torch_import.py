#!/usr/bin/python3
"""A network trained in PyTorch, searched with by heurnet.

Labels every 8-puzzle board with its distance (heurnet gen --all), trains a
multilayer perceptron in PyTorch on most of them, exports it with
torch.onnx.export, imports it with `heurnet import`, checks heurnet's
predictions against PyTorch's, and solves held-out boards with A* on the
network, next to A* on Manhattan distance. Needs python3-torch
(scripts/deps.sh --peers) and h5py.

usage: examples/torch_import.py [--heurnet build/heurnet] [--dir DIR]
           [--epochs 8] [--boards 100] [--seed 1]
"""
import argparse
import os
import subprocess
import sys
import time

import h5py
import numpy as np
import torch
from torch import nn

GOAL = "blank-last"
ENCODER = f"npuzzle-onehot n=3 goal={GOAL}"


def run(cmd, **kw):
    print("$ " + " ".join(cmd), file=sys.stderr)
    return subprocess.run(cmd, check=True, text=True, stdout=subprocess.PIPE, **kw).stdout


def onehot(boards):
    """heurnet's npuzzle-onehot: x[t*9 + p] = 1 where cell p holds tile t."""
    x = np.zeros((len(boards), 81), np.float32)
    rows = np.repeat(np.arange(len(boards)), 9)
    x[rows, boards.reshape(-1).astype(np.int64) * 9 + np.tile(np.arange(9), len(boards))] = 1.0
    return x


def make_net():
    # BatchNorm before the activation becomes heurnet's batch norm; Dropout
    # disappears in eval mode.
    return nn.Sequential(nn.Linear(81, 256), nn.BatchNorm1d(256), nn.ReLU(),
                         nn.Linear(256, 128), nn.ReLU(), nn.Dropout(0.1),
                         nn.Linear(128, 1))


def train(net, x, y, epochs):
    opt = torch.optim.Adam(net.parameters(), lr=2e-3)
    sched = torch.optim.lr_scheduler.CosineAnnealingLR(opt, epochs * (len(x) // 512 + 1))
    xt, yt = torch.from_numpy(x), torch.from_numpy(y)
    for epoch in range(epochs):
        net.train()
        perm = torch.randperm(len(xt))
        total = 0.0
        for i in range(0, len(xt), 512):
            idx = perm[i:i + 512]
            loss = nn.functional.mse_loss(net(xt[idx]).squeeze(1), yt[idx])
            opt.zero_grad()
            loss.backward()
            opt.step()
            sched.step()
            total += loss.item() * len(idx)
        print(f"epoch {epoch + 1}: train mse {total / len(xt):.4f}", file=sys.stderr)


def summary(out):
    line = [l for l in out.splitlines() if l.startswith("# count=")][0]
    return dict(kv.split("=", 1) for kv in line[2:].split())


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--heurnet", default="build/heurnet")
    ap.add_argument("--dir", default="torch-import")
    ap.add_argument("--epochs", type=int, default=8)
    ap.add_argument("--boards", type=int, default=100)
    ap.add_argument("--seed", type=int, default=1)
    a = ap.parse_args()
    hn, d = a.heurnet, a.dir
    os.makedirs(d, exist_ok=True)
    torch.set_num_threads(1)

    data = f"{d}/all8.h5"
    if not os.path.exists(data):
        run([hn, "gen", "--puzzle", "8", "--goal", GOAL, "--all", "--quiet", "-o", data])
    with h5py.File(data, "r") as f:
        boards, cost = f["/boards"][()], f["/cost"][()].astype(np.float32)
    rng = np.random.default_rng(a.seed)
    perm = rng.permutation(len(boards))
    test, tr = perm[:5000], perm[5000:]
    x = onehot(boards)

    torch.manual_seed(a.seed)  # the initial weights and the batch order
    net = make_net()
    t0 = time.time()
    train(net, x[tr], cost[tr], a.epochs)
    train_s = time.time() - t0
    net.eval()
    with torch.no_grad():
        pred = net(torch.from_numpy(x[test])).squeeze(1).numpy()
    test_mae = float(np.mean(np.abs(pred - cost[test])))

    onnx_path, model = f"{d}/net.onnx", f"{d}/net.h5"
    torch.onnx.export(net, torch.zeros(1, 81), onnx_path, input_names=["x"], output_names=["h"],
                      dynamic_axes={"x": {0: "N"}, "h": {0: "N"}}, opset_version=13)
    print(run([hn, "import", "--force", "--encoder", ENCODER, onnx_path, model]).strip())

    # heurnet's forward pass against PyTorch's on the held-out boards.
    with h5py.File(f"{d}/test.h5", "w") as f:
        f["x"] = x[test]
    got = np.loadtxt(run([hn, "predict", "--model", model, "--data", f"{d}/test.h5"]).splitlines())
    max_diff = float(np.max(np.abs(got - pred)))

    # A* on held-out boards at least 20 moves from the goal.
    far = [i for i in test if cost[i] >= 20][:a.boards]
    inst = f"{d}/boards.txt"
    with open(inst, "w") as f:
        for i in far:
            f.write(f"b{i} {int(cost[i])} " + " ".join(str(t) for t in boards[i]) + "\n")
    results = {}
    for name, h in (("ann", f"ann:{model}"), ("ann-q8", f"ann:{model},q8"),
                    ("manhattan", "manhattan")):
        out = run([hn, "solve", "--puzzle", "8", "--goal", GOAL, "--algo", "astar",
                   "--heuristic", h, inst])
        lens = [int(kv[7:]) for l in out.splitlines() if l.startswith("id=")
                for kv in l.split() if kv.startswith("length=")]
        s = summary(out)
        results[name] = s
        gap = np.mean(np.array(lens) - cost[far])
        print(f"{name}: solved {s['solved']}/{s['count']}, optimal {s['all_optimal']}, "
              f"mean length over optimal {gap:.3f}, mean expanded {float(s['mean_expanded']):.1f}, "
              f"seconds {s['total_seconds']}")
    print(f"train rows {len(tr)}, epochs {a.epochs}, {train_s:.1f} s; held-out MAE "
          f"{test_mae:.3f} moves; heurnet vs PyTorch max |diff| {max_diff:.2e}")


if __name__ == "__main__":
    main()
