#!/bin/bash
# run.sh - the cond* conformance suite: expand every case of cases.tsv with
# pcexpand, evaluate the expansions in `emacs --batch` (Emacs 30.1 has no
# cond*, so the plain expansion is what runs), interpreted and
# byte-compiled, and compare with the expected values, logs and
# diagnostics (run.el).
#
# Usage: run.sh PCEXPAND [CASES.tsv]
# Cases whose expected value is XERROR:CODE are expanded one per file (an
# error suppresses the output of its whole file); all others are expanded
# together, one top-level form per line, with --compact.
set -euo pipefail

pcexpand=${1:?usage: run.sh PCEXPAND [CASES.tsv]}
here=$(cd "$(dirname "$0")" && pwd)
cases=${2:-$here/cases.tsv}
emacs=${EMACS:-emacs}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

# id and form of each case, in file order; errors apart.
grep -v -e '^#' -e '^$' "$cases" | awk -F'\t' -v dir="$tmp" '
  $3 ~ /^XERROR/ { print $1 "\t" $2 > (dir "/errors.tsv"); next }
  { print $1 > (dir "/ids.txt"); print $2 > (dir "/all.el") }'

# Diagnostics "FILE:LINE:COL: SEVERITY: ... [CODE]" -> "SEVERITY:CODE" per line.
diag_codes() {
  sed -n 's/^[^:]*:\([0-9]*\):[0-9]*: \([a-z]*\): .*\[\([-a-z]*\)\]$/\1 \2:\3/p' "$1"
}

status=0
"$pcexpand" --compact "$tmp/all.el" >"$tmp/out.el" 2>"$tmp/err.txt" || status=$?
if [ "$status" -ne 0 ]; then
  echo "cond*: pcexpand failed on the cases that must expand (status $status):" >&2
  cat "$tmp/err.txt" >&2
fi
# --compact prints one line per top-level form: line N is case N.
if [ "$(wc -l <"$tmp/out.el")" -ne "$(wc -l <"$tmp/ids.txt")" ] && [ "$status" -eq 0 ]; then
  echo "cond*: $(wc -l <"$tmp/out.el") lines of output for $(wc -l <"$tmp/ids.txt") cases" >&2
  exit 1
fi
diag_codes "$tmp/err.txt" >"$tmp/codes.txt"
awk -v codes="$tmp/codes.txt" '
  BEGIN { while ((getline l < codes) > 0) { split(l, f, " ");
            d[f[1]] = (f[1] in d) ? d[f[1]] " " f[2] : f[2] } }
  FNR == NR { id[FNR] = $0; next }
  { print id[FNR] "\t" $0 "\t" d[FNR] }' "$tmp/ids.txt" "$tmp/out.el" >"$tmp/exp.tsv"

if [ -s "$tmp/errors.tsv" ]; then
  while IFS=$'\t' read -r id form; do
    printf '%s\n' "$form" >"$tmp/x.el"
    if "$pcexpand" --compact "$tmp/x.el" >/dev/null 2>"$tmp/xerr.txt"; then
      printf '%s\t%s\t\n' "$id" "(expanded without error)" >>"$tmp/exp.tsv"
    else
      printf '%s\tXERROR\t%s\n' "$id" "$(diag_codes "$tmp/xerr.txt" | cut -d' ' -f2 | tr '\n' ' ')" >>"$tmp/exp.tsv"
    fi
  done <"$tmp/errors.tsv"
fi

"$emacs" -Q --batch -l "$here/prelude.el" -l "$here/run.el" "$cases" "$tmp/exp.tsv"
