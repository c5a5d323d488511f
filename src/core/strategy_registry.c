/* strategy_registry.c: the one place strategies are registered (strategy.h), one table per
   strategy and dimension (a strategy may run on different engines in 2D and 3D). */
#include "strategy.h"

#include "world_internal.h"

static const imp_strategy_ops *const registry[2][IMP_STRATEGY_COUNT] = {
    {   /* 2D worlds */
        [IMP_STRATEGY_NONE] = &imp_strategy_none,
        [IMP_STRATEGY_COMPLIANT] = &imp_strategy_compliant,
        [IMP_STRATEGY_DEM] = &imp_strategy_dem,
        [IMP_STRATEGY_IMPULSE] = &imp_strategy_impulse,
        [IMP_STRATEGY_CONTACT] = &imp_strategy_contact,
    },
    {   /* 3D worlds */
        [IMP_STRATEGY_NONE] = &imp_strategy_none,
        [IMP_STRATEGY_COMPLIANT] = &imp_strategy_compliant,
        [IMP_STRATEGY_DEM] = &imp_strategy_dem,
        [IMP_STRATEGY_IMPULSE] = &imp_strategy_impulse3d,
        [IMP_STRATEGY_CONTACT] = &imp_strategy_contact3d,
    },
};

const imp_strategy_ops *imp_strategy_ops_of(int s, int dim)
{
    return s >= 0 && s < IMP_STRATEGY_COUNT && (dim == 2 || dim == 3) ? registry[dim - 2][s] : NULL;
}

const imp_strategy_ops *imp_world_strategy(const imp_world *w)
{
    return registry[w->model.def.dim - 2][w->model.def.strategy];
}

int imp_strategy_supports(int s, int dim)
{
    const imp_strategy_ops *o = imp_strategy_ops_of(s, dim);
    return o != NULL && ((o->dims & (1u << dim)) != 0 || (o->flags & IMP_STRATEGY_DIMS_AT_STEP) != 0);
}

const char *imp_strategy_dims_name(int s)
{
    const imp_strategy_ops *o2 = imp_strategy_ops_of(s, 2), *o3 = imp_strategy_ops_of(s, 3);
    if (o2 == NULL || o3 == NULL) {
        return "";
    }
    unsigned d = (o2->dims | o3->dims) & (IMP_DIM2 | IMP_DIM3);
    return d == (IMP_DIM2 | IMP_DIM3) ? "2D or 3D" : d == IMP_DIM2 ? "2D" : d == IMP_DIM3 ? "3D" : "";
}

int imp_world_strategy_has(const imp_world *w, unsigned flag)
{
    return (imp_world_strategy(w)->flags & flag) != 0;
}
