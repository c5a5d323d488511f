/* impact/status.h: status codes of the C core. The core reports errors as values; the world keeps a
   message (imp_world_error) saying what went wrong, when, and which bodies. */
#ifndef IMPACT_PUBLIC_STATUS_H
#define IMPACT_PUBLIC_STATUS_H

typedef enum imp_status {
    IMP_OK = 0,
    IMP_ERR_NOMEM,      /* out of memory */
    IMP_ERR_INVALID,    /* an argument outside what is accepted */
    IMP_ERR_SOLVER,     /* an integrator or solver failed; the state was restored */
    IMP_ERR_NONFINITE,  /* the state became NaN or infinite; the state was restored */
    IMP_ERR_STALE       /* a handle to a removed object */
} imp_status;

const char *imp_status_name(imp_status s);

#endif
