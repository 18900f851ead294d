#!/usr/bin/env bash
# A full disk and a read-only folder (issue 63, defect 11 and "creation
# failures never say why"): on a tiny tmpfs that is full, `gen --domain`,
# `gen --puzzle`, `nn init`, `avi -o`, `avi --checkpoint` and `import` exit
# non-zero with a message naming the file and "No space left on device",
# and leave nothing behind (no empty FILE.part that blocks the rerun, no
# PATH.PID-TOKEN.part); once there is room the same command succeeds. On a
# read-only file system the message says "Read-only file system". Mounting
# needs root: without it the test is skipped (exit 77).
# Args: path of heurnet, instances dir, source dir.
set -u
H="$1"
. "$(dirname "$0")/lib_cli.sh"
F="$T/full" RO="$T/ro"
mkdir -p "$F" "$RO"
if ! mount -t tmpfs -o size=4m tmpfs "$F" 2>"$T/err"; then
    echo "SKIP: cannot mount a small tmpfs (needs root): $(cat "$T/err")" >&2
    exit 77
fi
trap 'umount "$F" 2>/dev/null; umount "$RO" 2>/dev/null; rm -rf "$T"' EXIT
mount -t tmpfs -o size=64k,ro tmpfs "$RO" 2>/dev/null || RO=

"$H" nn init --arch 81-8-1 --encoder "npuzzle-onehot n=3 goal=blank-first" -o "$T/m8.h5" \
    >/dev/null || { fail "nn init"; exit 1; }
"$H" export --model "$T/m8.h5" --format onnx -o "$T/m8.onnx" >/dev/null 2>&1 ||
    fail "export to ONNX"
AVI=(avi --puzzle 8 --arch 81-16-1 --steps 5 --batch 32 --walk-max 6 --quiet)

fill() { dd if=/dev/zero of="$F/fill" bs=1k >/dev/null 2>&1; }
# only_fill: nothing but the filler on the full disk
only_fill() { [ "$(ls -A "$F")" = fill ]; }

# case NAME FILE cmd...: on the full disk the command fails, names FILE and
# the reason, leaves nothing; with room again it succeeds.
case_full() {
    local name=$1 file=$2
    shift 2
    fill
    "$@" >"$T/out" 2>"$T/err"
    local rc=$?
    [ $rc -ne 0 ] || fail "$name: exit 0 on a full disk"
    grep -qF "No space left on device" "$T/err" || fail "$name: no reason: $(head -c 400 "$T/err")"
    grep -qF "$file" "$T/err" || fail "$name: the message does not name $file: $(head -c 400 "$T/err")"
    only_fill || fail "$name: left behind on the full disk: $(ls -A "$F" | tr '\n' ' ')"
    rm -f "$F/fill"
    "$@" >"$T/out" 2>"$T/err" || fail "$name: with room again it fails: $(head -c 400 "$T/err")"
    rm -rf "${F:?}"/*
}

case_full "gen --domain" "$F/d.h5.part" "$H" gen --domain npuzzle:3x4 -n 20 --walk 1-10 \
    --threads 1 --quiet -o "$F/d.h5"
case_full "gen --puzzle" "$F/p.h5" "$H" gen --puzzle 8 -n 20 --threads 1 --quiet -o "$F/p.h5"
case_full "nn init" "$F/m.h5" "$H" nn init --arch 81-8-1 \
    --encoder "npuzzle-onehot n=3 goal=blank-first" -o "$F/m.h5"
case_full "avi -o" "$F/a.h5" "$H" "${AVI[@]}" -o "$F/a.h5"
case_full "avi --checkpoint" "$F/c.h5" "$H" "${AVI[@]}" --checkpoint "$F/c.h5" -o "$T/a.h5"
[ -s "$T/m8.onnx" ] && case_full "import" "$F/i.h5" "$H" import "$T/m8.onnx" "$F/i.h5"

# room for some rows only: the committed rows stay and the rerun continues
dd if=/dev/zero of="$F/fill" bs=1k count=$((4096 - 600)) >/dev/null 2>&1
G=(gen --domain npuzzle:3x4 -n 20000 --walk 1-12 --threads 1 --quiet -o "$F/d.h5")
"$H" "${G[@]}" >/dev/null 2>"$T/err" && fail "gen --domain fitted in 600 KB"
grep -qF "No space left on device" "$T/err" || fail "gen --domain, part room: $(cat "$T/err")"
rm -f "$F/fill"
"$H" "${G[@]}" >"$T/out" 2>"$T/err" || fail "gen --domain, rerun with room: $(cat "$T/err")"
grep -q "resumed_from=[1-9]" "$T/out" || fail "gen --domain did not continue: $(cat "$T/out")"
"$H" data info "$F/d.h5" | grep -q "rows=20000 states=20000" || fail "gen --domain: rerun's file"
[ "$(ls -A "$F")" = d.h5 ] || fail "gen --domain left: $(ls -A "$F" | tr '\n' ' ')"
rm -rf "${F:?}"/*

if [ -n "$RO" ]; then
    for c in "gen --domain npuzzle:3x4 -n 5 --walk 1-5 --threads 1 --quiet -o $RO/d.h5" \
        "gen --puzzle 8 -n 5 --threads 1 --quiet -o $RO/p.h5" \
        "nn init --arch 81-8-1 --encoder npuzzle-onehot -o $RO/m.h5"; do
        # shellcheck disable=SC2086
        "$H" $c >/dev/null 2>"$T/err" && fail "$c: exit 0 on a read-only file system"
        grep -qF "$RO/" "$T/err" && grep -qF "Read-only file system" "$T/err" ||
            fail "$c: no file or reason: $(head -c 300 "$T/err")"
    done
    expect 1 "$RO/l.csv: cannot open the log file: Read-only file system" \
        "$H" "${AVI[@]}" --log "$RO/l.csv" -o "$T/a2.h5"
fi

[ "$fails" -eq 0 ] || exit 1
echo "cli_full_disk: ok"
