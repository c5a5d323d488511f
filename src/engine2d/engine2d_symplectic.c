/* engine2d_symplectic.c: semi-implicit ("symplectic") Euler time stepping for the 2D engine's
   impulse and contact strategies, chosen with the world option time_stepping =
   "symplectic_euler".

   One step of length h from (x0, v0):
       v1 = v0 + h M^-1 (F(x0, v0) + J^T f),    x1 = x0 + h v1,
   the contact forces f being those of engine2d_contact.c solved once, at x0, with the
   extra acceleration taken at velocity level over this h (the "velocity" policy adds
   v_n / h to the normal rows, so the solve asks J v1 >= 0 with complementarity: contacts stop
   approaching within the step; friction rows ask for no slip at the end of the step within
   mu f_n). This is the velocity-level time stepping of Stewart & Trinkle ("An implicit
   time-stepping scheme for rigid body dynamics with inelastic collisions and Coulomb
   friction", IJNME 1996) and Anitescu & Potra (Nonlinear Dynamics 1997), written as a force
   (impulse / h). It costs one contact solve per step where RK4 costs four, and the positions
   move with the velocities the contacts allow (x1 = x0 + h v1), so a body resting on a
   contact stays at its gap instead of drifting by h^2 a per step.
   First order in h; symplectic for the smooth part (the energy of a free oscillator stays
   bounded instead of growing as under explicit Euler). Cost: one evaluation, O(n). */
#include "engine2d_symplectic.h"

#include "engine2d.h"
#include "strategy.h"
#include "world_internal.h"

const char *const imp_time_stepping_names[] = {"ode", "symplectic_euler", NULL};

int imp_engine2d_symplectic(const imp_world *w)
{
    return w->model.def.dim == 2 && w->model.def.engine2d.time_stepping == IMP_STEPPING_SYMPLECTIC_EULER
           && imp_world_strategy_has(w, IMP_STRATEGY_COLLISIONS);
}

void imp_engine2d_symplectic_step(imp_world *w,
                                  void (*f)(void *ctx, double t, const double *y, double *dydt),
                                  double t, double h, double *y, size_t n, double *work)
{
    imp_engine2d *e = w->engine2d;
    if (e != NULL) {
        e->step_h = h;  /* the velocity-level contact problem is posed over this step */
    }
    f(w, t, y, work);
    if (e != NULL) {
        e->step_h = 0.0;
    }
    /* the derivative holds dx/dt = v0 for free bodies (0 for fixed and inactive ones) and
       dv/dt = a: x1 = x0 + h (v0 + h a) = x0 + h v1 */
    for (size_t i = 0; i + IMP_STRIDE_2D <= n; i += IMP_STRIDE_2D) {
        const double *d = work + i;
        double *yi = y + i;
        for (int k = 0; k < 3; k++) {
            yi[k] += h * (d[k] + h * d[k + 3]);
            yi[k + 3] += h * d[k + 3];
        }
    }
}
