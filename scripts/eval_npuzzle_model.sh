#!/bin/bash
# Error of an n-puzzle model on instance files with known optimal lengths,
# next to a PDB heuristic's error on the same boards (its h0 from
# `heurnet solve`), with error histograms as PNG (gnuplot).
# usage: scripts/eval_npuzzle_model.sh HEURNET MODEL.h5 OUTDIR [PDB] FILE[@GOAL] ...
#   PDB: heuristic name for `heurnet solve --heuristic` [pdb:7-8]
# Prints one Markdown table row per file; writes OUTDIR/<file>.tsv
# (id optimal ann pdb) and OUTDIR/<file>-errors.png.
set -eu
if [ $# -lt 4 ]; then
    echo "usage: $0 HEURNET MODEL.h5 OUTDIR [pdb:7-8] FILE[@blank-first|@blank-last] ..." >&2
    exit 2
fi
HN=$1 MODEL=$2 OUT=$3
shift 3
PDB=pdb:7-8
case $1 in pdb:* | lc | manhattan | max:*) PDB=$1; shift ;; esac
mkdir -p "$OUT"
puzzle=$($HN nn info "$MODEL" | sed -n 's/.*encoder=npuzzle-onehot n=\([0-9]\).*/\1/p' | head -1)
case $puzzle in 3) P=8 ;; 4) P=15 ;; 5) P=24 ;; *) echo "$MODEL: not an npuzzle-onehot model" >&2; exit 1 ;; esac
echo "| file | boards | mean optimal | ANN MAE | ANN mean error | ANN exact % | ANN over % | $PDB MAE | $PDB mean error | $PDB exact % | $PDB over % |"
echo "|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|"
for arg in "$@"; do
    file=${arg%@*}
    goal=blank-first
    [ "$arg" != "$file" ] && goal=${arg##*@}
    name=$(basename "$file" .txt)
    $HN predict --model "$MODEL" --instances "$file" --goal "$goal" >"$OUT/$name.ann"
    # h0 of the PDB: solve with a node limit of 1 stops at once (status=limit, exit 1)
    $HN solve --puzzle $P --goal "$goal" --heuristic "$PDB" --max-expanded 1 -q "$file" >"$OUT/$name.pdb" || true
    awk 'NR == FNR { ann[$1] = $2; next }
         /^id=/ { id = ""; for (i = 1; i <= NF; i++) { split($i, kv, "="); v[kv[1]] = kv[2] }
                  if (v["id"] in ann) print v["id"], v["optimal"], ann[v["id"]], v["h0"] }' \
        "$OUT/$name.ann" "$OUT/$name.pdb" >"$OUT/$name.tsv"
    awk -v f="$name" '
        function r(x) { return x < 0 ? -int(-x + 0.5) : int(x + 0.5) }
        { n++; o += $2; e = $3 - $2; ae += (e < 0 ? -e : e); me += e; ex += (r($3) == $2); ov += (r($3) > $2)
          p = $4 - $2; ap += (p < 0 ? -p : p); mp += p; pe += ($4 == $2); po += ($4 > $2) }
        END { printf "| %s | %d | %.2f | %.3f | %+.3f | %.1f | %.1f | %.3f | %+.3f | %.1f | %.1f |\n",
              f, n, o / n, ae / n, me / n, 100 * ex / n, 100 * ov / n, ap / n, mp / n, 100 * pe / n, 100 * po / n }' \
        "$OUT/$name.tsv"
    awk 'function r(x) { return x < 0 ? -int(-x + 0.5) : int(x + 0.5) }
         { a[r($3 - $2)]++; p[$4 - $2]++; if (r($3-$2) < lo) lo = r($3-$2); if ($4-$2 < lo) lo = $4-$2
           if (r($3-$2) > hi) hi = r($3-$2); if ($4-$2 > hi) hi = $4-$2 }
         END { for (e = lo; e <= hi; e++) print e, a[e] + 0, p[e] + 0 }' "$OUT/$name.tsv" >"$OUT/$name.hist"
    gnuplot <<GP
set terminal pngcairo noenhanced size 800,450
set output "$OUT/$name-errors.png"
set title "$name: estimate - optimal length (ANN rounded, $PDB exact integer)"
set xlabel "error (moves)"
set ylabel "boards"
set style data histograms
set style histogram clustered gap 1
set style fill solid 0.8 border -1
set boxwidth 0.9
set xtics rotate by -90
set grid ytics
set yrange [0:*]
set offsets 0, 0, graph 0.08, 0
plot "$OUT/$name.hist" using 2:xtic(1) title "ANN $(basename "$MODEL")", "" using 3 title "$PDB"
GP
done
