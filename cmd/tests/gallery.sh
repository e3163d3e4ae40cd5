#!/bin/bash
# gallery.sh - docs/gallery.md is real output: corpus forms, pcexpand's
# expansion of each and Emacs's own, with the output-quality benchmark's
# figures.
#
# Usage: gallery.sh PCEXPAND CORPUS [--record]
# The forms are those of testdata/examples/gallery/forms.txt (see there),
# taken from CORPUS/**/*.el.gz; their files are expanded by
# `pcexpand --format=json' and gallery.el writes the page.  The page
# written must be docs/gallery.md byte for byte; --record (after a
# reviewed change of the output) writes docs/gallery.md instead.
set -euo pipefail

usage="usage: gallery.sh PCEXPAND CORPUS [--record]"
pcexpand=$(realpath "${1:?$usage}")
corpus=$(realpath "${2:?$usage}")
record=${3:-}
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
forms=$root/testdata/examples/gallery/forms.txt
page=$root/docs/gallery.md
emacs=${EMACS:-emacs}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

# The files of the forms, decompressed under their corpus names.
mapfile -t files < <(awk '!/^#/ && !/^ / && NF { print $2 }' "$forms" | sort -u)
for f in "${files[@]}"; do
    [[ -f $corpus/$f.gz ]] || { echo "gallery: no $corpus/$f.gz" >&2; exit 1; }
    mkdir -p "$tmp/src/$(dirname "$f")"
    gzip -dc "$corpus/$f.gz" >"$tmp/src/$f"
done
# Status 2: some form of these files has an error, kept as written (-k);
# a form of the gallery among them has no record and gallery.el says so.
st=0
(cd "$tmp/src" && "$pcexpand" --no-config -q -k --format=json "${files[@]}" \
    >"$tmp/records.json" 2>"$tmp/pcexpand.err") || st=$?
if [[ $st -ne 0 && $st -ne 2 ]]; then
    echo "gallery: pcexpand exited with status $st:" >&2
    head -n 20 "$tmp/pcexpand.err" >&2
    exit 1
fi

"$emacs" -Q --batch -L "$here" -L "$here/conformance" -l "$here/gallery.el" \
    -f gallery-main "$forms" "$corpus" "$tmp/records.json" "$tmp/gallery.md" \
    2>"$tmp/emacs.err" || { tail -n 20 "$tmp/emacs.err" >&2; exit 1; }

if [[ $record == --record ]]; then
    cp "$tmp/gallery.md" "$page"
    echo "gallery: wrote $page"
elif ! diff -u "$page" "$tmp/gallery.md" >&2; then
    echo "FAIL: docs/gallery.md is not what the program and Emacs print now" \
         "(after a reviewed change: cmd/tests/gallery.sh PCEXPAND CORPUS --record)" >&2
    exit 1
else
    echo "gallery: docs/gallery.md matches: ${#files[@]} files, $(grep -c '^## ' "$page") forms"
fi
