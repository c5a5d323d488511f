#!/usr/bin/env bash
# Runs every C benchmark (build/bench/bench_*) and Lua benchmark (bench/*.lua).
# Figures are for this machine, in this run; compare ratios from the same run only.
set -u
BUILD=${BUILD:-build}
LUA=${LUA:-lua5.4}
echo "impact benchmarks on $(uname -m), $(nproc) cores, $(date -u +%Y-%m-%d)"
status=0
# Box2D 2.4.1 beside the 2D engine (bench_engine2d runs it in the same run): the peer program
# of ../shared/peers/box2d-chipmunk, built into $BUILD/peers when libbox2d-dev is installed
peer_src=${IMPACT_PEERS:-../shared/peers}/box2d-chipmunk
if [ -z "${IMPACT_BOX2D_BENCH:-}" ] && [ -f "$peer_src/bench_box2d.cpp" ]; then
    if pkg-config --exists box2d 2>/dev/null; then
        mkdir -p "$BUILD/peers"
        peer_bin="$BUILD/peers/bench_box2d"  # rebuilt only when its sources are newer
        if { [ "$peer_bin" -nt "$peer_src/bench_box2d.cpp" ] && [ "$peer_bin" -nt "$peer_src/common.h" ]; } ||
            c++ -O2 -std=c++17 -I"$peer_src" $(pkg-config --cflags box2d) "$peer_src/bench_box2d.cpp" \
            -o "$peer_bin" $(pkg-config --libs box2d); then
            export IMPACT_BOX2D_BENCH="$peer_bin"
        else
            echo "Box2D peer: build failed"
        fi
    else
        echo "Box2D peer skipped: libbox2d-dev not installed (apt-get install libbox2d-dev)"
    fi
fi
# Box2D v3 beside them (bench_engine2d runs it too): its unmodified sources in
# ../shared/peers/box2d-v3, compiled into $BUILD/peers/box2d-v3 (the shared folder stays as it is)
v3_src=${IMPACT_PEERS:-../shared/peers}/box2d-v3
if [ -z "${IMPACT_BOX2D_V3_BENCH:-}" ] && [ -f "$v3_src/bench_box2d_v3.c" ]; then
    v3_obj="$BUILD/peers/box2d-v3"
    v3_bin="$BUILD/peers/bench_box2d_v3"
    mkdir -p "$v3_obj"
    if [ "$v3_bin" -nt "$v3_src/bench_box2d_v3.c" ] || {
        ok=1
        for c in "$v3_src"/src/*.c; do
            o="$v3_obj/$(basename "${c%.c}").o"
            [ "$o" -nt "$c" ] || "${CC:-cc}" -O2 -std=c17 -I"$v3_src/include" -I"$v3_src/src" -DNDEBUG -w \
                -c "$c" -o "$o" || { ok=0; break; }
        done
        [ $ok = 1 ] && "${CC:-cc}" -O2 -std=c17 -D_POSIX_C_SOURCE=200809L -I"$v3_src/include" \
            "$v3_src/bench_box2d_v3.c" "$v3_obj"/*.o -o "$v3_bin" -lm -lpthread
    }; then
        export IMPACT_BOX2D_V3_BENCH="$v3_bin"
    else
        echo "Box2D v3 peer: build failed"
    fi
fi
# Siconos' NSGS and NSN_AC beside bench_coulomb (3D Coulomb friction), when libsiconos-numerics-dev is installed
[ -z "${IMPACT_SICONOS_FC3D:-}" ] && [ -f /usr/include/siconos/numerics/FrictionContactProblem.h ] && mkdir -p "$BUILD/peers" && "${CC:-cc}" -O2 -std=c11 -I/usr/include/siconos -I/usr/include/siconos/numerics bench/coulomb_siconos.c -o "$BUILD/peers/coulomb_siconos" -lsiconos_numerics -lm && export IMPACT_SICONOS_FC3D="$BUILD/peers/coulomb_siconos"
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
