/* test_dem_reset.c: the dem force resetter (dem_step.c) leaves every force and torque zero as
   read by imp_dem_force_written's readers (it clears the groups' marks; the bytes stay until
   the first write zeroes a group), whatever wrote them since its last run: the interaction
   loop, the world's forces (Body:apply_force), an interaction erased after the loop; and the
   numbers the readers see are those written (a world force on a particle alone). The scene: a
   floor and 400 spheres in a row 4 radii apart, every tenth one pressed 0.5 mm into the floor (real
   contacts with it), spinning, so the loop writes forces and torques to a few particles. */
#include "check.h"

#include <string.h>

#include "dem_scene.h"

enum { N = 400 };

static imp_world *scene(void)
{
    imp_world *w = dem_scene_box(N * 0.04, 0.04);
    if (w == NULL) {
        return NULL;
    }
    for (int i = 0; i < N; i++) {
        double s[13] = {(i + 0.5) * 0.04, 0.02, i % 10 == 0 ? 0.0095 : 0.05, 1.0, 0.0, 0.0, 0.0,
                        0.1, 0.0, 0.0, 0.0, 0.0, 3.0};
        if (dem_scene_sphere(w, 0.01, 2600.0, s) != 0) {
            imp_world_free(w);
            return NULL;
        }
    }
    if (imp_dem_sync(w) != IMP_OK) {
        imp_world_free(w);
        return NULL;
    }
    imp_world_set_dt(w, 0.5 * imp_dem_p_wave_dt(w->dem));
    return w;
}

/* counts of non-zero force and torque components of the dem copy, as its readers see them */
static int nonzero(const imp_dem *d)
{
    int c = 0;
    for (int i = 0; i < 3 * d->n; i++) {
        c += imp_dem_force_written(d, i / 3) && (d->force[i] != 0.0) + (d->torque[i] != 0.0);
    }
    return c;
}

/* a copy of d's forces reset (the world keeps stepping with its own) */
static int nonzero_after_reset(imp_dem *d)
{
    size_t bytes = 3 * (size_t)d->n * sizeof(double), nm = (size_t)d->n / 8 + 1;
    double *f = malloc(bytes), *t = malloc(bytes);
    unsigned char *m = malloc(nm);
    if (f == NULL || t == NULL || m == NULL) {
        free(f);
        free(t);
        free(m);
        return -1;
    }
    memcpy(f, d->force, bytes);
    memcpy(t, d->torque, bytes);
    memcpy(m, d->force_mark, nm);
    imp_dem_reset_forces(d);
    int c = nonzero(d);
    memcpy(d->force, f, bytes);
    memcpy(d->torque, t, bytes);
    memcpy(d->force_mark, m, nm);
    free(f);
    free(t);
    free(m);
    return c;
}

TEST(sparse_reset_zeroes_all)
{
    imp_world *w = scene();
    CHECK(w != NULL);
    imp_dem *d = w->dem;
    int written = 0;
    for (int s = 0; s < 5; s++) {
        CHECK(imp_world_step(w) == IMP_OK);
        CHECK((long)d->ninter * 8 < (long)d->n);  /* few groups written */
        written += nonzero(d) > 0;
        CHECK(nonzero_after_reset(d) == 0);
    }
    CHECK(written == 5);  /* the contacts with the floor pushed at every step */
    /* a world force on a sphere in no interaction (the 6th: above the floor, alone) */
    int i6 = -1;
    for (int i = 0, m = 0; i < d->n && i6 < 0; i++) {
        i6 = d->kind[i] == IMP_DEM_SPHERE && m++ == 5 ? i : -1;
    }
    CHECK(i6 >= 0);
    for (int j = 0; j < d->ninter; j++) {
        CHECK(d->inter[j].a != i6 && d->inter[j].b != i6);
    }
    imp_body_id b = {.slot = d->slot[i6], .generation = w->model.bodies[d->slot[i6]].generation};
    const double f[3] = {0.0, 1e-3, 0.0}, t[3] = {0.0, 0.0, 1e-6};
    imp_body_apply_force(w, b, f, NULL);
    imp_body_apply_torque(w, b, t);
    CHECK(imp_world_step(w) == IMP_OK);
    double fl[3], tl[3], kn;
    imp_dem_particle_load(d, i6, fl, tl, &kn);  /* the world's force and torque, as given */
    CHECK(fl[0] == 0.0 && fl[1] == 1e-3 && fl[2] == 0.0);
    CHECK(tl[0] == 0.0 && tl[1] == 0.0 && tl[2] == 1e-6 && kn == 0.0);
    CHECK(nonzero_after_reset(d) == 0);
    /* an interaction with forces erased after the loop */
    int k = -1;
    for (int j = 0; j < d->ninter && k < 0; j++) {
        k = d->inter[j].real && d->inter[j].fn > 0.0 ? j : -1;
    }
    CHECK(k >= 0);
    CHECK(imp_world_step(w) == IMP_OK);
    imp_dem_particle_load(d, i6, fl, tl, &kn);  /* applied for one step only */
    CHECK(fl[0] == 0.0 && fl[1] == 0.0 && fl[2] == 0.0 && tl[2] == 0.0);
    imp_dem_erase(d, k);
    CHECK(nonzero_after_reset(d) == 0);
    CHECK(imp_world_step(w) == IMP_OK);
    imp_world_free(w);
}

int main(int argc, char **argv)
{
    CHECK_BEGIN(argc, argv);
    RUN(sparse_reset_zeroes_all);
    return CHECK_END("dem_reset");
}
