#!/bin/bash
# guide_examples.sh - the worked examples of docs/guide.md are real output.
#
# Usage: guide_examples.sh PCEXPAND EXAMPLES_DIR GUIDE [--record]
# Runs every line of EXAMPLES_DIR/cases.txt (see there) in a scratch copy
# of EXAMPLES_DIR and compares status, standard output and standard error
# with the recorded files; then checks that every block of GUIDE marked
# <!-- example: FILE --> shows FILE exactly (or, marked "abridged", its
# lines in order, a line "..." standing for lines left out), and that every
# recorded output is shown somewhere.  --record (after a reviewed change)
# rewrites the recorded .out and .err files from the program instead.
set -euo pipefail

prog=$(realpath "$1")
examples=$(realpath "$2")
guide=$(realpath "$3")
record=${4:-}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
cp -r "$examples/." "$tmp/work"
failures=0
fail() {
    echo "FAIL: $*" >&2
    failures=$((failures + 1))
}

# The cases, in order.
pcexpand() { "$prog" "$@"; }
export -f pcexpand
export prog
n=0
while read -r name want cmd; do
    [[ -z $name || $name == \#* ]] && continue
    set +e
    (cd "$tmp/work" && bash -c "set -o pipefail; $cmd") >"$tmp/$name.out" 2>"$tmp/$name.err"
    status=$?
    set -e
    [[ $status -eq $want ]] || fail "$name: exit status $status, expected $want"
    for kind in out err; do
        if [[ $record == --record ]]; then
            rm -f "$examples/$name.$kind"
            [[ ! -s $tmp/$name.$kind ]] || cp "$tmp/$name.$kind" "$examples/$name.$kind"
        fi
        if [[ -f $examples/$name.$kind ]]; then
            diff -u "$examples/$name.$kind" "$tmp/$name.$kind" >&2 || fail "$name: standard $kind differs"
        elif [[ -s $tmp/$name.$kind ]]; then
            fail "$name: unexpected standard $kind:"
            head -n 5 "$tmp/$name.$kind" >&2
        fi
    done
    n=$((n + 1))
done <"$examples/cases.txt"

# The blocks of the guide.
blocks=$(awk -v dir="$tmp/blocks" '
    BEGIN { system("mkdir -p " dir) }
    /^<!-- example: [^ ]+( abridged)? -->$/ { file = $3; mode = ($4 == "abridged") ? "a" : "x"; want = 1; next }
    want && /^```/ { inside = 1; want = 0; k++; out = dir "/" k; print mode " " file " " out; printf "" >out; next }
    inside && /^```$/ { inside = 0; close(out); next }
    inside { print >>out }
' "$guide")
shown=0
declare -A seen=()
while read -r mode file block; do
    [[ -z ${mode:-} ]] && continue
    shown=$((shown + 1))
    seen[$file]=1
    src=$examples/$file
    [[ -f $src ]] || src=$tmp/work/$file
    if [[ ! -f $src ]]; then
        fail "guide: no file $file"
    elif [[ $mode == x ]]; then
        diff -u "$src" "$block" >&2 || fail "guide: the block of $file differs from it"
    else
        # Every line of the block, in order, "..." skipping any lines.
        awk 'NR == FNR { want[++n] = $0; next }
             { have[++m] = $0 }
             END {
                 j = 1
                 for (i = 1; i <= n; i++) {
                     if (want[i] ~ /^ *\.\.\.$/) continue
                     while (j <= m && have[j] != want[i]) j++
                     if (j > m) { print "not found: " want[i]; exit 1 }
                     j++
                 }
             }' "$block" "$src" >&2 || fail "guide: the abridged block of $file"
    fi
done <<<"$blocks"
for f in "$examples"/*.out "$examples"/*.err; do
    [[ -f $f ]] || continue
    [[ -n ${seen[$(basename "$f")]:-} ]] || fail "guide: $(basename "$f") is not shown"
done
echo "guide: $n commands run, $shown blocks compared"
[[ $failures -eq 0 ]]
