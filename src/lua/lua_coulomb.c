/* lua_coulomb.c: impact.lcp.coulomb{...} -> r, u, info, the 3D Coulomb contact solver of
   include/impact/coulomb.h for tests, researchers and scripts. Fields of the argument table:
     M          dense rows {{...}, ...} (n rows of n numbers) or sparse triplets
                {n = n, i = {...}, j = {...}, v = {...}} (1-based; duplicates are summed)
     q          n numbers
     mu         one number for every contact, or an array of one per contact
     bilateral  joint rows: a list of row numbers {4, 5}, or n booleans
     tol        (or tolerance) on Siconos' error, default 1e-10
     method     "auto" | "newton" | "nsgs"
     max_iterations, max_sweeps, max_time (seconds; default none), warm_start (n numbers)
   Rows that are not bilateral form the contacts, three consecutive ones each (normal,
   tangent 1, tangent 2). A solve that does not reach tol is not an error: info.ok is false
   and info.status says why; r is the best answer found. Bad arguments raise errors naming
   the field, the value and what is accepted. */
#include <string.h>

#include <impact/coulomb.h>
#include "lua_util.h"

void imp_lua_open_coulomb(lua_State *L);

static const char *const WHAT = "impact.lcp.coulomb";

/* an integer in 1..n at t[i] */
static int index_at(lua_State *L, int t, lua_Integer i, const char *name, int n)
{
    lua_geti(L, t, i);
    if (!lua_isinteger(L, -1) || lua_tointeger(L, -1) < 1 || lua_tointeger(L, -1) > n) {
        imp_error(L, WHAT, "M.%s[%I] must be a row number 1..%d, got %s", name, (LUAI_UACINT)i, n, imp_describe(L, -1));
    }
    int v = (int)lua_tointeger(L, -1);
    lua_pop(L, 1);
    return v - 1;
}

static int l_coulomb(lua_State *L)
{
    static const char *const keys[] = {"M", "q", "mu", "bilateral", "tol", "tolerance", "method",
                                       "max_iterations", "max_sweeps", "max_time", "warm_start", NULL};
    static const char *const methods[] = {"auto", "newton", "nsgs", NULL};
    if (!lua_istable(L, 1)) {
        return imp_error(L, WHAT, "argument 1 must be a table {M = ..., q = ..., mu = ...}, got %s",
                         imp_describe(L, 1));
    }
    lua_settop(L, 1);
    imp_opt_check_keys(L, 1, WHAT, keys);
    /* q gives n */
    lua_getfield(L, 1, "q");
    if (!lua_istable(L, -1)) imp_error(L, WHAT, "field 'q' must be an array of numbers, got %s", imp_describe(L, -1));
    lua_Integer nn = (lua_Integer)lua_rawlen(L, -1);
    if (nn > 20000) imp_error(L, WHAT, "q has %I rows; at most 20000 are accepted", (LUAI_UACINT)nn);
    int n = (int)nn;
    size_t un = (size_t)n;
    double *q = imp_lua_scratch(L, un * sizeof(double));
    for (int i = 0; i < n; i++) q[i] = imp_number_at(L, WHAT, 2, i + 1, "q", 0);
    lua_remove(L, 2); /* the q table; its copy (a userdata) stays anchored at 2 */
    unsigned char *bil = imp_lua_scratch(L, un);
    double *r = imp_lua_scratch(L, un * sizeof(double)), *u = imp_lua_scratch(L, un * sizeof(double));
    double *warm = imp_lua_scratch(L, un * sizeof(double));
    int *rp = imp_lua_scratch(L, (un + 1) * sizeof(int));
    int top = lua_gettop(L);

    /* bilateral rows */
    int nb = 0;
    lua_getfield(L, 1, "bilateral");
    if (!lua_isnil(L, -1)) {
        if (!lua_istable(L, -1)) {
            imp_error(L, WHAT, "field 'bilateral' must be a list of row numbers or %d booleans, got %s", n,
                      imp_describe(L, -1));
        }
        lua_Integer len = (lua_Integer)lua_rawlen(L, -1);
        lua_geti(L, -1, 1);
        int booleans = lua_isboolean(L, -1);
        lua_pop(L, 1);
        if (booleans && len != n) {
            imp_error(L, WHAT, "field 'bilateral' given as booleans must have %d entries, got %I", n, (LUAI_UACINT)len);
        }
        for (lua_Integer k = 1; k <= len; k++) {
            lua_geti(L, -1, k);
            if (booleans) {
                if (!lua_isboolean(L, -1)) {
                    imp_error(L, WHAT, "bilateral[%I] must be a boolean, got %s", (LUAI_UACINT)k, imp_describe(L, -1));
                }
                bil[k - 1] = (unsigned char)lua_toboolean(L, -1);
            } else {
                if (!lua_isinteger(L, -1) || lua_tointeger(L, -1) < 1 || lua_tointeger(L, -1) > n) {
                    imp_error(L, WHAT, "bilateral[%I] must be a row number 1..%d, got %s", (LUAI_UACINT)k, n,
                              imp_describe(L, -1));
                }
                bil[lua_tointeger(L, -1) - 1] = 1;
            }
            lua_pop(L, 1);
        }
        for (int i = 0; i < n; i++) nb += bil[i] != 0;
    }
    lua_settop(L, top);
    if ((n - nb) % 3 != 0) {
        imp_error(L, WHAT, "q has %d rows, %d of them bilateral: the other %d must come three per contact "
                  "(normal, tangent 1, tangent 2)", n, nb, n - nb);
    }
    int nc = (n - nb) / 3;

    /* mu */
    double *mu = imp_lua_scratch(L, (size_t)(nc > 0 ? nc : 1) * sizeof(double));
    top = lua_gettop(L);
    lua_getfield(L, 1, "mu");
    if (lua_type(L, -1) == LUA_TNUMBER) {
        double m = lua_tonumber(L, -1);
        if (!(m >= 0.0) || m - m != 0.0) imp_error(L, WHAT, "field 'mu' must be a finite number >= 0, got %s", imp_describe(L, -1));
        for (int c = 0; c < nc; c++) mu[c] = m;
    } else if (lua_istable(L, -1)) {
        if ((lua_Integer)lua_rawlen(L, -1) != nc) {
            imp_error(L, WHAT, "field 'mu' must have one entry per contact (%d), got %I", nc,
                      (LUAI_UACINT)lua_rawlen(L, -1));
        }
        for (int c = 0; c < nc; c++) {
            mu[c] = imp_number_at(L, WHAT, lua_gettop(L), c + 1, "mu", 0);
            if (!(mu[c] >= 0.0)) {
                lua_geti(L, -1, c + 1);
                imp_error(L, WHAT, "mu[%d] must be >= 0, got %s", c + 1, imp_describe(L, -1));
            }
        }
    } else if (!lua_isnil(L, -1) || nc > 0) {
        imp_error(L, WHAT, "field 'mu' must be a number >= 0 or an array of %d (one per contact), got %s", nc,
                  imp_describe(L, -1));
    }
    lua_settop(L, top);

    /* M */
    int *col = NULL;
    double *val = NULL;
    int nnz = 0;
    lua_getfield(L, 1, "M");
    int mt = lua_gettop(L);
    if (!lua_istable(L, mt)) {
        imp_error(L, WHAT, "field 'M' must be %d dense rows of %d numbers or sparse triplets {n =, i =, j =, v =}, got %s",
                  n, n, imp_describe(L, mt));
    }
    lua_getfield(L, mt, "n");
    int sparse = !lua_isnil(L, -1);
    if (sparse) {
        if (!lua_isinteger(L, -1) || lua_tointeger(L, -1) != n) {
            imp_error(L, WHAT, "M.n must be the number of rows of q (%d), got %s", n, imp_describe(L, -1));
        }
        lua_pop(L, 1);
        lua_Integer len[3];
        const char *nm[3] = {"i", "j", "v"};
        for (int k = 0; k < 3; k++) {
            lua_getfield(L, mt, nm[k]);
            if (!lua_istable(L, -1)) imp_error(L, WHAT, "M.%s must be an array, got %s", nm[k], imp_describe(L, -1));
            len[k] = (lua_Integer)lua_rawlen(L, -1);
        }
        if (len[0] != len[1] || len[0] != len[2]) {
            imp_error(L, WHAT, "M.i, M.j and M.v must have the same length, got %I, %I and %I", (LUAI_UACINT)len[0],
                      (LUAI_UACINT)len[1], (LUAI_UACINT)len[2]);
        }
        if (len[0] > 50000000) imp_error(L, WHAT, "M has %I triplets; at most 50000000 are accepted", (LUAI_UACINT)len[0]);
        int ne = (int)len[0];
        int *ti = imp_lua_scratch(L, (size_t)ne * sizeof(int) + 1), *tj = imp_lua_scratch(L, (size_t)ne * sizeof(int) + 1);
        double *tv = imp_lua_scratch(L, (size_t)ne * sizeof(double) + 1);
        int *work = imp_lua_scratch(L, un * sizeof(int) + 1);
        col = imp_lua_scratch(L, (size_t)ne * sizeof(int) + 1);
        val = imp_lua_scratch(L, (size_t)ne * sizeof(double) + 1);
        for (int e = 0; e < ne; e++) {
            ti[e] = index_at(L, mt + 1, e + 1, "i", n);
            tj[e] = index_at(L, mt + 2, e + 1, "j", n);
            tv[e] = imp_number_at(L, WHAT, mt + 3, e + 1, "M.v", 0);
        }
        nnz = imp_coulomb_csr_from_triplets(n, ne, ti, tj, tv, work, rp, col, val);
    } else {
        lua_pop(L, 1);
        if ((lua_Integer)lua_rawlen(L, mt) != n) {
            imp_error(L, WHAT, "M has %I rows but q has %d entries", (LUAI_UACINT)lua_rawlen(L, mt), n);
        }
        /* count the nonzeros first, then fill */
        for (int pass = 0; pass < 2; pass++) {
            nnz = 0;
            for (int i = 0; i < n; i++) {
                lua_geti(L, mt, i + 1);
                if (!lua_istable(L, -1) || (lua_Integer)lua_rawlen(L, -1) != n) {
                    imp_error(L, WHAT, "M[%d] must be an array of %d numbers, got %s", i + 1, n, imp_describe(L, -1));
                }
                int row = lua_gettop(L);
                if (pass == 1) rp[i] = nnz;
                for (int j = 0; j < n; j++) {
                    double v = imp_number_at(L, WHAT, row, j + 1, "M", i + 1);
                    if (v == 0.0) continue;
                    if (pass == 1) {
                        col[nnz] = j;
                        val[nnz] = v;
                    }
                    nnz++;
                }
                lua_pop(L, 1);
            }
            if (pass == 0) {
                col = imp_lua_scratch(L, (size_t)nnz * sizeof(int) + 1);
                val = imp_lua_scratch(L, (size_t)nnz * sizeof(double) + 1);
                lua_insert(L, mt); /* keep M on top for the second pass: scratch goes below */
                lua_insert(L, mt);
                mt += 2;
            }
        }
        rp[n] = nnz;
    }
    (void)nnz;

    imp_coulomb_options o;
    imp_coulomb_default_options(&o);
    int has_tol = 0;
    double tol = imp_opt_number(L, 1, WHAT, "tol", 1e-10, IMP_POSITIVE, &has_tol);
    if (!has_tol) tol = imp_opt_number(L, 1, WHAT, "tolerance", 1e-10, IMP_POSITIVE, NULL);
    o.tolerance = tol;
    o.method = (imp_coulomb_method)imp_opt_enum(L, 1, WHAT, "method", methods, 0);
    o.max_iterations = (int)imp_opt_integer(L, 1, WHAT, "max_iterations", 200, 1, 1000000);
    o.max_sweeps = (int)imp_opt_integer(L, 1, WHAT, "max_sweeps", o.method == IMP_COULOMB_NSGS ? 100000 : 2000, 1,
                                        100000000);
    o.max_time = imp_opt_number(L, 1, WHAT, "max_time", 0.0, IMP_NONNEGATIVE, NULL);
    if (imp_opt_vector(L, 1, WHAT, "warm_start", n, warm)) o.warm_start = warm;

    imp_coulomb_problem p = {{n, rp, col, val}, q, mu, nb > 0 ? bil : NULL, NULL};
    imp_coulomb_info info;
    imp_coulomb_workspace *ws = imp_coulomb_workspace_create(n);
    if (ws == NULL) return imp_raise(L, "%s: out of memory", WHAT);
    imp_coulomb_solve(&p, &o, ws, r, u, &info);
    imp_coulomb_workspace_destroy(ws);
    if (info.status == IMP_COULOMB_BAD_INPUT) return imp_error(L, WHAT, "%s", info.message);
    if (info.status == IMP_COULOMB_NO_MEMORY) return imp_raise(L, "%s: out of memory", WHAT);

    imp_push_vector(L, r, n);
    imp_push_vector(L, u, n);
    lua_createtable(L, 0, 14);
    lua_pushboolean(L, info.status == IMP_COULOMB_OK);
    lua_setfield(L, -2, "ok");
    lua_pushstring(L, imp_coulomb_status_name(info.status));
    lua_setfield(L, -2, "status");
    lua_pushstring(L, info.message);
    lua_setfield(L, -2, "message");
    lua_pushstring(L, info.method);
    lua_setfield(L, -2, "method");
    lua_pushnumber(L, info.error);
    lua_setfield(L, -2, "error");
    lua_pushnumber(L, tol);
    lua_setfield(L, -2, "tolerance");
    const struct { const char *k; int v; } ints[] = {
        {"iterations", info.iterations}, {"sweeps", info.sweeps}, {"fallbacks", info.fallbacks},
        {"contacts", info.contacts}, {"sticking", info.sticking}, {"sliding", info.sliding}, {"open", info.open}};
    for (size_t k = 0; k < sizeof ints / sizeof ints[0]; k++) {
        lua_pushinteger(L, ints[k].v);
        lua_setfield(L, -2, ints[k].k);
    }
    return 3;
}

void imp_lua_open_coulomb(lua_State *L)
{
    static const luaL_Reg fns[] = {{"lcp_coulomb", l_coulomb}, {NULL, NULL}};
    luaL_setfuncs(L, fns, 0);
}
