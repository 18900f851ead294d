#!/usr/bin/env bash
# Every command on a plug-in domain: the pancake example of examples/ built
# as a user would build it, then the whole pipeline on 8 pancakes (40,320
# stacks, so breadth-first search gives every true distance): its pattern
# databases built and read back, optimal labels from gen (plain, sharded
# and merged, from a file, and the whole space), data info, train, avi,
# ablate with a search, solve with each algorithm, eval, predict, bench
# search, a recorded search and export. Each step is checked against what
# it must give: optimal lengths where the search is admissible, labels equal
# to breadth-first distances, shards merging into the unsharded rows.
# Args: path of heurnet, instances dir, source dir.
set -u
SRC="$3"
. "$(dirname "$0")/lib_cli.sh"
B="$(cd "$(dirname "$1")" && pwd)"
H="$B/$(basename "$1")"
plugin_cc "$B" "$SRC/examples/domain_pancake.c" "$T/libpancake.so" ||
    { fail "the pancake example does not build"; exit 1; }
P="$T/libpancake.so:8"
export HEURNET_DATA="$T/cache" OPENBLAS_NUM_THREADS=1
cd "$T" || exit 1
field() { grep -o " $1=[^ ]*" | cut -d= -f2; }
lengths() { grep '^id=' "$1" | field length; }

# ---- domain ----
"$H" domain list >list.txt 2>&1 || fail "domain list"
"$H" domain info "$P" >info.txt || fail "domain info"
grep -qx 'patterns=big2,big3,big4,big5,big6' info.txt || fail "patterns: $(grep patterns info.txt)"
"$H" domain check "$P" --walks 40 >check.txt 2>&1 || fail "domain check: $(tail -2 check.txt)"
grep -q 'failures=0 skipped=0' check.txt || fail "check: $(tail -1 check.txt)"
"$H" domain sample "$P" -n 24 --walk 4-14 --seed 7 >s.txt || fail "domain sample"

# ---- pdb: built into the cache, described, and as strong as it claims ----
"$H" pdb build --domain "$P" --partition big5 >build.txt 2>&1 || fail "pdb build: $(cat build.txt)"
pdb=$(ls cache/*big5* 2>/dev/null | head -1)
[ -n "$pdb" ] || fail "pdb build left no table in the cache"
"$H" pdb info "$pdb" >pinfo.txt 2>&1 || fail "pdb info: $(cat pinfo.txt)"
grep -q '6720' pinfo.txt || fail "pdb info does not give big5's 8*7*6*5*4 entries: $(cat pinfo.txt)"

# ---- solve: admissible searches agree on the optimum ----
"$H" solve --domain "$P" --algo idastar --heuristic pdb:big5 s.txt >ida.txt || fail "IDA* pdb"
"$H" solve --domain "$P" --algo astar --heuristic max:gap,pdb:big4 s.txt >astar.txt || fail "A*"
[ "$(lengths ida.txt | wc -l)" = 24 ] || fail "IDA* solved $(lengths ida.txt | wc -l) of 24"
cmp -s <(lengths ida.txt) <(lengths astar.txt) || fail "IDA* (pdb:big5) and A* (max) disagree"
# the states with their optima: `id length state`
paste -d' ' <(lengths ida.txt) s.txt | awk '{ printf "%s %s", $2, $1; for (i = 3; i <= NF; i++) printf " %s", $i; print "" }' >known.txt

# ---- gen: labels are the breadth-first distances ----
"$H" gen --domain "$P" -n 300 --walk 1-14 --heuristic pdb:big5 --seed 2 -o g.h5 --quiet \
    >gen.txt || fail "gen: $(cat gen.txt)"
"$H" gen --domain "$P" --all -o all.h5 --quiet >genall.txt || fail "gen --all"
grep -q 'rows=40320' genall.txt || fail "gen --all: $(cat genall.txt)"
"$H" data info g.h5 >dinfo.txt || fail "data info"
grep -q 'domain=pancake:8' dinfo.txt && grep -q 'rows=300' dinfo.txt || fail "data info: $(head -5 dinfo.txt)"
for i in 0 1; do
    "$H" gen --domain "$P" -n 300 --walk 1-14 --heuristic pdb:big5 --seed 2 --shard $i/2 \
        -o sh$i.h5 --quiet >/dev/null || fail "gen shard $i"
done
"$H" data merge -o merged.h5 sh1.h5 sh0.h5 >/dev/null || fail "data merge"
"$H" data info merged.h5 | grep -v '^file=\|merged=\|shard=' >m.txt
grep -v '^file=\|merged=\|shard=' dinfo.txt >u.txt
cmp -s m.txt u.txt || fail "merged shards differ from the unsharded run: $(diff m.txt u.txt | head -5)"
# a file's states labelled: equal to IDA*'s optima
"$H" gen --domain "$P" --from s.txt --heuristic gap -o from.h5 --quiet >/dev/null || fail "gen --from"
"$H" data info from.h5 | grep -q 'rows=24' || fail "gen --from: not 24 rows"

# ---- train, avi, ablate ----
"$H" train --data all.h5 --domain "$P" --arch 64-64-32-1 --epochs 6 -o net.h5 --quiet >train.txt ||
    fail "train"
"$H" nn info net.h5 | grep -q 'attr.domain=pancake:8' || fail "the trained model has no domain"
"$H" avi --domain "$P" --arch 64-16-1 --rounds 2 --steps 10 --batch 64 --walk-max 12 \
    -o avi.h5 --quiet >/dev/null 2>avi.err || fail "avi: $(tail -2 avi.err)"
"$H" ablate --data g.h5 --domain "$P" --arch 64-8-1 --arch 64-16-1 --epochs 2 --csv ab.csv \
    --search known.txt:8 --search-limit 20000 --instances known.txt >ab.txt 2>ab.err || fail "ablate: $(tail -3 ab.err)"
grep -q '^| 64-16-1 |' ab.txt || fail "ablate's table lacks a variant: $(head -5 ab.txt)"
head -1 ab.csv | grep -q 'search_optimal' || fail "ablate --search wrote no search columns"

# ---- solve with the network: every algorithm gives valid paths ----
for a in astar wastar bwas beam anytime focal; do
    w=()
    [ $a = beam ] && w=(--width 2000)
    "$H" solve --domain "$P" --model net.h5 --algo $a "${w[@]}" --max-expanded 200000 s.txt >"n-$a.txt" \
        2>"n-$a.err" || fail "solve --algo $a: $(tail -2 "n-$a.err")"
    grep -q '^# count=24 solved=24' "n-$a.txt" || fail "$a: $(tail -1 "n-$a.txt")"
    paste -d' ' <(lengths ida.txt) <(lengths "n-$a.txt") |
        awk '$2 >= 0 && $2 < $1 { bad = 1 } END { exit bad }' ||
        fail "$a found a path shorter than the optimum"
done
# focal with bound 1 proves its lengths
"$H" solve --domain "$P" --model net.h5 --algo focal --bound 1 --admissible pdb:big5 s.txt \
    >focal1.txt || fail "focal bound 1"
cmp -s <(lengths ida.txt) <(lengths focal1.txt) || fail "focal bound 1 is not optimal"

# ---- a recorded search, eval, predict, bench ----
"$H" nn set-search --domain "$P" net.h5 "--algo focal --bound 1 --admissible pdb:big5" \
    >/dev/null || fail "nn set-search"
"$H" solve --domain "$P" --model net.h5 s.txt >rec.txt || fail "solve with the record"
cmp -s <(lengths ida.txt) <(lengths rec.txt) || fail "the recorded search did not run"
"$H" eval --domain "$P" --model net.h5 --instances known.txt -o rep --quiet >eval.txt 2>eval.err ||
    fail "eval: $(tail -2 eval.err)"
[ -s rep/instances.tsv ] && [ -s rep/summary.md ] || fail "eval wrote no report"
# the baseline on a plug-in: its optima for a file without lengths, the heuristics' errors
# against them and the difficulty classes of its expansions
col() { awk -F'\t' -v c="$1" 'NR == 1 { for (i = 1; i <= NF; i++) if ($i == c) k = i; next }
    { print $k }' "$2"; }
"$H" eval --domain "$P" --model net.h5 --instances s.txt --baseline pdb:big5 --baseline-algo idastar \
    -o repb --quiet >evalb.txt 2>eval.err || fail "eval with a baseline: $(tail -2 eval.err)"
[ "$(col optimal_source repb/instances.tsv | sort -u)" = b ] || fail "optima not from the baseline"
[ "$(col base_status repb/instances.tsv | sort -u)" = solved ] || fail "baseline: $(cat repb/instances.tsv)"
cmp -s <(lengths ida.txt) <(col optimal repb/instances.tsv) || fail "baseline optima differ from IDA*'s"
cmp -s <(col base_length repb/instances.tsv) <(col optimal repb/instances.tsv) || fail "base_length"
grep -q '^| Extreme | >= ' repb/summary.md || fail "no difficulty classes: $(cat repb/summary.md)"
grep -q '^Heuristic of the start states against the optimum (24 states)' repb/summary.md ||
    fail "no heuristic errors: $(cat repb/summary.md)"
awk -F'\t' 'NR > 1 && ($29 == "NA" || $22 == "NA") { bad = 1 } END { exit bad }' repb/instances.tsv ||
    fail "error columns empty with an optimum"
grep -Eq 'optimal=[0-9]+/24 .* base_mean_expanded=[0-9.]+ base_mean_seconds=[0-9.]+ expansion_ratio=[0-9.]+' \
    evalb.txt || fail "headline: $(cat evalb.txt)"
"$H" eval --domain "$P" --model net.h5 --instances s.txt --baseline pdb:big5 -o repn --quiet \
    >evaln.txt 2>eval.err || fail "eval without a baseline search: $(tail -2 eval.err)"
[ "$(col base_status repn/instances.tsv | sort -u)" = skipped ] || fail "a pancake baseline ran by default"
[ "$(col optimal repn/instances.tsv | sort -u)" = NA ] && [ "$(col base_h repn/instances.tsv | grep -c NA)" = 0 ] ||
    fail "no optima without the baseline, but its heuristic's values: $(head -3 repn/instances.tsv)"
grep -q 'Fewer than 4 states were solved by both searches' repn/summary.md || fail "classes without a baseline"
"$H" predict --domain "$P" --model net.h5 --instances s.txt >pred.txt || fail "predict"
[ "$(wc -l <pred.txt)" = 24 ] || fail "predict gave $(wc -l <pred.txt) lines for 24 states"
"$H" bench search --domain "$P" --model net.h5 --algo astar --instances s.txt >bench.txt 2>bench.err ||
    fail "bench search: $(tail -2 bench.err)"

# ---- export ----
"$H" export --model net.h5 -o net.onnx >/dev/null || fail "export onnx"
"$H" export --model net.h5 --format c -o netc >/dev/null || fail "export c"
[ -s net.onnx ] && [ -s netc.c ] || fail "export wrote nothing"

exit $((fails > 0))
