#!/usr/bin/env bash
# What a make target needs from the system besides Python, said before the target starts.
# Missing Debian packages are installed when this runs as root; otherwise it prints the one
# apt-get line to run as root, and fails (no sudo is assumed).
# Playwright drives Debian's chromium: never `playwright install`.
# The lab grader's sandbox (bubblewrap) is the exception, so that make test needs nothing but the
# Quick start's packages: without root it is fetched with `apt-get download` (no root needed) and
# its one binary unpacked into the venv, where the grader looks for it.
# Usage: tools/system_packages.sh TARGET   (handouts, test-browser, or sandbox VENV)
set -euo pipefail
target=${1:?usage: tools/system_packages.sh TARGET}
case $target in
handouts | test-browser)
    needs="Node.js and npm (npm ci fetches the handouts' MathJax, reveal.js and widget assets),"
    needs+=" chromium (prints the PDFs; the browser tests' browser) and poppler-utils (pdftotext"
    needs+=" and pdfinfo check the PDFs)"
    ;;
sandbox)
    venv=${2:?usage: tools/system_packages.sh sandbox VENV}
    works() { "$1" --ro-bind / / --unshare-all --die-with-parent true 2>/dev/null; }
    tool=$(command -v bwrap || true)
    [ -z "$tool" ] && [ -x "$venv/bin/bwrap" ] && tool=$venv/bin/bwrap
    if [ -z "$tool" ] && [ "$(id -u)" -eq 0 ] && command -v apt-get >/dev/null; then
        echo "The lab tests grade in a bubblewrap sandbox: installing bubblewrap (running as root)."
        DEBIAN_FRONTEND=noninteractive apt-get install -y -q --no-install-recommends bubblewrap \
            || { apt-get update -q && DEBIAN_FRONTEND=noninteractive apt-get install -y -q \
                --no-install-recommends bubblewrap; }
        tool=$(command -v bwrap || true)
    elif [ -z "$tool" ] && command -v apt-get >/dev/null; then
        echo "The lab tests grade in a bubblewrap sandbox: fetching Debian's bubblewrap package" \
            "into $venv (apt-get download, no root needed)."
        tmp=$(mktemp -d)
        if (cd "$tmp" && apt-get download -q bubblewrap >/dev/null && dpkg-deb -x ./*.deb unpacked) \
            && [ -x "$tmp/unpacked/usr/bin/bwrap" ]; then
            cp "$tmp/unpacked/usr/bin/bwrap" "$venv/bin/bwrap"
            tool=$venv/bin/bwrap
        fi
        rm -rf "$tmp"
    fi
    if [ -z "$tool" ]; then
        echo "The lab tests grade in a bubblewrap sandbox, and bwrap is missing. Run this as root" \
            "(su -, or sudo if you have it), then make again:" >&2
        echo "    apt-get update && apt-get install -y bubblewrap" >&2
        exit 1
    fi
    if ! works "$tool"; then
        echo "$tool cannot create a sandbox here: the kernel refuses unprivileged user namespaces" \
            "(a container or chroot without them, or Ubuntu's AppArmor restriction). The lab" \
            "tests need a Linux host where \`$tool --ro-bind / / --unshare-all true\` works." >&2
        exit 1
    fi
    exit 0
    ;;
*)
    echo "tools/system_packages.sh: unknown target '$target'" >&2
    exit 2
    ;;
esac

missing() {
    local packages=()
    command -v node >/dev/null || packages+=(nodejs)
    command -v npm >/dev/null || packages+=(npm)
    [ -x "${CHROMIUM:-/usr/bin/chromium}" ] || packages+=(chromium)
    command -v pdftotext >/dev/null && command -v pdfinfo >/dev/null || packages+=(poppler-utils)
    echo "${packages[*]}"
}

echo "make $target needs, besides Python: $needs."
packages=$(missing)
[ -z "$packages" ] && exit 0
# Ubuntu has no chromium .deb (its chromium-browser installs a snap): the snap, named by CHROMIUM.
if [[ " $packages " == *" chromium "* ]] && grep -qs '^ID=ubuntu' /etc/os-release; then
    echo "chromium is missing, and Ubuntu ships it as a snap only. As root:" >&2
    echo "    snap install chromium" >&2
    echo "then CHROMIUM=/snap/bin/chromium make $target (and the apt-get line below, if any)." >&2
    packages=$(echo "$packages" | sed 's/chromium//; s/  */ /g; s/^ //; s/ $//')
    [ -z "$packages" ] && exit 1
fi
line="apt-get update && apt-get install -y --no-install-recommends $packages"
if [ "$(id -u)" -ne 0 ]; then
    echo "Missing: $packages. Run this as root (su -, or sudo if you have it), then make $target again:" >&2
    echo "    $line" >&2
    exit 1
fi
if ! command -v apt-get >/dev/null; then
    echo "Missing: $packages, and this is not Debian or Ubuntu (no apt-get): install them with" \
        "your system's package manager, then make $target again." >&2
    exit 1
fi
echo "Installing $packages from Debian's packages (running as root):"
echo "    $line"
apt-get update -q
DEBIAN_FRONTEND=noninteractive apt-get install -y -q --no-install-recommends $packages
packages=$(missing)
if [ -n "$packages" ]; then
    echo "Still missing after apt-get: $packages (not on PATH, or chromium not at" \
        "${CHROMIUM:-/usr/bin/chromium}; set CHROMIUM=/path/to/chromium)." >&2
    exit 1
fi
