#!/bin/sh
# run.sh - run one libFuzzer target for a while (meson suite 'fuzz').
#
#   run.sh EXE TARGET SRCROOT WORKDIR SECONDS
#
# Seeds the corpus from the source tree (seeds.sh) plus the saved
# regression inputs, fuzzes on one core for SECONDS, keeps the grown
# corpus in WORKDIR/corpus (reused by the next run) and any crashing input
# in WORKDIR/artifacts, whose name and bytes (base64) are printed so the
# failure can be reproduced from the log alone.  Fails on any crash, hang
# (-timeout), leak or out-of-memory input, and on a failing exit of the
# fuzzer itself; a slow input (slow-unit-*, under the timeout) is only
# shown.  The seed is fixed (PCX_FUZZ_SEED, default 1), so that a CI run
# mutates the same way each time.
set -u
exe=$1 target=$2 root=$3 work=$4 secs=$5
mkdir -p "$work/corpus" "$work/seeds" "$work/artifacts" || exit 1
sh "$root/core/fuzz/seeds.sh" "$target" "$root" "$work/seeds" || exit 1
regress="$root/testdata/fuzz/$target"
# Undefined behaviour stops the run like a crash; a local run may skip
# known reports with PCX_FUZZ_UBSAN_SUPP=FILE (UBSan suppressions).
UBSAN_OPTIONS="halt_on_error=1:print_stacktrace=1${PCX_FUZZ_UBSAN_SUPP:+:suppressions=$PCX_FUZZ_UBSAN_SUPP}"
export UBSAN_OPTIONS
max_len=16384
[ "$target" = read ] && max_len=65536
[ "$target" = pattern ] && max_len=4096
st=0
"$exe" -max_total_time="$secs" -seed="${PCX_FUZZ_SEED:-1}" -timeout=20 -rss_limit_mb=2048 \
    -max_len=$max_len -print_final_stats=1 \
    -artifact_prefix="$work/artifacts/" \
    "$work/corpus" "$work/seeds" "$regress" >"$work/log" 2>&1 || st=1
tail -n 40 "$work/log"
[ $st -eq 0 ] || echo "fuzz_$target exited with a failure status"
for f in "$work"/artifacts/*; do
    [ -f "$f" ] || continue
    case ${f##*/} in
    slow-unit-*) # not a failure: shown once
        echo "slow input (under -timeout): $f"
        base64 "$f"
        rm -f "$f"
        continue ;;
    esac
    st=1
    echo "artifact: $f"
    base64 "$f"
done
exit $st
