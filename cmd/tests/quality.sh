#!/bin/sh
# quality.sh - the quality gates of the CI (architecture.md section 11).
#
#   cmd/tests/quality.sh [PLAINBUILD]
#
# 1. A build with -Db_sanitize=address,undefined (build-sanitize/) runs
#    every test suite; undefined behaviour and leaks fail the tests.
# 2. The unit tests of PLAINBUILD (default build/, the README's build;
#    set up here when missing) run under valgrind --leak-check=full.
# 3. The fuzz targets run 60 seconds each (fuzz-smoke.sh, build-fuzz/).
# Prints the time each gate took.  PCX_QUALITY_SKIP may name gates to
# leave out ("sanitize valgrind fuzz").
set -eu
root=$(cd "$(dirname "$0")/../.." && pwd)
plain=${1:-build}
cd "$root"
skip=${PCX_QUALITY_SKIP:-}

gate() { # NAME COMMAND...
    name=$1
    shift
    case " $skip " in *" $name "*) echo "quality: $name skipped"; return 0 ;; esac
    t0=$(date +%s)
    echo "quality: $name ..."
    "$@"
    echo "quality: $name passed in $(($(date +%s) - t0)) s"
}

sanitize() {
    [ -f build-sanitize/build.ninja ] ||
        meson setup build-sanitize -Db_sanitize=address,undefined -Db_lundef=false
    ninja -C build-sanitize
    UBSAN_OPTIONS=halt_on_error=1:print_stacktrace=1 \
    ASAN_OPTIONS=detect_leaks=1:abort_on_error=0 \
        meson test -C build-sanitize --print-errorlogs --num-processes 2
}

valgrind_unit() {
    [ -f "$plain/build.ninja" ] || meson setup "$plain"
    ninja -C "$plain"
    meson test -C "$plain" --suite unit --print-errorlogs --num-processes 2 \
        --timeout-multiplier 10 \
        --wrap='valgrind --leak-check=full --error-exitcode=1 --quiet'
}

gate sanitize sanitize
gate valgrind valgrind_unit
gate fuzz sh cmd/tests/fuzz-smoke.sh build-fuzz 60
