/* contact_sparsify.h: Solfec's heuristic removal of redundant contact points (dom.c
   sparsify_contacts; /work/shared/reference/solfec.md section 5), with its adjacency quirk
   fixed (section 9.6) and made independent of the order of the contacts.

   For every NEW contact C (old contacts are never removed, but count as D):
     - C.area < minarea: remove C;
     - for every other contact D that shares a body with C:
         if C.area < threshold * D.area, C and D join the same two bodies (either order) and on
         both bodies their objects are equal or topologically adjacent, different on at least one:
         remove C;
         else if max |C.point - D.point| (max norm) < 2 mindist and D is old or D comes first in
         the canonical order (bodies, then objects, then area, then the point, lexicographically):
         remove C (of coincident duplicates the first survives).
   Decisions use the input set only (deferred removal), so shuffling the input does not change
   which contacts survive. "area" is the contact's area (for polyhedra: half the surface area
   of the intersection, contact_polyhedral.h). Cost O(sum over bodies of deg^2). */
#ifndef IMPACT_CONTACT_SPARSIFY_H
#define IMPACT_CONTACT_SPARSIFY_H

typedef struct imp_sparse_contact {
    double point[3];
    double area;
    int body[2];   /* body indices in [0, nbodies) */
    int object[2]; /* the geometric object of each body (its convex piece, element, ...) */
    int is_new;    /* 1: detected this step (may be removed); 0: existing */
} imp_sparse_contact;

typedef struct imp_sparsify_opts {
    double threshold; /* in [0, 1]; Solfec's default 0.01 */
    double minarea;   /* >= 0; default 0 */
    double mindist;   /* >= 0; default the geometric epsilon */
} imp_sparsify_opts;

/* 1 when objects o1 != o2 of the body are topologically adjacent (share a face, edge or vertex) */
typedef int (*imp_adjacent_fn)(void *ud, int body, int o1, int o2);

enum { IMP_SPARSIFY_OK = 0, IMP_SPARSIFY_EBADARG = 1, IMP_SPARSIFY_ENOMEM = 2 };

/* keep[i] = 1 for the contacts that survive, 0 for the removed ones. adjacent may be NULL (no
   two distinct objects adjacent). Returns IMP_SPARSIFY_EBADARG for a body index out of range or
   options out of range. Allocates O(n + nbodies) scratch. */
int imp_contact_sparsify(const imp_sparse_contact *c, int n, int nbodies, const imp_sparsify_opts *opts,
                         imp_adjacent_fn adjacent, void *ud, unsigned char *keep);

/* The same with caller scratch of IMP_SPARSIFY_WORK(n, nbodies) ints (no allocation). */
#define IMP_SPARSIFY_WORK(n, nbodies) ((size_t)(2 * (n) + 1) + 2 * ((size_t)(nbodies) + 1))
int imp_contact_sparsify_ws(const imp_sparse_contact *c, int n, int nbodies, const imp_sparsify_opts *opts,
                            imp_adjacent_fn adjacent, void *ud, unsigned char *keep, int *work);

#endif
