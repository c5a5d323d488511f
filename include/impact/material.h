/* impact/material.h: the materials of a world's bodies and the contact-pair materials between them
   (compliant strategy). The Lua front keeps the palette; a world holds the materials its
   bodies use, by index, and the pair table between them. */
#ifndef IMPACT_PUBLIC_MATERIAL_H
#define IMPACT_PUBLIC_MATERIAL_H

typedef struct imp_material {
    char name[48];
    double E;        /* Young's modulus, N/m^2 (> 0) */
    double nu;       /* Poisson's ratio, 0 < nu < 0.5 */
    double density;  /* kg/m^3 (2D: kg/m^2 per unit thickness) */
} imp_material;

typedef struct imp_pair_material {
    int defined;
    double cor;      /* coefficient of restitution, [0, 1] */
    double mu_k;     /* sliding friction coefficient */
    double mu_r;     /* rolling resistance coefficient */
    double vsmall;   /* m/s: regularization of the sliding direction and of cor */
    double wsmall;   /* rad/s: regularization of the rolling direction */
} imp_pair_material;

typedef struct imp_material_table {
    imp_material *items;
    int n, cap;
    imp_pair_material *pairs;  /* cap x cap, symmetric */
} imp_material_table;

/* The index of the material named name, adding it (or updating its constants) as needed;
   -1 when out of memory. */
int imp_materials_put(imp_material_table *t, const char *name, double E, double nu, double density);
int imp_materials_find(const imp_material_table *t, const char *name);
void imp_materials_set_pair(imp_material_table *t, int i, int j, const imp_pair_material *p);
const imp_pair_material *imp_materials_pair(const imp_material_table *t, int i, int j);
void imp_materials_free(imp_material_table *t);

#endif
