#!/bin/bash
# jump-tables.sh - cond* dispatch compiles to a jump table: each case of
# jump-tables.tsv, (lambda (x) FORM), is expanded by `pcexpand --compact'
# and byte-compiled by Emacs (jump-tables.el), which looks for the
# `switch' instruction and prints the size of the code.
#
# Usage: jump-tables.sh PCEXPAND [CASES.tsv]
set -euo pipefail

pcexpand=${1:?usage: jump-tables.sh PCEXPAND [CASES.tsv]}
here=$(cd "$(dirname "$0")" && pwd)
cases=${2:-$here/jump-tables.tsv}
emacs=${EMACS:-emacs}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

grep -v -e '^#' -e '^$' "$cases" >"$tmp/cases.tsv"
cut -f3 "$tmp/cases.tsv" | sed 's/^/(lambda (x) /; s/$/)/' >"$tmp/in.el"
"$pcexpand" --compact "$tmp/in.el" >"$tmp/out.el"
if [ "$(wc -l <"$tmp/out.el")" -ne "$(wc -l <"$tmp/cases.tsv")" ]; then
  echo "jump tables: $(wc -l <"$tmp/out.el") lines of output for $(wc -l <"$tmp/cases.tsv") cases" >&2
  exit 1
fi
cut -f1,2 "$tmp/cases.tsv" | paste - "$tmp/out.el" >"$tmp/exp.tsv"
"$emacs" -Q --batch -l "$here/jump-tables.el" "$tmp/exp.tsv"
