#!/bin/bash
# heurnet nn / predict / bench through the executable: normal use, an
# independent forward pass in numpy/h5py that must equal `heurnet predict`,
# and bad input (malformed spec, missing, foreign, truncated, shape-broken
# and NaN model files), each a clear message and exit code, never a crash.
# Arguments: path of heurnet, instances dir, source dir.
set -u
HN=$1
. "$(dirname "$0")/lib_cli.sh"
EXPECT_MAX_LINES=3

# --- normal use -------------------------------------------------------------
"$HN" nn init --arch 20-16:relu,do=0.2-8-3 --seed 5 --encoder test-enc -o "$T/m.h5" >"$T/out" ||
    fail "nn init failed"
grep -q "spec=20-16:relu,do=0.2-8:do=0.1-3 params=" "$T/out" || fail "nn init output: $(cat "$T/out")"
no_part "$T/m.h5" || fail "nn init left a .part file"
"$HN" nn info "$T/m.h5" >"$T/info" || fail "nn info failed"
for want in "spec=20-16:relu,do=0.2-8:do=0.1-3" "params=$((20 * 16 + 16 + 32 + 16 * 8 + 8 + 16 + 8 * 3 + 3))" \
    "encoder=test-enc" "layer.001=in=16 out=8 activation=elu bn=1" "attr.seed=5"; do
    grep -qF "$want" "$T/info" || fail "nn info lacks '$want'"
done
for c in "nn init" "nn info" "nn demo" "predict" "bench nn"; do
    $HN $c --help >"$T/out" 2>&1 || fail "$c --help exited non-zero"
    grep -q '\[' "$T/out" || [ "$c" = "nn info" ] || fail "$c --help shows no defaults"
done
"$HN" nn demo --steps 400 --every 200 >"$T/demo" || fail "nn demo failed"
[ $(grep -c "^step=" "$T/demo") -eq 2 ] || fail "nn demo printed $(grep -c '^step=' "$T/demo") lines"
"$HN" bench nn --arch 20-16-1 --batch 8 --seconds 0.05 >"$T/bench" || fail "bench nn train failed"
grep -q "samples_per_s=" "$T/bench" && grep -q "fraction_of_sgemm=" "$T/bench" || fail "bench output: $(cat "$T/bench")"
"$HN" bench nn --arch 20-16-1 --batch 1 --mode infer --seconds 0.05 >"$T/bench" || fail "bench nn infer failed"

# --- h5py rebuilds the forward pass and agrees with heurnet predict ----------
if $PY -c "import h5py, numpy" 2>/dev/null; then
    $PY - "$T" <<'PYEOF' || fail "python set-up failed"
import sys, h5py, numpy as np
t = sys.argv[1]
rng = np.random.default_rng(3)
# Give batch norm non-trivial statistics and the model a target scaling.
with h5py.File(f"{t}/m.h5", "r+") as f:
    f.attrs["target_mean"] = 4.0
    f.attrs["target_std"] = 1.5
    for name in f["layers"]:
        g = f["layers"][name]
        if "gamma" in g:
            n = g["gamma"].shape[0]
            g["gamma"][...] = rng.uniform(0.5, 1.5, n)
            g["beta"][...] = rng.normal(0, 0.3, n)
            g["moving_mean"][...] = rng.normal(0, 0.5, n)
            g["moving_variance"][...] = rng.uniform(0.3, 2.0, n)
        g["bias"][...] = rng.normal(0, 0.2, g["bias"].shape[0])
with h5py.File(f"{t}/x.h5", "w") as f:
    f["x"] = rng.normal(0, 1, (50, 20)).astype(np.float32)
    f["wide"] = rng.normal(0, 1, (5, 21)).astype(np.float32)
    bad = rng.normal(0, 1, (5, 20)).astype(np.float32)
    bad[3, 4] = np.nan
    f["nan"] = bad
# Independent forward pass from the documented layout.
with h5py.File(f"{t}/m.h5", "r") as f, h5py.File(f"{t}/x.h5", "r") as d:
    a = d["x"][...].astype(np.float64)
    for name in sorted(f["layers"]):
        g = f["layers"][name]
        z = a @ g["kernel"][...] + g["bias"][...]
        if "gamma" in g:
            z = (z - g["moving_mean"][...]) / np.sqrt(g["moving_variance"][...] + g.attrs["bn_epsilon"])
            z = z * g["gamma"][...] + g["beta"][...]
        act = g.attrs["activation"]
        act = act.decode() if isinstance(act, bytes) else act
        if act == "relu":
            z = np.maximum(z, 0)
        elif act == "elu":
            z = np.where(z > 0, z, g.attrs.get("elu_alpha", 1.0) * np.expm1(np.minimum(z, 0)))
        a = z
    y = a * f.attrs["target_std"] + f.attrs["target_mean"]
np.savetxt(f"{t}/ref.txt", y, delimiter="\t")
PYEOF
    "$HN" predict --model "$T/m.h5" --data "$T/x.h5" --x /x --batch 7 >"$T/pred" || fail "predict failed"
    [ $(wc -l <"$T/pred") -eq 50 ] || fail "predict printed $(wc -l <"$T/pred") lines, want 50"
    $PY - "$T" <<'PYEOF' || fail "predict differs from the h5py forward pass"
import sys, numpy as np
t = sys.argv[1]
ref = np.loadtxt(f"{t}/ref.txt")
got = np.loadtxt(f"{t}/pred")
err = np.max(np.abs(ref - got) / np.maximum(1, np.abs(ref)))
print(f"max relative difference predict vs h5py: {err:.2e}", file=sys.stderr)
sys.exit(0 if ref.shape == got.shape and err < 1e-5 else 1)
PYEOF
    expect 1 "x.h5: /wide has 21 columns but the model" "$HN" predict --model "$T/m.h5" --data "$T/x.h5" --x /wide
    expect 1 "x.h5: /nan: row 3 holds NaN" "$HN" predict --model "$T/m.h5" --data "$T/x.h5" --x /nan
    expect 1 "dataset /nope is missing" "$HN" predict --model "$T/m.h5" --data "$T/x.h5" --x /nope

    # Damaged model files.
    $PY - "$T" <<'PYEOF' || fail "python could not write the bad files"
import sys, shutil, h5py, numpy as np
t = sys.argv[1]
shutil.copy(f"{t}/m.h5", f"{t}/foreign.h5")
with h5py.File(f"{t}/foreign.h5", "r+") as f:
    f.attrs["format"] = "keras"
shutil.copy(f"{t}/m.h5", f"{t}/noformat.h5")
with h5py.File(f"{t}/noformat.h5", "r+") as f:
    del f.attrs["format"]
shutil.copy(f"{t}/m.h5", f"{t}/chain.h5")
with h5py.File(f"{t}/chain.h5", "r+") as f:
    del f["layers/001/kernel"]
    f["layers/001/kernel"] = np.zeros((15, 8), np.float32)
shutil.copy(f"{t}/m.h5", f"{t}/nan.h5")
with h5py.File(f"{t}/nan.h5", "r+") as f:
    f["layers/002/kernel"][2, 1] = np.nan
shutil.copy(f"{t}/m.h5", f"{t}/inf.h5")
with h5py.File(f"{t}/inf.h5", "r+") as f:
    f["layers/000/gamma"][4] = np.inf
shutil.copy(f"{t}/m.h5", f"{t}/badspec.h5")
with h5py.File(f"{t}/badspec.h5", "r+") as f:
    f.attrs["spec"] = "20-16:relu,do=2-8-3"
shutil.copy(f"{t}/m.h5", f"{t}/nolayer.h5")
with h5py.File(f"{t}/nolayer.h5", "r+") as f:
    del f["layers/002"]
PYEOF
    expect 1 "foreign.h5: not a heurnet model (attribute 'format' is 'keras'" "$HN" nn info "$T/foreign.h5"
    expect 1 "noformat.h5: not a heurnet model (root attribute 'format' is missing)" "$HN" nn info "$T/noformat.h5"
    expect 1 "chain.h5: /layers/001/kernel is [15, 8] but /layers/000 outputs 16: kernel shapes do not chain" \
        "$HN" predict --model "$T/chain.h5" --data "$T/x.h5"
    expect 1 "nan.h5: /layers/002/kernel holds NaN at index 7" "$HN" nn info "$T/nan.h5"
    expect 1 "inf.h5: /layers/000/gamma holds infinity at index 4" "$HN" nn info "$T/inf.h5"
    expect 1 "badspec.h5: attribute 'spec': spec '20-16:relu,do=2-8-3': character 15" "$HN" nn info "$T/badspec.h5"
    expect 1 "nolayer.h5: /layers has 2 layers but the spec has 3" "$HN" nn info "$T/nolayer.h5"
else
    fail "/usr/bin/python3 with h5py and numpy is needed for this test"
fi

# --- bad input without Python ------------------------------------------------
expect 2 "character 5: expected a layer width" "$HN" nn init --arch 256-x-1 -o "$T/bad.h5"
expect 2 "character 10: unknown override" "$HN" nn init --arch 256-1024:foo-1 -o "$T/bad.h5"
[ ! -e "$T/bad.h5" ] && no_part "$T/bad.h5" || fail "a failed nn init left a file"
expect 2 "--arch SPEC is required" "$HN" nn init -o "$T/bad.h5"
expect 2 "--dropout: '1.5' is not a number in [0, 1)" "$HN" nn init --arch 4-1 --dropout 1.5 -o "$T/bad.h5"
expect 1 "nope.h5: cannot open" "$HN" nn info "$T/nope.h5"
expect 1 "nope.h5: cannot open" "$HN" predict --model "$T/nope.h5" --data "$T/x.h5"
echo "plain text" >"$T/text.h5"
expect 1 "text.h5: not an HDF5 file" "$HN" nn info "$T/text.h5"
head -c $(($(stat -c %s "$T/m.h5") / 2)) "$T/m.h5" >"$T/trunc.h5"
expect 1 "trunc.h5" "$HN" nn info "$T/trunc.h5"
expect 2 "--mode: expected train or infer" "$HN" bench nn --mode fast
expect 2 "unknown nn command" "$HN" nn frobnicate

[ $fails -eq 0 ] && echo "cli_nn: all checks passed" >&2
exit $((fails > 0))
