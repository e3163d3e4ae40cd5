#!/bin/bash
# bench-runtime.sh - the output-runtime benchmark: corpus functions whose
# pcase forms pcexpand expands with code shared between clauses, compiled
# by Emacs's byte compiler from pcexpand's expansion and from Emacs's own,
# called on the argument lists of testdata/bench/runtime/*.eld
# (docs/benchmarks.md).
#
# Usage: bench-runtime.sh PCEXPAND CORPUS [SPEC.eld...]
#   (meson test --benchmark output-runtime)
# Each spec names a function, its file in CORPUS and its feature.  The
# file is unpacked and expanded by pcexpand; one Emacs process per
# function loads the feature, compiles both definitions, checks that they
# give equal values on every argument list, and times $PCX_BENCH_CALLS
# calls (default 100000) of each, median of 5 rounds taking turns
# (bench-runtime.el).  Prints one row per function and a summary; asserts
# nothing.
set -euo pipefail

usage="usage: bench-runtime.sh PCEXPAND CORPUS [SPEC.eld...]"
pcexpand=$(realpath "${1:?$usage}")
corpus=${2:?$usage}
shift 2
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
emacs=${EMACS:-emacs}
calls=${PCX_BENCH_CALLS:-100000}
if [ $# -eq 0 ]; then
    set -- "$root"/testdata/bench/runtime/*.eld
fi
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

echo "output runtime: $("$emacs" --version | head -n 1); $calls calls per run," \
     "median of 5 runs each; load average $(cut -d' ' -f1-3 /proc/loadavg 2>/dev/null || echo '?')"
echo "CPU times in ms for all the calls; ratio: pcexpand / Emacs, the loop's own time taken off both;"
echo "cover: clauses of the function's pcase forms the argument lists reach, of all;"
echo "cl/c, Ecl/c: closures made per call; site, Esit: make-closure calls in the byte code;"
echo "shar: lambdas pcexpand's expansion binds to share code between clauses"
printf '%-34s %5s %5s %8s %8s %6s %6s %-7s %5s %5s %4s %4s %4s\n' function args cover \
    pcexpand Emacs loop ratio "<=1.05" "cl/c" "Ecl/c" site Esit shar
status=0
for spec in "$@"; do
    rel=$(sed -n 's/^ *:file "\([^"]*\)".*/\1/p' "$spec" | head -n 1)
    if [ -z "$rel" ] || [ ! -f "$corpus/$rel.gz" ]; then
        echo "$(basename "$spec"): no :file, or $corpus/$rel.gz is missing" >&2
        status=1
        continue
    fi
    mkdir -p "$(dirname "$tmp/src/$rel")" "$(dirname "$tmp/pcx/$rel")"
    [ -f "$tmp/src/$rel" ] || gzip -dc "$corpus/$rel.gz" >"$tmp/src/$rel"
    if [ ! -f "$tmp/pcx/$rel" ]; then
        st=0
        "$pcexpand" --no-config -q -k -o "$tmp/pcx/$rel" "$tmp/src/$rel" \
            2>>"$tmp/pcexpand.err" || st=$?
        if [ "$st" -ne 0 ] && [ "$st" -ne 2 ]; then
            echo "$rel: pcexpand exited with status $st" >&2
            status=1
            continue
        fi
    fi
    "$emacs" -Q --batch --eval '(setq native-comp-jit-compilation nil)' \
        -L "$here" -L "$here/conformance" -l bench-runtime \
        -f bench-runtime-main "$spec" "$tmp/src/$rel" "$tmp/pcx/$rel" \
        "$tmp/rows" "$calls" >"$tmp/log" 2>&1 &&
        tail -n 1 "$tmp/rows" ||
        { echo "$(basename "$spec"): $(grep -v '^ ' "$tmp/log" | tail -n 3)" >&2; status=1; }
done
[ -s "$tmp/rows" ] && awk '{
    n++; if ($7 + 0 > worst) { worst = $7 + 0; wname = $1 }
    if ($8 == "MET") met++
    if ($9 + 0 > $10 + 0) more++
} END {
    printf "aim: pcexpand at most %.2fx Emacs'"'"'s time in every function: %s (%d of %d; worst %.2f, %s)\n",
        1.05, met == n ? "MET" : "NOT MET", met, n, worst, wname
    printf "aim: no more closures per call than Emacs'"'"'s: %s (%d functions make more)\n",
        more == 0 ? "MET" : "NOT MET", more
}' "$tmp/rows"
exit $status
