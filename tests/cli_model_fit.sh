#!/bin/bash
# A model that does not fit the run is refused with a message that says so
# (issue 63): on the generic path a model of no encoder (defect 7); at
# import an encoder whose width is not the network's (defect 15), for every
# built-in encoder family; and solve --puzzle with a model of another domain
# (defect 18). Shipped models still load on the generic path.
# Arguments: path of heurnet, instances dir, source dir.
set -u
H=$1
SRC=$3
. "$(dirname "$0")/lib_cli.sh"

# --- defect 7: no encoder on a domain of the network's width ----------------
"$H" nn init --arch 144-8-1 --seed 1 -o "$T/noenc.h5" >/dev/null || fail "nn init noenc"
"$H" nn init --arch 144-8-1 --seed 1 --encoder "npuzzle-onehot n=3x4 goal=blank-first" \
    -o "$T/enc34.h5" >/dev/null || fail "nn init enc34"
echo "a 1 2 3 4 5 6 7 8 9 10 0 11" >"$T/b34.txt"
expect 2 'records no encoder' "$H" predict --domain npuzzle:3x4 --model "$T/noenc.h5" \
    --instances "$T/b34.txt"
grep -qF "$T/noenc.h5" "$T/err" || fail "the refusal does not name the model: $(cat "$T/err")"
grep -qF 'npuzzle-onehot n=3x4 goal=blank-first' "$T/err" ||
    fail "the refusal does not name the domain's encoding: $(cat "$T/err")"
[ ! -s "$T/out" ] || fail "a refused model printed estimates: $(cat "$T/out")"
expect 2 'records no encoder' "$H" solve --domain npuzzle:3x4 --heuristic "ann:$T/noenc.h5" \
    --max-expanded 100 "$T/b34.txt"
"$H" predict --domain npuzzle:3x4 --model "$T/enc34.h5" --instances "$T/b34.txt" >"$T/out" ||
    fail "a model of the domain's encoder was refused"
# a model of another encoder is refused even when its domain is this one
"$H" nn init --arch 144-8-1 --seed 1 --encoder "npuzzle-onehot-v0 n=3x4" -o "$T/v0.h5" >/dev/null ||
    fail "nn init v0"
expect 2 '"npuzzle-onehot-v0 n=3x4", but domain npuzzle:3x4 encodes' "$H" predict \
    --domain npuzzle:3x4 --model "$T/v0.h5" --instances "$T/b34.txt"
# shipped models on the generic path: they record their domain's encoding
grep -v '^#' "$SRC/instances/cube3/deepcubea_test_cube3.txt" | head -3 >"$T/c3.txt"
grep -v '^#' "$SRC/instances/npuzzle/deepcubea_test_35puzzle.txt" | head -3 >"$T/p35.txt"
for m in cube3.h5:c3 cube3-walk.h5:c3 35puzzle.h5:p35; do
    "$H" predict --model "$SRC/models/${m%%:*}" --instances "$T/${m##*:}.txt" >"$T/out" 2>"$T/err" ||
        fail "shipped model ${m%%:*} no longer loads: $(cat "$T/err")"
    [ "$(wc -l <"$T/out")" -eq 3 ] || fail "${m%%:*}: want 3 estimates: $(cat "$T/out")"
done

# --- defect 18: solve --puzzle with a model of another domain ----------------
expect 2 'is for domain cube3 and does not fit --puzzle 15' "$H" solve --puzzle 15 \
    --model "$SRC/models/cube3.h5" "$T/c3.txt"
expect 2 'is for domain cube3 and does not fit --puzzle 15' "$H" solve --model="$SRC/models/cube3.h5" \
    --puzzle=15 "$T/c3.txt"
expect 2 'does not fit --puzzle 15' "$H" solve --puzzle 15 --model "$SRC/models/35puzzle.h5" \
    "$T/p35.txt"
expect 2 '--goal and --domain both name the domain' "$H" solve --domain cube3 \
    --goal blank-last --model "$SRC/models/cube3.h5" "$T/c3.txt"
grep -q 'unknown option' "$T/err" && fail "still 'unknown option': $(cat "$T/err")"
expect 2 "--goal needs --puzzle N (or a --model of a square n-puzzle)" "$H" solve --goal \
    blank-last --model "$SRC/models/cube3.h5" "$T/c3.txt"
# --goal with a square n-puzzle's model: that puzzle with the goal named
"$H" solve --goal blank-last --model "$SRC/models/35puzzle.h5" --max-expanded 200 -q "$T/p35.txt" \
    >"$T/out" 2>"$T/err"
grep -q "domain=npuzzle:6x6:blank-last " "$T/out" || fail "--goal with a 6x6 model: $(cat "$T/err")"

# --- defect 15: import checks the encoder against the network's width -------
if ! $PY -c "import onnx, numpy, h5py" 2>/dev/null; then
    echo "FAIL: /usr/bin/python3 with onnx, numpy and h5py is needed (scripts/deps.sh)" >&2
    exit 1
fi
$PY "$SRC/tests/import/make_onnx.py" "$T" >/dev/null || fail "make_onnx.py"
# gemm_t1.onnx reads 81 inputs (the 8-puzzle's encoders), gemm_t0.onnx 10
for e in "npuzzle-onehot n=4 goal=blank-first:256" "npuzzle-onehot n=5 goal=blank-last:625" \
    "npuzzle-onehot n=3x4 goal=blank-first:144" "cube3-cubie-onehot:480" "emp-move-v1:18"; do
    rm -f "$T/o.h5"
    expect 2 "reads 81 inputs" "$H" import --encoder "${e%:*}" "$T/gemm_t1.onnx" "$T/o.h5"
    grep -qF "${e##*:} inputs" "$T/err" || fail "import --encoder ${e%:*}: width not named: $(cat "$T/err")"
    [ ! -e "$T/o.h5" ] && no_part "$T/o.h5" || fail "import --encoder ${e%:*} wrote a file"
done
for e in "npuzzle-onehot n=3x3 goal=blank-first" "npuzzle-onehot n=3 goal=middle" \
    "npuzzle-onehot n=3" "npuzzle-onehot n=9 goal=blank-first" $'bad\nname'; do
    rm -f "$T/o.h5"
    "$H" import --encoder "$e" "$T/gemm_t1.onnx" "$T/o.h5" >/dev/null 2>"$T/err"
    rc=$?
    [ $rc -eq 2 ] && [ ! -e "$T/o.h5" ] ||
        fail "import --encoder '$e': exit $rc, want 2 and no file: $(cat "$T/err")"
done
# what fits is written: the 8-puzzle's two goals, and a name heurnet does not know
for e in "npuzzle-onehot n=3 goal=blank-first" "npuzzle-onehot n=3 goal=blank-last" "pancake-onehot n=9"; do
    rm -f "$T/o.h5"
    "$H" import --encoder "$e" "$T/gemm_t1.onnx" "$T/o.h5" >/dev/null 2>"$T/err" ||
        fail "import --encoder '$e' was refused: $(cat "$T/err")"
done
"$H" import --encoder "test-v1" "$T/gemm_t0.onnx" "$T/o10.h5" >/dev/null || fail "import test-v1"
# the file's own encoder metadata is checked the same way
$PY - "$T/gemm_t1.onnx" "$T/meta4.onnx" <<'PY' || fail "rewrite metadata"
import sys, onnx
m = onnx.load(sys.argv[1])
for p in m.metadata_props:
    if p.key == "encoder":
        p.value = "npuzzle-onehot n=4 goal=blank-first"
onnx.save(m, sys.argv[2])
PY
rm -f "$T/o.h5"
expect 2 "256 inputs" "$H" import "$T/meta4.onnx" "$T/o.h5"
[ ! -e "$T/o.h5" ] || fail "import of a misfit metadata encoder wrote a file"

[ $fails -eq 0 ] && echo "cli_model_fit: all passed"
exit $((fails > 0))
