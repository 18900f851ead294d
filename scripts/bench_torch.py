#!/usr/bin/python3
"""The PyTorch side of scripts/bench_vs_torch.sh: the same network as
`heurnet bench nn` (Linear, BatchNorm1d, ELU/ReLU, Dropout; Adam; MSE), the
same batch and thread count, printed as one key=value record."""
import argparse
import os
import time

import torch
from torch import nn


def parse_spec(spec, act="elu", bn=True, dropout=0.1):
    """Widths and per-layer overrides as in heurnet's spec strings (the
    subset the benchmarks use: elu, relu, linear, bn, nobn, do=P, alpha=A, eps=E)."""
    parts = spec.split("-")
    n_in = int(parts[0])
    layers = []
    for i, p in enumerate(parts[1:]):
        out = i == len(parts) - 2
        width, _, over = p.partition(":")
        l = dict(width=int(width), act="linear" if out else act, bn=False if out else bn,
                 do=0.0 if out else dropout, alpha=1.0, eps=1e-3)
        for tok in filter(None, over.split(",")):
            if tok in ("elu", "relu", "linear"):
                l["act"] = tok
            elif tok in ("bn", "nobn"):
                l["bn"] = tok == "bn"
            elif tok.startswith("do="):
                l["do"] = float(tok[3:])
            elif tok.startswith("alpha="):
                l["alpha"] = float(tok[6:])
            elif tok.startswith("eps="):
                l["eps"] = float(tok[4:])
        layers.append(l)
    return n_in, layers


def build(n_in, layers):
    mods = []
    for l in layers:
        mods.append(nn.Linear(n_in, l["width"]))
        if l["bn"]:
            # heurnet's momentum 0.99 (Keras convention) is PyTorch's 0.01.
            mods.append(nn.BatchNorm1d(l["width"], eps=l["eps"], momentum=0.01))
        if l["act"] == "elu":
            mods.append(nn.ELU(l["alpha"]))
        elif l["act"] == "relu":
            mods.append(nn.ReLU())
        if l["do"] > 0:
            mods.append(nn.Dropout(l["do"]))
        n_in = l["width"]
    return nn.Sequential(*mods)


def timed(fn, seconds):
    """Wall and process-CPU seconds per call (as heurnet bench nn measures)."""
    fn()
    fn()
    reps, t0, c0 = 0, time.perf_counter(), time.process_time()
    while True:
        fn()
        reps += 1
        el = time.perf_counter() - t0
        if el >= seconds and reps >= 3:
            return el / reps, (time.process_time() - c0) / reps


def main():
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--arch", default="256-1024-1024-512-128-64-1")
    ap.add_argument("--batch", type=int, default=1024)
    ap.add_argument("--threads", type=int, default=1)
    ap.add_argument("--mode", choices=["train", "infer"], default="train")
    ap.add_argument("--seconds", type=float, default=3.0)
    ap.add_argument("--dropout", type=float, default=0.1)
    ap.add_argument("--input", choices=["gauss", "onehot"], default="gauss",
                    help="onehot: 16-wide one-hot blocks, like 15-puzzle boards")
    a = ap.parse_args()
    torch.set_num_threads(a.threads)
    torch.manual_seed(1)
    n_in, layers = parse_spec(a.arch, dropout=a.dropout)
    model = build(n_in, layers)
    x = torch.randn(a.batch, n_in)
    if a.input == "onehot":
        x = torch.zeros(a.batch, n_in)
        for b in range(0, n_in - 15, 16):
            x[torch.arange(a.batch), b + torch.randint(0, 16, (a.batch,))] = 1.0
    y = torch.randn(a.batch, layers[-1]["width"])
    if a.mode == "train":
        model.train()
        opt = torch.optim.Adam(model.parameters(), lr=1e-3, eps=1e-7)
        loss_fn = nn.MSELoss()

        def step():
            opt.zero_grad()
            loss = loss_fn(model(x), y)
            loss.backward()
            opt.step()
        sec = timed(step, a.seconds)
    else:
        model.eval()

        def call():
            with torch.inference_mode():
                model(x)
        sec = timed(call, a.seconds)
    print(f"mode={a.mode} arch={a.arch} batch={a.batch} threads={a.threads} torch={torch.__version__} "
          f"blas_threads={os.environ.get('OPENBLAS_NUM_THREADS', '-')} "
          f"samples_per_s={a.batch / sec[0]:.1f} us_per_call={sec[0] * 1e6:.2f} "
          f"cpu_samples_per_s={a.batch / sec[1]:.1f} cpu_us_per_call={sec[1] * 1e6:.2f}")


if __name__ == "__main__":
    main()
