"""PyTorch on both sides of heurnet (imported only where torch is
installed: `import heurnet.torch`).

    import torch, heurnet, heurnet.torch as ht
    dom = heurnet.Domain("pancake:8")
    data = ht.Dataset("pancake.h5")                # heurnet gen's file
    x, y = data.tensors()                          # encoded states, costs
    net = torch.nn.Sequential(torch.nn.Linear(dom.inputs, 64), torch.nn.ReLU(),
                              torch.nn.Linear(64, 1))
    ...                                            # train it in PyTorch
    with ht.TorchHeuristic(net, dom) as h:         # heurnet's searches call it
        sol = dom.solve(states, algo="astar", heuristic=h.spec)
    model = heurnet.Model.from_torch(net, dom)     # in-process ONNX import
    net2 = model.to_torch()                        # and back

Tensors go wherever arrays go: heurnet's calls take objects with
__dlpack__ or __array__ (a CPU tensor) as numpy arrays.
"""

import ctypes as C
import io
import json
import os
import shutil
import tempfile

import numpy as np
import torch

from . import _check
from ._lib import lib, check, error
from .domain import CallbackHeuristic, Domain

__all__ = ["Dataset", "TorchHeuristic", "model_from_torch", "model_to_torch"]


def _domain(domain):
    return domain if isinstance(domain, Domain) else Domain(domain)


class Dataset(torch.utils.data.Dataset):
    """A heurnet dataset file (heurnet gen, heurnet.gen: `/states`, `/cost`)
    as (encoded state, target) pairs: float32 tensors [inputs] (the
    domain's dense 0/1 encoding, what heurnet train feeds) and [] (the
    cost to the goal). domain=None takes the file's `domain` attribute (a
    plug-in needs its Domain given). Only the file's committed rows are
    read, all at once into memory."""

    def __init__(self, path, domain=None):
        import h5py
        p = os.fspath(path)
        with h5py.File(p, "r") as f:
            if f.attrs.get("format") not in (b"heurnet-dom-dataset", "heurnet-dom-dataset"):
                raise ValueError("%s: not a heurnet domain dataset (format %r)"
                                 % (p, f.attrs.get("format")))
            rows = int(f.attrs.get("committed", f["states"].shape[0]))
            self.states = np.ascontiguousarray(f["states"][:rows])
            self.cost = np.asarray(f["cost"][:rows], np.float32)
            rec = f.attrs.get("domain")
        rec = rec.decode() if isinstance(rec, bytes) else rec
        self.domain = _domain(domain if domain is not None else rec)
        self.domain.states(self.states, p)  # every row one of the domain's

    def __len__(self):
        return self.states.shape[0]

    def __getitem__(self, i):
        x = self.domain.encode(self.states[i:i + 1] if isinstance(i, int) else self.states[i])
        return torch.from_numpy(x[0]), torch.tensor(self.cost[i])

    def tensors(self):
        """(x, y): every row encoded, float32 [rows, inputs] and [rows]."""
        return torch.from_numpy(self.domain.encode(self.states)), torch.from_numpy(self.cost)


class TorchHeuristic(CallbackHeuristic):
    """An nn.Module as a heuristic of heurnet's searches: each batch of
    states the search evaluates is encoded (Domain.encode), run through
    the module in eval mode without gradients on `device`, and its first
    output taken as the estimate (cost units). Use .spec as the
    heuristic's name (see CallbackHeuristic); close() or a with block
    unregisters it."""

    def __init__(self, module, domain, device="cpu", name=None):
        if not isinstance(module, torch.nn.Module):
            raise TypeError("TorchHeuristic: expected a torch.nn.Module, not %s"
                            % type(module).__name__)
        d = _domain(domain)
        self.module = module.eval()
        self.device = torch.device(device)

        def estimate(states):
            x = torch.from_numpy(d.encode(states)).to(self.device)
            with torch.no_grad():
                y = self.module(x)
            return y.reshape(len(states), -1)[:, 0].double().cpu().numpy()

        super().__init__(d, estimate, name)


def model_from_torch(module, domain, name="torch"):
    """heurnet.Model.from_torch: the module exported to ONNX in memory
    (torch.onnx.export, input [n, inputs]) and read by heurnet's own
    importer (nn_import_onnx_mem: Linear, BatchNorm1d, ReLU, ELU,
    LeakyReLU, Dropout, constant scaling); the model records the domain's
    encoder and spec, so heurnet's searches and files take it."""
    from .model import Model
    d = _domain(domain)
    buf = io.BytesIO()
    was_training = module.training
    module.eval()
    try:
        torch.onnx.export(module, torch.zeros(1, d.inputs), buf, input_names=["x"],
                          output_names=["h"], dynamic_axes={"x": {0: "n"}, "h": {0: "n"}},
                          opset_version=13)
    finally:
        module.train(was_training)
    data = buf.getvalue()
    st = C.c_int(0)
    h = lib.nn_import_onnx_mem(data, len(data), _check.text(name, "name", none_ok=False),
                               C.byref(st))
    if not h:
        raise error(st.value, "from_torch")
    m = Model(h, None)
    m.encoder = d.encoding
    m.set_attr("domain", d.spec)
    return m


class _Target(torch.nn.Module):
    """The model's target scaling: y * std + mean."""

    def __init__(self, mean, std):
        super().__init__()
        self.mean, self.std = float(mean), float(std)

    def forward(self, y):
        return y * self.std + self.mean


def model_to_torch(model):
    """heurnet.Model.to_torch: an nn.Sequential in eval mode computing what
    model.predict computes (Linear, BatchNorm1d, ReLU/ELU per layer, then
    the target scaling), from the model's npy export (nn_export_npy's
    model.json and raw float32 weights)."""
    folder = tempfile.mkdtemp(prefix="heurnet-torch-")
    out = os.path.join(folder, "m")
    try:
        check(lib.nn_export_npy(model._h, out.encode()), "to_torch")
        with open(os.path.join(out, "model.json")) as f:
            spec = json.load(f)

        def load(name):
            return torch.from_numpy(np.load(os.path.join(out, name)))

        mods = []
        for L in spec["layers"]:
            lin = torch.nn.Linear(L["in"], L["out"])
            lin.weight.data = load(L["kernel"]).T.contiguous()
            lin.bias.data = load(L["bias"])
            mods.append(lin)
            bn = L["batch_norm"]
            if bn:
                b = torch.nn.BatchNorm1d(L["out"], eps=bn["epsilon"])
                b.weight.data, b.bias.data = load(bn["gamma"]), load(bn["beta"])
                b.running_mean.data = load(bn["moving_mean"])
                b.running_var.data = load(bn["moving_variance"])
                mods.append(b)
            if L["activation"] == "relu":
                mods.append(torch.nn.ReLU())
            elif L["activation"] == "elu":
                mods.append(torch.nn.ELU(L["elu_alpha"]))
            elif L["activation"] == "leaky":
                mods.append(torch.nn.LeakyReLU(L["elu_alpha"]))
            elif L["activation"] not in ("linear", "none", ""):
                raise ValueError("to_torch: layer %d's activation %r has no PyTorch module here"
                                 % (L["index"], L["activation"]))
        t = spec.get("target") or {}
        mods.append(_Target(t.get("mean", 0.0), t.get("std", 1.0)))
        return torch.nn.Sequential(*mods).eval()
    finally:
        shutil.rmtree(folder, ignore_errors=True)
