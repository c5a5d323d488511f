#!/usr/bin/env bash
# bench3d_peers.sh: impact's 3D contact engine beside Bullet 3.24, ODE 0.16 (QuickStep) and
# Box3D on the peers' scenes (../shared/peers/bullet-ode README "Scenes"), all in one run, one
# engine after the other, single-threaded. Prints a table: scene, size, engine, ms/step, that
# time over impact's, steps done, the outcome (pyramids: stands and max_disp; pile: escaped
# cubes and mean_z; slide: stop distance and direction; incline: s2 against the analytic), mean
# contact points per step, and impact's complementarity residual (Siconos' error of the run's
# last solve and the largest one: exact, swept, or the soft step's last sub-step). The raw result lines (the peers' format,
# then impact's own keys) go to $BUILD/bench3d/lines.txt.
#
# The peers are built from their own folders with their own Makefiles, in copies under
# $BUILD/bench3d/peers (the shared folders are read-only): Bullet and ODE when libbullet-dev and
# libode-dev are installed (apt-get install libbullet-dev libode-dev), Box3D always (its
# sources are there; the first build takes about 20 s). A peer that is missing or does not
# build is printed as "not installed" / "build failed"; the bench never fails for a peer.
#
# usage: tools/bench3d_peers.sh            every scene at every size of issue 24
#        QUICK=1 tools/bench3d_peers.sh    the small sizes (pyramid2d 20, pyramid3d 5, pile 300)
# Both also run the peers' extra tiny pyramids (pyramid2d 4, pyramid3d 3: 10 and 14 cubes), whose
# contact problems (about 100 and 600 rows) the exact solver takes whole.
# env:   MAXWALL=S      stop any run once its timed stepping used S seconds (default 20)
#        IMPACT_SOLVER=auto|lcp|pgs|soft|both   impact's contact solver: auto (default) takes
#                       the exact one (lcp) for the one-body scenes and the tiny pyramids (pyramid2d
#                       4, pyramid3d 3: problems of a few hundred rows, within issue 24's 1000 for
#                       exact forces), pgs beyond (lcp on a larger problem: the engine sweeps one
#                       above its exact solver's row cap, swept=N), and the soft step (soft, as
#                       Box3D's) on every scene beside it; both: lcp and pgs
#        IMPACT_ITERS=N pgs sweeps (default 10, the peers' Bullet and ODE iterations; for lcp,
#                       the sweeps of the problems above the row cap: the engine's default)
#        IMPACT_PRIOR=PATH  another build's bench_engine3d (an earlier commit's), run right after
#                       impact's own on the same settings as "prior-pgs" / "prior-lcp"
#        IMPACT_SUBSTEPS=K  sub-steps per step for pgs runs (default 4, as Box3D's; 1: one
#                       contact problem per step, as Bullet and ODE)
#        IMPACT_SOFT_SUBSTEPS=K, IMPACT_SOFT_ITERS=N  the soft step's sub-steps (4, Box3D's)
#                       and solve passes per sub-step (1; one relax pass each)
#        IMPACT_WALL=0  no impact-wall run: by default the walls of 50 rows and more (pyramid2d
#                       50, 100), which sag out of "stands" at Box3D's settings, are run a
#                       second time under the soft step at the manual's setting for tall walls
#                       (chapter 3): ceil(size / 10) sub-steps, soft.hertz a sixth of the
#                       sub-step rate (10 Hz a sub-step at dt 1/60)
#        SCENES="pyramid3d:5 slide:0"   only these runs (scene:size)
#        ROUNDS=N       run each scene's engines N times, taking turns (the order reversed in
#                       every other round), and print the medians of ms/step and cpu_ms over
#                       the rounds (default 1): this VM's timings move by a third between runs,
#                       a ratio of medians of alternating runs moves far less
#        PIN=C          run every engine on CPU C only (taskset -c C): on this VM CPU 0 also
#                       serves the host's work and its timings of one binary move by a third,
#                       CPU 1's by a few per cent (session 19)
#        RAW=1          print the raw result lines too
#        BUILD, IMPACT_PEERS (default ../shared/peers)
set -u
cd "$(dirname "$0")/.." || exit 0
BUILD=${BUILD:-build}
PEERS=${IMPACT_PEERS:-../shared/peers}
MAXWALL=${MAXWALL:-20}
ROUNDS=${ROUNDS:-1}
PIN=${PIN:-}
SOLVER=${IMPACT_SOLVER:-auto}
ITERS=${IMPACT_ITERS:-}
SUBSTEPS=${IMPACT_SUBSTEPS:-4}
SOFT_SUBSTEPS=${IMPACT_SOFT_SUBSTEPS:-4}
SOFT_ITERS=${IMPACT_SOFT_ITERS:-1}
WALL=${IMPACT_WALL:-1}
OUT="$BUILD/bench3d"
LINES="$OUT/lines.txt"
IMPACT="$BUILD/bench/bench_engine3d"
mkdir -p "$OUT/peers"
: >"$LINES"

echo "impact 3D contact beside Bullet, ODE and Box3D: $(uname -m), $(nproc) cores, $(date -u +%Y-%m-%dT%H:%MZ)," \
    "load $(cut -d' ' -f1-3 /proc/loadavg), max wall ${MAXWALL} s per run, $ROUNDS round(s)${PIN:+, on CPU $PIN}; compare ratios of this run only"

if [ ! -x "$IMPACT" ]; then
    echo "bench3d: $IMPACT is not built (make benches)"
    exit 0
fi

# --- the peers: copies of their folders, built with their Makefiles -----------------------
BULLET="" ODE="" BOX3D=""
BULLET_NOTE="not installed (apt-get install libbullet-dev)"
ODE_NOTE="not installed (apt-get install libode-dev)"
if [ ! -f "$PEERS/bullet-ode/Makefile" ]; then
    BULLET_NOTE="not installed ($PEERS/bullet-ode missing)"
    ODE_NOTE=$BULLET_NOTE
fi
BOX3D_NOTE="not installed ($PEERS/box3d missing)"
copy_peer() {  # copy_peer NAME: $PEERS/NAME into $OUT/peers/NAME (newer files only, times kept)
    [ -d "$PEERS/$1" ] || return 1
    mkdir -p "$OUT/peers/$1" && cp -R -p -u "$PEERS/$1/." "$OUT/peers/$1/" && chmod -R u+w "$OUT/peers/$1" || return 1
    # the one change to the copies: the peers' result line (bullet-ode/common.h, sc_print, which
    # bench_box3d includes too) prints ms_per_step with six decimals, as impact's bench, instead
    # of four (a one-box step of some 4 us printed 0.0040 to 0.0076: its ratio was noise); the
    # copy's Makefiles rebuild the benches on it. The shared sources are not touched.
    local h="$OUT/peers/$1/common.h"
    if [ -f "$h" ] && grep -q 'ms_per_step=%\.4f' "$h"; then
        sed -i 's/ms_per_step=%\.4f/ms_per_step=%.6f/' "$h"
    fi
}
if [ -f "$PEERS/bullet-ode/Makefile" ] && command -v pkg-config >/dev/null 2>&1; then
    targets=""
    pkg-config --exists bullet-float64 2>/dev/null && targets="$targets bench_bullet"
    pkg-config --exists ode 2>/dev/null && targets="$targets bench_ode"
    if [ -n "$targets" ] && copy_peer bullet-ode; then
        # shellcheck disable=SC2086
        if make -s -C "$OUT/peers/bullet-ode" $targets >"$OUT/peers/bullet-ode.log" 2>&1; then
            case $targets in *bench_bullet*) BULLET="$OUT/peers/bullet-ode/bench_bullet" ;; esac
            case $targets in *bench_ode*) ODE="$OUT/peers/bullet-ode/bench_ode" ;; esac
        else
            BULLET_NOTE="build failed ($OUT/peers/bullet-ode.log)"
            ODE_NOTE="build failed ($OUT/peers/bullet-ode.log)"
        fi
    fi
fi
if [ -f "$PEERS/box3d/Makefile" ]; then
    if copy_peer box3d && copy_peer bullet-ode; then  # bench_box3d includes ../bullet-ode/common.h
        if make -s -C "$OUT/peers/box3d" bench_box3d >"$OUT/peers/box3d.log" 2>&1; then
            BOX3D="$OUT/peers/box3d/bench_box3d"
        else
            BOX3D_NOTE="build failed ($OUT/peers/box3d.log)"
        fi
    fi
fi

# --- the runs ----------------------------------------------------------------------------
if [ -n "${SCENES:-}" ]; then
    runs=$SCENES
elif [ -n "${QUICK:-}" ] && [ "${QUICK:-}" != 0 ]; then
    runs="pyramid2d:4 pyramid2d:20 pyramid3d:3 pyramid3d:5 pile:300 slide:0 slide:45 incline:0.3 incline:0.6"
else
    runs="pyramid2d:4 pyramid2d:20 pyramid2d:50 pyramid2d:100 pyramid3d:3 pyramid3d:5 pyramid3d:10 pyramid3d:15
          pile:300 pile:1000 slide:0 slide:45 incline:0.3 incline:0.6"
fi
# a run that ignores --max-wall (setup of a large scene, a hang) is ended after this
LIMIT=$(awk -v m="$MAXWALL" 'BEGIN { printf "%d", 3 * m + 120 }')

impact_solvers() {  # impact_solvers SCENE SIZE
    case $SOLVER in
    lcp | pgs | soft) echo "$SOLVER" ;;
    both) echo "lcp pgs" ;;
    *) case "$1:$2" in
        slide:* | incline:* | pyramid3d:3 | pyramid2d:4) echo lcp soft ;;
        *) echo pgs soft ;;
        esac ;;
    esac
}

# one_run LABEL NOTE CMD...: the result line of one engine (or "# LABEL NOTE" when it is not
# there or gave no line)
one_run() {
    local label=$1 note=$2 line
    shift 2
    if [ -z "${1:-}" ]; then
        echo "# $label $note"
        return
    fi
    local cpu=""
    if [ -n "$PIN" ] && command -v taskset >/dev/null 2>&1; then
        set -- taskset -c "$PIN" "$@"
    fi
    if [ -x /usr/bin/time ]; then  # the run's user CPU seconds (setup included), the children's
        line=$(/usr/bin/time -o "$OUT/cpu.txt" -f '%U' timeout "$LIMIT" "$@" 2>>"$OUT/stderr.txt" | grep '^engine=' | tail -1)
        cpu=$(tail -1 "$OUT/cpu.txt" 2>/dev/null)
    else
        line=$(timeout "$LIMIT" "$@" 2>>"$OUT/stderr.txt" | grep '^engine=' | tail -1)
    fi
    if [ -n "$line" ]; then
        echo "label=$label $line${cpu:+ cpu_s=$cpu}"
    else
        echo "# $label failed (exit or timeout after $LIMIT s; stderr in $OUT/stderr.txt)"
    fi
}

: >"$OUT/stderr.txt"
# engines_of SCENE SIZE: one line a run, "label|note|command..." (impact's solvers, the prior
# build's, then the peers)
engines_of() {
    local scene=$1 size=$2 s sweeps sub
    for s in $(impact_solvers "$scene" "$size"); do
        sweeps=$ITERS sub=1
        [ "$s" = pgs ] && sweeps=${ITERS:-10} && sub=$SUBSTEPS
        [ "$s" = soft ] && sweeps=$SOFT_ITERS && sub=$SOFT_SUBSTEPS
        echo "impact-$s||$IMPACT $scene $size --solver $s ${sweeps:+--iters $sweeps} --substeps $sub --max-wall $MAXWALL"
        [ -n "${IMPACT_PRIOR:-}" ] && echo "prior-$s||$IMPACT_PRIOR $scene $size --solver $s ${sweeps:+--iters $sweeps} --substeps $sub --max-wall $MAXWALL"
        if [ "$s" = soft ] && [ "$WALL" != 0 ] && [ "$scene" = pyramid2d ] && [ "${size%.*}" -ge 50 ] 2>/dev/null; then
            sub=$(((${size%.*} + 9) / 10))
            echo "impact-wall||$IMPACT $scene $size --solver soft --substeps $sub --hertz $((10 * sub)) --max-wall $MAXWALL"
        fi
    done
    echo "Bullet|$BULLET_NOTE|${BULLET:+$BULLET $scene $size --max-wall $MAXWALL}"
    echo "ODE-quick|$ODE_NOTE|${ODE:+$ODE $scene $size --quick --max-wall $MAXWALL}"
    echo "Box3D|$BOX3D_NOTE|${BOX3D:+$BOX3D $scene $size --max-wall $MAXWALL}"
}
for r in $runs; do
    scene=${r%%:*} size=${r#*:}
    list=$(engines_of "$scene" "$size")
    {
        echo "# begin $scene $size"
        round=1
        while [ "$round" -le "$ROUNDS" ]; do
            order=$list
            [ $((round % 2)) -eq 0 ] && order=$(printf '%s\n' "$list" | tac)
            while IFS='|' read -r label note cmd; do
                [ "$round" -gt 1 ] && [ -z "$cmd" ] && continue  # a missing peer's note once
                # shellcheck disable=SC2086
                one_run "$label" "$note" $cmd </dev/null
            done <<<"$order"
            round=$((round + 1))
        done
        echo "# end $scene $size"
    } >>"$LINES"
done

[ -n "${RAW:-}" ] && [ "${RAW:-}" != 0 ] && cat "$LINES"

# --- the table -----------------------------------------------------------------------------
awk -v scenes="$runs" '
function val(k) { return (k in f) ? f[k] : "-" }
function num(x, d) { return (x == "nan" || x == "-" || x == "") ? x : sprintf("%." d "f", x) }
function median(list,    a, n, i, j, t) {  # the median of a space-separated list of numbers
    n = split(list, a, " ")
    if (n == 0) return "-"
    for (i = 2; i <= n; i++) { t = a[i] + 0; for (j = i - 1; j >= 1 && a[j] + 0 > t; j--) a[j + 1] = a[j]; a[j + 1] = t }
    return (n % 2) ? a[(n + 1) / 2] : (a[n / 2] + a[n / 2 + 1]) / 2
}
BEGIN {
    printf "%-9s %-5s %-12s %9s %7s %9s %7s %-9s %-56s %8s %9s %9s\n", "scene", "size", "engine", "ms/step", "x_impact",
        "cpu_ms", "x_cpu", "steps", "outcome", "contacts", "residual", "res_max"
}
/^# begin / { cur_scene = $3; cur_size = $4; nl = 0; delete seen; delete msl; delete cml; delete row; delete kind; next }
/^# end / {
    ref = ""; cref = ""
    for (k = 1; k <= nl; k++) {
        L = order[k]
        if (kind[L] == "note") { printf "%-9s %-5s %-12s %s\n", cur_scene, cur_size, L, row[L]; continue }
        ms = (msl[L] == "") ? "nan" : median(msl[L]); cms = (cml[L] == "") ? "-" : median(cml[L])
        if (ref == "" && L ~ /^impact/ && ms != "nan") ref = ms
        if (cref == "" && L ~ /^impact/ && cms != "-") cref = cms
        ratio = (ref != "" && ms != "nan" && ref + 0 > 0) ? sprintf("%.2f", ms / ref) : "-"
        cratio = (cref != "" && cms != "-" && cref + 0 > 0) ? sprintf("%.2f", cms / cref) : "-"
        split(row[L], p, "\t")
        printf "%-9s %-5s %-12s %9s %7s %9s %7s %-9s %-56s %8s %9s %9s\n", p[1], p[2], L, num(ms, ms + 0 < 1 ? 6 : 3), ratio,
            num(cms, cms + 0 < 1 ? 6 : 3), cratio, p[3], p[4], p[5], p[6], p[7]
    }
    next
}
/^# / {
    label = $2; $1 = ""; $2 = ""; note = substr($0, 3)
    if (!(label in seen)) { seen[label] = 1; order[++nl] = label; kind[label] = "note"; row[label] = note }
    next
}
/^label=/ {
    delete f
    for (i = 1; i <= NF; i++) { k = $i; sub(/=.*/, "", k); v = $i; sub(/^[^=]*=/, "", v); f[k] = v }
    L = f["label"]
    if (!(L in seen) || kind[L] == "note") {
        if (!(L in seen)) order[++nl] = L
        seen[L] = 1; kind[L] = "line"
        steps = f["steps"] (f["complete"] == "1" ? "" : " " f["stop"])
        sc = f["scene"]
        if (sc ~ /^pyramid/)
            out = "stands=" f["stands"] " max_disp=" num(f["max_disp"], 3) " top_dz=" num(f["top_dz"], 3)
        else if (sc == "pile")
            out = "escaped=" f["escaped"] " mean_z=" num(f["mean_z"], 2) " ke=" f["ke_end"]
        else if (sc == "slide")
            out = "dist=" num(f["stop_dist"], 2) "/" num(f["exp_stop_dist"], 2) " dir=" num(f["stop_dir_deg"], 1) \
                  " t=" (f["stop_t"] + 0 < 0 ? "never" : num(f["stop_t"], 2)) "/" num(f["exp_stop_t"], 2) \
                  " v1=" num(f["v1"], 2) "/" num(f["exp_v1"], 2)
        else
            out = "s2=" num(f["s2"], 3) "/" num(f["exp_s2"], 3) " v1=" num(f["v1"], 3) "/" num(f["exp_v1"], 3)
        if (("sunk" in f) && f["sunk"] != "0") out = out " sunk=" f["sunk"]
        if (("swept_steps" in f) && f["swept_steps"] != "0") out = out " swept=" f["swept_steps"]
        row[L] = sc "\t" f["size"] "\t" steps "\t" out "\t" num(f["contacts"], 0) "\t" val("residual") "\t" val("residual_max")
    }
    if (f["ms_per_step"] != "nan") msl[L] = msl[L] " " f["ms_per_step"]
    if (("cpu_s" in f) && f["steps"] + 0 > 0) cml[L] = cml[L] " " 1000 * f["cpu_s"] / f["steps"]
}
' "$LINES"
cat <<'EOF'
ROUNDS > 1: each figure is the median over the rounds (the outcome is the first round's).
x_impact: ms/step over impact's first run of the scene. cpu_ms: the run's user CPU time over its steps
(setup included: the whole process, /usr/bin/time), x_cpu its ratio to impact's; under load it is the
steadier figure (ms/step is wall-clock time of the steps). outcome a/b: measured / analytic (slide: distance
travelled m, stop time s (never: still above 0.01 m/s at 3 s), v(1 s); incline: s(2 s), v(1 s)). stands: no
cube moved 0.1 m in 500 steps. sunk: impact's cubes whose centre ended under the ground, inside its extent
(fell through it, not off its edge). contacts: mean points per step. residual, res_max: impact's exact-solver
error (Siconos') of the run's last solve and the largest (exact, swept, or the soft step's last sub-step,
whose soft rows are not meant to be exact; na: none ran). impact-soft: the soft step (Box3D's: 4 sub-steps,
one solve and one relax pass each, a restitution pass). impact-wall: the soft step at the manual's
setting for walls of 50 rows and more (ceil(size / 10) sub-steps at a sixth of the sub-step rate). swept=N:
impact-lcp steps whose problem was above the exact solver's row cap and was swept (PGS) instead.
EOF
echo "raw lines: $LINES"
exit 0
