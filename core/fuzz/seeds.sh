#!/bin/sh
# seeds.sh - write the seed inputs of a fuzz target into a folder.
#
#   seeds.sh TARGET SRCROOT OUTDIR
#
# Every Lisp file of testdata/ is a seed; the reader and printer case
# tables add one seed per case (the text read), the conformance tables one
# per form.  The pattern target reads its input as grammar choices, so the
# same bytes serve it too.  The yaml target reads configurations and
# manifests: its seeds are the YAML files of the tree and the examples
# of docs/guide.md.
set -eu
target=$1 root=$2 out=$3
td=$root/testdata
if [ "$target" = yaml ]; then
    n=0
    find "$td" "$root/.pcexpand.yaml" -name '*.yaml' -type f | sort | while read -r f; do
        n=$((n + 1))
        cp "$f" "$out/yaml-$n"
    done
    # the yaml blocks of the guide
    awk -v o="$out/doc" '/^```yaml/ { n++; on = 1; next } /^```/ { on = 0 }
        on { print > (o "-" n) }' "$root/docs/guide.md"
    exit 0
fi
n=0
find "$td" -name '*.el' -type f | sort | while read -r f; do
    n=$((n + 1))
    cp "$f" "$out/el-$n"
done
# Column 1 of the spec tables, column 2 of the conformance tables.
split_col() { # FILE COLUMN PREFIX
    awk -F '\t' -v c="$2" -v o="$out/$3" \
        '!/^#/ && NF >= c && $c != "" { f = o "-" NR; printf "%s", $c > f; close(f) }' "$1"
}
split_col "$td/spec/reader-cases.tsv" 1 rc
split_col "$td/spec/printer-cases.tsv" 1 pc
for t in "$td"/conformance/*/cases.tsv; do
    split_col "$t" 2 "cf-$(basename "$(dirname "$t")")"
done
: "$target"
