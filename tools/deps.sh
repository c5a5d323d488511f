#!/bin/sh
# Installs the Debian packages impact needs when any is missing (as root), or prints the one
# command to run. Does nothing when all are present. With arguments: those packages instead
# (make docs: tools/deps.sh lua-ldoc lua-markdown).
pkgs="gcc libc6-dev make lua5.4 liblua5.4-dev libgsl-dev libcairo2-dev lua-busted"
cmds="lua5.4 busted cc"
if [ $# -gt 0 ]; then
    pkgs="$*"
    cmds=""
    case " $pkgs " in *" lua-ldoc "*) cmds="ldoc" ;; esac
fi
if ! command -v dpkg-query >/dev/null 2>&1; then
    for c in $cmds; do
        command -v "$c" >/dev/null 2>&1 || { echo "deps: '$c' not found; install Lua 5.4, its headers, GSL, cairo and busted"; exit 1; }
    done
    exit 0
fi
missing=""
for p in $pkgs; do
    dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing="$missing $p"
done
[ -z "$missing" ] && exit 0
if [ "$(id -u)" -eq 0 ]; then
    echo "deps: installing$missing"
    export DEBIAN_FRONTEND=noninteractive
    apt-get update -qq || { echo "deps: apt-get update failed"; exit 1; }
    # shellcheck disable=SC2086
    apt-get install -y -qq --no-install-recommends $missing >/dev/null ||
        { echo "deps: apt-get install$missing failed"; exit 1; }
else
    echo "deps: missing packages:$missing"
    echo "run:  sudo apt-get install --no-install-recommends$missing"
    exit 1
fi
