#!/usr/bin/env bash
# heurnet gen --puzzle / data (the n-puzzle through the one generator of
# every domain): exit codes and messages on bad input, determinism across
# thread counts, resume after an interruption (test hook and a real SIGINT),
# shards merging to the unsharded file, --all for the 8-puzzle, datasets of
# the old /boards layout still read by data info.
# Args: heurnet executable, instances dir, source folder.
set -u
H=$(realpath "$1")
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT
cd "$T"
fail=0
check() { # description, then a command that must succeed
    local what=$1
    shift
    if ! "$@"; then
        echo "FAIL: $what" >&2
        fail=1
    fi
}
expect_exit() { # code, message fragment, command...
    local code=$1 frag=$2
    shift 2
    "$@" >out.txt 2>err.txt
    local got=$?
    if [ "$got" != "$code" ] || ! grep -q -- "$frag" err.txt; then
        echo "FAIL: '$*' exited $got (want $code), stderr:" >&2
        cat err.txt >&2
        fail=1
    fi
}
same_data() { # two files with identical datasets
    for d in /states /cost /expanded /source /walk; do
        h5diff -q "$1" "$2" "$d" "$d" >/dev/null || return 1
    done
}

G8=(gen --puzzle 8 --label manhattan --seed 5 --quiet)

# usage errors exit 2, --help exits 0
check "gen --help" "$H" gen --help >/dev/null
check "data --help" "$H" data --help >/dev/null
expect_exit 2 "-n N" "$H" gen --puzzle 8 -o x.h5
expect_exit 2 "--puzzle: '9' is not 8, 15" "$H" gen --puzzle 9 --count 3 -o x.h5
expect_exit 2 "--shard: '2/2' is not i/N" "$H" "${G8[@]}" --count 3 --shard 2/2 -o x.h5
expect_exit 2 "exclude each other" "$H" "${G8[@]}" --all --walk 3 -o x.h5

# determinism: 1 and 2 threads give the same datasets
check "gen 1 thread" "$H" "${G8[@]}" --count 3000 --path-states --threads 1 -o t1.h5
check "gen 2 threads" "$H" "${G8[@]}" --count 3000 --path-states --threads 2 -o t2.h5
check "threads give the same data" same_data t1.h5 t2.h5

# resume after the --stop-after hook equals the uninterrupted run
expect_exit 1 "rerun the same command" "$H" "${G8[@]}" --count 3000 --path-states --stop-after 1234 -o r.h5
check "stopped file is valid" grep -q "states=1234" <("$H" data info r.h5.part)
check "no file under the final name before the end" test ! -e r.h5
expect_exit 2 "other settings: seed" "$H" gen --puzzle 8 --label manhattan --seed 6 --quiet --count 3000 --path-states -o r.h5
check "resume" "$H" "${G8[@]}" --count 3000 --path-states -o r.h5
check "resumed equals uninterrupted" same_data t1.h5 r.h5

# a real Ctrl-C (SIGINT) in the middle of a slower run, then continue
W=(gen --puzzle 15 --walk 36 --label lc --seed 2 --count 1500 --threads 2 --quiet --path-states)
check "walks uninterrupted" "$H" "${W[@]}" -o wfull.h5
"$H" "${W[@]}" -o wint.h5 >/dev/null 2>&1 &
pid=$!
sleep 0.5
kill -INT $pid 2>/dev/null
wait $pid
rc=$?
check "SIGINT exit code is 0 (finished first) or 1" test $rc -le 1
check "interrupted file is valid" "$H" data info "$(ls wint.h5.part 2>/dev/null || echo wint.h5)" >/dev/null
check "continue after SIGINT" "$H" "${W[@]}" -o wint.h5
check "continued equals uninterrupted" same_data wfull.h5 wint.h5

# while a gen writes a file: data info reads it, a second gen refuses it
"$H" "${W[@]}" --force -o live.h5 >/dev/null 2>&1 &
pid=$!
sleep 0.5
if kill -0 $pid 2>/dev/null; then
    check "data info on a file being written" "$H" data info live.h5.part >/dev/null
    "$H" "${W[@]}" -o live.h5 >/dev/null 2>err.txt
    rc=$?
    if kill -0 $pid 2>/dev/null; then # only meaningful if the first is still running
        check "second writer refused" test $rc -eq 1
        check "second writer message" grep -q "another heurnet gen is writing it" err.txt
    fi
fi
wait $pid

# shards: disjoint, merge (copy and virtual) to the unsharded content
for i in 0 1 2; do
    check "shard $i" "$H" "${G8[@]}" --count 3000 --path-states --shard $i/3 -o s$i.h5
done
check "merge" "$H" data merge -o m.h5 s2.h5 s0.h5 s1.h5 >/dev/null
check "merged equals unsharded" same_data t1.h5 m.h5
check "merge --virtual" "$H" data merge --virtual -o v.h5 s0.h5 s1.h5 s2.h5 >/dev/null
check "virtual equals unsharded" same_data t1.h5 v.h5
mv s1.h5 s1.moved
expect_exit 1 "refers to shard s1.h5, which is missing" "$H" data info v.h5
mv s1.moved s1.h5
mkdir -p sub && cp v.h5 s0.h5 s1.h5 s2.h5 sub/
check "virtual file and shards move together" same_data t1.h5 sub/v.h5
expect_exit 1 "a shard is missing" "$H" data merge -o bad.h5 s0.h5 s2.h5
expect_exit 1 "different runs" "$H" data merge -o bad.h5 s0.h5 s1.h5 t1.h5
check "no output left by a failed merge" test ! -e bad.h5 -a -z "$(compgen -G "bad.h5.*part")"

# MPI build only (cmake -DHEURNET_MPI=ON): one shard per rank + a virtual file
if "$H" gen --help | grep -q mpirun && command -v mpirun >/dev/null; then
    # detect_leaks=0: Open MPI's exit-time allocations (see tests/cli_mpi.sh)
    check "mpirun gen" env "ASAN_OPTIONS=${ASAN_OPTIONS:-}:detect_leaks=0" mpirun --allow-run-as-root --oversubscribe -np 3 "$H" "${G8[@]}" \
        --count 3000 --path-states --threads 1 -o mpi.h5 >/dev/null
    check "mpi equals unsharded" same_data t1.h5 mpi.h5
    check "mpi shard files" test -e mpi.shard0-of-3.h5 -a -e mpi.shard2-of-3.h5
fi

# --all: every 8-puzzle state, exact distances
check "--all" "$H" gen --puzzle 8 --all --quiet -o all.h5 >/dev/null
"$H" data info all.h5 >info.txt
check "--all rows" grep -q "^rows=181440 " info.txt
check "--all max cost 31" grep -q "cost_max=31 " info.txt
check "--all two states at 31" grep -q "^31	2	" info.txt

# bad input: unsolvable board (file:line), not HDF5, foreign HDF5
printf '# two boards\n1 0 2 3 4 5 6 7 8\n0 1 2 3 4 5 6 8 7\n' >inst.txt
expect_exit 1 "inst.txt:3: unsolvable" "$H" "${G8[@]}" --from inst.txt -o f.h5
check "no output for a bad instance file" test ! -e f.h5
printf 'not hdf5\n' >text.h5
expect_exit 1 "not an HDF5 file" "$H" data info text.h5
expect_exit 1 "cannot open" "$H" data info missing.h5
/usr/bin/python3 -c "import h5py; h5py.File('foreign.h5','w').create_dataset('x', data=[1])" &&
    expect_exit 1 "not a heurnet dataset" "$H" data info foreign.h5
/usr/bin/python3 - <<'PY' && expect_exit 1 "badtype.h5" "$H" data info badtype.h5
import h5py, shutil
shutil.copy("t1.h5", "badtype.h5")
f = h5py.File("badtype.h5", "a")
n = f["cost"].shape[0]
del f["cost"]
f.create_dataset("cost", data=[0.5] * n, dtype="f4")
PY

# a dataset of the old n-puzzle layout (/boards, written before the n-puzzle
# became a domain) is still read by data info and train
/usr/bin/python3 - <<'PY' || { echo "FAIL: writing an old dataset" >&2; fail=1; }
import h5py, numpy as np
src = h5py.File("t1.h5", "r")
s, c = src["states"][:], src["cost"][:]
f = h5py.File("old.h5", "w")
f["boards"] = s[:, :9]
f["cost"] = c
f["expanded"] = src["expanded"][:]
f["source"] = src["source"][:]
a = dict(format="heurnet-dataset", goal="blank-first", heuristic="manhattan", solver="idastar",
         source="random+path", version="0.1.0", revision="old")
a["from"] = ""
n = len(c)
for k, v in dict(format_version=1, width=3, cells=9, from_crc32=0, walk_length=0, path_states=1,
                 seed=5, shard_count=1, shard_index=0, first_index=0, count=3000,
                 total_count=3000, done=3000, committed=n, complete=1, merged=0,
                 virtual=0).items():
    a[k] = np.int64(v)
f.attrs.update(a)
PY
check "old dataset: data info" grep -q "^puzzle=8 width=3 cells=9 goal=blank-first" <("$H" data info old.h5)
check "old dataset: train" "$H" train --data old.h5 --arch 81-8-1 --epochs 1 --quiet -o old_model.h5

exit $fail
