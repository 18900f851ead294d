#!/usr/bin/env bash
# heurnet emp: exit codes and messages for malformed instance and solution
# files, bad options, and a gen -> solve -> score round trip.
# Args: path of heurnet, instances dir, source dir.
set -u
H="$1"; DATA="$2"
. "$(dirname "$0")/lib_cli.sh"

# a valid 3x3 instance: 4 corners, 4 edges, 1 inner (bottom left top right)
good() {
    printf '3 3\n0 0 1 1\n1 0 0 2\n2 1 0 0\n0 2 2 0\n0 1 3 1\n3 0 1 1\n2 1 0 2\n2 0 1 2\n1 2 3 1\n'
}
good >"$T/ok.txt"
expect_re 0 "score=" "$H" emp clique "$T/ok.txt" --solve --selections 1000

# wrong piece count
good | head -n 9 >"$T/short.txt"
expect_re 1 "short.txt: line [0-9]+: 8 pieces, but the board 3x3 needs 9" "$H" emp score "$T/short.txt" /dev/null
{ good; echo "1 1 1 1"; } >"$T/long.txt"
expect_re 1 "long.txt: line 11: more than 9 pieces" "$H" emp score "$T/long.txt" /dev/null
# bad numbers and short lines
good | sed '4s/.*/0 x 1 1/' >"$T/nan.txt"
expect_re 1 "nan.txt: line 4: 'x' is not a whole number" "$H" emp score "$T/nan.txt" /dev/null
good | sed '5s/.*/0 1 1/' >"$T/three.txt"
expect_re 1 "three.txt: line 5: expected 4 colours \(bottom left top right\), got 3" "$H" emp score "$T/three.txt" /dev/null
good | sed '6s/.*/0 1 999 1/' >"$T/big.txt"
expect_re 1 "big.txt: line 6: colour 999 out of range" "$H" emp score "$T/big.txt" /dev/null
good | sed '6s/.*/0 1 -2 1/' >"$T/neg.txt"
expect_re 1 "neg.txt: line 6: colour -2 out of range" "$H" emp score "$T/neg.txt" /dev/null
# grey on opposite sides, three grey sides
good | sed '6s/.*/0 1 0 1/' >"$T/opp.txt"
expect_re 1 "opp.txt: line 6: piece 4 has grey on opposite sides" "$H" emp score "$T/opp.txt" /dev/null
good | sed '6s/.*/0 0 0 1/' >"$T/three_grey.txt"
expect_re 1 "three_grey.txt: line 6: piece 4 has 3 grey sides" "$H" emp score "$T/three_grey.txt" /dev/null
# size that does not match the grey counts (the inner piece turned into an edge piece)
good | sed '10s/.*/1 2 3 0/' >"$T/counts.txt"
expect_re 1 "counts.txt: line 10: one edge \(one grey side\) piece too many for a 3x3 board" "$H" emp score "$T/counts.txt" /dev/null
# header problems
good | sed '1s/.*/3/' >"$T/hdr.txt"
expect_re 1 "hdr.txt: line 1: expected the header 'W H'" "$H" emp score "$T/hdr.txt" /dev/null
good | sed '1s/.*/3 4/' >"$T/hdr2.txt"
expect_re 1 "hdr2.txt: line [0-9]+: 9 pieces, but the board 3x4 needs 12" "$H" emp score "$T/hdr2.txt" /dev/null
: >"$T/empty.txt"
expect_re 1 "empty.txt: empty file" "$H" emp score "$T/empty.txt" /dev/null
expect_re 1 "nosuch.txt: cannot open" "$H" emp score "$T/nosuch.txt" /dev/null

# e2pieces order (top right bottom left, no header, size from the grey counts)
good | tail -n 9 | awk '{print $3, $4, $1, $2}' >"$T/e2.txt"
"$H" emp clique "$T/e2.txt" --format e2pieces --solve --selections 1000 -o "$T/e2.sol" >/dev/null 2>&1
expect_re 0 "score=[0-9]+ joins=12 violations=0" "$H" emp score --format e2pieces "$T/e2.txt" "$T/e2.sol"
good | tail -n 8 | awk '{print $3, $4, $1, $2}' >"$T/e2bad.txt"
expect_re 1 "e2bad.txt: 8 pieces: no W x H board fits" "$H" emp score --format e2pieces "$T/e2bad.txt" /dev/null
expect_re 2 "--format: 'xml' is not one of meta, e2pieces" "$H" emp score --format xml "$T/ok.txt" /dev/null

# solution files
"$H" emp clique "$T/ok.txt" --solve --selections 1000 -o "$T/ok.sol" >/dev/null 2>&1
expect_re 0 "score=[0-9]+ joins=12 violations=0" "$H" emp score "$T/ok.txt" "$T/ok.sol"
head -n 8 "$T/ok.sol" >"$T/short.sol"
expect_re 1 "short.sol: line 8: 8 cells, the 3x3 board needs 9" "$H" emp score "$T/ok.txt" "$T/short.sol"
sed '3s/.*/9 0/' "$T/ok.sol" >"$T/range.sol"
expect_re 1 "range.sol: line 3: piece 9 \(0..8\) or rotation 0 \(0..3\) out of range" "$H" emp score "$T/ok.txt" "$T/range.sol"
sed '3s/.*/1 x/' "$T/ok.sol" >"$T/word.sol"
expect_re 1 "word.sol: line 3: expected 'piece rotation'" "$H" emp score "$T/ok.txt" "$T/word.sol"
{ sed -n 2p "$T/ok.sol"; tail -n 8 "$T/ok.sol"; } >"$T/dup.sol"
expect_re 1 "violation\(s\): .*piece [0-9]+ used twice" "$H" emp score "$T/ok.txt" "$T/dup.sol"
awk 'NR==1{print $1, ($2+1)%4; next}{print}' "$T/ok.sol" >"$T/turned.sol"
expect_re 1 "cell \(0,0\): piece [0-9]+ rotation [0-9] has a grey side inside the board" "$H" emp score "$T/ok.txt" "$T/turned.sol"

# clues
expect_re 1 "clue 0,1,1,0 breaks the frame rule" "$H" emp score --clue 0,1,1,0 "$T/ok.txt" "$T/ok.sol"
expect_re 2 "--clue: '1,2' is not P,R,C,ROT" "$H" emp score --clue 1,2 "$T/ok.txt" "$T/ok.sol"
expect_re 1 "clue piece 40 out of range" "$H" emp solve --clue 40,1,1,0 "$T/ok.txt" -o "$T/x.sol"

# options
expect_re 0 "--time S +time limit in seconds \[30\]" "$H" emp solve --help
expect_re 0 "--selections Q" "$H" emp clique --help
expect_re 2 "-o SOLUTION is required" "$H" emp solve "$T/ok.txt"
expect_re 2 "--time: '-3' is not a number in \[0, " "$H" emp solve --time -3 "$T/ok.txt" -o "$T/x.sol"
expect_re 2 "--start: 'foo' is not random, greedy or backtrack" "$H" emp solve --start foo "$T/ok.txt" -o "$T/x.sol"
expect_re 2 "--walk-temp: '-1' is not a number in \[0, 1000\]" "$H" emp solve --walk-temp -1 "$T/ok.txt" -o "$T/x.sol"
expect_re 2 "--restart: '-2' is not a number in \[0, " "$H" emp solve --restart -2 "$T/ok.txt" -o "$T/x.sol"
expect_re 2 "--reheat needs --restart" "$H" emp solve --reheat 0.25 "$T/ok.txt" -o "$T/x.sol"
expect_re 2 "--reheat: '-1' is not a number in \[0, 1000\]" "$H" emp solve --restart 5 --reheat -1 "$T/ok.txt" -o "$T/x.sol"
expect_re 2 "--break-from: '2' is not a number in \[0, 1\]" "$H" emp solve --break-from 2 "$T/ok.txt" -o "$T/x.sol"
expect_re 2 "--breaks: '-1' is not an integer in 0..100000" "$H" emp solve --breaks -1 "$T/ok.txt" -o "$T/x.sol"
expect_re 2 "nothing to do" "$H" emp milp "$T/ok.txt"
expect_re 2 "unknown emp command 'frobnicate'" "$H" emp frobnicate
[ -e "$T/x.sol" ] && { echo "FAIL: a failed run left x.sol"; fails=$((fails + 1)); }

# gen -> solve -> score; the shared META file and Eternity II's clue
expect_re 0 "joins=40" "$H" emp gen --size 5 --frame-colours 2 --inner-colours 3 --seed 4 -o "$T/g.txt" --solution "$T/g.sol"
expect_re 0 "score=40 joins=40 violations=0" "$H" emp score "$T/g.txt" "$T/g.sol"
# CPU time, so a busy machine cannot starve it; it stops at the perfect score
expect_re 0 "score=40 joins=40" "$H" emp solve -q --cpu --time 30 --start greedy "$T/g.txt" -o "$T/s.sol"
expect_re 0 "violations=0" "$H" emp score "$T/g.txt" "$T/s.sol"
expect_re 0 "start=backtrack scan_complete=[01] scan_breaks=" "$H" emp solve -q --cpu --time 2 --backtrack-time 1.5 --start backtrack --clue 138,8,7,2 "$DATA/emp/eternity2.txt" -o "$T/e2.sol"
expect_re 0 "violations=0" "$H" emp score --clue 138,8,7,2 "$DATA/emp/eternity2.txt" "$T/e2.sol"
expect_re 0 "variables=[0-9]+ constraints=[0-9]+ model=" "$H" emp milp "$DATA/emp/owen_set1/b03x03s1.txt" --write "$T/m.lp"
grep -q "^Binary" "$T/m.lp" || { echo "FAIL: LP file has no Binary section"; fails=$((fails + 1)); }
expect_re 0 "nodes=30 edges=291" "$H" emp clique "$DATA/emp/owen_set1/b03x03s1.txt" --write "$T/g.clq"
grep -q "^p edge 30 291" "$T/g.clq" || { echo "FAIL: DIMACS header"; fails=$((fails + 1)); }

echo "$fails failure(s)"
[ "$fails" = 0 ]
