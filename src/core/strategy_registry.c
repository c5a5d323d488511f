/* strategy_registry.c: the one place strategies are registered (strategy.h). */
#include "strategy.h"

#include "world_internal.h"

static const imp_strategy_ops *const registry[IMP_STRATEGY_COUNT] = {
    [IMP_STRATEGY_NONE] = &imp_strategy_none,
    [IMP_STRATEGY_COMPLIANT] = &imp_strategy_compliant,
    [IMP_STRATEGY_DEM] = &imp_strategy_dem,
    [IMP_STRATEGY_IMPULSE] = &imp_strategy_impulse,
    [IMP_STRATEGY_CONTACT] = &imp_strategy_contact,
};

const imp_strategy_ops *imp_strategy_ops_of(int s)
{
    return s >= 0 && s < IMP_STRATEGY_COUNT ? registry[s] : NULL;
}

const imp_strategy_ops *imp_world_strategy(const imp_world *w)
{
    return registry[w->model.def.strategy];
}

int imp_strategy_supports(int s, int dim)
{
    const imp_strategy_ops *o = imp_strategy_ops_of(s);
    return o != NULL && (dim == 2 || dim == 3)
           && ((o->dims & (1u << dim)) != 0 || (o->flags & IMP_STRATEGY_DIMS_AT_STEP) != 0);
}

const char *imp_strategy_dims_name(int s)
{
    const imp_strategy_ops *o = imp_strategy_ops_of(s);
    if (o == NULL) {
        return "";
    }
    unsigned d = o->dims & (IMP_DIM2 | IMP_DIM3);
    return d == (IMP_DIM2 | IMP_DIM3) ? "2D or 3D" : d == IMP_DIM2 ? "2D" : d == IMP_DIM3 ? "3D" : "";
}

int imp_world_strategy_has(const imp_world *w, unsigned flag)
{
    return (registry[w->model.def.strategy]->flags & flag) != 0;
}
