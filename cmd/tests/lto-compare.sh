#!/bin/bash
# lto-compare.sh - quality gate `lto' (quality.sh): the program built at
# -O3 with link-time optimisation prints, says and exits exactly as the
# plain build does, on every Lisp file under testdata/ and on the corpus
# (default: Emacs 30.1's lisp/ directory), in both output modes and with
# the large files computed in parts.  Inlining across files turns C
# aliasing mistakes, harmless in the plain build, into wrong output or
# crashes; this is where they show.
#
# Usage: lto-compare.sh PLAIN LTO [CORPUS]   (the two pcexpand programs)
set -euo pipefail

plain=${1:?usage: lto-compare.sh PLAIN LTO [CORPUS]}
lto=${2:?usage: lto-compare.sh PLAIN LTO [CORPUS]}
corpus=${3:-/usr/share/emacs/30.1/lisp}
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
# shellcheck source=corpus-lib.sh
. "$here/corpus-lib.sh"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

corpus_unpack "$corpus" "$tmp/src"
find "$root/testdata" -name '*.el' | LC_ALL=C sort >"$tmp/testdata.list"

# run NAME PROGRAM ARGS...: output, diagnostics and status into $tmp/NAME.*
run() {
    local name=$1
    shift
    local st=0
    "$@" >"$tmp/$name.out" 2>"$tmp/$name.err" || st=$?
    echo "$st" >"$tmp/$name.status"
}

failed=0
compare() { # LABEL ARGS...
    local label=$1
    shift
    run a "$plain" "$@"
    run b "$lto" "$@"
    for k in out err status; do
        if ! cmp -s "$tmp/a.$k" "$tmp/b.$k"; then
            echo "lto: $label: the $k differs from the plain build's" >&2
            diff "$tmp/a.$k" "$tmp/b.$k" | head -5 >&2 || true
            failed=1
        fi
    done
}

n_test=$(wc -l <"$tmp/testdata.list")
n_corpus=$(wc -l <"$tmp/src.list")
# Each testdata file on its own (many hold errors on purpose), the corpus
# as one directory operand.
while read -r f; do
    compare "${f#"$root"/} --compact" --compact "$f"
    compare "${f#"$root"/}" "$f"
done <"$tmp/testdata.list"
compare "corpus --compact" --compact -q "$tmp/src"
compare "corpus" -q "$tmp/src"
compare "corpus -j 2 --compact (one file in parts)" --compact -q -j 2 \
    "$tmp/src/emacs-lisp/cl-macs.el"
echo "lto: $n_test testdata files and $n_corpus corpus files, the same with both builds: $([ $failed = 0 ] && echo yes || echo NO)"
exit $failed
