#!/bin/bash
# heurnet import: ONNX files built with onnx.helper as PyTorch (Gemm,
# transB 1) and Keras/tf2onnx (MatMul + Add) write them, each imported and
# run by `heurnet predict`, checked against onnxruntime-node on the same
# file (within 1e-4 relative); export -> import -> export gives the same
# weights bit for bit; an imported 8-puzzle network runs in A* on every
# engine (sparse float, q8, dense); then the refusals: unsupported
# operators and constructs exit 2 naming them, damaged files exit 1.
# Arguments: path of heurnet, instances dir, source dir. onnxruntime-node
# comes from npm as in cli_export.sh; without npm that part is skipped (77).
set -u
HN=$1
SRC=$3
EX=$SRC/tests/export
. "$(dirname "$0")/lib_cli.sh"
skipped=0

if ! $PY -c "import h5py, numpy, onnx" 2>/dev/null; then
    echo "FAIL: /usr/bin/python3 with h5py, numpy and onnx is needed (scripts/deps.sh)" >&2
    exit 1
fi
$PY "$SRC/tests/import/make_onnx.py" "$T" || { echo "FAIL: make_onnx.py" >&2; exit 1; }

# onnxruntime-node: cli_export.sh's copy when it is there, else our own (a
# separate folder, so the two tests never install into one at once).
NPM_DIR=$PWD/export-npm
ort_ready() { [ -f "$NPM_DIR/node_modules/onnxruntime-node/package.json" ]; }
if ! ort_ready && command -v npm >/dev/null && command -v node >/dev/null; then
    NPM_DIR=$PWD/import-npm
    if ! ort_ready; then
        echo "installing onnxruntime-node@1.30.0 into $NPM_DIR" >&2
        mkdir -p "$NPM_DIR" && (cd "$NPM_DIR" && ONNXRUNTIME_NODE_INSTALL=skip \
            npm install --no-audit --no-fund --loglevel=error onnxruntime-node@1.30.0 >&2) ||
            fail "npm install onnxruntime-node failed"
    fi
fi

# --- supported graphs, against onnxruntime -----------------------------------
for m in gemm_t1:81:81-32:relu,nobn-16:nobn,alpha=0.7-1 gemm_t0:10:10-7:nobn-3 \
    matmul_add:10:10-8:relu,nobn-3 bn:10:10-12:relu-9:relu,nobn-2 opset8:10:10-6:relu,nobn-2 \
    leaky:81:81-16:leaky,nobn,alpha=0.01-8:leaky,nobn,alpha=0.2-1 keras_bn:10:10-8:relu,nobn-3; do
    IFS=: read -r name width spec <<<"$m"
    "$HN" import "$T/$name.onnx" "$T/$name.h5" >"$T/out" || fail "import $name: $(cat "$T/err" 2>/dev/null)"
    grep -q "spec=$spec " "$T/out" || fail "import $name: want spec=$spec: $(cat "$T/out")"
    "$HN" predict --model "$T/$name.h5" --data "$T/x.h5" --x "/x$width" >"$T/$name.ref" ||
        fail "predict $name"
    if ort_ready && command -v node >/dev/null; then
        NODE_PATH=$NPM_DIR/node_modules node "$EX/ort_run.js" "$T/$name.onnx" "$T/x$width.f32" "$width" \
            >"$T/$name.ort" || fail "onnxruntime-node could not run $name.onnx"
        $PY "$EX/compare.py" "import $name vs onnxruntime" "$T/$name.ref" "$T/$name.ort" ||
            fail "imported $name differs from onnxruntime"
    else
        echo "SKIP: onnxruntime-node check ($name): npm/node unavailable" >&2
        skipped=1
    fi
done
grep -q 'encoder="npuzzle-onehot n=3 goal=blank-last"' <("$HN" import --force "$T/gemm_t1.onnx" "$T/gemm_t1.h5") ||
    fail "gemm_t1.onnx: the encoder metadata was not taken"
"$HN" import --encoder "test-v1" "$T/gemm_t0.onnx" "$T/enc.h5" | grep -q 'encoder="test-v1"' ||
    fail "--encoder was not applied"

# --- export -> import -> export: the same weights ----------------------------
# a: batch norm, ELU and ReLU, linear output (scaling folded on export);
# b: no batch norm, ELU alpha 0.5, a relu output layer (scaling as Mul/Add).
"$HN" nn init --arch 81-32-16:relu-1 --seed 7 --encoder "npuzzle-onehot n=3 goal=blank-last" \
    -o "$T/ra.h5" >/dev/null || fail "nn init ra"
"$HN" nn init --arch "10-7:alpha=0.5,nobn-5:relu,nobn-3:relu" --seed 8 -o "$T/rb.h5" >/dev/null ||
    fail "nn init rb"
mkdir -p "$T/prep" && $PY "$EX/prepare.py" "$T/prep" "$T/ra.h5:21.5:6.25" "$T/rb.h5:-2:3" ||
    fail "prepare.py"
for r in ra rb; do
    "$HN" nn upgrade "$T/$r.h5" >/dev/null 2>&1 # prepare.py edited it: a new checksum
    "$HN" export --model "$T/$r.h5" -o "$T/$r.onnx" >/dev/null || fail "export $r"
    "$HN" import "$T/$r.onnx" "$T/$r.imp.h5" >"$T/out" || fail "import $r"
    "$HN" export --model "$T/$r.imp.h5" -o "$T/$r.2.onnx" >/dev/null || fail "export $r again"
    $PY - "$T/$r.onnx" "$T/$r.2.onnx" <<'PYEOF' || fail "$r: export -> import -> export changed the weights"
import sys
import onnx
a, b = (onnx.load(p).graph for p in sys.argv[1:3])
ta = {t.name: (list(t.dims), t.raw_data) for t in a.initializer}
tb = {t.name: (list(t.dims), t.raw_data) for t in b.initializer}
assert ta == tb, sorted(set(ta) ^ set(tb)) or [k for k in ta if ta[k] != tb[k]]
assert [n.op_type for n in a.node] == [n.op_type for n in b.node]
PYEOF
    w=$([ $r = ra ] && echo 81 || echo 10)
    "$HN" predict --model "$T/$r.h5" --data "$T/prep/x.h5" --x "/x$w" >"$T/$r.ref" &&
        "$HN" predict --model "$T/$r.imp.h5" --data "$T/prep/x.h5" --x "/x$w" >"$T/$r.got" ||
        fail "predict $r"
    $PY "$EX/compare.py" "import of export $r" "$T/$r.ref" "$T/$r.got" || fail "import of export $r differs"
done
# rb's relu output keeps the target scaling apart (Mul, Add): it comes back as such.
grep -q 'target_mean=-2 target_std=3' "$T/out" || fail "rb: the target scaling did not come back: $(cat "$T/out")"
# Without batch norm the model itself comes back: kernels and biases bit for bit.
$PY - "$T/rb.h5" "$T/rb.imp.h5" <<'PYEOF' || fail "rb: import of the export changed kernels or biases"
import sys
import h5py
import numpy as np
a, b = (h5py.File(p, "r") for p in sys.argv[1:3])
for layer in a["layers"]:
    for k in ("kernel", "bias"):
        x, y = a["layers"][layer][k][()], b["layers"][layer][k][()]
        assert x.shape == y.shape and np.array_equal(x.view(np.uint32), y.view(np.uint32)), (layer, k)
assert (a.attrs["target_mean"], a.attrs["target_std"]) == (b.attrs["target_mean"], b.attrs["target_std"])
PYEOF

# --- every engine: A* on 8-puzzle boards with the imported network -----------
# a and b with their optimal lengths; c and d are random walks from the goal.
printf 'a 1 1 2 3 4 5 6 7 0 8\nb 2 1 2 3 4 0 6 7 5 8\n' >"$T/b8.txt"
printf 'c 1 2 3 0 4 6 7 5 8\nd 2 3 6 1 4 0 7 5 8\n' >>"$T/b8.txt"
for net in gemm_t1 leaky; do
    for e in dense "" q8 q8,acc16; do
        "$HN" solve --puzzle 8 --goal blank-last --algo astar --heuristic "ann:$T/$net.h5${e:+,$e}" \
            "$T/b8.txt" >"$T/solve.$e" 2>"$T/err" || fail "$net on engine '${e:-sparse}': $(cat "$T/err")"
        [ "$(grep -c 'status=solved' "$T/solve.$e")" -eq 4 ] || fail "$net on '${e:-sparse}' did not solve all 4"
        grep -o 'id=[a-z] .*h0=[0-9.-]*' "$T/solve.$e" | sed 's/status.*h0=/h0=/' >"$T/h0.$e"
    done
    cmp -s "$T/h0.dense" "$T/h0." || fail "$net: sparse float and dense h0 differ: $(paste "$T/h0.dense" "$T/h0.")"
done

# --- refusals ----------------------------------------------------------------
expect 2 "node 1 (Sigmoid 'squash'): operator Sigmoid is not supported" \
    "$HN" import "$T/sigmoid.onnx" "$T/no.h5"
expect 2 "node 1 (LeakyRelu): LeakyRelu alpha outside [0, 100]" "$HN" import "$T/negslope.onnx" "$T/no.h5"
expect 2 "node 3 (Add 'residual'): operand 'a0' is computed" "$HN" import "$T/branch.onnx" "$T/no.h5"
expect 2 "colscale.onnx: BatchNormalization, Mul or Add after the last activation treats outputs differently" \
    "$HN" import "$T/colscale.onnx" "$T/no.h5"
expect 2 "tensor 'W0' has data type 11" "$HN" import "$T/double.onnx" "$T/no.h5"
expect 2 "opset 3; import reads opsets 7 to 22" "$HN" import "$T/opset3.onnx" "$T/no.h5"
expect 1 "shapes.onnx: node 2 (Gemm): weight 'W1' is [3, 15] (transB 1), so it reads 15 values, but the tensor before it has 16" \
    "$HN" import "$T/shapes.onnx" "$T/no.h5"
expect 1 "node 1 (Add): 'b0' holds 5 values, expected 7 or 1" "$HN" import "$T/bias5.onnx" "$T/no.h5"
expect 1 "tensor 'W0': its shape needs 70 floats but raw_data holds 69" "$HN" import "$T/short_raw.onnx" "$T/no.h5"
expect 1 "tensor 'W0': value 0 is not finite" "$HN" import "$T/nan.onnx" "$T/no.h5"
expect 1 "overflow.onnx: layer 0: folding Mul, Add or BatchNormalization into it overflows float" \
    "$HN" import "$T/overflow.onnx" "$T/no.h5"
expect 1 "input 'x' has 12 values per row, the first layer reads 10" "$HN" import "$T/input12.onnx" "$T/no.h5"
expect 1 "no initializer, Constant or node provides 'W9'" "$HN" import "$T/missing.onnx" "$T/no.h5"
[ ! -e "$T/no.h5" ] || fail "a refused import wrote its output"
# Truncated anywhere: a clear message and exit 1, never a crash.
size=$(stat -c %s "$T/gemm_t1.onnx")
for n in 0 1 2 17 100 1000 5000 $((size / 2)) $((size - 40)) $((size - 1)); do
    head -c "$n" "$T/gemm_t1.onnx" >"$T/cut.onnx"
    expect 1 "cut.onnx: " "$HN" import "$T/cut.onnx" "$T/no.h5"
done
head -c 5000 "$T/gemm_t1.onnx" >"$T/cut.onnx"
expect 1 "cut.onnx: not a valid ONNX file: byte " "$HN" import "$T/cut.onnx" "$T/no.h5"
grep -q "remain (truncated file?)" "$T/err" || fail "truncation message: $(cat "$T/err")"
echo "this is not ONNX" >"$T/text.onnx"
expect 1 "text.onnx: not a valid ONNX file" "$HN" import "$T/text.onnx" "$T/no.h5"
expect 1 "nope.onnx: cannot open" "$HN" import "$T/nope.onnx" "$T/no.h5"
expect 1 "gemm_t0.h5 exists (use --force to replace it)" "$HN" import "$T/gemm_t0.onnx" "$T/gemm_t0.h5"
expect 2 "need MODEL.onnx and OUT.h5" "$HN" import "$T/gemm_t0.onnx"
expect 2 "is the ONNX file itself" "$HN" import --force "$T/gemm_t0.onnx" "$T/gemm_t0.onnx"
"$HN" import --help >"$T/out" && grep -q '\[off\]' "$T/out" || fail "import --help"

[ $fails -eq 0 ] || exit 1
[ $skipped -eq 0 ] || exit 77
echo "cli_import: all checks passed"
