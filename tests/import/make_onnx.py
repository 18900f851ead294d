"""Build the ONNX files of tests/cli_import.sh with onnx.helper, the way
PyTorch (Gemm, transB 1) and Keras through tf2onnx (MatMul + Add) write
multilayer perceptrons, plus files heurnet must refuse; and the input rows.

usage: make_onnx.py DIR ; writes DIR/NAME.onnx, DIR/x.h5 (/x<width>) and
DIR/x<width>.f32 (the same rows, raw little-endian)."""
import sys

import h5py
import numpy as np
import onnx
from onnx import TensorProto, helper, numpy_helper

rng = np.random.default_rng(47)
OUT = sys.argv[1]
ENC = "npuzzle-onehot n=3 goal=blank-last"


def arr(*shape, scale=0.3):
    return rng.normal(0, scale, shape).astype(np.float32)


def raw(name, a):
    return numpy_helper.from_array(np.asarray(a, np.float32), name)


def floats(name, a):
    """float_data instead of raw_data."""
    a = np.asarray(a, np.float32)
    return helper.make_tensor(name, TensorProto.FLOAT, a.shape, a.ravel().tolist())


def bn_inits(p, n):
    return [raw(p + "_g", rng.uniform(0.5, 1.5, n)), raw(p + "_b", arr(n)),
            raw(p + "_m", arr(n, scale=0.5)), raw(p + "_v", rng.uniform(0.3, 2.0, n))]


def bn_inputs(p):
    return [p + "_g", p + "_b", p + "_m", p + "_v"]


def save(name, nodes, inits, width, outs, opset=13, check=True, meta=None, in_dims=None):
    x = helper.make_tensor_value_info("x", TensorProto.FLOAT, in_dims or ["N", width],
                                      doc_string="one row per board")
    h = helper.make_tensor_value_info("h", TensorProto.FLOAT, ["N", outs])
    g = helper.make_graph(nodes, name, [x], [h], inits)
    m = helper.make_model(g, opset_imports=[helper.make_opsetid("", opset)],
                          producer_name="make_onnx.py")
    m.ir_version = 7 if opset <= 13 else 8
    for k, v in (meta or {}).items():
        helper.set_model_props(m, {k: v})
    if check:
        onnx.checker.check_model(m, full_check=True)
    onnx.save(m, f"{OUT}/{name}.onnx")


N = helper.make_node

# PyTorch's nn.Linear: Gemm with transB 1; alpha and beta not 1 on purpose.
save("gemm_t1", [
    N("Gemm", ["x", "W0", "B0"], ["z0"], transB=1, name="fc0", doc_string="nn.Linear(81, 32)"),
    N("Relu", ["z0"], ["a0"]),
    N("Gemm", ["a0", "W1", "B1"], ["z1"], transB=1, alpha=0.5, beta=2.0),
    N("Elu", ["z1"], ["a1"], alpha=0.7),
    N("Gemm", ["a1", "W2", "B2"], ["h"], transB=1),
], [raw("W0", arr(32, 81)), raw("B0", arr(32)), raw("W1", arr(16, 32)), raw("B1", arr(16)),
    raw("W2", arr(1, 16)), raw("B2", [3.0])], 81, 1, meta={"encoder": ENC})

# transB 0, float_data, no C (optional from opset 11), an Elu with its default alpha.
save("gemm_t0", [
    N("Gemm", ["x", "W0", "B0"], ["z0"]),
    N("Elu", ["z0"], ["a0"]),
    N("Gemm", ["a0", "W1"], ["h"]),
], [floats("W0", arr(10, 7)), floats("B0", arr(7)), floats("W1", arr(7, 3))], 10, 3, opset=11)

# Keras through tf2onnx: MatMul + Add, the second bias a Constant node added
# from the left.
save("matmul_add", [
    N("MatMul", ["x", "W0"], ["m0"]),
    N("Add", ["m0", "b0"], ["z0"]),
    N("Relu", ["z0"], ["a0"]),
    N("MatMul", ["a0", "W1"], ["m1"]),
    N("Constant", [], ["b1"], value=raw("b1v", arr(3))),
    N("Add", ["b1", "m1"], ["h"]),
], [raw("W0", arr(10, 8)), raw("b0", arr(8)), raw("W1", arr(8, 3))], 10, 3)

# Keras' batch norm as tf2onnx may write it (Mul and Add by per-column
# constants) before the activation, and after one; the inputs normalised by
# a Mul and Add first. All of it folds into the dense layers.
save("keras_bn", [
    N("Mul", ["x", "in_s"], ["xs"]),
    N("Add", ["in_t", "xs"], ["xn"]),
    N("MatMul", ["xn", "W0"], ["m0"]),
    N("Add", ["m0", "b0"], ["z0"]),
    N("Mul", ["z0", "bn_s"], ["s0"]),
    N("Add", ["s0", "bn_t"], ["y0"]),
    N("Relu", ["y0"], ["a0"]),
    N("Mul", ["a0", "bn1_s"], ["s1"]),
    N("Add", ["s1", "bn1_t"], ["y1"]),
    N("MatMul", ["y1", "W1"], ["m1"]),
    N("Add", ["m1", "b1"], ["h"]),
], [raw("in_s", rng.uniform(0.5, 2, 10)), raw("in_t", arr(10)), raw("W0", arr(10, 8)),
    raw("b0", arr(8)), raw("bn_s", rng.uniform(0.5, 1.5, 8)), raw("bn_t", arr(8)),
    raw("bn1_s", rng.uniform(0.5, 1.5, 8)), raw("bn1_t", arr(8)), raw("W1", arr(8, 3)),
    raw("b1", arr(3))], 10, 3)

# Batch norm before the activation (kept as batch norm), after one (folded
# into the next layer); Flatten, Dropout with its ratio input, Identity;
# Mul and Add after the linear output layer (folded into it).
save("bn", [
    N("Flatten", ["x"], ["f"], axis=1),
    N("Gemm", ["f", "W0", "B0"], ["z0"], transB=1),
    N("BatchNormalization", ["z0"] + bn_inputs("n0"), ["y0"], epsilon=1e-3),
    N("Relu", ["y0"], ["a0"]),
    N("Dropout", ["a0", "ratio"], ["d0"]),
    N("Identity", ["d0"], ["i0"]),
    N("Gemm", ["i0", "W1", "B1"], ["z1"], transB=1),
    N("Relu", ["z1"], ["a1"]),
    N("BatchNormalization", ["a1"] + bn_inputs("n1"), ["y1"]),
    N("Gemm", ["y1", "W2", "B2"], ["r"], transB=1),
    N("Mul", ["r", "std"], ["s"]),
    N("Add", ["s", "mean"], ["h"]),
], [raw("W0", arr(12, 10)), raw("B0", arr(12)), *bn_inits("n0", 12), raw("ratio", 0.25),
    raw("W1", arr(9, 12)), raw("B1", arr(9)), *bn_inits("n1", 9), raw("W2", arr(2, 9)),
    raw("B2", arr(2)), raw("std", 6.25), raw("mean", 21.5)], 10, 2, opset=15)

# Opset 8: batch norm on the inputs (folded into the first layer), spatial
# and ratio as attributes, a Dropout whose mask nobody reads, LeakyRelu
# with slope 0.
save("opset8", [
    N("BatchNormalization", ["x"] + bn_inputs("n0"), ["y"], spatial=1, epsilon=1e-5),
    N("Gemm", ["y", "W0", "B0"], ["z0"], transB=1),
    N("LeakyRelu", ["z0"], ["a0"], alpha=0.0),
    N("Dropout", ["a0"], ["d0", "mask"], ratio=0.2),
    N("Gemm", ["d0", "W1", "B1"], ["h"], transB=1),
], [*bn_inits("n0", 10), raw("W0", arr(6, 10)), raw("B0", arr(6)), raw("W1", arr(2, 6)),
    raw("B1", arr(2))], 10, 2, opset=8)

# LeakyRelu with PyTorch's default slope (0.01) and with 0.2.
save("leaky", [
    N("Gemm", ["x", "W0", "B0"], ["z0"], transB=1),
    N("LeakyRelu", ["z0"], ["a0"]),
    N("Gemm", ["a0", "W1", "B1"], ["z1"], transB=1),
    N("LeakyRelu", ["z1"], ["a1"], alpha=0.2),
    N("Gemm", ["a1", "W2", "B2"], ["h"], transB=1),
], [raw("W0", arr(16, 81)), raw("B0", arr(16)), raw("W1", arr(8, 16)), raw("B1", arr(8)),
    raw("W2", arr(1, 8)), raw("B2", arr(1))], 81, 1, meta={"encoder": ENC})

# ---- files to refuse --------------------------------------------------------
save("sigmoid", [
    N("Gemm", ["x", "W0", "B0"], ["z0"], transB=1),
    N("Sigmoid", ["z0"], ["a0"], name="squash"),
    N("Gemm", ["a0", "W1", "B1"], ["h"], transB=1),
], [raw("W0", arr(4, 10)), raw("B0", arr(4)), raw("W1", arr(1, 4)), raw("B1", arr(1))], 10, 1)
save("negslope", [
    N("Gemm", ["x", "W0", "B0"], ["z0"], transB=1),
    N("LeakyRelu", ["z0"], ["h"], alpha=-0.5),
], [raw("W0", arr(4, 10)), raw("B0", arr(4))], 10, 4)
save("branch", [
    N("Gemm", ["x", "W0", "B0"], ["z0"], transB=1),
    N("Relu", ["z0"], ["a0"]),
    N("Gemm", ["a0", "W1", "B1"], ["z1"], transB=1),
    N("Add", ["z1", "a0"], ["h"], name="residual"),
], [raw("W0", arr(4, 10)), raw("B0", arr(4)), raw("W1", arr(4, 4)), raw("B1", arr(4))], 10, 4)
save("double", [N("Gemm", ["x", "W0"], ["h"], transB=1)],
     [numpy_helper.from_array(rng.normal(0, 1, (4, 10)), "W0")], 10, 4, check=False)
# W1 reads 15 values, the layer before gives 16.
save("shapes", [
    N("Gemm", ["x", "W0", "B0"], ["z0"], transB=1),
    N("Relu", ["z0"], ["a0"]),
    N("Gemm", ["a0", "W1", "B1"], ["h"], transB=1),
], [raw("W0", arr(16, 10)), raw("B0", arr(16)), raw("W1", arr(3, 15)), raw("B1", arr(3))], 10, 3,
    check=False)
# Per-column scaling after the last activation: heurnet scales all outputs alike.
save("colscale", [
    N("Gemm", ["x", "W0", "B0"], ["z0"], transB=1),
    N("Relu", ["z0"], ["a0"]),
    N("Mul", ["a0", "s"], ["h"], name="scale"),
], [raw("W0", arr(4, 10)), raw("B0", arr(4)), raw("s", [1.0, 2.0, 3.0, 4.0])], 10, 4)
# Finite weights times a finite factor that overflow float once folded.
save("overflow", [N("MatMul", ["x", "W0"], ["m"]), N("Mul", ["m", "s"], ["h"])],
     [raw("W0", np.full((10, 2), 1e30)), raw("s", 1e30)], 10, 2)
# A bias of 5 values for a layer of 7.
save("bias5", [N("MatMul", ["x", "W0"], ["m"]), N("Add", ["m", "b0"], ["h"])],
     [raw("W0", arr(10, 7)), raw("b0", arr(5))], 10, 7, check=False)
# raw_data shorter than the shape says.
t = raw("W0", arr(10, 7))
t.raw_data = t.raw_data[:-4]
save("short_raw", [N("MatMul", ["x", "W0"], ["h"])], [t], 10, 7, check=False)
save("opset3", [N("MatMul", ["x", "W0"], ["h"])], [raw("W0", arr(10, 7))], 10, 7, opset=3,
     check=False)
save("nan", [N("MatMul", ["x", "W0"], ["h"])], [raw("W0", np.full((10, 7), np.nan))], 10, 7)
# The graph input says 12 values per row, the first layer reads 10.
save("input12", [N("MatMul", ["x", "W0"], ["h"])], [raw("W0", arr(10, 7))], 10, 7, check=False,
     in_dims=["N", 12])
# A weight no initializer, Constant or node provides.
save("missing", [N("MatMul", ["x", "W9"], ["h"])], [raw("W0", arr(10, 7))], 10, 7, check=False)

# ---- input rows -------------------------------------------------------------


def onehot_boards(count):
    rows = np.zeros((count, 81), np.float32)
    for i in range(count):
        for p, t in enumerate(rng.permutation(9)):
            rows[i, t * 9 + p] = 1.0
    return rows


with h5py.File(f"{OUT}/x.h5", "w") as f:
    for w in (10, 81):
        x = rng.normal(0, 1.5, (48, w)).astype(np.float32)
        if w == 81:
            x = np.concatenate([onehot_boards(40), x[:24]])
        f[f"x{w}"] = x
        x.astype("<f4").tofile(f"{OUT}/x{w}.f32")
