# yade_triax.py: Yade's triaxial test (the scene of its examples/triax-tutorial/script-session1.py:
# aabbWalls + TriaxialStressController, frictionless walls, damping 0.2) on the spheres that
# bench/dem_triax_yade.lua writes, for that script, which runs impact's test of the same scene
# beside it in `make bench`:
#
#     OMP_NUM_THREADS=1 yade -n -x -j1 bench/yade_triax.py SPHERES_FILE CONFINING AXIAL_STRAIN
#
# SPHERES_FILE: one sphere a line, "x y z r" (m); its first line is "box L E KS_RATIO FRICTION
# RATE" (the box [0, L]^3 the walls start on, Young's modulus, ks/kn, the friction angle in rad,
# the axial strain rate 1/s). The two phases are those of the tutorial without its sphere growth
# (impact has no internalCompaction): the six walls are servoed to the isotropic CONFINING
# pressure (Pa) until the mean wall stress is within 1 % of it with unbalanced force < 0.01,
# then z is compressed at RATE while x and y keep the confining pressure, to AXIAL_STRAIN.
# Timing covers O.run only (Yade's start-up and the scene building excluded): wall
# (perf_counter) and CPU (process_time). Prints one line "YADE_TRIAX key=value ...".
import sys
import time

path = sys.argv[1]
P = float(sys.argv[2]) if len(sys.argv) > 2 else 1e4
FINAL = float(sys.argv[3]) if len(sys.argv) > 3 else 0.1

with open(path) as f:
    head = f.readline().split()
    L, E, KS, PHI, RATE = (float(v) for v in head[1:6])
    spheres = [tuple(float(v) for v in line.split()) for line in f if line.strip()]

O.materials.append(FrictMat(young=E, poisson=KS, frictionAngle=PHI, density=2600.0,
                            label="spheres"))
O.materials.append(FrictMat(young=E, poisson=KS, frictionAngle=0.0, density=0.0, label="walls"))
walls = aabbWalls([Vector3(0, 0, 0), Vector3(L, L, L)], thickness=0, material="walls")
wall_ids = O.bodies.append(walls)
ids = O.bodies.append([sphere((x, y, z), r, material="spheres") for x, y, z, r in spheres])

triax = TriaxialStressController(thickness=0, stressMask=7, internalCompaction=False,
                                 goal1=-P, goal2=-P, goal3=-P)
O.engines = [
    ForceResetter(),
    InsertionSortCollider([Bo1_Sphere_Aabb(), Bo1_Box_Aabb()]),
    InteractionLoop([Ig2_Sphere_Sphere_ScGeom(), Ig2_Box_Sphere_ScGeom()],
                    [Ip2_FrictMat_FrictMat_FrictPhys()],
                    [Law2_ScGeom_FrictPhys_CundallStrack()]),
    triax,
    NewtonIntegrator(damping=0.2, gravity=(0, 0, 0)),
]
O.dt = 0.5 * PWaveTimeStep()

wall_s = cpu_s = 0.0


def run(n):
    global wall_s, cpu_s
    w0, c0 = time.perf_counter(), time.process_time()
    O.run(n, True)
    wall_s += time.perf_counter() - w0
    cpu_s += time.process_time() - c0


def wall_stresses():
    return (triax.stress(triax.wall_right_id)[0], triax.stress(triax.wall_top_id)[1],
            triax.stress(triax.wall_front_id)[2])


# the isotropic phase
while O.iter < 200000:
    run(100)
    s = wall_stresses()
    if unbalancedForce() < 0.01 and all(abs(v + P) < 0.01 * P for v in s):
        break
iso_steps = O.iter
iso_porosity = triax.porosity
# the deviatoric phase: z at RATE, x and y at the confining pressure
triax.stressMask = 3
triax.goal3 = -RATE


def height():
    return O.bodies[triax.wall_front_id].state.pos[2] - O.bodies[triax.wall_back_id].state.pos[2]


h0 = height()
while 1 - height() / h0 < FINAL and O.iter < iso_steps + 1000000:
    run(100)
s = wall_stresses()
s1, s3 = -s[2], -(s[0] + s[1]) / 2
print("YADE_TRIAX version=%s threads=%d n=%d steps=%d iso_steps=%d dt=%.15g wall=%.6f cpu=%.6f "
      "iso_porosity=%.6f porosity=%.6f axial_strain=%.6f s1=%.6f s3=%.6f sx=%.6f sy=%.6f" % (
          yade.config.version, O.numThreads, len(ids), O.iter, iso_steps, O.dt, wall_s, cpu_s,
          iso_porosity, triax.porosity, 1 - height() / h0, s1, s3, -s[0], -s[1]))
sys.stdout.flush()
