#!/bin/bash
# bench-output.sh - the output-quality benchmark: pcexpand's output against
# Emacs's own expansion of every outermost pcase-family form of the corpus
# (docs/benchmarks.md says what each figure means).
#
# Usage: bench-output.sh PCEXPAND CORPUS   (meson test --benchmark output-quality)
#
# 1. The forms: cmd/tests/conformance/pcxc-extract.el collects them from
#    CORPUS/**/*.el.gz with their file, line and column, the feature their
#    file provides and the file's earlier definitions they use (or
#    $PCX_BENCH_TSV, a file it wrote before).
# 2. pcexpand's output: every corpus file expanded by
#    `pcexpand --format=json', one record per replaced form, as a user
#    gets it (the whole file read, comments and layout as printed).
# 3. bench-output.el pairs each form with its record and with Emacs's
#    expansion of it (the pcase family only, user code as written),
#    byte-compiles both, and prints the figures, the forms to look at and
#    the forms skipped with the reason.  $PCX_BENCH_DETAILS, when set, is a
#    file that gets one row of figures per form.
# Prints figures; asserts nothing.  Every figure is a count, the same in
# every run on the same inputs.
set -euo pipefail

pcexpand=$(realpath "${1:?usage: bench-output.sh PCEXPAND CORPUS}")
corpus=${2:?usage: bench-output.sh PCEXPAND CORPUS}
here=$(cd "$(dirname "$0")" && pwd)
emacs=${EMACS:-emacs}
# shellcheck source=corpus-lib.sh
. "$here/corpus-lib.sh"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

echo "output quality: $("$emacs" --version | head -n 1); corpus $corpus"
if [ -n "${PCX_BENCH_TSV:-}" ]; then
    cp "$PCX_BENCH_TSV" "$tmp/forms.tsv"
else
    "$emacs" -Q --batch -l "$here/conformance/pcxc-extract.el" \
        -f pcxc-extract-main "$tmp/forms.tsv" "$corpus" >"$tmp/extract.log" 2>&1
    grep '^extract:' "$tmp/extract.log" || { cat "$tmp/extract.log" >&2; exit 1; }
fi

corpus_unpack "$corpus" "$tmp/src"
# Exit status 2: some form has an error; it is kept as written (-k) and
# shows up below as a skipped form.
mapfile -t files <"$tmp/src.list"
st=0
(cd "$tmp/src" && "$pcexpand" --no-config -q -k --format=json "${files[@]}" \
    >"$tmp/records.json" 2>"$tmp/pcexpand.err") || st=$?
if [ "$st" -ne 0 ] && [ "$st" -ne 2 ]; then
    echo "pcexpand exited with status $st:" >&2
    head -n 20 "$tmp/pcexpand.err" >&2
    exit 1
fi
if [ -s "$tmp/pcexpand.err" ]; then
    echo "pcexpand's diagnostics: $(grep -c ': error:' "$tmp/pcexpand.err" || true) errors"
fi

"$emacs" -Q --batch -L "$here/conformance" -l "$here/bench-output.el" \
    -f bench-output-main "$tmp/forms.tsv" "$tmp/records.json" "$tmp/pcexpand.err" \
    ${PCX_BENCH_DETAILS:+"$PCX_BENCH_DETAILS"} 2>"$tmp/emacs.err" ||
    { tail -n 20 "$tmp/emacs.err" >&2; exit 1; }
