# yade_bounce.py: spheres bouncing on a plane with Hertz-Mindlin and a normal restitution en
# (Yade's Ip2_FrictMat_FrictMat_MindlinPhys(en) + Law2_ScGeom_MindlinPhys_Mindlin, the law of
# its examples/test/mindlin.py, and the bouncing sphere of examples/simple-scene) on the
# scene bench/dem_bounce_yade.lua writes, for that script, which runs impact's run of the same
# scene beside it in `make bench`:
#
#     OMP_NUM_THREADS=1 yade -n -x -j1 bench/yade_bounce.py SCENE_FILE
#
# SCENE_FILE: its first line is "scene E POISSON FRICTION EN DENSITY STEPS CHUNK"; then one
# sphere a line, "x y z r" (m). A wall z = 0 (Yade's utils.wall, same material), no damping,
# gravity -9.81 along z, dt = 0.5 PWaveTimeStep(). The run is STEPS steps in chunks of CHUNK;
# after each chunk every sphere seen going up out of contact for the first time (gap > 0,
# vz > 0: it starts at rest and falls) gets its rebound apex z - r + vz^2 / (2 g) (exact in
# ballistic flight) and is done.
# Timing covers O.run only (wall: perf_counter, CPU: process_time). Prints one line
# "YADE_BOUNCE key=value ..." and one line "YADE_APEX a1 a2 ..." (apex above the plane per
# sphere, in the file's order; -1 where a sphere did not rebound).
import sys
import time

G = 9.81
with open(sys.argv[1]) as f:
    head = f.readline().split()
    E, NU, PHI, EN, RHO = (float(v) for v in head[1:6])
    STEPS, CHUNK = int(head[6]), int(head[7])
    spheres = [tuple(float(v) for v in line.split()) for line in f if line.strip()]

O.materials.append(FrictMat(young=E, poisson=NU, frictionAngle=PHI, density=RHO, label="m"))
O.bodies.append(utils.wall(0.0, axis=2, sense=1, material="m"))
ids = O.bodies.append([sphere((x, y, z), r, material="m") for x, y, z, r in spheres])
O.engines = [
    ForceResetter(),
    InsertionSortCollider([Bo1_Sphere_Aabb(), Bo1_Wall_Aabb()]),
    InteractionLoop([Ig2_Sphere_Sphere_ScGeom(), Ig2_Wall_Sphere_ScGeom()],
                    [Ip2_FrictMat_FrictMat_MindlinPhys(en=EN)],
                    [Law2_ScGeom_MindlinPhys_Mindlin()]),
    NewtonIntegrator(damping=0.0, gravity=(0, 0, -G)),
]
O.dt = 0.5 * PWaveTimeStep()

apex = [-1.0] * len(ids)
wall_s = cpu_s = 0.0
while O.iter < STEPS:
    w0, c0 = time.perf_counter(), time.process_time()
    O.run(min(CHUNK, STEPS - O.iter), True)
    wall_s += time.perf_counter() - w0
    cpu_s += time.process_time() - c0
    for k, i in enumerate(ids):
        if apex[k] >= 0:
            continue
        s = O.bodies[i].state
        r = spheres[k][3]
        gap = s.pos[2] - r
        if gap > 0 and s.vel[2] > 0:
            apex[k] = gap + s.vel[2] ** 2 / (2 * G)
print("YADE_BOUNCE version=%s threads=%d n=%d steps=%d dt=%.15g wall=%.6f cpu=%.6f" % (
    yade.config.version, O.numThreads, len(ids), O.iter, O.dt, wall_s, cpu_s))
print("YADE_APEX " + " ".join("%.9g" % a for a in apex))
sys.stdout.flush()
