#!/usr/bin/env bash
# heurnet gen killed by SIGKILL at random moments (issue 63, defect 3): for
# `gen --domain npuzzle:3x4` (walks) and `gen --puzzle 8 --path-states`
# (uniform boards; rows in FILE.part, renamed when complete), each run
# is killed after a random sleep and the same command is run again, KILLS
# times each (200, 60 under the sanitizers; HEURNET_KILLS overrides).
# After every kill the file left behind either reads as a prefix of an uninterrupted run's rows (what
# `heurnet data info` calls healthy must read back, row for row) or is
# refused as damaged; a rerun that finishes gives the uninterrupted run's
# rows and attributes exactly, or says the file is damaged. Fixed seeds and
# one thread, so the runs are deterministic.
# Args: path of heurnet, instances dir, source dir.
set -u
H="$1"
. "$(dirname "$0")/lib_cli.sh"
need_h5py
cat >"$T/kill.py" <<'EOF'
import os, random, subprocess, sys, time
import h5py, numpy as np

H, T, kills = sys.argv[1], sys.argv[2], int(sys.argv[3])
rng = random.Random(63)
CONFIGS = [
    ("domain", ["--domain", "npuzzle:3x4", "-n", "500", "--walk", "1-40", "--seed", "7"],
     ["states", "cost", "expanded", "source", "walk"], ".part"),
    ("puzzle", ["--puzzle", "8", "-n", "1500", "--path-states", "--seed", "7"],
     ["states", "cost", "expanded", "source", "walk"], ".part"),
]
fails = []

def fail(msg):
    fails.append(msg)
    print("FAIL:", msg, file=sys.stderr)

def gen_cmd(args, out):
    return [H, "gen"] + args + ["--threads", "1", "--quiet", "-o", out]

def attrs_of(f):
    return {k: (v.decode() if isinstance(v, bytes) else
                v.tolist() if hasattr(v, "tolist") else v) for k, v in f.attrs.items()}

def load(path, names):
    """Committed rows and attributes; raises when a committed row cannot be read."""
    with h5py.File(path, "r") as f:
        n = int(f.attrs["committed"])
        return {k: f[k][:n] for k in names}, attrs_of(f)

def info(path):
    r = subprocess.run([H, "data", "info", path], capture_output=True, text=True)
    return r.returncode, r.stderr

def check_left(name, names, path, ref, stats):
    """What a kill left at path: healthy and a prefix of ref, or refused."""
    if not os.path.exists(path):
        stats["absent"] += 1
        return
    rc, err = info(path)
    if rc != 0:
        stats["refused"] += 1
        return
    try:
        rows, _ = load(path, names)
    except Exception as e:  # data info called it healthy, but a row does not read
        fail(f"{name}: data info calls {path} healthy, yet it does not read: {e}")
        return
    n = len(rows[names[0]])
    for k in names:
        if not np.array_equal(rows[k], ref[0][k][:n]):
            fail(f"{name}: {path}: committed /{k} rows differ from an uninterrupted run")
            return
    stats["healthy"] += 1

def final_ok(name, names, out, ref):
    try:
        rows, a = load(out, names)
    except Exception as e:
        fail(f"{name}: the finished {out} does not read: {e}")
        return
    for k in names:
        if not np.array_equal(rows[k], ref[0][k]):
            fail(f"{name}: the finished /{k} differs from an uninterrupted run")
    if a != ref[1]:
        fail(f"{name}: the finished attributes differ: {a} vs {ref[1]}")

def run_config(name, args, names, suffix):
    d = os.path.join(T, name)
    os.makedirs(d)
    ref_path = os.path.join(d, "ref.h5")
    t0 = time.time()
    r = subprocess.run(gen_cmd(args, ref_path), capture_output=True, text=True)
    tref = time.time() - t0
    if r.returncode != 0:
        fail(f"{name}: the uninterrupted run failed: {r.stderr}")
        return
    ref = load(ref_path, names)
    out = os.path.join(d, "k.h5")
    stats = dict(absent=0, refused=0, healthy=0, finished=0, damaged=0, killed=0)
    while stats["killed"] < kills and not fails:
        p = subprocess.Popen(gen_cmd(args, out), stdout=subprocess.DEVNULL,
                             stderr=subprocess.PIPE, text=True)
        time.sleep(rng.uniform(0, tref * 1.1))
        p.kill()
        err = p.communicate()[1]
        if p.returncode == -9:
            stats["killed"] += 1
            check_left(name, names, out + suffix, ref, stats)
            continue
        if p.returncode == 0:  # the rerun finished before the kill
            stats["finished"] += 1
            final_ok(name, names, out, ref)
        elif "damaged" in err:
            stats["damaged"] += 1
            print(f"{name}: a rerun says: {err.strip()[:300]}", file=sys.stderr)
        else:
            fail(f"{name}: a rerun exited {p.returncode} without saying the file is "
                 f"damaged: {err.strip()[:300]}")
        for f in os.listdir(d):
            if f.startswith("k.h5"):
                os.unlink(os.path.join(d, f))
    # the last kill's rerun, to the end: the uninterrupted run's file, alone
    r = subprocess.run(gen_cmd(args, out), capture_output=True, text=True)
    if r.returncode == 0:
        final_ok(name, names, out, ref)
        left = sorted(f for f in os.listdir(d) if f.startswith("k.h5"))
        if left != ["k.h5"]:
            fail(f"{name}: files left behind: {left}")
    elif "damaged" not in r.stderr:
        fail(f"{name}: the last rerun exited {r.returncode}: {r.stderr.strip()[:300]}")
    print(f"{name}: uninterrupted {tref:.2f} s; " +
          " ".join(f"{k}={v}" for k, v in stats.items()))

for c in CONFIGS:
    run_config(*c)
sys.exit(1 if fails else 0)
EOF
# A committed row changed behind the writer's back (a torn write that still
# reads): data info and the rerun call FILE.part damaged and say what to
# do; --force starts afresh.
G=(gen --domain npuzzle:3x4 -n 300 --walk 1-40 --seed 7 --threads 1 --quiet -o "$T/dmg.h5")
"$H" "${G[@]}" --stop-after 200 >/dev/null 2>&1
$PY -c "import h5py, sys; f = h5py.File(sys.argv[1], 'r+'); f['states'][5, 0] ^= 1; f.close()" \
    "$T/dmg.h5.part" || fail "cannot flip a byte of $T/dmg.h5.part"
expect 1 "damaged: the 200 committed rows of /states do not match" "$H" data info "$T/dmg.h5.part"
expect 1 "use --force to start afresh" "$H" "${G[@]}"
[ -e "$T/dmg.h5" ] && fail "a damaged FILE.part was finished"
"$H" "${G[@]}" --force >/dev/null 2>"$T/err" || fail "--force after damage: $(cat "$T/err")"

# 200 kills each: about 70 s in Release. Under ASan/UBSan a run starts
# several times slower, and 120 took 46 minutes at a load average of 15
# (2.3 minutes on a quieter machine); the sanitizers look for memory errors,
# which 60 kills each show as well, so they kill 60 times.
B="$(cd "$(dirname "$H")" && pwd)"
kills=200
grep -q '^HEURNET_SANITIZE:BOOL=ON' "$B/CMakeCache.txt" 2>/dev/null && kills=60
kills=${HEURNET_KILLS:-$kills}
$PY "$T/kill.py" "$H" "$T" "$kills" || fail "the kill runs"
[ "$fails" -eq 0 ] || exit 1
echo "cli_kill_gen: ok"
