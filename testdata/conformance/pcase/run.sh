#!/bin/bash
# run.sh - the pcase conformance suite: expand every case of cases.tsv with
# pcexpand's pcase front end, evaluate the expansions in `emacs --batch`
# and compare values, call logs and diagnostics with the expected columns
# (run.el).  The original forms are evaluated too, by Emacs's own pcase,
# to keep the expected column honest (rows where pcexpand differs from
# Emacs on purpose are marked in their note and skipped there).  First,
# exclusive.txt (the type-predicate sets test_dtree checks pcexpand's
# table against) must be this Emacs's.
#
# Usage: run.sh EXPANDER [CASES.tsv]
# EXPANDER is `test_pcase' (core/tests): `test_pcase --conformance CASES'
# prints "ID TAB EXPANSION-or-XERROR TAB SEVERITY:CODE..." per case.
set -euo pipefail

expander=${1:?usage: run.sh EXPANDER [CASES.tsv]}
here=$(cd "$(dirname "$0")" && pwd)
cases=${2:-$here/cases.tsv}
emacs=${EMACS:-emacs}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

"$emacs" -Q --batch -l "$here/exclusive.el" --check "$here/exclusive.txt"
"$expander" --conformance "$cases" >"$tmp/exp.tsv"
"$emacs" -Q --batch -l "$here/prelude.el" -l "$here/run.el" "$cases" "$tmp/exp.tsv" orig
