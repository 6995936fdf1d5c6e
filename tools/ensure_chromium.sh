#!/usr/bin/env bash
# Install Debian's chromium (the handouts' PDF printer and the browser tests' browser) and
# poppler-utils (pdftotext, pdfinfo: the PDF checks) when they are missing.
# Playwright drives this system chromium; never run `playwright install`.
set -euo pipefail
missing=()
[ -x /usr/bin/chromium ] || missing+=(chromium)
command -v pdftotext >/dev/null && command -v pdfinfo >/dev/null || missing+=(poppler-utils)
[ ${#missing[@]} -eq 0 ] && exit 0
sudo=""
[ "$(id -u)" -eq 0 ] || sudo="sudo"
echo "installing ${missing[*]} from Debian's packages"
$sudo apt-get update -q
DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -q --no-install-recommends "${missing[@]}"
