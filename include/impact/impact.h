/* impact/impact.h: the public C API of impact's core, all of it:

     #include <impact/impact.h>     cc ... -limpact -lgsl -lgslcblas -lm -fopenmp

   status.h      imp_status, the error convention
   types.h       imp_mat3
   shape.h       shapes (2D, 3D), reference-counted
   body.h        a body's model and the layout of its state
   integrator.h  the integration methods and their settings
   compliant_def.h, engine2d_def.h   the options of the strategies
   material.h    materials and contact-pair materials
   events.h      what happened during a step
   profile.h     the timed stages of a step
   world.h       the world: definitions with their defaults, ids, stepping, energy, stats
   lcp.h         the contact LCP (Baraff's pivoting), independent of bodies
   coulomb.h     3D contact with exact Coulomb friction, independent of bodies */
#ifndef IMPACT_PUBLIC_IMPACT_H
#define IMPACT_PUBLIC_IMPACT_H

#include <impact/status.h>
#include <impact/types.h>
#include <impact/shape.h>
#include <impact/body.h>
#include <impact/integrator.h>
#include <impact/compliant_def.h>
#include <impact/engine2d_def.h>
#include <impact/material.h>
#include <impact/events.h>
#include <impact/profile.h>
#include <impact/world.h>
#include <impact/lcp.h>
#include <impact/coulomb.h>

#endif
