/* status.c: names of the core's status codes. */
#include <impact/status.h>

const char *imp_status_name(imp_status s)
{
    switch (s) {
    case IMP_OK: return "ok";
    case IMP_ERR_NOMEM: return "out of memory";
    case IMP_ERR_INVALID: return "invalid argument";
    case IMP_ERR_SOLVER: return "solver failure";
    case IMP_ERR_NONFINITE: return "non-finite state";
    case IMP_ERR_STALE: return "removed object";
    }
    return "unknown status";
}
