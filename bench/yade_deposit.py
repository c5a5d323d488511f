# yade_deposit.py: the gravity deposition of ../shared/reference/yade.md (scenario A) on Yade,
# for bench_dem, which runs it beside impact's in the same `make bench`:
#
#     OMP_NUM_THREADS=1 yade -n -x -j1 bench/yade_deposit.py N DAMPING STEPS [EVERY]
#
# N = 1000 (10x10x10), 10000 (25x25x16), 50000 (50x50x20), or bench_dem_large's 100000
# (125x50x16) and 1000000 (250x250x16). With EVERY > 0, a line "YADE_CHECK step=... mean_z=...
# max_z=... cpu=..." every EVERY steps (the packing height on its way, for runs too long to
# wait for: the same steps, run in chunks). The scene is the one bench_dem
# builds (integer-arithmetic initial state, 5 infinite walls, FrictMat E = 1e7, ks/kn 0.3,
# friction angle 0.5, density 2600, dt = 0.5 PWaveTimeStep, Yade's default engines and
# verletDist). Timing covers O.run only (scene building and Yade's start-up excluded): wall
# (perf_counter) and CPU (process_time) for the whole run and for its last quarter (the dense
# packing). Prints one line "YADE_RESULT key=value ...".
#
# With a fifth argument CKPT_DIR (a directory outside the repository) the run can be stopped
# and resumed: it starts from CKPT_DIR/last.yade when that file exists (else it builds the scene
# and saves it there at step 0), saves the whole simulation there (O.save: bodies,
# interactions with their shear history, engines) every EVERY steps, and appends the
# YADE_CHECK lines to CKPT_DIR/log.txt. To resume after a stop, run the same command again:
#
#     nice -n 19 env OMP_NUM_THREADS=1 yade -n -x -j1 bench/yade_deposit.py 100000 0.2 20000 \
#         1000 /work/notes/yade_ckpt >> /work/notes/yade_ckpt/run.out 2>&1 &
import os
import sys
import time

N_ARG = sys.argv[1] if len(sys.argv) > 1 else "1000"
DAMP = float(sys.argv[2]) if len(sys.argv) > 2 else 0.2
STEPS = int(sys.argv[3]) if len(sys.argv) > 3 else 20000
EVERY = int(sys.argv[4]) if len(sys.argv) > 4 else 0
CKPT = sys.argv[5] if len(sys.argv) > 5 else None
LAST = os.path.join(CKPT, "last.yade") if CKPT else None
NEXT = os.path.join(CKPT, "next.yade") if CKPT else None   # written, then renamed to LAST
LAYOUTS = {"1000": (10, 10, 10), "10000": (25, 25, 16), "50000": (50, 50, 20),
           "100000": (125, 50, 16), "1000000": (250, 250, 16)}
NX, NY, NZ = LAYOUTS[N_ARG]
N = NX * NY * NZ
D = 0.026


def status_kb(field):
    with open("/proc/self/status") as f:
        for line in f:
            if line.startswith(field + ":"):
                return int(line.split()[1])
    return -1


def build():
    O.materials.append(FrictMat(young=1e7, poisson=0.3, frictionAngle=0.5, density=2600.0,
                                label="granular"))
    LX, LY = NX * D, NY * D
    O.bodies.append([utils.wall(0.0, axis=2, material="granular"),
                     utils.wall(0.0, axis=0, material="granular"),
                     utils.wall(LX, axis=0, material="granular"),
                     utils.wall(0.0, axis=1, material="granular"),
                     utils.wall(LY, axis=1, material="granular")])
    spheres = []
    for i in range(N):
        ix, iy, iz = i % NX, (i // NX) % NY, i // (NX * NY)
        r = 0.008 + 0.004 * ((i * 37) % 101) / 100.0
        jx = 0.0008 * (((i * 53) % 17) - 8) / 8.0
        jy = 0.0008 * (((i * 71) % 19) - 9) / 9.0
        spheres.append(utils.sphere(((ix + 0.5) * D + jx, (iy + 0.5) * D + jy, (iz + 1.0) * D), r,
                                    material="granular"))
    O.bodies.append(spheres)
    O.engines = [
        ForceResetter(),
        InsertionSortCollider([Bo1_Sphere_Aabb(), Bo1_Wall_Aabb()], label="collider"),
        InteractionLoop([Ig2_Sphere_Sphere_ScGeom(), Ig2_Wall_Sphere_ScGeom()],
                        [Ip2_FrictMat_FrictMat_FrictPhys()],
                        [Law2_ScGeom_FrictPhys_CundallStrack()]),
        NewtonIntegrator(damping=DAMP, gravity=(0, 0, -9.81)),
    ]
    O.dt = 0.5 * PWaveTimeStep()


rss_start = status_kb("VmRSS")
if LAST and os.path.exists(LAST):
    O.load(LAST)
    print("YADE_RESUMED step=%d from=%s" % (O.iter, LAST))
else:
    build()
    if LAST:
        os.makedirs(CKPT, exist_ok=True)
        O.save(NEXT)
        os.replace(NEXT, LAST)
# the spheres and the collider, found again after a load (labels are not restored by O.load)
ids = [b.id for b in O.bodies if isinstance(b.shape, Sphere)]
collider = [e for e in O.engines if isinstance(e, InsertionSortCollider)][0]


def heights():
    z = [O.bodies[i].state.pos[2] for i in ids]
    return z, sum(z) / len(z), max(z)


def run_to(step):
    while O.iter < step:
        n = step - O.iter if EVERY <= 0 else min(step - O.iter, EVERY - O.iter % EVERY)
        O.run(n, True)
        if EVERY > 0 and O.iter % EVERY == 0:
            _, mz, hz = heights()
            line = "YADE_CHECK step=%d mean_z=%.9f max_z=%.9f cpu=%.3f" % (
                O.iter, mz, hz, time.process_time() - c0)
            print(line)
            sys.stdout.flush()
            if LAST:
                O.save(NEXT)
                os.replace(NEXT, LAST)
                with open(os.path.join(CKPT, "log.txt"), "a") as f:
                    f.write(line + " date=%s\n" % time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime()))


first = STEPS - STEPS // 4
w0, c0 = time.perf_counter(), time.process_time()
run_to(first)
w1, c1 = time.perf_counter(), time.process_time()
run_to(STEPS)
w2, c2 = time.perf_counter(), time.process_time()

zs, _, _ = heights()
ke = sum(0.5 * O.bodies[i].state.mass * O.bodies[i].state.vel.squaredNorm() for i in ids)
idset = set(ids)
n_ss = n_sw = 0
for I in O.interactions:
    if I.isReal:
        if I.id1 in idset and I.id2 in idset:
            n_ss += 1
        else:
            n_sw += 1
print("YADE_RESULT version=%s threads=%d n=%d steps=%d dt=%.15g wall=%.6f cpu=%.6f "
      "last_steps=%d last_wall=%.6f last_cpu=%.6f hwm_kb=%d rss_start_kb=%d mean_z=%.9f "
      "max_z=%.9f contacts=%d contacts_ss=%d contacts_sw=%d ke_trans=%.6e collider_runs=%d" % (
          yade.config.version, O.numThreads, N, O.iter, O.dt, w2 - w0, c2 - c0,
          STEPS - first, w2 - w1, c2 - c1, status_kb("VmHWM"), rss_start,
          sum(zs) / len(zs), max(zs), n_ss + n_sw, n_ss, n_sw, ke, collider.numAction))
sys.stdout.flush()
