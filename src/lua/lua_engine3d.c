/* lua_engine3d.c: the Lua side of the 3D engine (engine3d.h) in 3D worlds under the impulse
   and contact strategies: w:contacts() from the contact points of the last step, the per-pair
   coefficients of w:set_pair (the 3D connectors: lua_joint3d.c). */

#include "engine3d.h"
#include "lua_engine3d.h"
#include "lua_world.h"

/* the velocity of the point p (world) of the body in slot s, at the world's state */
static void point_velocity(const imp_world *w, int s, const double *p, double *v)
{
    const double *y = w->data.y + (size_t)s * IMP_STRIDE_3D;
    if (s == 0 || w->model.bodies[s].fixed) {  /* as the engine: at rest */
        v[0] = v[1] = v[2] = 0.0;
        return;
    }
    const double *lin = y + IMP_VEL_3D, *ang = y + IMP_VEL_3D + 3;
    const double r[3] = {p[0] - y[0], p[1] - y[1], p[2] - y[2]};
    v[0] = lin[0] + ang[1] * r[2] - ang[2] * r[1];
    v[1] = lin[1] + ang[2] * r[0] - ang[0] * r[2];
    v[2] = lin[2] + ang[0] * r[1] - ang[1] * r[0];
}

/* w:contacts() (3D, impulse and contact): one entry per contact point of the last step (those
   the detection kept within the step's margin), sorted by body pair; none before the first
   step and after bodies are added or removed:
     body1, body2   the bodies (body1 has the lower slot), normal from body1 toward body2
     point          the midpoint of the two bodies' closest points at the start of the step
     distance       the signed gap there (< 0: penetration)
     normal_velocity  (v2 - v1) . normal at the point now (< 0: approaching)
     normal_force   the normal impulse of the step (serial impacts included) over dt (N, >= 0),
                    on body2 along normal;
                    force: the same number (the name of the 2D contacts)
     friction_force the friction impulse over dt, a vector orthogonal to the normal (N), on
                    body2 (body1 gets the opposite); its length <= friction * normal_force
     friction, elasticity  the pair's coefficients
     kind           "contact" (touching: within distance_tol or pushed) or "imminent" */
int imp_lua_engine3d_contacts(lua_State *L)
{
    imp_world *w = imp_lua_check_world(L, 1);
    const imp_engine3d *e = w->engine3d;
    /* none when bodies came or went since the last step's detection (its slots are stale) */
    int n = e != NULL && e->bodies_version == w->model.bodies_version ? e->nprev : 0;
    double h = w->model.def.dt;
    lua_createtable(L, n, 0);
    for (int i = 0; i < n; i++) {
        const imp_e3_point *p = &e->prev[i];
        double mid[3], ft[3], va[3], vb[3];
        for (int k = 0; k < 3; k++) {
            mid[k] = 0.5 * (p->pa[k] + p->pb[k]);
            ft[k] = (p->r[1] * p->t1[k] + p->r[2] * p->t2[k]) / h;
        }
        point_velocity(w, p->a, mid, va);
        point_velocity(w, p->b, mid, vb);
        double un = (vb[0] - va[0]) * p->normal[0] + (vb[1] - va[1]) * p->normal[1]
                    + (vb[2] - va[2]) * p->normal[2];
        lua_createtable(L, 0, 12);
        imp_lua_push_body(L, 1, p->a);
        lua_setfield(L, -2, "body1");
        imp_lua_push_body(L, 1, p->b);
        lua_setfield(L, -2, "body2");
        imp_push_vector(L, mid, 3);
        lua_setfield(L, -2, "point");
        imp_push_vector(L, p->normal, 3);
        lua_setfield(L, -2, "normal");
        lua_pushnumber(L, p->distance);
        lua_setfield(L, -2, "distance");
        lua_pushnumber(L, un);
        lua_setfield(L, -2, "normal_velocity");
        double rn = p->r[0] + p->rimp;  /* rimp: serial handling's impacts */
        lua_pushnumber(L, rn / h);
        lua_setfield(L, -2, "normal_force");
        lua_pushnumber(L, rn / h);
        lua_setfield(L, -2, "force");
        imp_push_vector(L, ft, 3);
        lua_setfield(L, -2, "friction_force");
        lua_pushnumber(L, p->mu);
        lua_setfield(L, -2, "friction");
        lua_pushnumber(L, p->e);
        lua_setfield(L, -2, "elasticity");
        int touching = p->distance <= w->model.def.engine2d.distance_tol || rn > 0.0;
        lua_pushstring(L, touching ? "contact" : "imminent");
        lua_setfield(L, -2, "kind");
        lua_rawseti(L, -2, i + 1);
    }
    return 1;
}

int imp_lua_engine3d_set_pair(lua_State *L, imp_world *w, int a, int b, int has_f, double friction,
                              int has_e, double elasticity)
{
    double mu, el;  /* keep what is not given: the pair's, else the bodies' (the engine's rule) */
    imp_engine3d_pair_material(w, a, b, &mu, &el);
    if (!has_f) {
        friction = mu;
    }
    if (!has_e) {
        elasticity = el;
    }
    if (imp_engine3d_set_pair(w, a, b, friction, elasticity) != 0) {
        return imp_raise(L, "World:set_pair: out of memory");
    }
    return 0;
}
