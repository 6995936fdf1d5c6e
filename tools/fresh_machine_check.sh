#!/usr/bin/env bash
# The README's Quick start on a freshly built Debian system, as a new user would try it:
# debootstrap a minimal Debian (SUITE, default trixie) into _build/fresh-SUITE/, install only what
# the README lists (python3, python3-venv, make; git to clone), clone this repository's current
# commit into it, then as an ordinary user (no locale set, as on a minimal system) run `make lab`
# until JupyterLab answers on 127.0.0.1, and `make test`. Network: Debian's mirror (MIRROR) and
# PyPI, as the host has them.
# Needs root (debootstrap, chroot, mounts) and debootstrap (as root: apt-get install debootstrap).
# Not part of make test or CI: it takes long. Usage: tools/fresh_machine_check.sh [SUITE]
set -euo pipefail
suite=${1:-trixie}
mirror=${MIRROR:-http://deb.debian.org/debian}
port=${PORT:-8899}
cd "$(dirname "$0")/.."
target=$PWD/_build/fresh-$suite
if [ "$(id -u)" -ne 0 ]; then
    echo "make fresh-machine-check needs root (debootstrap, chroot and mounts)." >&2
    exit 1
fi
if ! command -v debootstrap >/dev/null; then
    echo "make fresh-machine-check needs debootstrap. As root: apt-get install -y debootstrap" >&2
    exit 1
fi
step() { echo; echo "===== $(date -u +%H:%M:%S) $*"; }

mounted() { findmnt -rno TARGET | grep -E "^$target(/|$)" | sort -r || true; }
unmount_all() {
    local m
    for m in $(mounted); do umount -l "$m" || true; done
}
lab_pid=""
cleanup() {
    [ -n "$lab_pid" ] && kill -- -"$lab_pid" 2>/dev/null || true
    unmount_all
}
trap cleanup EXIT

# A clean start: the last run's system is removed (never through a mount left behind).
unmount_all
if [ -n "$(mounted)" ]; then
    echo "still mounted under $target: $(mounted)" >&2
    exit 1
fi
rm -rf --one-file-system "$target"
mkdir -p "$target"

step "debootstrap --variant=minbase $suite from $mirror"
debootstrap --variant=minbase "$suite" "$target" "$mirror" >"$target.debootstrap.log" 2>&1 || {
    tail -20 "$target.debootstrap.log"
    exit 1
}
echo "done; $(du -sh --one-file-system "$target" | cut -f1)"

mount -t proc proc "$target/proc"
mount -t sysfs sysfs "$target/sys"
mount --rbind /dev "$target/dev"
mount --make-rslave "$target/dev"
cp /etc/resolv.conf "$target/etc/resolv.conf"
# A host that reaches PyPI through a TLS-inspecting proxy names that proxy's certificates in
# PIP_CERT; they are passed on, so the new system has the host's network, nothing more.
pip_cert=()
if [ -n "${PIP_CERT:-}" ]; then
    cp "$PIP_CERT" "$target/etc/pip-cert.pem"
    chmod 644 "$target/etc/pip-cert.pem"
    pip_cert=(PIP_CERT=/etc/pip-cert.pem)
fi
in_root() { chroot "$target" /usr/bin/env -i PATH=/usr/sbin:/usr/bin:/sbin:/bin HOME=/root "$@"; }
# The student's commands run with the new system as the root of a mount namespace of their own
# (pivot_root), not under chroot: the kernel refuses user namespaces to a chrooted process, and
# the lab grader's sandbox (bubblewrap) needs them, as it has them on a real machine.
as_student() {
    mkdir -p "$target/.oldroot"
    unshare --mount --propagation private --fork -- /bin/bash -c '
        set -e
        mount --rbind "$1" "$1"
        cd "$1"
        pivot_root . .oldroot
        cd /
        umount -l /.oldroot
        shift
        exec /usr/sbin/runuser -u student -- "$@"' as_student "$target" /usr/bin/env -i \
        PATH=/usr/local/bin:/usr/bin:/bin HOME=/home/student "${pip_cert[@]}" "$@"
}

step "what the README lists: python3, python3-venv, make (and git to clone)"
in_root apt-get update -q
in_root env DEBIAN_FRONTEND=noninteractive apt-get install -y -q python3 python3-venv make git \
    | grep -E "^(The following NEW|Setting up (python3|make|git)[ :])" || true
in_root python3 --version
in_root useradd --create-home --shell /bin/bash student

step "git clone of $(git rev-parse --short HEAD) ($(git log -1 --format=%s))"
git clone -q --no-hardlinks "$PWD" "$target/home/student/course"
git -C "$target/home/student/course" checkout -q "$(git rev-parse HEAD)"
in_root chown -R student:student /home/student/course

step "make lab, until JupyterLab answers on 127.0.0.1:$port"
start=$SECONDS
set -m  # job control: the background job is a process group of its own, stopped as one
as_student make -C /home/student/course lab \
    LAB_ARGS="--no-browser --ServerApp.ip=127.0.0.1 --ServerApp.port=$port" \
    >"$target.lab.log" 2>&1 &
lab_pid=$!
set +m
answered=""
for _ in $(seq 1 600); do
    if as_student python3 -c "import urllib.request as u; u.urlopen('http://127.0.0.1:$port/api', timeout=2)" 2>/dev/null; then
        answered=yes
        break
    fi
    kill -0 "$lab_pid" 2>/dev/null || break
    sleep 2
done
if [ -z "$answered" ]; then
    tail -30 "$target.lab.log"
    echo "FAILED: JupyterLab did not answer ($((SECONDS - start)) s)"
    exit 1
fi
echo "JupyterLab answered after $((SECONDS - start)) s:"
as_student python3 -c "import urllib.request as u; print(u.urlopen('http://127.0.0.1:$port/api').read().decode())"
kill -- -"$lab_pid" 2>/dev/null || true
wait "$lab_pid" 2>/dev/null || true
lab_pid=""

step "make test"
start=$SECONDS
set +e
as_student make -C /home/student/course test 2>&1 | tee "$target.test.log"
status=${PIPESTATUS[0]}
set -e
echo "make test: exit $status after $((SECONDS - start)) s (full output: $target.test.log)"
exit "$status"
