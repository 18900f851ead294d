"""npy_forward.py DIR X.h5 DATASET: rebuild the network from DIR/model.json
and its .npy files (nothing else) and print one line per input row."""
import json
import sys

import h5py
import numpy as np

folder, data, name = sys.argv[1:4]
with open(f"{folder}/model.json") as f:
    spec = json.load(f)
assert spec["format"] == "heurnet-npy" and spec["format_version"] == 1
with h5py.File(data, "r") as f:
    a = f[name][...].astype(np.float64)
assert a.shape[1] == spec["inputs"]
for layer in spec["layers"]:
    kernel = np.load(f"{folder}/{layer['kernel']}")
    assert kernel.dtype == np.float32 and kernel.shape == (layer["in"], layer["out"])
    z = a @ kernel + np.load(f"{folder}/{layer['bias']}")
    bn = layer["batch_norm"]
    if bn:
        arr = {k: np.load(f"{folder}/{bn[k]}") for k in ("gamma", "beta", "moving_mean", "moving_variance")}
        z = (z - arr["moving_mean"]) / np.sqrt(arr["moving_variance"] + bn["epsilon"]) * arr["gamma"] + arr["beta"]
    act = layer["activation"]
    if act == "relu":
        z = np.maximum(z, 0)
    elif act == "elu":
        z = np.where(z > 0, z, layer["elu_alpha"] * np.expm1(np.minimum(z, 0)))
    else:
        assert act == "linear", act
    a = z
y = a * spec["target"]["std"] + spec["target"]["mean"]
assert y.shape[1] == spec["outputs"]
np.savetxt(sys.stdout, y, fmt="%.9g", delimiter="\t")
