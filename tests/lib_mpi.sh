# Shared by the mpirun tests (tests/cli_mpi*.sh), sourced after lib_cli.sh
# with HN (absolute path of heurnet) and PY set: skips (77) without an MPI
# build or mpirun, fails without h5py (need_h5py); MPI=(mpirun ... -np 2);
# `compare A.h5 B.h5 TOL`.
if ! "$HN" train --help | grep -q mpirun || ! command -v mpirun >/dev/null; then
    echo "SKIP: heurnet built without MPI, or no mpirun"
    exit 77
fi
need_h5py
# As root Open MPI needs to be told; --oversubscribe: 2 ranks on 1 core too.
# In a sanitizer build LeakSanitizer would report Open MPI's own exit-time
# allocations (in plugins unloaded before the check, so no suppression file
# can name them): leak checks stay on for the 1-process runs only.
MPI=(env "ASAN_OPTIONS=${ASAN_OPTIONS:-}:detect_leaks=0" mpirun --oversubscribe -np 2)
[ "$(id -u)" -eq 0 ] && MPI+=(--allow-run-as-root)

# compare MODEL_A MODEL_B TOL: every weight within TOL. The bias of a dense
# layer feeding batch norm is left out (its true gradient is 0, so Adam
# drifts it on rounding noise), and with it the running mean (which holds it).
compare() {
    $PY - "$1" "$2" "$3" <<'PYEOF'
import sys, h5py, numpy as np
a, b, tol = h5py.File(sys.argv[1]), h5py.File(sys.argv[2]), float(sys.argv[3])
worst, n = 0.0, 0
for name, layer in a["layers"].items():
    for key, ds in layer.items():
        if key == "moving_mean" or (key == "bias" and "gamma" in layer):
            continue
        x, y = ds[()], b["layers"][name][key][()]
        worst = max(worst, float(np.abs(x - y).max()))
        n += 1
print(f"{n} tensors, largest difference {worst:.3g}")
sys.exit(0 if n >= 8 and worst <= tol else 1)
PYEOF
}

# stop_resume COMMAND COUNT_OPTION ARGS...: `heurnet COMMAND ARGS` under
# mpirun with --checkpoint kill.h5 and COUNT_OPTION (--epochs, --rounds)
# large, SIGTERM to mpirun once the first checkpoint exists: no model, at
# least one CSV line; then --resume kill.h5 runs two more and writes k.h5.
stop_resume() {
    local cmd=$1 count=$2
    shift 2
    "${MPI[@]}" "$HN" "$cmd" "$@" "$count" 100000 --checkpoint kill.h5 -o k.h5 >k.csv 2>k.err &
    local pid=$!
    for _ in $(seq 1 3000); do # up to 5 minutes on a busy machine
        [ -e kill.h5 ] && break
        sleep 0.1
    done
    kill -TERM $pid
    wait $pid
    [ $? -ne 0 ] && [ ! -e k.h5 ] || fail "mpirun $cmd finished before SIGTERM (or wrote a model)"
    local done_n more
    done_n=$(grep -c '^[0-9]' k.csv)
    [ "$done_n" -ge 1 ] || fail "mpirun $cmd: nothing finished before the stop: $(cat k.err)"
    more=$((done_n + 2))
    "${MPI[@]}" "$HN" "$cmd" "$@" "$count" $more --resume kill.h5 -o k.h5 >k2.csv 2>"$T/err" ||
        fail "$cmd: resume after SIGTERM: $(head -c 300 "$T/err")"
    grep -q "^$more," k2.csv && [ -e k.h5 ] ||
        fail "$cmd: resume after SIGTERM did not reach $more: $(cat k2.csv)"
}
