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

# Emacs 30.1, the reference, comes from bookworm-backports and nothing else
# does: line 1 adds the suite to the main stanza of Debian 12's own
# debian.sources (not the security one; a second run changes nothing) and
# installs emacs-nox and emacs-el alone with -t bookworm-backports.
[[ ${lines[0]} == *"apt-get install -y --no-install-recommends -t bookworm-backports emacs-nox emacs-el &&"* ]] ||
    { echo "line 1 must install emacs-nox emacs-el alone from bookworm-backports"; exit 1; }
[[ $(grep -o -- '-t bookworm-backports' <<<"${lines[0]}" | wc -l) -eq 1 ]] ||
    { echo "line 1 must take only Emacs from bookworm-backports"; exit 1; }
for pkg in emacs-nox emacs-el; do
    [[ $(grep -o -- " $pkg " <<<"${lines[0]} " | wc -l) -eq 1 ]] ||
        { echo "line 1 installs $pkg more than once"; exit 1; }
done
sources_cmd=${lines[0]%% && *}
[[ $sources_cmd == "sed -i "*" /etc/apt/sources.list.d/debian.sources" ]] ||
    { echo "line 1 must begin by enabling bookworm-backports in debian.sources"; exit 1; }
scratch=$(mktemp -d)
trap 'rm -rf "$scratch"' EXIT
cat >"$scratch/debian.sources" <<'SRC'
Types: deb
URIs: http://deb.debian.org/debian
Suites: bookworm bookworm-updates
Components: main
Signed-By: /usr/share/keyrings/debian-archive-keyring.gpg

Types: deb
URIs: http://deb.debian.org/debian-security
Suites: bookworm-security
Components: main
Signed-By: /usr/share/keyrings/debian-archive-keyring.gpg
SRC
sed 's/^Suites: bookworm bookworm-updates$/Suites: bookworm bookworm-updates bookworm-backports/' \
    "$scratch/debian.sources" >"$scratch/expected"
local_cmd=${sources_cmd/\/etc\/apt\/sources.list.d\/debian.sources/$scratch/debian.sources}
eval "$local_cmd"
eval "$local_cmd"
cmp -s "$scratch/debian.sources" "$scratch/expected" ||
    { echo "line 1's change to debian.sources is not the one suite added once:";
      diff "$scratch/expected" "$scratch/debian.sources"; exit 1; }

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
