/* box3.h: whether two axis-aligned 3D boxes (lo, hi corners, three doubles each) overlap,
   without a branch per axis. Touching faces count in imp_box3_touch (closed boxes), not in
   imp_box3_cross (open ones). NaN bounds overlap nothing. */
#ifndef IMPACT_BOX3_H
#define IMPACT_BOX3_H

static inline int imp_box3_touch(const double *la, const double *ha, const double *lb, const double *hb)
{
    return (la[0] <= hb[0]) & (lb[0] <= ha[0]) & (la[1] <= hb[1]) & (lb[1] <= ha[1]) & (la[2] <= hb[2])
           & (lb[2] <= ha[2]);
}

static inline int imp_box3_cross(const double *la, const double *ha, const double *lb, const double *hb)
{
    return (la[0] < hb[0]) & (lb[0] < ha[0]) & (la[1] < hb[1]) & (lb[1] < ha[1]) & (la[2] < hb[2])
           & (lb[2] < ha[2]);
}

#endif
