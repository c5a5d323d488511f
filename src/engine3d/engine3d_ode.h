/* engine3d_ode.h: the force-level ("ode") time stepping of the 3D engine (engine3d.h), with the
   meaning the 2D engine's time_stepping = "ode" has (engine2d_step.c, engine2d_contact.c):

   - The world's integrator (its fixed-step method; RK4 for an adaptive one) advances the state.
     Under "contact", at each of its evaluations the resting contacts (gap within distance_tol,
     |normal velocity| <= velocity_tol) get forces from the acceleration-level problem with
     Coulomb friction (Baraff 1994), solved by the exact Coulomb solver (coulomb.h) or its
     Gauss-Seidel sweeps ("pgs"): engine3d_accel.c.
   - The collision advance (engine3d_ode.c): a trial step that ends with a pair penetrating (or
     approaching faster than velocity_tol closer than the half gap) is undone; the next trial
     goes to the estimated moment the gap is distance_tol / 2, or to half the last one (binary
     search), at most max_backups back-ups in a row; a pair close enough to the half gap and
     approaching gets the collision impulses there (the engine's velocity-level impulse solve,
     engine3d_solve.c, with restitution; collision_handling simultaneous, serial or hybrid).
   - Events (collision, contact_begin, contact_end) and w:contacts() as in the velocity path;
     a contact's r holds its force times dt (w:contacts() divides by dt). */
#ifndef IMPACT_ENGINE3D_ODE_H
#define IMPACT_ENGINE3D_ODE_H

#include <stddef.h>

#include <impact/coulomb.h>
#include <impact/status.h>

struct imp_world;

typedef struct imp_e3_ode {
    int in_step;          /* 1 while the integrator runs (contact): the forces hook solves */
    int force_error;      /* a force solve failed in this trial step */
    int err_a, err_b;     /* its bodies */
    int joint_error;      /* the joints' forces ran out of memory in this trial step */
    /* the collision advance */
    double *y0;           /* the state before the trial step */
    size_t y_cap;
    int *pending;         /* pairs (a, b) found penetrating since the last handled collision */
    int npending, pending_cap;
    unsigned char *elastic; /* per point: a collision (restitution), else a resting contact */
    int elastic_cap;
    /* the acceleration-level problem (engine3d_accel.c) */
    double *acc;          /* 6 per slot: the bodies' accelerations without contact forces */
    int acc_cap;
    int *act;             /* the active points */
    double *jac;          /* per active point: 2 sides x (E 9, A 9, IA 9) */
    double *q, *mu, *r, *u, *warm;
    int rows_cap;
    int *row_ptr, *col;
    double *val;
    size_t nnz_cap;
    imp_coulomb_workspace *ws;
    /* W's factors J and M^-1 (coulomb.h): the Newton steps in the moving bodies' dofs */
    int *dof;             /* per slot: its first dof, -1 */
    int dof_cap;
    int *fj_rp, *fj_col, *fm_rp, *fm_col;
    double *fj_val, *fm_val;
    int fj_cap, fm_cap;
    imp_coulomb_factors fac;
    /* counters (w:stats()) */
    long ode_steps, binary_searches, force_solves, force_failures;
} imp_e3_ode;

void imp_e3_ode_free(imp_e3_ode *o);

/* The strategy's advance under time_stepping = "ode" (engine3d_ode.c). */
imp_status imp_engine3d_ode_advance(struct imp_world *w, double t1, char *why, size_t why_len);

/* The forces hook (strategy.h): the resting contacts' forces at state y added into f (6 per
   slot), while the ode advance's integrator runs (engine3d_accel.c). */
void imp_engine3d_ode_forces(struct imp_world *w, const double *y, double *f);

#endif
