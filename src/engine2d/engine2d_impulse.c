/* engine2d_impulse.c: collision impulses of the 2D engine (myPhysicsLab's
   ImpulseSim.handleCollisions). Every touching record (collisions, contacts, imminent
   collisions, joints) takes part, so a collision ricochets through bodies at rest.

   With v the relative normal velocities and A = J M^-1 J^T, the impulses j solve the LCP
     a = A j + b,  b = (1 + e) v,  j >= 0, a >= 0, j a = 0   (joints: j free, a = 0),
   whose a is v+ + e v- (Baraff 94 applied to impulses): a colliding row leaves with -e times
   its approach speed, a resting row does not approach.
   - simultaneous: one LCP over all records; contacts and joints get e = 0;
   - serial: a random collision (the focus, chosen with the world's generator) with the joints
     connected to it through movable bodies is solved alone and the velocities updated, until
     nothing approaches; contacts use the bodies' elasticity (ricochets);
   - hybrid: serial, but the focus takes with it the other approaching records of its bodies
     (a flat block's two corners together);
   then a last pass, one LCP with e = 0 over everything, so no record is left approaching.
   Cost: O(n^2) for A, then O(n^3) per LCP solve. */
#include <string.h>

#include "engine2d.h"
#include "world_internal.h"

static int solve(imp_world *w, const double *A, const double *b, const unsigned char *bil, int n,
                 double *f)
{
    imp_engine2d *e = w->engine2d;
    imp_lcp_problem p;
    memset(&p, 0, sizeof p);
    p.n = n;
    p.A = A;
    p.b = b;
    p.bilateral = bil;
    imp_lcp_info info;
    imp_lcp_options o;
    imp_lcp_default_options(&o);
    o.tolerance = 1e-8;
    e->stats.lcp_solves++;
    imp_lcp_status st = imp_lcp_solve(&p, &o, e->ws, f, e->a, NULL, &info);
    if (st != IMP_LCP_OK) {
        e->stats.lcp_failures++;
        /* accept a nearly solved problem: the residuals relative to its scale are small, and
           that scale is one the problem can ask for (see imp_lcp_force_scale) */
        if (!(info.scale_f <= 1e3 * (1.0 + imp_lcp_force_scale(&p)))
            || !(info.natural_residual <= 1e-6 * (1.0 + info.scale_f)
              && info.max_bilateral <= 1e-6 * (1.0 + info.scale_a))) {
            return -1;
        }
    }
    for (int i = 0; i < n; i++) {
        if (!bil[i] && f[i] < 0.0) {
            f[i] = 0.0;  /* tiny negatives from round-off */
        }
    }
    return 0;
}

/* a problem over every record: exact, or by PGS (from f = 0) for large scenes */
static int solve_all(imp_world *w, const imp_rec2d *rec, const double *A, const double *b,
                     const unsigned char *bil, int n, double *f, int pgs)
{
    if (!pgs && solve(w, A, b, bil, n, f) == 0) {
        return 0;
    }
    /* PGS, or the fallback when the pivoting gave up (counted in lcp_failures) */
    w->engine2d->stats.lcp_solves++;
    memset(f, 0, (size_t)n * sizeof *f);
    int sweeps = 4 * w->model.def.engine2d.pgs_iterations;
    return imp_engine2d_pgs(w, rec, n, b, bil, NULL, NULL, NULL, pgs || sweeps > 500 ? sweeps : 500, f);
}

/* the relative normal velocity of record r at state y */
static double record_velocity(const double *y, const imp_rec2d *r)
{
    const double *vp = y + (size_t)r->p * IMP_STRIDE_2D + 3;
    const double *vq = y + (size_t)r->q * IMP_STRIDE_2D + 3;
    return r->jp[0] * vp[0] + r->jp[1] * vp[1] + r->jp[2] * vp[2] + r->jq[0] * vq[0]
           + r->jq[1] * vq[1] + r->jq[2] * vq[2];
}

static int movable(const imp_world *w, int slot) { return slot != 0 && !w->model.bodies[slot].fixed; }

/* Rows of the serial sub-problem around the focus: the focus; the joints reachable from its
   movable bodies through joints; under hybrid the approaching non-joint records sharing a
   body with the focus. Returns the count written to rows. O(n^2) worst case. */
int imp_engine2d_impulse_subset(imp_world *w, const imp_rec2d *rec, int n, int focus,
                                const double *vel, double small, int hybrid, int *rows)
{
    unsigned char *in = w->engine2d->bil + n;  /* second half of a 2n scratch, see below */
    memset(in, 0, (size_t)n);
    int m = 0;
    rows[m++] = focus;
    in[focus] = 1;
    if (hybrid) {
        for (int k = 0; k < n; k++) {
            if (in[k] || rec[k].bilateral || !(vel[k] < -small)) {
                continue;
            }
            int fp = rec[focus].p, fq = rec[focus].q;
            int shares = (movable(w, fp) && (rec[k].p == fp || rec[k].q == fp))
                         || (movable(w, fq) && (rec[k].p == fq || rec[k].q == fq));
            if (shares) {
                rows[m++] = k;
                in[k] = 1;
            }
        }
    }
    /* joints connected through movable bodies (breadth first over the rows taken) */
    for (int h = 0; h < m; h++) {
        const imp_rec2d *r = &rec[rows[h]];
        for (int k = 0; k < n; k++) {
            if (in[k] || !rec[k].bilateral) {
                continue;
            }
            int link = (movable(w, r->p) && (rec[k].p == r->p || rec[k].q == r->p))
                       || (movable(w, r->q) && (rec[k].p == r->q || rec[k].q == r->q));
            if (link) {
                rows[m++] = k;
                in[k] = 1;
            }
        }
    }
    return m;
}

/* Notes the movable bodies of the rows (rows == NULL: the first m records) of a problem that
   could not be solved, up to 8, for the step's error message. */
int imp_engine2d_first_approaching(const int *perm, int n, const unsigned char *bil,
                                   const double *vel, double small)
{
    for (int k = 0; k < n; k++) {
        int i = perm[k];
        if (bil[i] ? fabs(vel[i]) > small : vel[i] < -small) {
            return i;
        }
    }
    return -1;
}

void imp_engine2d_sub_matrix(const double *A, int n, const int *rows, int m, double *As)
{
    for (int u = 0; u < m; u++) {
        const double *row = A + (size_t)rows[u] * (size_t)n;
        for (int v = 0; v < m; v++) {
            As[(size_t)u * (size_t)m + (size_t)v] = row[rows[v]];
        }
    }
}

void imp_engine2d_note_failure(imp_world *w, const imp_rec2d *rec, const int *rows, int m)
{
    imp_engine2d *e = w->engine2d;
    e->nfail = 0;
    for (int u = 0; u < m && e->nfail < 8; u++) {
        const imp_rec2d *r = &rec[rows != NULL ? rows[u] : u];
        const int ends[2] = {r->p, r->q};
        for (int k = 0; k < 2 && e->nfail < 8; k++) {
            int seen = !movable(w, ends[k]);
            for (int j = 0; j < e->nfail && !seen; j++) {
                seen = e->fail_bodies[j] == ends[k];
            }
            if (!seen) {
                e->fail_bodies[e->nfail++] = ends[k];
            }
        }
    }
}

int imp_engine2d_handle(imp_world *w, double *y, imp_rec2d *rec, int n,
                        const unsigned char *elastic, imp_collision_handling mode)
{
    imp_engine2d *e = w->engine2d;
    e->nfail = 0;
    if (n <= 0) {
        return 0;
    }
    /* bil holds 2n flags: the rows' kinds, then the subset scratch */
    if (imp_engine2d_reserve_lcp(e, 2 * n) != 0) {
        return -1;
    }
    int pgs = w->model.def.engine2d.contact_solver == IMP_SOLVER_PGS;
    if (!pgs || mode != IMP_HANDLING_SIMULTANEOUS) {  /* PGS alone never forms A */
        if (imp_engine2d_reserve_matrix(e, n) != 0 || imp_engine2d_build_A(w, rec, n, e->A) != 0) {
            return -1;
        }
    }
    double *A = e->A, *b = e->b, *f = e->f, *vel = e->vel, *jsum = e->jsum;
    unsigned char *bil = e->bil;
    for (int i = 0; i < n; i++) {
        vel[i] = record_velocity(y, &rec[i]);
        bil[i] = (unsigned char)(rec[i].bilateral != 0);
        jsum[i] = 0.0;
    }
    if (w->model.def.engine2d.conventions == IMP_CONVENTIONS_MYPHYSICSLAB && !pgs) {
        if (imp_engine2d_impulses_mpl(w, rec, n, A, vel, bil, elastic, mode, jsum) != 0) {
            return -1;
        }
    } else if (mode == IMP_HANDLING_SIMULTANEOUS) {
        for (int i = 0; i < n; i++) {
            double el = (elastic != NULL && elastic[i] && !bil[i]) ? rec[i].elasticity : 0.0;
            b[i] = (1.0 + el) * vel[i];
        }
        if (solve_all(w, rec, A, b, bil, n, jsum, pgs) != 0) {
            imp_engine2d_note_failure(w, rec, NULL, n);
            return -1;
        }
    } else {
        double small = 1e-5;
        long iter = 0, limit = 200L * n + 2000;
        int *perm = e->perm, *rows = e->rows;
        double *As = e->Asub;
        for (;;) {
            for (int i = 0; i < n; i++) {
                perm[i] = i;
            }
            for (int i = n - 1; i > 0; i--) {  /* Fisher-Yates with the world's generator */
                int j = (int)imp_rng_below(&w->data.rng, (uint64_t)i + 1u);
                int t = perm[i];
                perm[i] = perm[j];
                perm[j] = t;
            }
            int focus = imp_engine2d_first_approaching(perm, n, bil, vel, small);
            if (focus < 0 || iter > limit) {
                break;
            }
            int m = imp_engine2d_impulse_subset(w, rec, n, focus, vel, small,
                                                mode == IMP_HANDLING_HYBRID, rows);
            /* the sub-problem, in the first m entries of b and f; its flags after bil's 2n */
            imp_engine2d_sub_matrix(A, n, rows, m, As);
            for (int u = 0; u < m; u++) {
                int i = rows[u];
                double el = bil[i] ? 0.0 : rec[i].elasticity;
                b[u] = (1.0 + el) * vel[i];
            }
            unsigned char *sbil = bil + n;  /* the subset is done with it */
            for (int u = 0; u < m; u++) {
                sbil[u] = bil[rows[u]];
            }
            if (solve(w, As, b, sbil, m, f) != 0) {
                imp_engine2d_note_failure(w, rec, rows, m);
                return -1;
            }
            for (int u = 0; u < m; u++) {
                double df = f[u];
                if (df == 0.0) {
                    continue;
                }
                int i = rows[u];
                jsum[i] += df;
                for (int k = 0; k < n; k++) {
                    vel[k] += A[(size_t)k * (size_t)n + (size_t)i] * df;
                }
            }
            iter++;
            if (iter % (20L * n) == 0) {
                small *= 2.0;  /* myPhysicsLab's "panic": accept slower approaches */
            }
        }
        /* last pass: nothing may be left approaching (costs energy only where it acts) */
        int need = 0;
        for (int i = 0; i < n; i++) {
            need |= bil[i] ? fabs(vel[i]) > 1e-12 : vel[i] < -1e-12;
        }
        if (need) {
            for (int i = 0; i < n; i++) {
                b[i] = vel[i];
                f[i] = 0.0;
            }
            if (solve_all(w, rec, A, b, bil, n, f, pgs) != 0) {
                imp_engine2d_note_failure(w, rec, NULL, n);
                return -1;
            }
            for (int i = 0; i < n; i++) {
                jsum[i] += f[i];
            }
        }
    }
    /* apply: v_B += M_B^-1 J_B^T j */
    int applied = 0;
    for (int i = 0; i < n; i++) {
        imp_rec2d *r = &rec[i];
        double j = jsum[i];
        r->impulse = j;
        if (fabs(j) > 1e-12) {
            applied = 1;
        }
        if (j == 0.0) {
            continue;
        }
        const int s[2] = {r->p, r->q};
        const double *jr[2] = {r->jp, r->jq};
        for (int u = 0; u < 2; u++) {
            const imp_body *bd = &w->model.bodies[s[u]];
            if (!movable(w, s[u])) {
                continue;
            }
            double *v = y + (size_t)s[u] * IMP_STRIDE_2D + 3;
            v[0] += bd->inv_mass * jr[u][0] * j;
            v[1] += bd->inv_mass * jr[u][1] * j;
            v[2] += bd->inv_inertia.m[2][2] * jr[u][2] * j;
        }
    }
    if (applied) {
        e->stats.impulse_solves++;
    }
    return applied;
}
