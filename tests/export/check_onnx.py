"""check_onnx.py MODEL.onnx INPUTS OUTPUTS ENCODER: the ONNX checker with
full_check (type and shape inference) accepts the file, and the graph has
the promised interface and metadata."""
import sys

import onnx

path, inputs, outputs, encoder = sys.argv[1], int(sys.argv[2]), int(sys.argv[3]), sys.argv[4]
model = onnx.load(path)
onnx.checker.check_model(model, full_check=True)
assert model.ir_version == 8, model.ir_version
assert [(o.domain, o.version) for o in model.opset_import] == [("", 13)]


def dims(value_info):
    return [d.dim_param or d.dim_value for d in value_info.type.tensor_type.shape.dim]


g = model.graph
assert [i.name for i in g.input] == ["x"] and dims(g.input[0]) == ["N", inputs], dims(g.input[0])
assert [o.name for o in g.output] == ["h"] and dims(g.output[0]) == ["N", outputs], dims(g.output[0])
assert {n.op_type for n in g.node} <= {"Gemm", "Relu", "Elu", "Mul", "Add"}
meta = {p.key: p.value for p in model.metadata_props}
assert meta["encoder"] == encoder, meta
assert "spec" in meta and "input_encoding" in meta and "target_scaling" in meta
if encoder.startswith("npuzzle-onehot"):
    assert "goal_layout" in meta and "x[t*" in meta["input_encoding"], meta
print(f"onnx checker (full_check) passed: {len(g.node)} nodes, metadata {sorted(meta)}", file=sys.stderr)
