# Shared by the shell tests (tests/cli_*.sh), sourced after they read their
# arguments: a scratch folder $T removed on exit, a failure counter, and
# `expect CODE PATTERN cmd...` for exit codes and messages of bad input.
# (Named lib_*.sh so the test glob does not run it as a test.)
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT
fails=0

fail() { echo "FAIL: $*" >&2; fails=$((fails + 1)); }

# expect CODE PATTERN cmd...: exit code CODE and stderr containing PATTERN;
# with EXPECT_MAX_LINES set, stderr must also stay that short.
expect() {
    local code=$1 pat=$2
    shift 2
    "$@" >"$T/out" 2>"$T/err"
    local rc=$?
    [ $rc -eq "$code" ] || fail "$* exited $rc, want $code: $(head -c 300 "$T/err")"
    grep -qF -- "$pat" "$T/err" || fail "$*: stderr lacks '$pat': $(head -c 300 "$T/err")"
    if [ -n "${EXPECT_MAX_LINES:-}" ] && [ "$(wc -l <"$T/err")" -gt "$EXPECT_MAX_LINES" ]; then
        fail "$*: more than a short message on stderr"
    fi
}

# expect_re CODE REGEX cmd...: exit code CODE and a line of stderr or stdout
# matching the extended regular expression REGEX.
expect_re() {
    local code=$1 pat=$2
    shift 2
    "$@" >"$T/out" 2>"$T/err"
    local rc=$?
    if [ "$rc" != "$code" ] || ! grep -Eq -- "$pat" "$T/err" "$T/out"; then
        fail "$* -> exit $rc (want $code), output: $(cat "$T/err" "$T/out" | head -5)"
    fi
}

# no_part PATH: true when no temporary file of PATH (PATH.<pid>-<token>.part,
# or the older PATH.part) is left behind.
no_part() { ! compgen -G "$1.*part" >/dev/null; }

# PY is the Python every shell test runs (scripts/deps.sh installs its packages).
# need_h5py: stop with a failure unless it has h5py and numpy
# (tests that cannot check anything without them).
PY=/usr/bin/python3
need_h5py() {
    if ! $PY -c "import h5py, numpy" 2>/dev/null; then
        echo "FAIL: /usr/bin/python3 with h5py and numpy is needed (scripts/deps.sh)" >&2
        exit 1
    fi
}

# plugin_cc BUILD_DIR SOURCE.c OUT.so [CFLAGS...]: a domain plug-in built as
# a user builds it, against the build's headers only (with the sanitizers
# when the build has them, so the host can load it).
plugin_cc() {
    local b=$1 src=$2 out=$3
    shift 3
    local flags=(-shared -fPIC -O1 -std=c11 -Wall -Wextra -Werror -I"$b/include")
    grep -q '^HEURNET_SANITIZE:BOOL=ON' "$b/CMakeCache.txt" && flags+=(-fsanitize=address,undefined)
    "${CC:-cc}" "${flags[@]}" "$@" "$src" -o "$out"
}
