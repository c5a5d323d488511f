/* integrate_fixed.c: explicit Euler, Heun's "modified Euler" and classical RK4. */
#include "integrate_fixed.h"

void imp_fixed_step(imp_integrator_kind kind, imp_rhs_fn f, void *ctx, double t, double h,
                    double *y, size_t n, double *work)
{
    double *k1 = work, *k2 = work + n, *k3 = work + 2 * n, *k4 = work + 3 * n, *yt = work + 4 * n;
    f(ctx, t, y, k1);
    if (kind == IMP_EULER) {
        for (size_t i = 0; i < n; i++) {
            y[i] += h * k1[i];
        }
        return;
    }
    if (kind == IMP_MODIFIED_EULER) {
        for (size_t i = 0; i < n; i++) {
            yt[i] = y[i] + h * k1[i];
        }
        f(ctx, t + h, yt, k2);
        for (size_t i = 0; i < n; i++) {
            y[i] += 0.5 * h * (k1[i] + k2[i]);
        }
        return;
    }
    for (size_t i = 0; i < n; i++) {
        yt[i] = y[i] + 0.5 * h * k1[i];
    }
    f(ctx, t + 0.5 * h, yt, k2);
    for (size_t i = 0; i < n; i++) {
        yt[i] = y[i] + 0.5 * h * k2[i];
    }
    f(ctx, t + 0.5 * h, yt, k3);
    for (size_t i = 0; i < n; i++) {
        yt[i] = y[i] + h * k3[i];
    }
    f(ctx, t + h, yt, k4);
    for (size_t i = 0; i < n; i++) {
        y[i] += h / 6.0 * (k1[i] + 2.0 * k2[i] + 2.0 * k3[i] + k4[i]);
    }
}
