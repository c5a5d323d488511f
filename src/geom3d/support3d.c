/* support3d.c: world-frame support mappings of posed 3D convex shapes. */
#include "support3d.h"

#include "quat.h"

void imp_support3d_init(imp_support3d *s, const imp_shape *shape, const double *pose)
{
    const imp_convex3d *c = shape->data;
    s->c = c;
    s->rot = imp_q_to_mat3(imp_q_normalize(imp_q(pose[3], pose[4], pose[5], pose[6])));
    imp_vec3 rc = imp_m3_mulv(&s->rot, imp_v3_load(shape->centroid));
    s->origin = imp_v3_sub(imp_v3_load(pose), rc);
    imp_vec3 mid = imp_v3_zero();
    if (c->kind == IMP_S3_CONE) {
        mid = imp_v3(0.0, 0.0, 0.5 * (c->core[1] + c->core[2]));
    } else if (c->kind == IMP_S3_CONVEX) {
        for (int i = 0; i < c->nvert; i++) {
            mid = imp_v3_add(mid, imp_v3_load(c->vert + 3 * i));
        }
        mid = imp_v3_scale(mid, 1.0 / c->nvert);
    }
    s->centre = imp_v3_add(s->origin, imp_m3_mulv(&s->rot, mid));
    s->sweep = c->sweep;
    s->scale = c->scale;
}

imp_vec3 imp_support3d_core(const imp_support3d *s, imp_vec3 d)
{
    imp_vec3 dl = imp_m3_tmulv(&s->rot, d);
    double in[3] = {dl.x, dl.y, dl.z}, out[3];
    imp_shape3d_core_support(s->c, in, out);
    return imp_v3_add(s->origin, imp_m3_mulv(&s->rot, imp_v3_load(out)));
}

imp_vec3 imp_support3d_full(const imp_support3d *s, imp_vec3 d)
{
    imp_vec3 p = imp_support3d_core(s, d);
    double l = imp_v3_len(d);
    return l > 0.0 ? imp_v3_madd(p, s->sweep / l, d) : p;
}

static imp_vec3 col(const imp_mat3 *r, int k) { return imp_v3(r->m[0][k], r->m[1][k], r->m[2][k]); }

int imp_support3d_core_span(const imp_support3d *s, imp_vec3 dir[2])
{
    const imp_convex3d *c = s->c;
    switch (c->kind) {
    case IMP_S3_SPHERE:
        return 0;
    case IMP_S3_CAPSULE:
        dir[0] = col(&s->rot, 2);
        return c->core[2] > 0.0 ? 1 : 0;
    case IMP_S3_BOX: {
        int n = 0;
        for (int k = 0; k < 3; k++) {
            if (c->core[k] > 0.0) {
                if (n < 2) {
                    dir[n] = col(&s->rot, k);
                }
                n++;
            }
        }
        return n;
    }
    case IMP_S3_CYLINDER:
        if (c->core[0] > 0.0) {
            dir[0] = col(&s->rot, 0);
            dir[1] = col(&s->rot, 1);
            return c->core[1] > 0.0 ? 3 : 2;
        }
        dir[0] = col(&s->rot, 2);
        return c->core[1] > 0.0 ? 1 : 0;
    case IMP_S3_CONE:
        if (c->core[0] > 0.0) {
            return 3;
        }
        dir[0] = col(&s->rot, 2);
        return c->core[2] > c->core[1] ? 1 : 0;
    default: /* ellipsoid, hull: solid */
        return 3;
    }
}
