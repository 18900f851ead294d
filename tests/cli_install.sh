#!/usr/bin/env bash
# heurnet as an embedded library: `cmake --install` into a temporary prefix,
# every installed header compiles with only the C library, the examples
# build through pkg-config and through find_package(heurnet), their
# estimates equal `heurnet predict`'s, and the libraries export only
# prefixed symbols. Args: path of heurnet (in the build folder), instances
# dir, source dir.
set -u
H="$1"; DATA="$2"; SRC="$3"
. "$(dirname "$0")/lib_cli.sh"
die() { fail "$@"; exit 1; }
B="$(cd "$(dirname "$H")" && pwd)"
if grep -q '^HEURNET_SANITIZE:BOOL=ON' "$B/CMakeCache.txt"; then
    echo "SKIP: a sanitizer build's libraries need the sanitizer runtime"; exit 77
fi
CC=${CC:-cc}
P="$T/prefix"
MODEL="$SRC/models/15puzzle-annd.h5"
INST="$DATA/npuzzle/korf100.txt"

cmake --install "$B" --prefix "$P" >"$T/install.log" 2>&1 || { cat "$T/install.log"; die "cmake --install"; }
for f in bin/heurnet include/heurnet/heurnet.h include/heurnet/hn_version.h lib/pkgconfig/heurnet.pc \
         lib/cmake/heurnet/heurnetConfig.cmake; do
    [ -e "$P/$f" ] || die "not installed: $f"
done
ls "$P"/lib/libheurnet.a "$P"/lib/libheurnet.so >/dev/null || die "libheurnet.a / .so not installed"

# Each public header on its own, with no include path but the prefix's.
for h in "$P"/include/heurnet/*.h; do
    printf '#include <heurnet/%s>\n#include <heurnet/%s>\nint main(void) { return 0; }\n' \
        "$(basename "$h")" "$(basename "$h")" >"$T/h.c"
    $CC -std=c11 -Wall -Wextra -Werror -c "$T/h.c" -I"$P/include" -o "$T/h.o" 2>"$T/h.log" ||
        { cat "$T/h.log"; die "$(basename "$h") does not compile with only the C library"; }
done
if command -v c++ >/dev/null; then
    printf '#include <heurnet/heurnet.h>\nint main() { nn_model *m = 0; return m != 0 || HEURNET_VERSION_MAJOR < 0; }\n' >"$T/h.cc"
    c++ -Wall -Werror -c "$T/h.cc" -I"$P/include" -o "$T/hcc.o" 2>"$T/h.log" ||
        { cat "$T/h.log"; die "the headers do not compile as C++"; }
fi
grep -q "HEURNET_VERSION \"$("$H" --version | awk '{print $2}')\"" "$P/include/heurnet/hn_version.h" ||
    die "HEURNET_VERSION differs from heurnet --version"

# pkg-config, as the README says.
export PKG_CONFIG_PATH="$P/lib/pkgconfig"
# heurnet predict runs OpenBLAS on one thread (--blas-threads 1); the
# examples take OpenBLAS's default, and on some CPUs (an AVX2-only EPYC)
# its two-thread sgemm rounds the last bit differently. Same thread count.
export OPENBLAS_NUM_THREADS=1
for ex in embed_infer embed_search; do
    $CC -std=c11 -Wall -Wextra -Werror "$SRC/examples/$ex.c" $(pkg-config --cflags --libs heurnet) \
        -o "$T/$ex" 2>"$T/cc.log" || { cat "$T/cc.log"; die "pkg-config build of $ex"; }
done
"$H" predict --model "$MODEL" --instances "$INST" >"$T/predict.tsv" || die "heurnet predict"
LD_LIBRARY_PATH="$P/lib" "$T/embed_infer" "$MODEL" "$INST" >"$T/infer.tsv" || die "embed_infer"
[ "$(wc -l <"$T/infer.tsv")" -eq 100 ] || die "embed_infer printed $(wc -l <"$T/infer.tsv") lines, not 100"
cmp -s "$T/predict.tsv" "$T/infer.tsv" || { diff "$T/predict.tsv" "$T/infer.tsv" | head; die "embed_infer != heurnet predict"; }
LD_LIBRARY_PATH="$P/lib" "$T/embed_search" "$MODEL" "$INST" 2 >"$T/search.txt" || die "embed_search"
# Solutions are real paths to the goal, never shorter than the optimum.
awk '{split($2,l,"="); split($3,o,"="); if (l[2] < o[2] || l[2] <= 0) bad=1} END {exit bad || NR != 2}' \
    "$T/search.txt" || { cat "$T/search.txt"; die "embed_search: bad solution lengths"; }

# The README's embedding example, wrapped in main(), built the way the README says.
awk '/^## Embedding heurnet/ {on = 1} on && /^```c/ {code = 1; next} code && /^```/ {exit}
     code' "$SRC/README.md" >"$T/snippet.c"
[ -s "$T/snippet.c" ] || die "no C block under 'Embedding heurnet' in README.md"
{ echo '#include <stdint.h>'; echo '#include <stdio.h>'; grep '^#include' "$T/snippet.c"
  echo 'int main(void) {'; grep -v '^#include' "$T/snippet.c"; echo 'return 0; }'; } >"$T/readme.c"
$CC -std=c11 -Wall -Wextra -Werror "$T/readme.c" $(pkg-config --cflags --libs heurnet) -o "$T/readme" \
    2>"$T/cc.log" || { cat "$T/cc.log"; die "the README's example does not build"; }
(cd "$SRC" && LD_LIBRARY_PATH="$P/lib" "$T/readme") >"$T/readme.out" || die "the README's example failed"
# Korf's first board: 57 moves at best, and solutions of one board share their parity.
awk '$2 == "moves," && $1 >= 57 && $1 % 2 == 1 {ok = 1} END {exit !ok}' "$T/readme.out" ||
    die "the README's example printed: $(cat "$T/readme.out")"

# Static linking through pkg-config --static.
$CC -std=c11 "$SRC/examples/embed_infer.c" -I"$P/include" "$P/lib/libheurnet.a" \
    $(pkg-config --libs --static heurnet | sed 's/-lheurnet//') -o "$T/infer_static" 2>"$T/cc.log" ||
    { cat "$T/cc.log"; die "static build of embed_infer"; }
"$T/infer_static" "$MODEL" "$INST" | cmp -s - "$T/predict.tsv" || die "static embed_infer != predict"

# find_package(heurnet) from a small CMake project.
mkdir -p "$T/proj"
cat >"$T/proj/CMakeLists.txt" <<CM
cmake_minimum_required(VERSION 3.18)
project(embed C)
find_package(heurnet 0.1 REQUIRED)
add_executable(embed_infer "$SRC/examples/embed_infer.c")
target_link_libraries(embed_infer PRIVATE heurnet::heurnet)
add_executable(embed_search "$SRC/examples/embed_search.c")
target_link_libraries(embed_search PRIVATE heurnet::heurnet)
CM
(cmake -S "$T/proj" -B "$T/proj/build" -DCMAKE_PREFIX_PATH="$P" && cmake --build "$T/proj/build") \
    >"$T/proj.log" 2>&1 || { cat "$T/proj.log"; die "find_package(heurnet) project"; }
LD_LIBRARY_PATH="$P/lib" "$T/proj/build/embed_infer" "$MODEL" "$INST" | cmp -s - "$T/predict.tsv" ||
    die "find_package build of embed_infer != predict"
LD_LIBRARY_PATH="$P/lib" "$T/proj/build/embed_search" "$MODEL" "$INST" 2 | cmp -s - "$T/search.txt" ||
    die "find_package build of embed_search differs"

# Only prefixed global symbols (upper case for constants).
pre='^(hn_|nn_|srch_|dg_|trn_|dom_|heurnet_|HN_|NN_|SRCH_|DG_|TRN_|DOM_|HEURNET_)'
bad=$( (nm -g --defined-only "$P/lib/libheurnet.a" | awk 'NF == 3 {print $3}'
        nm -D --defined-only "$P/lib/libheurnet.so" | awk 'NF == 3 {print $3}') |
      grep -v -E "$pre" | sort -u)
[ -z "$bad" ] || die "unprefixed global symbols in libheurnet: $(echo $bad)"
echo "install, headers, examples and symbols: ok"
