#!/bin/sh
# fuzz-smoke.sh - build the libFuzzer targets and run each for a while.
#
#   cmd/tests/fuzz-smoke.sh [BUILDDIR [SECONDS]]
#
# Configures BUILDDIR (default build-fuzz) with clang, -Dfuzz=true and
# AddressSanitizer + UndefinedBehaviorSanitizer, builds the three targets
# of core/fuzz/ and runs meson's 'fuzz' suite: each target for SECONDS
# (default 60), two at a time.  Needs clang and libclang-rt-14-dev
# (libFuzzer).  A crash fails the run; the log shows the input in base64
# and the crashing input is kept under BUILDDIR/core/fuzz/TARGET/artifacts/.
set -eu
root=$(cd "$(dirname "$0")/../.." && pwd)
build=${1:-build-fuzz}
secs=${2:-60}
cd "$root"
if ! command -v clang >/dev/null; then
    echo "fuzz-smoke: clang is not installed" >&2
    exit 1
fi
if [ ! -f "$build/build.ninja" ]; then
    CC=clang meson setup "$build" -Dfuzz=true -Dfuzz_seconds="$secs" \
        -Db_sanitize=address,undefined -Db_lundef=false -Dtests=disabled
else
    meson configure "$build" -Dfuzz=true -Dfuzz_seconds="$secs"
fi
ninja -C "$build"
meson test -C "$build" --suite fuzz --suite regress --num-processes 2 \
    --print-errorlogs
