#!/usr/bin/env bash
# Runs the C unit tests and the busted specs, then prints one closing line
# "N passed, N failed" counting both. Usage: tools/run_tests.sh [fast|all]
# Environment: BUILD (build dir), LUA, RUNNER (a prefix such as valgrind for every test
# process), LUA_PRELOAD (LD_PRELOAD for the Lua process only, for sanitizer runtimes).
set -u
mode=${1:-fast}
BUILD=${BUILD:-build}
LUA=${LUA:-lua5.4}
RUNNER=${RUNNER:-}
LUA_PRELOAD=${LUA_PRELOAD:-}
passed=0
failed=0
[ "$mode" = all ] && export IMPACT_SLOW=1
# The dem strategy's OpenMP loops: one thread unless asked, and threads that sleep rather than
# spin at barriers, so a loaded machine does not slow the suite down (spec/dem_threads_spec.lua
# runs 1 and 2 threads itself).
export OMP_NUM_THREADS=${OMP_NUM_THREADS:-1}
export OMP_WAIT_POLICY=${OMP_WAIT_POLICY:-passive}

count_line() {  # adds the counts of the last "N passed, N failed" line of $1; 1 if none
    local line p f
    line=$(printf '%s\n' "$1" | grep -E '([a-z0-9_]+: )?[0-9]+ passed, [0-9]+ failed' | tail -n 1)
    [ -n "$line" ] || return 1
    p=$(printf '%s' "$line" | grep -oE '[0-9]+ passed' | grep -oE '[0-9]+')
    f=$(printf '%s' "$line" | grep -oE '[0-9]+ failed' | grep -oE '[0-9]+')
    passed=$((passed + p))
    failed=$((failed + f))
    LAST_FAILED=$f
}

# The C tests run in a background process while busted runs (the machines have two cores or
# more); their outputs are printed and counted once busted is done.
ctest_dir=$(mktemp -d)
(
    for t in "$BUILD"/test/test_*; do
        [ -x "$t" ] || continue
        name=$(basename "$t")
        # shellcheck disable=SC2086
        $RUNNER "$t" > "$ctest_dir/$name.out" 2>&1
        echo $? > "$ctest_dir/$name.rc"
    done
) &
ctest_pid=$!

count_ctests() {
    local t name out rc
    for t in "$BUILD"/test/test_*; do
        [ -x "$t" ] || continue
        name=$(basename "$t")
        out=$(cat "$ctest_dir/$name.out" 2>/dev/null)
        rc=$(cat "$ctest_dir/$name.rc" 2>/dev/null || echo 1)
        printf '%s\n' "$out"
        if ! count_line "$out"; then
            echo "$t: no result line (exit $rc)"
            failed=$((failed + 1))
        elif [ "$rc" -ne 0 ] && [ "$LAST_FAILED" -eq 0 ]; then
            echo "$t: exit $rc"
            failed=$((failed + 1))
        fi
    done
    rm -rf "$ctest_dir"
}

busted_bin=$(command -v busted) || { wait "$ctest_pid"; count_ctests; echo "busted not installed (make deps)"; echo "$passed passed, $((failed + 1)) failed"; exit 1; }
run_args=()
[ "$mode" = all ] && run_args=(-r all)

# The spec files run in two busted processes at once (two shards, one a core; the CI machine
# has two), each file whole in one of them. Specs that run examples, the README's blocks or
# other processes (they write shared files under out/ or use both cores) stay together in
# the first shard; the others go, heaviest first, to the shard with the least work so far
# (their CPU seconds under the sanitizers, children included, in tenths: measured with
# IMPACT_SPEC_TIMES and /usr/bin/time; 2 when unlisted, the median of the small ones).
# SPEC_SHARDS=1 runs them in one process.
declare -A weight=([dem_triax]=420 [compliant_pile]=307 [readme]=196 [robust_dem]=184
    [dem_energy]=176 [fuzz]=142 [examples_results]=141 [robust_binding]=130
    [compliant_patch]=120 [dem]=116 [dem_clump]=114 [robust_step]=97 [batch_launchers]=79
    [compliant]=75 [engine3d_box]=61 [engine3d_ode]=54 [engine3d_arch]=54
    [engine3d_joints]=53 [cli]=47 [picture]=39 [examples]=36 [doc]=36
    [myphysicslab_do_nothing]=32 [determinism]=27 [dem_cohesion]=27 [robust_geom2d]=24
    [dem_packing]=23 [world_save]=22 [engine3d_soft]=21 [dem_cell]=18
    [engine3d_joints_ode]=16 [engine2d_touching]=15 [vtk]=11 [engine2d_examples]=10
    [engine2d_robust]=9 [examples_viz]=8 [engine2d_soft]=8 [dem_compaction]=8 [kinematic]=7
    [coulomb]=6 [engine2d_lcp_residual]=6 [sleep]=6 [myphysicslab_pile]=6 [lifetime]=6)
shard_a=() shard_b=()
wa=0 wb=0
pinned=$(grep -lE 'examples/|out/|readme|README|mpirun|batch' spec/*_spec.lua 2>/dev/null | tr '\n' ' ')
for f in $pinned; do
    shard_a+=("$f")
    n=$(basename "$f" _spec.lua)
    wa=$((wa + ${weight[$n]:-2}))
done
rest=$(for f in spec/*_spec.lua; do
    case " $pinned " in *" $f "*) continue ;; esac
    n=$(basename "$f" _spec.lua)
    printf '%s %s\n' "${weight[$n]:-2}" "$f"
done | sort -k1,1nr -k2,2)
while read -r w f; do
    [ -n "$f" ] || continue
    if [ "${SPEC_SHARDS:-2}" = 1 ] || [ "$wb" -ge "$wa" ]; then
        shard_a+=("$f"); wa=$((wa + w))
    else
        shard_b+=("$f"); wb=$((wb + w))
    fi
done <<< "$rest"

run_shard() {  # run_shard OUT FILE...: busted over the files, its output into OUT
    local out=$1
    shift
    # shellcheck disable=SC2086
    LD_PRELOAD="$LUA_PRELOAD" $RUNNER "$LUA" "$busted_bin" "${run_args[@]}" -o tools/busted_summary.lua \
        --cpath="./$BUILD/?.so" "$@" > "$out" 2>&1
    echo $? > "$out.rc"
}
tmp_a=$(mktemp) tmp_b=$(mktemp)
run_shard "$tmp_a" "${shard_a[@]}" &
pid_a=$!
if [ "${#shard_b[@]}" -gt 0 ]; then
    run_shard "$tmp_b" "${shard_b[@]}" &
    pid_b=$!
    wait "$pid_b"
fi
wait "$pid_a"
for t in "$tmp_a" "$tmp_b"; do
    [ -f "$t.rc" ] || continue
    cat "$t"
    rc=$(cat "$t.rc")
    if ! count_line "$(cat "$t")"; then
        echo "busted: no result line (exit $rc)"
        failed=$((failed + 1))
    elif [ "$rc" -ne 0 ] && [ "$LAST_FAILED" -eq 0 ]; then
        echo "busted: exit $rc"
        failed=$((failed + 1))
    fi
done
rm -f "$tmp_a" "$tmp_b" "$tmp_a.rc" "$tmp_b.rc"
wait "$ctest_pid"
count_ctests
echo "$passed passed, $failed failed"
[ "$failed" -eq 0 ]
