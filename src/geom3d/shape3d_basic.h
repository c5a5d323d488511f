/* shape3d_basic.h: kept for the first users of the 3D shapes (sphere, box); every 3D convex
   shape is declared in shape3d.h. */
#ifndef IMPACT_SHAPE3D_BASIC_H
#define IMPACT_SHAPE3D_BASIC_H

#include "shape3d.h"

#endif
