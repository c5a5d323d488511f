/* lua_lcp.c: impact.lcp.solve(A, b, opts) -> f, a, info (the contact LCP solver of
   include/impact/lcp.h for tests and researchers). A is a table of n rows of n numbers, b n numbers.
   Options:
     bilateral  = {true, false, ...}     n booleans (joint rows: f free, a = 0)
     friction   = {[t] = k, ...}         friction row t bounded by mu times normal row k
     mu         = 0.5 | {[t] = 0.5, ...}  friction coefficient (one for all, or per row)
     sliding    = {[t] = -1 | 1, ...}    dynamic friction rows sliding along -/+ row t
     method     = "auto" | "symmetric" | "general" | "lemke" | "box"
     order      = "greedy" | "index"
     tolerance, pivot_tolerance, max_pivots
     warm_start = info.state of a previous solve
   Failures of the solve are not Lua errors: info.ok is false and info.status says why. Bad
   arguments raise errors naming the argument, the value and what is accepted. */
#include <string.h>

#include <impact/lcp.h>
#include "lua_util.h"

static const char *const WHAT = "impact.lcp.solve";
static const char *const STATE_NAMES[] = {"free", "clamped", "lower", "upper", "sliding", "redundant", NULL};

/* a sparse option table {[row] = value} over rows 1..n: calls back per entry */
static void check_row_key(lua_State *L, const char *opt, int n)
{
    if (!lua_isinteger(L, -2) || lua_tointeger(L, -2) < 1 || lua_tointeger(L, -2) > n) {
        imp_error(L, WHAT, "option '%s' keys must be row numbers 1..%d, got %s", opt, n, imp_describe(L, -2));
    }
}

static int l_solve(lua_State *L)
{
    static const char *const keys[] = {"bilateral", "friction", "mu", "sliding", "method", "order",
                                       "tolerance", "pivot_tolerance", "max_pivots", "warm_start", NULL};
    static const char *const methods[] = {"auto", "symmetric", "general", "lemke", "box", NULL};
    static const char *const orders[] = {"greedy", "index", NULL};
    if (!lua_istable(L, 2)) {
        imp_error(L, WHAT, "argument 2 (b) must be an array of numbers, got %s", imp_describe(L, 2));
    }
    lua_Integer nn = (lua_Integer)lua_rawlen(L, 2);
    if (nn > 20000) imp_error(L, WHAT, "b has %I rows; at most 20000 are accepted", (LUAI_UACINT)nn);
    int n = (int)nn;
    if (!lua_istable(L, 1)) {
        imp_error(L, WHAT, "argument 1 (A) must be a table of %d rows of %d numbers, got %s", n, n,
                  imp_describe(L, 1));
    }
    if ((lua_Integer)lua_rawlen(L, 1) != n) {
        imp_error(L, WHAT, "A has %I rows but b has %d entries", (LUAI_UACINT)lua_rawlen(L, 1), n);
    }
    if (!lua_isnoneornil(L, 3) && !lua_istable(L, 3)) {
        imp_error(L, WHAT, "argument 3 (options) must be a table, got %s", imp_describe(L, 3));
    }
    lua_settop(L, 3);
    if (lua_isnil(L, 3)) {
        lua_newtable(L);
        lua_replace(L, 3);
    }
    imp_opt_check_keys(L, 3, WHAT, keys);
    size_t un = (size_t)n;
    double *A = imp_lua_scratch(L, un * un * sizeof(double));
    double *b = imp_lua_scratch(L, un * sizeof(double));
    double *f = imp_lua_scratch(L, un * sizeof(double));
    double *a = imp_lua_scratch(L, un * sizeof(double));
    double *mu = imp_lua_scratch(L, un * sizeof(double));
    int *fn = imp_lua_scratch(L, un * sizeof(int));
    unsigned char *bil = imp_lua_scratch(L, un);
    signed char *sl = imp_lua_scratch(L, un), *st = imp_lua_scratch(L, un), *warm = imp_lua_scratch(L, un);
    int top = lua_gettop(L); /* above the scratch userdata: they stay anchored until return */
    for (int i = 0; i < n; i++) {
        b[i] = imp_number_at(L, WHAT, 2, i + 1, "b", 0);
        lua_geti(L, 1, i + 1);
        if (!lua_istable(L, -1) || (lua_Integer)lua_rawlen(L, -1) != n) {
            imp_error(L, WHAT, "A[%d] must be an array of %d numbers, got %s", i + 1, n, imp_describe(L, -1));
        }
        for (int j = 0; j < n; j++) A[(size_t)i * un + j] = imp_number_at(L, WHAT, lua_gettop(L), j + 1, "A", i + 1);
        lua_pop(L, 1);
        fn[i] = -1;
    }
    imp_lcp_options o;
    imp_lcp_default_options(&o);
    imp_lcp_problem p = {n, A, b, NULL, NULL, NULL, NULL};

    lua_getfield(L, 3, "bilateral");
    if (!lua_isnil(L, -1)) {
        if (!lua_istable(L, -1) || (lua_Integer)lua_rawlen(L, -1) != n) {
            imp_error(L, WHAT, "option 'bilateral' must be an array of %d booleans, got %s", n, imp_describe(L, -1));
        }
        for (int i = 0; i < n; i++) {
            lua_geti(L, -1, i + 1);
            if (!lua_isboolean(L, -1)) {
                imp_error(L, WHAT, "bilateral[%d] must be a boolean, got %s", i + 1, imp_describe(L, -1));
            }
            bil[i] = (unsigned char)lua_toboolean(L, -1);
            lua_pop(L, 1);
        }
        p.bilateral = bil;
    }
    lua_pop(L, 1);

    lua_getfield(L, 3, "friction");
    if (!lua_isnil(L, -1)) {
        if (!lua_istable(L, -1)) {
            imp_error(L, WHAT, "option 'friction' must be a table {[row] = normal_row}, got %s", imp_describe(L, -1));
        }
        lua_pushnil(L);
        while (lua_next(L, -2) != 0) {
            check_row_key(L, "friction", n);
            if (!lua_isinteger(L, -1) || lua_tointeger(L, -1) < 1 || lua_tointeger(L, -1) > n) {
                lua_Integer row = lua_tointeger(L, -2);  /* before imp_describe pushes */
                imp_error(L, WHAT, "friction[%I] must be a normal row number 1..%d, got %s", (LUAI_UACINT)row,
                          n, imp_describe(L, -1));
            }
            fn[lua_tointeger(L, -2) - 1] = (int)lua_tointeger(L, -1) - 1;
            lua_pop(L, 1);
        }
        p.friction_normal = fn;
        p.mu = mu;
        p.sliding = sl;
    }
    lua_pop(L, 1);

    lua_getfield(L, 3, "mu");
    if (lua_type(L, -1) == LUA_TNUMBER) {
        double m = imp_opt_number(L, 3, WHAT, "mu", 0.0, IMP_NONNEGATIVE, NULL);
        for (int i = 0; i < n; i++) mu[i] = m;
    } else if (lua_istable(L, -1)) {
        lua_pushnil(L);
        while (lua_next(L, -2) != 0) {
            check_row_key(L, "mu", n);
            int isnum = 0;
            double m = lua_tonumberx(L, -1, &isnum);
            if (!isnum || !(m >= 0.0) || m - m != 0.0) {
                lua_Integer row = lua_tointeger(L, -2);  /* before imp_describe pushes */
                imp_error(L, WHAT, "mu[%I] must be a finite number >= 0, got %s", (LUAI_UACINT)row,
                          imp_describe(L, -1));
            }
            mu[lua_tointeger(L, -2) - 1] = m;
            lua_pop(L, 1);
        }
    } else if (!lua_isnil(L, -1)) {
        imp_error(L, WHAT, "option 'mu' must be a number >= 0 or a table {[row] = mu}, got %s", imp_describe(L, -1));
    }
    lua_pop(L, 1);

    lua_getfield(L, 3, "sliding");
    if (!lua_isnil(L, -1)) {
        if (!lua_istable(L, -1)) {
            imp_error(L, WHAT, "option 'sliding' must be a table {[row] = -1 or 1}, got %s", imp_describe(L, -1));
        }
        lua_pushnil(L);
        while (lua_next(L, -2) != 0) {
            check_row_key(L, "sliding", n);
            lua_Integer v = lua_isinteger(L, -1) ? lua_tointeger(L, -1) : 0;
            if (v != 1 && v != -1) {
                lua_Integer row = lua_tointeger(L, -2);  /* before imp_describe pushes */
                imp_error(L, WHAT, "sliding[%I] must be -1 or 1, got %s", (LUAI_UACINT)row, imp_describe(L, -1));
            }
            int t = (int)lua_tointeger(L, -2) - 1;
            if (fn[t] < 0) {
                imp_error(L, WHAT, "sliding[%d]: row %d is not a friction row (see option 'friction')", t + 1, t + 1);
            }
            sl[t] = (signed char)v;
            lua_pop(L, 1);
        }
    }
    lua_pop(L, 1);

    o.method = (imp_lcp_method)imp_opt_enum(L, 3, WHAT, "method", methods, 0);
    o.order = (imp_lcp_order)imp_opt_enum(L, 3, WHAT, "order", orders, 0);
    o.tolerance = imp_opt_number(L, 3, WHAT, "tolerance", 1e-9, IMP_POSITIVE, NULL);
    o.pivot_tolerance = imp_opt_number(L, 3, WHAT, "pivot_tolerance", 1e-11, IMP_POSITIVE, NULL);
    o.max_pivots = (int)imp_opt_integer(L, 3, WHAT, "max_pivots", 0, 0, 1000000000);

    lua_getfield(L, 3, "warm_start");
    if (!lua_isnil(L, -1)) {
        if (!lua_istable(L, -1) || (lua_Integer)lua_rawlen(L, -1) != n) {
            imp_error(L, WHAT, "option 'warm_start' must be an array of %d states (info.state), got %s", n,
                      imp_describe(L, -1));
        }
        for (int i = 0; i < n; i++) {
            lua_geti(L, -1, i + 1);
            const char *s = lua_tostring(L, -1);
            int k = 0;
            while (s != NULL && STATE_NAMES[k] != NULL && strcmp(STATE_NAMES[k], s) != 0) k++;
            if (s == NULL || STATE_NAMES[k] == NULL || lua_type(L, -1) != LUA_TSTRING) {
                imp_error(L, WHAT, "warm_start[%d] must be a state name (free, clamped, lower, upper, sliding, "
                          "redundant), got %s", i + 1, imp_describe(L, -1));
            }
            warm[i] = (signed char)k;
            lua_pop(L, 1);
        }
        o.warm_start = warm;
    }
    lua_pop(L, 1);
    lua_settop(L, top);

    imp_lcp_info info;
    imp_lcp_status status = imp_lcp_solve(&p, &o, NULL, f, a, st, &info);
    if (status == IMP_LCP_BAD_INPUT) {
        return imp_error(L, WHAT, "%s", info.message);
    }
    if (status == IMP_LCP_NO_MEMORY) {
        return imp_raise(L, "%s: out of memory", WHAT);
    }
    imp_push_vector(L, f, n);
    imp_push_vector(L, a, n);
    lua_createtable(L, 0, 20);
    lua_pushboolean(L, status == IMP_LCP_OK);
    lua_setfield(L, -2, "ok");
    lua_pushstring(L, imp_lcp_status_name(status));
    lua_setfield(L, -2, "status");
    lua_pushstring(L, info.message);
    lua_setfield(L, -2, "message");
    lua_pushstring(L, info.method == IMP_LCP_GENERAL ? "general"
                      : info.method == IMP_LCP_LEMKE ? "lemke"
                      : info.method == IMP_LCP_BOX ? "box" : "symmetric");
    lua_setfield(L, -2, "method");
    const struct { const char *k; int v; } ints[] = {
        {"pivots", info.pivots}, {"additions", info.additions}, {"removals", info.removals},
        {"set_changes", info.additions + info.removals}, {"max_clamped", info.max_clamped},
        {"clamped", info.clamped}};
    for (size_t k = 0; k < sizeof ints / sizeof ints[0]; k++) {
        lua_pushinteger(L, ints[k].v);
        lua_setfield(L, -2, ints[k].k);
    }
    lua_pushboolean(L, info.warm_started);
    lua_setfield(L, -2, "warm_started");
    const struct { const char *k; double v; } dbl[] = {
        {"min_f", info.min_f}, {"min_a", info.min_a}, {"max_comp", info.max_comp},
        {"max_bilateral", info.max_bilateral}, {"max_friction", info.max_friction},
        {"natural_residual", info.natural_residual}, {"scale_f", info.scale_f}, {"scale_a", info.scale_a}};
    for (size_t k = 0; k < sizeof dbl / sizeof dbl[0]; k++) {
        lua_pushnumber(L, dbl[k].v);
        lua_setfield(L, -2, dbl[k].k);
    }
    lua_createtable(L, n, 0);
    for (int i = 0; i < n; i++) {
        int s = st[i] >= 0 && st[i] <= 5 ? st[i] : 0;
        lua_pushstring(L, STATE_NAMES[s]);
        lua_rawseti(L, -2, i + 1);
    }
    lua_setfield(L, -2, "state");
    return 3;
}

/* impact.lcp.cone(k, {inscribed = false}) -> directions {{cos, sin}, ...}, mu_factor,
   max_error (see imp_lcp_cone in lcp.h) */
static int l_cone(lua_State *L)
{
    static const char *const what = "impact.lcp.cone";
    static const char *const keys[] = {"inscribed", NULL};
    if (!lua_isinteger(L, 1) || lua_tointeger(L, 1) < 2 || lua_tointeger(L, 1) > IMP_LCP_CONE_MAX) {
        return imp_error(L, what, "argument 1 (k, directions per contact) must be an integer in 2..%d, got %s",
                         IMP_LCP_CONE_MAX, imp_describe(L, 1));
    }
    int k = (int)lua_tointeger(L, 1);
    if (!lua_isnoneornil(L, 2) && !lua_istable(L, 2)) {
        return imp_error(L, what, "argument 2 (options) must be a table, got %s", imp_describe(L, 2));
    }
    lua_settop(L, 2);
    imp_opt_check_keys(L, 2, what, keys);
    int inscribed = lua_istable(L, 2) ? imp_opt_boolean(L, 2, what, "inscribed", 0) : 0;
    double dirs[2 * IMP_LCP_CONE_MAX], factor, err;
    imp_lcp_cone(k, inscribed, dirs, &factor, &err);
    lua_createtable(L, k, 0);
    for (int j = 0; j < k; j++) {
        imp_push_vector(L, dirs + 2 * j, 2);
        lua_rawseti(L, -2, j + 1);
    }
    lua_pushnumber(L, factor);
    lua_pushnumber(L, err);
    return 3;
}

void imp_lua_open_coulomb(lua_State *L); /* lua_coulomb.c: impact.lcp.coulomb */
void imp_lua_open_lcp(lua_State *L)
{
    static const luaL_Reg fns[] = {{"lcp_solve", l_solve}, {"lcp_cone", l_cone}, {NULL, NULL}};
    luaL_setfuncs(L, fns, 0);
    imp_lua_open_coulomb(L);
}
