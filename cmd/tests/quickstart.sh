#!/bin/bash
# quickstart.sh - README.md's quick start is exactly two command lines, and
# .ci/run runs exactly those (after `set -euo pipefail` and `apt-get update`).
# Line 2 runs every test suite and then the quality gates (quality.sh),
# whose tools line 1 installs.
# Usage: quickstart.sh SOURCE_ROOT
set -euo pipefail
root=$1

# The first ```sh block after the "## Quick start" heading.
mapfile -t lines < <(awk '
    /^## Quick start/ {in_section = 1; next}
    in_section && /^## / {exit}
    in_section && /^```sh$/ {in_block = 1; next}
    in_block && /^```$/ {exit}
    in_block {print}' "$root/README.md")
if [[ ${#lines[@]} -ne 2 ]]; then
    echo "README.md quick start: expected 2 command lines, found ${#lines[@]}"
    exit 1
fi
[[ ${lines[0]} == *"meson setup build && ninja -C build && ./build/cmd/pcexpand testdata/examples/"*.el ]] ||
    { echo "line 1 must install, build and run an example"; exit 1; }
example=${lines[0]##* }
[[ -f $root/$example ]] || { echo "line 1 runs a missing example: $example"; exit 1; }
[[ ${lines[1]} == "meson test -C build --print-errorlogs && cmd/tests/quality.sh" ]] ||
    { echo "line 2 must run every test suite, then the quality gates"; exit 1; }
[[ -x $root/cmd/tests/quality.sh ]] || { echo "cmd/tests/quality.sh is not executable"; exit 1; }
# The quality gates need valgrind, clang and libFuzzer: line 1 installs them.
for pkg in valgrind clang libclang-rt-14-dev; do
    [[ " ${lines[0]} " == *" $pkg "* ]] || { echo "line 1 does not install $pkg"; exit 1; }
done

mapfile -t ci < <(grep -v '^#' "$root/.ci/run" | grep -v '^$')
expected=("set -euo pipefail" "apt-get update" "${lines[0]}" "${lines[1]}")
if [[ "${ci[*]}" != "${expected[*]}" || ${#ci[@]} -ne 4 ]]; then
    echo ".ci/run does not run exactly the README quick start:"
    printf '  %s\n' "${ci[@]}"
    exit 1
fi
[[ $(head -1 "$root/.ci/run") == "#!/bin/bash" && -x $root/.ci/run ]] ||
    { echo ".ci/run must be an executable bash script"; exit 1; }
echo "quick start: 2 lines, .ci/run matches"
