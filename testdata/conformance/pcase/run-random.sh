#!/bin/bash
# run-random.sh - randomized differential test of the pcase front end:
# gen-random.el makes N random pcase-family forms and records the value and
# call log Emacs's own pcase gives for each; the expander's expansions of
# the same forms must give the same (run.el).
#
# Usage: run-random.sh EXPANDER [SEED [N]]   (EXPANDER: see run.sh)
set -euo pipefail

expander=${1:?usage: run-random.sh EXPANDER [SEED [N]]}
seed=${2:-pcexpand}
n=${3:-300}
here=$(cd "$(dirname "$0")" && pwd)
emacs=${EMACS:-emacs}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

"$emacs" -Q --batch -l "$here/random-prelude.el" -l "$here/gen-random.el" \
  "$seed" "$n" >"$tmp/cases.tsv" 2>/dev/null
"$expander" --conformance "$tmp/cases.tsv" >"$tmp/exp.tsv"
"$emacs" -Q --batch -l "$here/random-prelude.el" -l "$here/run.el" \
  "$tmp/cases.tsv" "$tmp/exp.tsv"
