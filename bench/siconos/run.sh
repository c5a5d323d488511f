#!/usr/bin/env bash
# bench/siconos/run.sh: the LCP benchmark beside Siconos numerics (Lemke, PGS) on the same
# generated problems, in the same run. Builds bench/siconos/siconos_peer.c only when
# libsiconos-numerics-dev is installed (header present); the core library never links it.
# Usage: bash bench/siconos/run.sh [BUILD dir, default build] [max_n, default 2000]
# Prints our figures (bench_lcp), Siconos' figures, then the speed-up per problem and size.
set -u
BUILD=${1:-${BUILD:-build}}
MAX_N=${2:-2000}
CC=${CC:-cc}
ours=$("$BUILD/bench/bench_lcp" "$MAX_N") || { echo "bench_lcp failed"; exit 1; }
printf '%s\n' "$ours"
hdr=/usr/include/siconos/numerics/LinearComplementarityProblem.h
if [ ! -f "$hdr" ]; then
    echo "Siconos peer skipped: $hdr not found (apt-get install libsiconos-numerics-dev)"
    exit 0
fi
mkdir -p "$BUILD/bench"
"$CC" -O2 -std=c11 -I/usr/include/siconos -I/usr/include/siconos/numerics -Isrc/base \
    bench/siconos/siconos_peer.c -o "$BUILD/bench/siconos_peer" -lsiconos_numerics -lm ||
    { echo "Siconos peer: build failed"; exit 0; }
# Lemke at n = 2000 takes ~10 s and PGS does not converge on tall stacks: Siconos runs up
# to n = 1000 unless asked for more (SICONOS_MAX_N).
peer_n=${SICONOS_MAX_N:-$(( MAX_N < 1000 ? MAX_N : 1000 ))}
theirs=$("$BUILD/bench/siconos_peer" "$peer_n" lemke pgs)
printf '%s\n' "$theirs"
echo
echo "speed-up of ours over Siconos Lemke (same problems; 'fail' = Lemke info != 0):"
printf '%s\n%s\n' "$ours" "$theirs" | awk '
    /^(randpsd|stack2d|stack3d) +n=/ { split($2, a, "="); ours[$1 " " a[2]] = $3 }
    /^siconos-lemke/ { split($3, a, "="); key = $2 " " a[2]; t[key] = $4; info[key] = $6; order[++k] = key }
    END {
        for (i = 1; i <= k; i++) {
            key = order[i]
            if (!(key in ours)) continue
            printf "  %-14s ours %10.3f ms   lemke %10.3f ms   x%-8.1f %s\n", key, ours[key], t[key],
                   t[key] / ours[key], info[key] == "info=0" ? "" : "(lemke fail: " info[key] ")"
        }
    }'
