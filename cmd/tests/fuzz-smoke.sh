#!/bin/sh
# fuzz-smoke.sh - build the libFuzzer targets and run each for a while.
#
#   cmd/tests/fuzz-smoke.sh [BUILDDIR [SECONDS]]
#
# Configures BUILDDIR (default build-fuzz) with clang, -Dfuzz=true and
# AddressSanitizer + UndefinedBehaviorSanitizer, builds the four targets
# of core/fuzz/ and runs meson's 'fuzz' suite: each target for SECONDS
# (default 60), two at a time, and replays the saved inputs of
# testdata/fuzz/ (suite 'regress').  Needs clang and libclang-rt-14-dev
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
# Only what the two suites run: not the program, nor the corpus tables
# the other suites extract with Emacs.
targets=""
for t in read pipeline pattern yaml; do
    targets="$targets core/fuzz/fuzz_$t core/fuzz/replay_$t"
done
# shellcheck disable=SC2086
ninja -C "$build" $targets
meson test -C "$build" --no-rebuild --suite fuzz --suite regress \
    --num-processes 2 --print-errorlogs
