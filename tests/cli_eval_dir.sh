#!/usr/bin/env bash
# heurnet eval's report folder (issue 63, defect 2 and the early --force
# check): `-o DIR/ --force` with a trailing slash replaces the old report by
# a complete new one and leaves no private folder inside or beside it, on
# the n-puzzle path and on the domain path; `-o new/` works; --force refuses
# a folder holding other files, or a plain file, before any board is
# evaluated, and leaves it as it was.
# Args: path of heurnet, instances dir, source dir.
set -u
H="$1"
. "$(dirname "$0")/lib_cli.sh"

"$H" nn init --arch 81-8-1 --encoder "npuzzle-onehot n=3 goal=blank-first" -o "$T/m8.h5" \
    >/dev/null || { fail "nn init"; exit 1; }
printf 'f 2 1 2 0 3 4 5 6 7 8\ng 1 1 0 2 3 4 5 6 7 8\n' >"$T/b8.txt"
"$H" domain sample npuzzle:3x4 -n 2 --walk 6 --seed 4 >"$T/b34.txt" || fail "domain sample"
np() { "$H" eval --model "$T/m8.h5" --instances "$T/b8.txt" --baseline manhattan -q "$@"; }
dm() { "$H" eval --domain npuzzle:3x4 --algo astar --heuristic manhattan --instances "$T/b34.txt" -q "$@"; }

# no_private DIR: nothing of eval's private folders inside DIR or beside it
no_private() {
    ! compgen -G "$1/.*part*" >/dev/null && ! compgen -G "$1.*part*" >/dev/null &&
        ! compgen -G "$1/*part*" >/dev/null
}

for path in np dm; do
    R="$T/$path-rep"
    $path -o "$R" >/dev/null 2>"$T/err" || fail "$path: eval -o $R: $(cat "$T/err")"
    echo stale >>"$R/summary.md"
    $path -o "$R/" --force >/dev/null 2>"$T/err" || fail "$path: eval -o $R/ --force: $(cat "$T/err")"
    [ -s "$R/summary.md" ] && [ -s "$R/instances.tsv" ] || fail "$path: -o DIR/ --force left no report"
    grep -q stale "$R/summary.md" 2>/dev/null && fail "$path: -o DIR/ --force kept the old summary"
    no_private "$R" || fail "$path: private folders left: $(ls -a "$R" "$T")"
    $path -o "$R//" --force >/dev/null 2>"$T/err" || fail "$path: -o DIR// --force: $(cat "$T/err")"
    no_private "$R" || fail "$path: private folders left after DIR//"

    N="$T/$path-new"
    $path -o "$N/" >/dev/null 2>"$T/err" || fail "$path: eval -o new/: $(cat "$T/err")"
    [ -s "$N/summary.md" ] || fail "$path: -o new/ wrote no report"
    no_private "$N" || fail "$path: private folders left after -o new/"

    # --force on a folder that is not a report: refused before the boards
    # (no headline on stdout), named, and left as it was
    M="$T/$path-mine"
    mkdir "$M" && echo keep >"$M/notes.txt" && echo old >"$M/summary.md"
    expect 1 "notes.txt, which eval does not write" $path -o "$M/" --force
    [ -s "$T/out" ] && fail "$path: the refusal came after the evaluation: $(cat "$T/out")"
    [ "$(cat "$M/notes.txt")" = keep ] && [ "$(cat "$M/summary.md")" = old ] ||
        fail "$path: the refused folder was changed"
    no_private "$M" || fail "$path: private folders left after a refusal"
    echo plain >"$T/$path-file"
    expect 1 "is not a report folder" $path -o "$T/$path-file" --force
    [ -s "$T/out" ] && fail "$path: the plain-file refusal came after the evaluation"
    [ "$(cat "$T/$path-file")" = plain ] || fail "$path: the plain file was changed"
    expect 1 "exists (use --force" $path -o "$R/"
done

[ "$fails" -eq 0 ] || exit 1
echo "cli_eval_dir: ok"
