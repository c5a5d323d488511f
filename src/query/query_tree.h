/* query_tree.h: a static bounding-volume hierarchy over axis-aligned boxes, for the world's
   queries (query_world.h): which boxes overlap a box, which boxes a segment crosses.

   Built from scratch in O(n log^2 n) (median splits on the longest axis of the boxes' centres,
   ties by id, so the tree depends on the input alone); a box query costs O(log n + k) for k
   answers in a well-spread scene, a segment O(log n) per box crossed. Boxes with an infinite
   or NaN bound (walls) are kept in a side list that every query tests (they are few). */
#ifndef IMPACT_QUERY_TREE_H
#define IMPACT_QUERY_TREE_H

typedef struct imp_qnode {
    double lo[3], hi[3];
    int left;   /* child node, or -1 for a leaf */
    int right;  /* child node; for a leaf: unused */
    int first, count; /* leaf: items order[first .. first + count - 1] */
} imp_qnode;

typedef struct imp_query_tree {
    int n;            /* boxes (bounded and not) */
    int nbounded;
    int cap;
    int *id;          /* the caller's id of each box */
    double *lo, *hi;  /* 3 per box */
    int *order;       /* bounded boxes, leaf by leaf */
    int *unbounded, nunbounded;
    imp_qnode *node;
    int nnode;
    int *stack;       /* traversal scratch, 2 n + 64 */
} imp_query_tree;

#define IMP_QUERY_TREE_EMPTY {0, 0, 0, NULL, NULL, NULL, NULL, NULL, 0, NULL, 0, NULL}

/* Sizes the tree for n boxes and clears it; 0, or -1 when out of memory. */
int imp_query_tree_reserve(imp_query_tree *t, int n);
/* Adds a box (after reserve, at most n of them). */
void imp_query_tree_add(imp_query_tree *t, int id, const double lo[3], const double hi[3]);
/* Builds the hierarchy over the boxes added. */
void imp_query_tree_build(imp_query_tree *t);
void imp_query_tree_free(imp_query_tree *t);

/* Calls fn(user, id) for every box overlapping [lo, hi] (touching counts); stops early and
   returns non-zero when fn does. */
int imp_query_tree_box(const imp_query_tree *t, const double lo[3], const double hi[3],
                       int (*fn)(void *user, int id), void *user);
/* Calls fn(user, id, &fmax) for every box the segment from + f d, f in [0, fmax], crosses;
   fn may lower fmax (a closest-hit search), which prunes the rest. Nearer subtrees first. */
void imp_query_tree_segment(const imp_query_tree *t, const double from[3], const double d[3],
                            double fmax, void (*fn)(void *user, int id, double *fmax), void *user);

#endif
