/* filter.c: collision filters, no_collide pairs and kinematic targets (filter.h). */
#include "filter.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "quat.h"

static unsigned long long pair_key(int a, int b)
{
    unsigned lo = (unsigned)(a < b ? a : b), hi = (unsigned)(a < b ? b : a);
    return ((unsigned long long)lo << 32) | hi;
}

/* index of the first key >= k */
static int lower_bound(const imp_world *w, unsigned long long k)
{
    int lo = 0, hi = w->model.nno_collide;
    while (lo < hi) {
        int mid = lo + (hi - lo) / 2;
        if (w->model.no_collide[mid] < k) {
            lo = mid + 1;
        } else {
            hi = mid;
        }
    }
    return lo;
}

int imp_filter_excluded(const imp_world *w, int a, int b)
{
    unsigned long long k = pair_key(a, b);
    int i = lower_bound(w, k);
    return i < w->model.nno_collide && w->model.no_collide[i] == k;
}

void imp_filter_forget_slot(imp_world *w, int s)
{
    int kept = 0;
    for (int i = 0; i < w->model.nno_collide; i++) {
        unsigned long long k = w->model.no_collide[i];
        if ((int)(k >> 32) != s && (int)(k & 0xffffffffu) != s) {
            w->model.no_collide[kept++] = k;
        }
    }
    if (kept != w->model.nno_collide) {
        w->model.nno_collide = kept;
        w->model.filter_version++;
    }
}

imp_status imp_body_set_filter(imp_world *w, imp_body_id id, unsigned category, unsigned mask,
                               int group)
{
    imp_body *b = imp_world_body(w, id);
    if (b == NULL) {
        snprintf(w->data.error, sizeof w->data.error, "a stale body handle (its body was removed)");
        return IMP_ERR_STALE;
    }
    if (category > IMP_FILTER_BITS || mask > IMP_FILTER_BITS || group < IMP_FILTER_GROUP_MIN
        || group > IMP_FILTER_GROUP_MAX) {
        snprintf(w->data.error, sizeof w->data.error, "a filter's category and mask are in 0 .. "
                 "0xFFFF and its group in -32768 .. 32767, got %u, %u, %d", category, mask, group);
        return IMP_ERR_INVALID;
    }
    if (b->category != category || b->mask != mask || b->group != group) {
        b->category = category;
        b->mask = mask;
        b->group = group;
        w->model.filter_version++;
    }
    return IMP_OK;
}

imp_status imp_world_set_no_collide(imp_world *w, imp_body_id a, imp_body_id b, int no_collide)
{
    if (imp_world_body(w, a) == NULL || imp_world_body(w, b) == NULL) {
        snprintf(w->data.error, sizeof w->data.error, "a stale body handle (its body was removed)");
        return IMP_ERR_STALE;
    }
    unsigned long long k = pair_key(a.slot, b.slot);
    int i = lower_bound(w, k), n = w->model.nno_collide;
    int present = i < n && w->model.no_collide[i] == k;
    if (no_collide && !present) {
        if (n == w->model.no_collide_cap) {
            int cap = n > 0 ? 2 * n : 16;
            unsigned long long *p = realloc(w->model.no_collide, (size_t)cap * sizeof *p);
            if (p == NULL) {
                snprintf(w->data.error, sizeof w->data.error, "out of memory");
                return IMP_ERR_NOMEM;
            }
            w->model.no_collide = p;
            w->model.no_collide_cap = cap;
        }
        memmove(w->model.no_collide + i + 1, w->model.no_collide + i, (size_t)(n - i) * sizeof k);
        w->model.no_collide[i] = k;
        w->model.nno_collide++;
        w->model.filter_version++;
    } else if (!no_collide && present) {
        memmove(w->model.no_collide + i, w->model.no_collide + i + 1, (size_t)(n - i - 1) * sizeof k);
        w->model.nno_collide--;
        w->model.filter_version++;
    }
    return IMP_OK;
}

int imp_world_should_collide(const imp_world *w, imp_body_id a, imp_body_id b)
{
    const imp_body *ba = imp_world_body((imp_world *)w, a), *bb = imp_world_body((imp_world *)w, b);
    return ba != NULL && bb != NULL && a.slot != b.slot && imp_filter_pair(w, a.slot, b.slot);
}

imp_status imp_body_set_target(imp_world *w, imp_body_id id, const double *pose)
{
    imp_world_sync(w);
    imp_body *b = imp_world_body(w, id);
    if (b == NULL) {
        snprintf(w->data.error, sizeof w->data.error, "a stale body handle (its body was removed)");
        return IMP_ERR_STALE;
    }
    if (!b->kinematic) {
        snprintf(w->data.error, sizeof w->data.error, "only a kinematic body follows a target pose");
        return IMP_ERR_INVALID;
    }
    int n = w->model.def.dim == 2 ? 3 : 7;
    double p[7] = {0, 0, 0, 0, 0, 0, 0};
    for (int i = 0; i < n; i++) {
        if (!isfinite(pose[i])) {
            snprintf(w->data.error, sizeof w->data.error, "the target pose must be finite");
            return IMP_ERR_INVALID;
        }
        p[i] = pose[i];
    }
    if (n == 7) {
        imp_quat q = imp_q(p[3], p[4], p[5], p[6]);
        double norm = imp_q_norm(q);
        if (!(norm > 0.0) || !isfinite(norm)) {
            snprintf(w->data.error, sizeof w->data.error, "the target orientation must be a "
                     "nonzero quaternion of finite norm");
            return IMP_ERR_INVALID;
        }
        q = imp_q_normalize(q);
        p[3] = q.w, p[4] = q.x, p[5] = q.y, p[6] = q.z;
    }
    memcpy(b->target, p, (size_t)n * sizeof *p);
    b->has_target = 1;
    return IMP_OK;
}

/* the angular velocity (world frame) that turns q0 into q1 in time dt about a fixed axis */
static void turn_rate(imp_quat q0, imp_quat q1, double dt, double om[3])
{
    imp_quat d = imp_q_mul(q1, imp_q_conj(q0));
    if (d.w < 0.0) {  /* the shorter way round */
        d.w = -d.w, d.x = -d.x, d.y = -d.y, d.z = -d.z;
    }
    double s = sqrt(d.x * d.x + d.y * d.y + d.z * d.z);
    double angle = 2.0 * atan2(s, d.w);
    double k = s > 0.0 ? angle / (s * dt) : 2.0 / dt;  /* small angles: sin(a/2) ~ a/2 */
    om[0] = k * d.x, om[1] = k * d.y, om[2] = k * d.z;
}

void imp_kinematic_drive(imp_world *w, double dt)
{
    if (w->model.nkinematic == 0) {
        return;
    }
    int dim = w->model.def.dim, stride = w->model.stride;
    for (int i = 1; i < w->model.nslots; i++) {
        const imp_body *b = &w->model.bodies[i];
        if (!b->active || !b->kinematic || !b->has_target) {
            continue;
        }
        double *y = w->data.y + (size_t)i * (size_t)stride;
        double v[6];
        int nv;
        if (dim == 2) {
            v[0] = (b->target[0] - y[0]) / dt;
            v[1] = (b->target[1] - y[1]) / dt;
            v[2] = (b->target[2] - y[2]) / dt;
            nv = 3;
        } else {
            for (int k = 0; k < 3; k++) {
                v[k] = (b->target[k] - y[k]) / dt;
            }
            turn_rate(imp_q_normalize(imp_q(y[3], y[4], y[5], y[6])),
                      imp_q(b->target[3], b->target[4], b->target[5], b->target[6]), dt, v + 3);
            nv = 6;
        }
        int vo = dim == 2 ? IMP_VEL_2D : IMP_VEL_3D;
        memcpy(y + vo, v, (size_t)nv * sizeof *v);
        /* not an edit (the strategies keep their contacts), except for a multistep integrator,
           whose history a change of velocity would falsify: it restarts as after an edit */
        if (w->model.def.integrator.kind != IMP_MSBDF) {
            memcpy(w->scratch.y_end + (size_t)i * (size_t)stride + vo, v, (size_t)nv * sizeof *v);
        }
    }
}

void imp_kinematic_land(imp_world *w)
{
    if (w->model.nkinematic == 0) {
        return;
    }
    int n = w->model.def.dim == 2 ? 3 : 7;
    for (int i = 1; i < w->model.nslots; i++) {
        imp_body *b = &w->model.bodies[i];
        if (b->active && b->kinematic && b->has_target) {
            memcpy(w->data.y + (size_t)i * (size_t)w->model.stride, b->target, (size_t)n * sizeof *b->target);
            b->has_target = 0;
        }
    }
}
