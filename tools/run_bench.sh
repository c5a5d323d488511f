#!/usr/bin/env bash
# Runs every C benchmark (build/bench/bench_*) and Lua benchmark (bench/*.lua).
# Figures are for this machine, in this run; compare ratios from the same run only.
set -u
BUILD=${BUILD:-build}
LUA=${LUA:-lua5.4}
echo "impact benchmarks on $(uname -m), $(nproc) cores, $(date -u +%Y-%m-%d)"
status=0
for b in "$BUILD"/bench/bench_*; do
    [ -x "$b" ] || continue
    echo
    "$b" || { echo "$b failed"; status=1; }
done
# the LCP solver beside Siconos' Lemke and PGS, when libsiconos-numerics-dev is installed
if [ -f bench/siconos/run.sh ]; then
    echo
    bash bench/siconos/run.sh "$BUILD" || { echo "bench/siconos/run.sh failed"; status=1; }
fi
for s in bench/*.lua; do
    [ -f "$s" ] || continue
    echo
    LUA_PATH_5_4="./lua/?.lua;./lua/?/init.lua;;" LUA_CPATH_5_4="./$BUILD/?.so;;" "$LUA" "$s" ||
        { echo "$s failed"; status=1; }
done
exit $status
