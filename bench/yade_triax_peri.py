# yade_triax_peri.py: the dense triaxial test of spec/dem_reference_triax_spec.lua on Yade, from
# impact's compacted sample, for bench/dem_triax_peri_yade.lua, which runs impact's shear of the
# same sample beside it:
#
#     OMP_NUM_THREADS=1 yade -n -x -j1 bench/yade_triax_peri.py SPHERES_FILE ROLLING [MODE]
#
# MODE "all" (default): every contact has the friction angle FRICTION (the spheres are read into
# a new scene, so every contact is made with it, as after Yade's setContactFriction); "new": the
# contacts of the first step are frictionless and only those made later have FRICTION (the
# material's friction is raised after one step: what raising the law's friction does in impact's
# world, whose contacts keep the friction they were made with).
# SPHERES_FILE: its first line "cell LX LY LZ E KS_RATIO FRICTION RATE FINAL P DT DAMPING" (the
# periodic cell's sides (m), Young's modulus (Pa), ks/kn, the friction angle (rad), the axial
# strain rate (1/s), the axial strain to reach (of the sample's height), the confining pressure
# (Pa), the time step (s), Newton's damping), then one sphere a line, "x y z r vx vy vz wx wy wz".
# Contacts: FrictMat (kn = 2 E r1 r2 / (r1 + r2), ks = KS_RATIO kn) and Law2_ScGeom_FrictPhys_
# CundallStrack; with ROLLING = eta_r > 0, CohFrictMat (not cohesive, momentRotationLaw, alphaKr 2:
# kr = 2 ks r1 r2, etaRoll eta_r: |M| <= eta_r min(r1, r2) fn, no twisting stiffness) and
# Law2_ScGeom6D_CohFrictPhys_CohesionMoment in its incremental form. The cell is driven by
# PeriTriaxController (stressMask 3: x and y at -P, z shortened at RATE; maxStrainRate RATE on
# every axis), NewtonIntegrator(damping=DAMPING). Every 100 steps: the Love stress of the
# contacts (utils.getStress), phi = asin((s1 - s3) / (s1 + s3)) with s1 = -s_zz and s3 the mean
# of -s_xx and -s_yy, and the volumetric strain ln(V / V0). Prints "YADE_PERI key=value ..." and
# "YADE_CURVE ea phi ev s3 ..." (four numbers every 100 steps; ea = 1 - LZ / LZ0).
import math
import sys
import time

path = sys.argv[1]
ROLL = float(sys.argv[2]) if len(sys.argv) > 2 else 0.0
MODE = sys.argv[3] if len(sys.argv) > 3 else "all"
with open(path) as f:
    head = [float(v) for v in f.readline().split()[1:]]
    LX, LY, LZ, E, KS, PHI, RATE, FINAL, P, DT, DAMP = head
    spheres = [[float(v) for v in line.split()] for line in f if line.strip()]

O.periodic = True
O.cell.setBox(LX, LY, LZ)
if ROLL > 0:
    mat = O.materials.append(CohFrictMat(young=E, poisson=KS, frictionAngle=PHI, density=2600.0,
                                         isCohesive=False, momentRotationLaw=True, alphaKr=2.0,
                                         alphaKtw=0.0, etaRoll=ROLL, etaTwist=-1.0))
    geom, phys = Ig2_Sphere_Sphere_ScGeom6D(), Ip2_CohFrictMat_CohFrictMat_CohFrictPhys()
    law = Law2_ScGeom6D_CohFrictPhys_CohesionMoment(useIncrementalForm=True,
                                                     always_use_moment_law=True)
else:
    mat = O.materials.append(FrictMat(young=E, poisson=KS, frictionAngle=PHI, density=2600.0))
    geom, phys = Ig2_Sphere_Sphere_ScGeom(), Ip2_FrictMat_FrictMat_FrictPhys()
    law = Law2_ScGeom_FrictPhys_CundallStrack()
ids = []
for x, y, z, r, vx, vy, vz, wx, wy, wz in spheres:
    b = sphere((x, y, z), r, material=mat)
    b.state.vel = Vector3(vx, vy, vz)
    b.state.angVel = Vector3(wx, wy, wz)
    ids.append(O.bodies.append(b))

triax = PeriTriaxController(goal=(-P, -P, -2 * FINAL), stressMask=3,
                            maxStrainRate=(RATE, RATE, RATE), maxUnbalanced=1e9, dynCell=False)
O.engines = [
    ForceResetter(),
    InsertionSortCollider([Bo1_Sphere_Aabb()]),
    InteractionLoop([geom], [phys], [law]),
    triax,
    NewtonIntegrator(damping=DAMP, gravity=(0, 0, 0)),
]
O.dt = DT
if MODE == "new":
    O.materials[mat].frictionAngle = 0.0
    O.step()
    O.materials[mat].frictionAngle = PHI

h0, v0 = O.cell.hSize[2, 2], O.cell.volume
wall_s = cpu_s = 0.0
curve = []
peak, at, ea = -1.0, 0.0, 0.0
while ea < FINAL and O.iter < 2000000:
    w0, c0 = time.perf_counter(), time.process_time()
    O.run(100, True)
    wall_s += time.perf_counter() - w0
    cpu_s += time.process_time() - c0
    s = getStress()
    s1, s3 = -s[2, 2], -(s[0, 0] + s[1, 1]) / 2
    phi = math.degrees(math.asin((s1 - s3) / (s1 + s3)))
    ea = 1 - O.cell.hSize[2, 2] / h0
    ev = math.log(O.cell.volume / v0)
    curve.extend((ea, phi, ev, s3))
    if phi > peak:
        peak, at = phi, ea
n_real = sum(1 for i in O.interactions if i.isReal)
print("YADE_PERI version=%s threads=%d n=%d steps=%d dt=%.15g wall=%.6f cpu=%.6f peak=%.6f "
      "at=%.6f ev_end=%.6f contacts=%d law=%s mode=%s" % (
          yade.config.version, O.numThreads, len(ids), O.iter, O.dt, wall_s, cpu_s, peak, at,
          ev, n_real, type(law).__name__, MODE))
print("YADE_CURVE " + " ".join("%.9g" % v for v in curve))
sys.stdout.flush()
