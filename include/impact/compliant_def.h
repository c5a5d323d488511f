/* impact/compliant_def.h: the options of the compliant strategy, plain data the world's definition
   holds (impact/world.h); the strategy itself is src/compliant/compliant.h. */
#ifndef IMPACT_PUBLIC_COMPLIANT_DEF_H
#define IMPACT_PUBLIC_COMPLIANT_DEF_H

typedef struct imp_compliant_def {
    int nz_max;          /* zero-crossing functions: the most pairs watched at once */
    double z_eps;        /* m: hysteresis of the contact flag */
    double k_red;        /* elastic contact reduction factor (multiplies the stiffness) */
    double d_max;        /* s/m: cap of the damping coefficient */
    double cor_min;      /* the least regularized coefficient of restitution */
    double event_tol;    /* s: events are located to within this time */
    int damping;         /* IMP_DAMPING_CALIBRATED or IMP_DAMPING_FLORES */
    double verlet;       /* m: the broad phase's margin; 0 = a tenth of the smallest moving
                            body's bounding radius */
} imp_compliant_def;

/* How the damping coefficient follows from the coefficient of restitution:
   calibrated: so that a free normal impact rebounds with exactly cor_reg (the default);
   flores: d = 8 (1 - cor_reg) / (5 cor_reg reg(|ddelta-|, vsmall)), Flores et al. 2011 as in
   Modia3D's documents, which gives a lower restitution than cor at small cor (about 0.26 for
   cor 0.3, 0.47 for 0.5, 0.68 for 0.7). */
enum { IMP_DAMPING_CALIBRATED = 0, IMP_DAMPING_FLORES = 1 };

imp_compliant_def imp_compliant_default_def(void);

#endif
