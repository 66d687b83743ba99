/* apps/worklist/wl_app.h: the app_module callbacks that bfs-wl and l-sssp
 * share (state, baselines, cooperative run). Each application's module
 * (bfswl_app.c, lsssp_app.c) adds its reference, check and description.
 * Return conventions as app_module.h. */
#ifndef APPS_WL_APP_H
#define APPS_WL_APP_H

#include "app_module.h"
#include "wl.h"

typedef struct app_wl_state app_wl_state;
/* Checks got (the device's values) against ref and on its own; the number
 * of problems, the first described in msg (app_bfs_check, app_sssp_check). */
typedef size_t (*app_wl_checker)(const app_csr *g, int32_t source, const int32_t *got, const int32_t *want,
                                 char *msg, size_t msg_len);

struct app_wl_state {
    const app_csr *g;
    app_wl_mode mode;
    app_wl_checker check;
    int skip_reference;
    int32_t source, iterations;
    int32_t *ref, *got;
    app_wl_coop *coop;
};

/* The default source: c->source if set (-1 if outside the graph), else node 0
 * of a grid, else the node of largest degree. */
int32_t app_wl_pick_source(const app_config *c, const app_csr *g);
/* A state with the two value arrays; NULL (message in err) when out of
 * memory or the source is outside the graph. */
app_wl_state *app_wl_state_new(const app_config *c, const app_csr *g, app_wl_mode mode, app_wl_checker check,
                               char *err, size_t err_len);
void app_wl_destroy(void *st);
int app_wl_plain(void *st, app_cl *c, const app_plain_args *a, app_plain_result *res, char *msg, size_t msg_len);
int app_wl_setup(void *st, ck_context *ctx, unsigned max_groups, char *err, size_t err_len);
int app_wl_start(void *st, unsigned groups, ck_launch **out, char *err, size_t err_len);
int app_wl_coop_check(void *st, char *msg, size_t msg_len);
void app_wl_teardown(void *st);
/* Test config: variant 0 an R-MAT graph, 1 a grid (small: chaos runs). */
void app_wl_test_config(app_config *c, unsigned variant);
double app_wl_reference_work(const app_config *c);

#endif
