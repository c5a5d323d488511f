/* material.c: a world's material table. */
#include <impact/material.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int imp_materials_find(const imp_material_table *t, const char *name)
{
    for (int i = 0; i < t->n; i++) {
        if (strcmp(t->items[i].name, name) == 0) {
            return i;
        }
    }
    return -1;
}

int imp_materials_put(imp_material_table *t, const char *name, double E, double nu, double density)
{
    int i = imp_materials_find(t, name);
    if (i < 0) {
        if (t->n == t->cap) {
            int cap = t->cap ? 2 * t->cap : 8;
            imp_material *items = realloc(t->items, (size_t)cap * sizeof *items);
            if (items == NULL) {
                return -1;
            }
            t->items = items;
            imp_pair_material *pairs = calloc((size_t)cap * (size_t)cap, sizeof *pairs);
            if (pairs == NULL) {
                return -1;
            }
            for (int a = 0; a < t->n; a++) {
                for (int b = 0; b < t->n; b++) {
                    pairs[a * cap + b] = t->pairs[a * t->cap + b];
                }
            }
            free(t->pairs);
            t->pairs = pairs;
            t->cap = cap;
        }
        i = t->n++;
        snprintf(t->items[i].name, sizeof t->items[i].name, "%s", name);
    }
    t->items[i].E = E;
    t->items[i].nu = nu;
    t->items[i].density = density;
    return i;
}

void imp_materials_set_pair(imp_material_table *t, int i, int j, const imp_pair_material *p)
{
    t->pairs[i * t->cap + j] = *p;
    t->pairs[j * t->cap + i] = *p;
}

const imp_pair_material *imp_materials_pair(const imp_material_table *t, int i, int j)
{
    return &t->pairs[i * t->cap + j];
}

void imp_materials_free(imp_material_table *t)
{
    free(t->items);
    free(t->pairs);
    t->items = NULL;
    t->pairs = NULL;
    t->n = t->cap = 0;
}
