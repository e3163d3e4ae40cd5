#!/bin/sh
# quality.sh - the quality gates of the CI (architecture.md section 11),
# run by the README's test command after the plain test suite.
#
#   cmd/tests/quality.sh [PLAINBUILD]
#
# 1. sanitize: a clang build with -Db_sanitize=address,undefined and the
#    libFuzzer targets (-Dfuzz=true; build-sanitize/, set up here when
#    missing) runs every test suite: the whole suite of the plain build,
#    the replay of the saved fuzz inputs (suite regress), and each fuzz
#    target for 60 seconds (suite fuzz; a crash, hang, leak or
#    out-of-memory input fails it).  A sanitizer report aborts the
#    program and is looked for afterwards (files under
#    build-sanitize/sanitizer-logs/, the test log): a report in a run
#    whose test expects a failing exit status still fails the gate.
# 2. valgrind: the unit tests of PLAINBUILD (default build/, the README's
#    build; set up here when missing) run under valgrind
#    --leak-check=full: any error or definite/possible leak fails them.
# 3. lto: the program built by gcc at -O3 with link-time optimisation
#    (build-lto/) must print, say and exit as PLAINBUILD's does on every
#    Lisp file of testdata/ and of the corpus (cmd/tests/lto-compare.sh):
#    inlining across files turns C aliasing mistakes, harmless in the
#    plain build, into wrong output or crashes.
# Prints the time each gate took and the total.  PCX_QUALITY_SKIP may
# name gates to leave out ("sanitize valgrind lto").  Exits non-zero at the
# first gate that fails.  (cmd/tests/fuzz-smoke.sh fuzzes alone, in a
# build of its own.)
set -eu
root=$(cd "$(dirname "$0")/../.." && pwd)
plain=${1:-build}
cd "$root"
skip=${PCX_QUALITY_SKIP:-}
start=$(date +%s)

gate() { # NAME COMMAND...
    name=$1
    shift
    case " $skip " in *" $name "*) echo "quality: $name skipped"; return 0 ;; esac
    t0=$(date +%s)
    echo "quality: $name ..."
    if ! "$@"; then
        echo "quality: $name FAILED after $(($(date +%s) - t0)) s" >&2
        exit 1
    fi
    echo "quality: $name passed in $(($(date +%s) - t0)) s"
}

sanitize() {
    if ! command -v clang >/dev/null; then
        echo "quality: clang is not installed" >&2
        return 1
    fi
    [ -f build-sanitize/build.ninja ] ||
        CC=clang meson setup build-sanitize -Db_sanitize=address,undefined \
            -Db_lundef=false -Dfuzz=true -Dfuzz_seconds=60
    ninja -C build-sanitize
    logs=$root/build-sanitize/sanitizer-logs
    rm -rf "$logs"
    mkdir -p "$logs"
    st=0
    # A report aborts the program (a signal no test expects); those of
    # AddressSanitizer and LeakSanitizer also go to a file of $logs,
    # UndefinedBehaviorSanitizer's to standard error, kept in the test log.
    UBSAN_OPTIONS="halt_on_error=1:abort_on_error=1:print_stacktrace=1" \
    ASAN_OPTIONS="detect_leaks=1:abort_on_error=1:log_path=$logs/asan" \
        meson test -C build-sanitize --print-errorlogs --num-processes 2 || st=1
    for f in "$logs"/*; do
        [ -f "$f" ] || continue
        echo "sanitizer report $f:" >&2
        head -c 4000 "$f" >&2
        st=1
    done
    testlog=build-sanitize/meson-logs/testlog.txt
    if grep -q -E 'runtime error:|Sanitizer' "$testlog"; then
        grep -n -E 'runtime error:|Sanitizer' "$testlog" | head -20 >&2
        echo "sanitizer reports in $testlog" >&2
        st=1
    fi
    return $st
}

valgrind_unit() {
    [ -f "$plain/build.ninja" ] || meson setup "$plain"
    ninja -C "$plain"
    meson test -C "$plain" --suite unit --print-errorlogs --num-processes 2 \
        --timeout-multiplier 10 \
        --wrap='valgrind --leak-check=full --error-exitcode=1 --quiet'
}

lto() {
    [ -f build-lto/build.ninja ] ||
        CC=gcc meson setup build-lto -Db_lto=true -Doptimization=3
    ninja -C build-lto cmd/pcexpand
    [ -f "$plain/build.ninja" ] || meson setup "$plain"
    ninja -C "$plain" cmd/pcexpand
    bash cmd/tests/lto-compare.sh "$plain/cmd/pcexpand" build-lto/cmd/pcexpand
}

gate sanitize sanitize
gate valgrind valgrind_unit
gate lto lto
echo "quality: all gates passed in $(($(date +%s) - start)) s"
