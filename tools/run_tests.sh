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
tmp=$(mktemp)
# shellcheck disable=SC2086
LD_PRELOAD="$LUA_PRELOAD" $RUNNER "$LUA" "$busted_bin" "${run_args[@]}" -o tools/busted_summary.lua \
    --cpath="./$BUILD/?.so" 2>&1 | tee "$tmp"
rc=${PIPESTATUS[0]}
if ! count_line "$(cat "$tmp")"; then
    echo "busted: no result line (exit $rc)"
    failed=$((failed + 1))
elif [ "$rc" -ne 0 ] && [ "$LAST_FAILED" -eq 0 ]; then
    echo "busted: exit $rc"
    failed=$((failed + 1))
fi
rm -f "$tmp"
wait "$ctest_pid"
count_ctests
echo "$passed passed, $failed failed"
[ "$failed" -eq 0 ]
