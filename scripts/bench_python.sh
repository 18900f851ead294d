#!/usr/bin/env bash
# The figures of docs/python.md: the Python package against C, side by side
# in one run, the two measured in turn (A B A B ...) so that drift of a
# shared machine falls on both.
#   1. predict at batch 1024 (models/15puzzle-annd.h5, one-hot rows of
#      random boards): the median time of one nn_infer_run call from C
#      (a small program built here against the build's libheurnet) and of
#      one model.predict(x, out=y) call from Python, each a median over
#      --repeats blocks of 200 calls; OpenBLAS on one thread. Python also
#      times the bare ctypes call in the same process, interleaved: the
#      difference (python_checks_us) is the package's own cost
#   2. solve over Korf's 100 15-puzzle boards with A* on the same network:
#      the wall time of the heurnet solve process and of one heurnet.solve()
#      call in Python (both load the model, set up the search and solve),
#      --repeats runs each; lengths and expansions checked equal on the way
# Prints each run, the medians and the median of the runs' ratios Python / C
# (a ratio of one pair of neighbouring runs is the figure drift spares).
#
#   3. expand, encode and heuristic values on 100,000 states of the
#      15-puzzle and the cube (heurnet.Domain against solve/dom_batch.h)
#   4. a domain written in Python (examples/domain_pancake.py) against the
#      same domain as a C plug-in (examples/domain_pancake.c): gen and solve
# --part P runs part P only.
#
# usage: scripts/bench_python.sh [--build DIR] [--repeats R] [--part 1|2|3|4]
set -euo pipefail
cd "$(dirname "$0")/.."
B=build
repeats=11
part=
while [ $# -gt 0 ]; do
    case $1 in
    --build) B=$2; shift ;;
    --repeats) repeats=$2; shift ;;
    --part) part=$2; shift ;;
    *) echo "usage: $0 [--build DIR] [--repeats R] [--part 1|2|3|4]" >&2; exit 2 ;;
    esac
    shift
done
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT
export OPENBLAS_NUM_THREADS=1 HEURNET_LIB="$PWD/$B/lib/libheurnet.so" PYTHONPATH="$PWD/python"
MODEL=models/15puzzle-annd.h5
KORF=instances/npuzzle/korf100.txt
PY=/usr/bin/python3

# The rows both sides evaluate: one-hot encodings of 1024 random boards.
"$PY" - "$T/x.f32" <<'EOF'
import sys
import numpy as np
rng = np.random.default_rng(1)
x = np.zeros((1024, 256), np.float32)
for i in range(1024):
    x[i, np.arange(16) * 16 + np.argsort(rng.permutation(16))] = 1
x.tofile(sys.argv[1])
EOF

cat >"$T/infer.c" <<'EOF'
/* One nn_infer_run at batch 1024, timed: median of blocks of 200 calls. */
#include <stdio.h>
#include <stdlib.h>
#include <heurnet/nn.h>
int main(int argc, char **argv)
{
    int st, n = 1024, calls = 200;
    nn_model *m = nn_model_load(argv[1], &st);
    FILE *f = fopen(argv[2], "rb");
    float *x = malloc(sizeof *x * 1024 * 256), *y = malloc(sizeof *y * 1024);
    if (!m || !f || !x || !y || fread(x, sizeof *x, 1024 * 256, f) != 1024 * 256)
        return 1;
    fclose(f);
    nn_infer *c = nn_infer_new(m, n, &st);
    for (int i = 0; i < 20; i++)
        nn_infer_run(c, x, n, y);
    double t0 = hn_now();
    for (int i = 0; i < calls; i++)
        nn_infer_run(c, x, n, y);
    printf("%.3f\n", (hn_now() - t0) / calls * 1e6);
    nn_infer_free(c);
    nn_model_free(m);
    free(x);
    free(y);
    return 0;
}
EOF
cc -O2 -std=c11 "$T/infer.c" -I"$B/include" -L"$B/lib" -Wl,-rpath,"$PWD/$B/lib" -lheurnet \
    -o "$T/infer"

cat >"$T/predict.py" <<'EOF'
# The predict call, and in the same process the bare nn_infer_run through
# ctypes, interleaved: their difference is what the package's checks cost.
import sys, time
import numpy as np
import heurnet
from heurnet._lib import lib
m = heurnet.Model.load(sys.argv[1])
x = np.fromfile(sys.argv[2], np.float32).reshape(1024, 256)
y = np.empty((1024, 1), np.float32)
ws = m._workspace(1024)
bare = lambda: lib.nn_infer_run(ws, x.ctypes.data, 1024, y.ctypes.data)
full = lambda: m.predict(x, out=y)
for _ in range(20):
    full()
t = {bare: 0.0, full: 0.0}
for _ in range(20):
    for f in (full, bare):
        t0 = time.perf_counter()
        for _ in range(10):
            f()
        t[f] += time.perf_counter() - t0
print("%.3f %.3f" % (t[full] / 200 * 1e6, (t[full] - t[bare]) / 200 * 1e6))
EOF

cat >"$T/solve.py" <<'EOF'
import sys, time
import numpy as np
import heurnet
rows = [l.split() for l in open(sys.argv[2]) if l.strip() and not l.startswith("#")]
b = np.array([[int(t) for t in r[2:]] for r in rows], np.uint8)
t0 = time.perf_counter()
s = heurnet.solve(b, model=sys.argv[1])
t = time.perf_counter() - t0
print("%.4f %d %d" % (t, s.length.sum(), s.expanded.sum()))
EOF

want() { [ -z "$part" ] || [ "$part" = "$1" ]; }
median() { sort -g | awk '{a[NR]=$1} END {print (NR % 2) ? a[(NR+1)/2] : (a[NR/2]+a[NR/2+1])/2}'; }

if want 1; then
echo "# predict, batch 1024, microseconds per call (C nn_infer_run / Python predict)"
for r in $(seq "$repeats"); do
    c=$("$T/infer" "$MODEL" "$T/x.f32")
    read -r p o < <("$PY" "$T/predict.py" "$MODEL" "$T/x.f32")
    echo "run=$r c_us=$c python_us=$p python_checks_us=$o"
    echo "$o" >>"$T/po"
    echo "$c" >>"$T/pc"; echo "$p" >>"$T/pp"; awk -v a="$p" -v b="$c" 'BEGIN {print a / b}' >>"$T/pr"
done
echo "predict median c_us=$(median <"$T/pc") python_us=$(median <"$T/pp") python_checks_us=$(median <"$T/po")" \
    "ratio=$(median <"$T/pr") (median of the pairs' ratios; min $(sort -g "$T/pr" | head -1), max $(sort -g "$T/pr" | tail -1))"

fi

if want 2; then
echo "# solve, Korf's 100, A* on $MODEL, seconds (heurnet solve process / heurnet.solve call)"
for r in $(seq "$repeats"); do
    t0=$EPOCHREALTIME
    "$B/heurnet" solve -q --model "$MODEL" "$KORF" >"$T/cli.txt" 2>/dev/null || true
    c=$(awk -v a="$t0" -v b="$EPOCHREALTIME" 'BEGIN {printf "%.4f", b - a}')
    read -r p plen pexp < <("$PY" "$T/solve.py" "$MODEL" "$KORF")
    clen=$(awk '/^id=/ {for (i = 1; i <= NF; i++) if ($i ~ /^length=/) {sub("length=", "", $i); s += $i}} END {print s}' "$T/cli.txt")
    cexp=$(awk '/^id=/ {for (i = 1; i <= NF; i++) if ($i ~ /^expanded=/) {sub("expanded=", "", $i); s += $i}} END {print s}' "$T/cli.txt")
    [ "$clen $cexp" = "$plen $pexp" ] || { echo "solve differs: CLI $clen $cexp, Python $plen $pexp" >&2; exit 1; }
    echo "run=$r cli_s=$c python_s=$p total_length=$plen total_expanded=$pexp"
    echo "$c" >>"$T/sc"; echo "$p" >>"$T/sp"; awk -v a="$p" -v b="$c" 'BEGIN {print a / b}' >>"$T/sr"
done
echo "solve median cli_s=$(median <"$T/sc") python_s=$(median <"$T/sp")" \
    "ratio=$(median <"$T/sr") (median of the pairs' ratios; min $(sort -g "$T/sr" | head -1), max $(sort -g "$T/sr" | tail -1))"

fi

# 3. batched domain calls on 100,000 states (solve/dom_batch.h): expand,
#    dense encode and the domain's first heuristic's values, each call
#    timed from C (a program against the build's libheurnet) and from
#    Python (heurnet.Domain), the two in turn; expand's outputs are fresh
#    per call on both sides (malloc / numpy.empty), encode and values write
#    into an output allocated and touched before (Python: out=), since a
#    fresh 190 MB numpy array costs its page faults (numpy asks for huge
#    pages, which a loaded machine compacts memory for) more than the call.
#    ratio = C seconds / Python seconds (Python's share of C's throughput)
cat >"$T/batch.c" <<'EOF2'
/* One call each of expand, encode and heuristic values on n states. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <heurnet/heurnet.h>
int main(int argc, char **argv)
{
    int st;
    (void)argc;
    size_t n = strtoul(argv[2], NULL, 10);
    dom *d = dom_open(argv[1], &st);
    heurnet_dom_info in;
    if (!d || heurnet_dom_info_get(d, &in))
        return 1;
    size_t sb = (size_t)in.state_bytes, b = (size_t)in.nmoves;
    uint8_t *s = malloc(n * sb);
    char first[64];
    snprintf(first, sizeof first, "%.*s", (int)strcspn(in.heuristics, ","), in.heuristics);
    heurnet_dom_heur *h = heurnet_dom_heur_open(d, first, &st);
    float *x = calloc(n * (size_t)in.inputs, sizeof *x);
    double *v = calloc(n, sizeof *v);
    if (!s || !h || !x || !v || heurnet_dom_sample_states(d, n, 1, 0, 1, 30, s, NULL))
        return 1;
    memset(x, 1, n * (size_t)in.inputs * sizeof *x); /* touched, as Python's */
    memset(v, 1, n * sizeof *v);
    double t[3];
    for (int k = 0; k < 3; k++) {
        double t0 = hn_now();
        if (k == 0) {
            uint8_t *c = malloc(n * b * sb), *m = malloc(n * b);
            int32_t *co = malloc(n * b * 4), *cnt = malloc(n * 4);
            st = heurnet_dom_expand_states(d, s, n, sb, c, m, co, cnt);
            free(c), free(m), free(co), free(cnt);
        } else if (k == 1) {
            st = heurnet_dom_encode_states(d, s, n, sb, x, NULL, NULL);
        } else {
            st = heurnet_dom_heur_values(h, s, n, sb, v);
        }
        t[k] = hn_now() - t0;
        if (st)
            return 1;
    }
    printf("%.4f %.4f %.4f\n", t[0], t[1], t[2]);
    heurnet_dom_heur_free(h);
    dom_free(d);
    free(s), free(x), free(v);
    return 0;
}
EOF2
cc -O2 -std=c11 "$T/batch.c" -I"$B/include" -L"$B/lib" -Wl,-rpath,"$PWD/$B/lib" -lheurnet \
    -o "$T/batch"
cat >"$T/batch.py" <<'EOF2'
import sys, time
import numpy as np
import heurnet
d = heurnet.Domain(sys.argv[1])
n = int(sys.argv[2])
s = d.random_walks(n, (1, 30), seed=1)
h = d.heuristic()
x = np.zeros((n, d.inputs), np.float32)
x.fill(0)
v = np.zeros(n)
v.fill(0)
t = []
for f in (d.expand, lambda s: d.encode(s, out=x), lambda s: h.values(s, out=v)):
    t0 = time.perf_counter()
    f(s)
    t.append(time.perf_counter() - t0)
print("%.4f %.4f %.4f" % tuple(t))
EOF2
N=100000
for spec in npuzzle:4x4 cube3; do
    want 3 || break
    echo "# $spec, $N states (random walks of 1..30 moves): seconds per call (C / Python)"
    rm -f "$T"/b_*
    for r in $(seq "$repeats"); do
        read -r ce cn cv < <("$T/batch" "$spec" "$N")
        read -r pe pn pv < <("$PY" "$T/batch.py" "$spec" "$N")
        echo "run=$r expand_c=$ce expand_py=$pe encode_c=$cn encode_py=$pn values_c=$cv values_py=$pv"
        for k in e n v; do
            eval "c=\$c$k p=\$p$k"
            awk -v a="$c" -v b="$p" 'BEGIN {print a / b}' >>"$T/b_$k"
        done
    done
    for k in e n v; do
        name=$(case $k in e) echo expand ;; n) echo encode ;; v) echo values ;; esac)
        echo "$spec $name throughput python/c=$(median <"$T/b_$k") (median of the pairs; min $(sort -g "$T/b_$k" | head -1), max $(sort -g "$T/b_$k" | tail -1))"
    done
done

#   4. a domain written in Python (examples/domain_pancake.py, the pancake
#      stack of 8) against the same domain as a C plug-in
#      (examples/domain_pancake.c): heurnet.gen of 300 states (walks of 1..12
#      flips, labelled by IDA* on gap) and A* on gap over 40 stacks, each a
#      call of one process alternating C and Python; results checked equal
want 4 || exit 0
cc -shared -fPIC -O2 -std=c11 -I"$B/include" examples/domain_pancake.c -o "$T/libpancake.so"
cat >"$T/pydom.py" <<'EOF3'
import os, sys, time
import numpy as np
sys.path.insert(0, "examples")
import heurnet
from domain_pancake import PyPancake
which, out = sys.argv[1], sys.argv[2]
d = heurnet.Domain(PyPancake(8)) if which == "py" else heurnet.Domain(sys.argv[3] + ":8")
t0 = time.perf_counter()
st = heurnet.gen(out, count=300, domain=d, walk=(1, 12), seed=5, label="gap", threads=1,
                 overwrite=True)
t1 = time.perf_counter()
s = d.random_walks(40, (8, 16), seed=6)
sol = d.solve(s, algo="astar", heuristic="gap")
t2 = time.perf_counter()
print("%.4f %.4f %d %d" % (t1 - t0, t2 - t1, int(sol.expanded.sum()), int(sol.length.sum())))
EOF3
echo "# pancake:8, the Python domain against the C plug-in: seconds per call (C / Python)"
rm -f "$T"/d_*
for r in $(seq "$repeats"); do
    read -r cg cs ce cl < <("$PY" "$T/pydom.py" c "$T/c.h5" "$T/libpancake.so")
    read -r pg ps pe pl < <("$PY" "$T/pydom.py" py "$T/py.h5")
    [ "$ce $cl" = "$pe $pl" ] || { echo "solve differs: C $ce $cl, Python $pe $pl" >&2; exit 1; }
    echo "run=$r gen_c=$cg gen_py=$pg solve_c=$cs solve_py=$ps expanded=$ce"
    awk -v a="$pg" -v b="$cg" 'BEGIN {print a / b}' >>"$T/d_g"
    awk -v a="$ps" -v b="$cs" 'BEGIN {print a / b}' >>"$T/d_s"
done
for k in g s; do
    name=$(case $k in g) echo gen ;; s) echo solve ;; esac)
    echo "pancake:8 $name time python/c=$(median <"$T/d_$k") (median of the pairs; min $(sort -g "$T/d_$k" | head -1), max $(sort -g "$T/d_$k" | tail -1))"
done
