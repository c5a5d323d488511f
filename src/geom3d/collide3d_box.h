/* collide3d_box.h: the narrow phase's closed form for two boxes whose cores overlap
   (collide3d_box.c: the separating axes). */
#ifndef IMPACT_COLLIDE3D_BOX_H
#define IMPACT_COLLIDE3D_BOX_H

#include "collide3d.h"
#include "support3d.h"

/* Fills out (status IMP_NP_OK, method IMP_NP_ANALYTIC) and returns 1 when the cores of the boxes
   a and b overlap by more than 1e-9 of their size; returns 0 (out untouched) otherwise. */
int imp_collide3d_box_box(const imp_support3d *a, const imp_support3d *b, imp_contact3d *out);

#endif
