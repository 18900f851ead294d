#!/bin/bash
# heurnet ablate through the executable: seeds, the paired table, A* metrics,
# PNGs that are not empty, bad options refused, and the CSV journal: a CSV
# cut to some rows (a kill simulated) and a real SIGTERM both resume to the
# CSV of an uninterrupted run (timing columns aside), with --jobs 1 and 2.
# Arguments: path of heurnet, shared data dir, source dir.
set -u
HN=$1
SRC=$3
. "$(dirname "$0")/lib_cli.sh"

need_h5py
"$HN" gen --puzzle 8 --count 3000 --seed 1 --threads 1 --quiet -o "$T/d.h5" >/dev/null &&
    "$HN" gen --puzzle 8 --count 12 --seed 7 --threads 1 --quiet -o "$T/s.h5" >/dev/null &&
    $PY "$SRC/scripts/dataset_to_instances.py" "$T/s.h5" "$T/s.txt" || fail "set-up failed"

# the columns that depend on the machine's load, by name
untimed() {
    awk -F, 'NR == 1 { for (i = 1; i <= NF; i++) skip[i] = $i ~ /^(train_s|samples_per_s|search_s_per_board)$/ }
             { s = ""; for (i = 1; i <= NF; i++) if (!skip[i]) s = s $i ","; print s }' "$1"
}

# --- options ------------------------------------------------------------------
"$HN" ablate --help >"$T/out" || fail "ablate --help exited non-zero"
for o in --seeds --baseline --search --search-opts --search-limit --jobs --plot --grid --variants --csv; do
    grep -q -- "$o" "$T/out" || fail "ablate --help lacks $o"
done
D=(--data "$T/d.h5" --quiet --threads 1 --dropout 0 --epochs 2 --batch 128)
expect 2 "--seeds" "$HN" ablate "${D[@]}" --arch 81-8-1 --seeds 0
expect 2 "--jobs" "$HN" ablate "${D[@]}" --arch 81-8-1 --jobs 0
expect 2 "only 2 variants" "$HN" ablate "${D[@]}" --grid '81-{8,4}-1' --seeds 2 --baseline 3
expect 2 "--seeds 2" "$HN" ablate "${D[@]}" --grid '81-{8,4}-1' --baseline 1
expect 2 "no matching" "$HN" ablate "${D[@]}" --grid '81-{8,4-1'
expect 2 "twice" "$HN" ablate "${D[@]}" --arch 81-8-1 --grid '81-{8,4}-1'
expect 2 "no ','" "$HN" ablate "${D[@]}" --arch '81-8-1,x'
expect 1 "nonexistent.txt" "$HN" ablate "${D[@]}" --variants "$T/nonexistent.txt"
expect 2 "--search" "$HN" ablate "${D[@]}" --arch 81-8-1 --search "$T/s.txt:0"
expect 2 "scale" "$HN" ablate "${D[@]}" --arch 81-8-1 --search "$T/s.txt" --search-opts scale:0
expect 2 "--search FILE" "$HN" ablate "${D[@]}" --arch 81-8-1 --search-opts mirror

# --- a full run: 2 variants x 3 seeds, 2 jobs ----------------------------------
printf '# two small nets\n81-{8,16}-1\n' >"$T/variants.txt"
A=("${D[@]}" --variants "$T/variants.txt" --seeds 3 --baseline 1 --search "$T/s.txt:6"
   --search-opts pdb:8)
"$HN" ablate "${A[@]}" --jobs 2 --csv "$T/full.csv" --plot "$T/p" >"$T/out" 2>"$T/err" ||
    fail "ablate failed: $(cat "$T/err")"
[ "$(grep -c '^| 81-[0-9]*-1 | 3 |' "$T/out")" -eq 2 ] || fail "means table: $(cat "$T/out")"
grep -q '^| 81-16-1 | val MAE | [-+]' "$T/out" || fail "paired table: $(cat "$T/out")"
grep -q 'seeds (the smallest n' "$T/out" || fail "no seeds-needed sentence: $(cat "$T/out")"
[ "$(wc -l <"$T/full.csv")" -eq 7 ] || fail "CSV rows: $(cat "$T/full.csv")"
head -1 "$T/full.csv" | grep -q '^variant,seed,config,params,.*,search_optimal,.*,curve$' || fail "CSV header"
[ "$(cut -d, -f1,2 "$T/full.csv" | tr '\n' ' ')" = "variant,seed 81-8-1,1 81-8-1,2 81-8-1,3 81-16-1,1 81-16-1,2 81-16-1,3 " ] ||
    fail "CSV order: $(cut -d, -f1,2 "$T/full.csv")"
for p in curves metrics search; do
    [ -s "$T/p-$p.png" ] && [ "$(head -c 4 "$T/p-$p.png" | tail -c 3)" = "PNG" ] || fail "$p PNG missing or empty"
done

# --- a kill simulated: the CSV keeps rows 1, 2 and 5 -----------------------------
sed -n '1,3p;6p' "$T/full.csv" >"$T/part.csv"
"$HN" ablate "${A[@]}" --jobs 1 --csv "$T/part.csv" >"$T/out2" 2>"$T/err" || fail "resume failed: $(cat "$T/err")"
[ "$(untimed "$T/part.csv")" = "$(untimed "$T/full.csv")" ] || fail "resumed CSV differs: $(diff <(untimed "$T/part.csv") <(untimed "$T/full.csv"))"
# the kept rows were not trained again: their timings are the old ones
[ "$(sed -n '2,3p;6p' "$T/part.csv")" = "$(sed -n '2,3p;6p' "$T/full.csv")" ] || fail "kept rows changed"
# a finished journal trains nothing and prints the same table
"$HN" ablate "${A[@]}" --csv "$T/full.csv" >"$T/out3" 2>"$T/err" || fail "rerun failed"
grep -q "6 of 6 runs are already in" "$T/err" && cmp -s "$T/out3" "$T/out" || fail "rerun differs: $(cat "$T/err")"
# another command's CSV is refused
expect 1 "header" "$HN" ablate "${D[@]}" --variants "$T/variants.txt" --seeds 3 --csv "$T/full.csv"
expect 1 "not a run of this ablation" "$HN" ablate "${A[@]}" --seed 5 --csv "$T/full.csv"
expect 1 "other settings" "$HN" ablate "${A[@]}" --lr 2e-3 --csv "$T/full.csv"
# more seeds keep the finished runs
cp "$T/full.csv" "$T/more.csv"
"$HN" ablate "${A[@]}" --seeds 4 --csv "$T/more.csv" >/dev/null 2>"$T/err" || fail "--seeds 4 failed: $(cat "$T/err")"
grep -q "6 of 8 runs are already in" "$T/err" && [ "$(wc -l <"$T/more.csv")" -eq 9 ] || fail "--seeds 4 after 3: $(cat "$T/err")"

# --- a real SIGTERM between runs, then the same command -------------------------
K=("${D[@]}" --grid '81-{32,16}-1' --seeds 4 --epochs 30)
"$HN" ablate "${K[@]}" --jobs 1 --csv "$T/kill.csv" >"$T/out" 2>"$T/err" &
pid=$!
for i in $(seq 1 300); do
    [ "$(wc -l <"$T/kill.csv" 2>/dev/null || echo 0)" -ge 2 ] && break
    sleep 0.05
done
kill -TERM $pid
wait $pid
rc=$?
rows=$(($(wc -l <"$T/kill.csv") - 1))
if [ $rc -eq 0 ]; then
    fail "ablate finished before SIGTERM (machine too fast for the test?)"
else
    grep -q "runs are in $T/kill.csv" "$T/err" || fail "no resume hint: $(cat "$T/err")"
    [ "$rows" -ge 1 ] && [ "$rows" -lt 8 ] || fail "after SIGTERM: $rows rows"
fi
"$HN" ablate "${K[@]}" --jobs 2 --csv "$T/kill.csv" >/dev/null 2>"$T/err" || fail "resume after SIGTERM failed: $(cat "$T/err")"
grep -q "$rows of 8 runs are already in $T/kill.csv; training the $((8 - rows)) missing" "$T/err" || fail "resume did not keep $rows runs: $(cat "$T/err")"
"$HN" ablate "${K[@]}" --jobs 2 --csv "$T/once.csv" >/dev/null 2>&1 || fail "uninterrupted run failed"
[ "$(untimed "$T/kill.csv")" = "$(untimed "$T/once.csv")" ] || fail "killed+resumed CSV differs from an uninterrupted one"

# --- issue 48: a cut or NUL-damaged journal is refused, not read as rows ---------
cp "$T/once.csv" "$T/cut.csv"
truncate -s -3 "$T/cut.csv" # 2.760495 read back as 2.76 was "already in"
expect 1 "cut.csv:9: the last line has no newline" "$HN" ablate "${K[@]}" --csv "$T/cut.csv"
cp "$T/once.csv" "$T/nul.csv"
printf '\0\0\0\n' >>"$T/nul.csv"
expect 1 "nul.csv:10: a NUL byte" "$HN" ablate "${K[@]}" --csv "$T/nul.csv"
cmp -s "$T/cut.csv" <(head -c -3 "$T/once.csv") || fail "a refused journal was rewritten"

[ $fails -eq 0 ] && echo "cli_ablate: all passed"
exit $((fails > 0))
