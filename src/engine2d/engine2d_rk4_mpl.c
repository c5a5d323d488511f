/* engine2d_rk4_mpl.c: under conventions = "myphysicslab", the trial step's RK4 with its
   RungeKutta's floating operations: the stages at y + k h / 2 and y + k h, the step
   y += (k1 + 2 k2 + 2 k3 + k4) h / 6 (impact's rk4 rounds h / 6 first). A body sliding
   freely for 40 steps then sits where its own does to the last bit (test8_0: its striker's
   face meets the pinned pair's at -7.1e-15 there, a collision, where h / 6 first gave 0, a
   touch, one more contact solve and other draws). Four right-hand-side evaluations; work
   holds 5 n numbers. */
#include "engine2d.h"

void imp_engine2d_rk4_mpl(void (*f)(void *, double, const double *, double *), void *ctx,
                          double t, double h, double *y, size_t n, double *work)
{
    double *k1 = work, *k2 = work + n, *k3 = work + 2 * n, *k4 = work + 3 * n, *yt = work + 4 * n;
    f(ctx, t, y, k1);
    for (size_t i = 0; i < n; i++) {
        yt[i] = y[i] + k1[i] * h / 2.0;
    }
    f(ctx, t + h / 2.0, yt, k2);
    for (size_t i = 0; i < n; i++) {
        yt[i] = y[i] + k2[i] * h / 2.0;
    }
    f(ctx, t + h / 2.0, yt, k3);
    for (size_t i = 0; i < n; i++) {
        yt[i] = y[i] + k3[i] * h;
    }
    f(ctx, t + h, yt, k4);
    for (size_t i = 0; i < n; i++) {
        y[i] += (k1[i] + 2.0 * k2[i] + 2.0 * k3[i] + k4[i]) * h / 6.0;
    }
}
