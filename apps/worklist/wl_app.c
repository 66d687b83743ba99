/* apps/worklist/wl_app.c: the app_module callbacks shared by bfs-wl and
 * l-sssp (see wl_app.h): state, the two baselines, the cooperative run and
 * the check after each. */
#include "wl_app.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int32_t app_wl_pick_source(const app_config *c, const app_csr *g)
{
    if (c->source >= 0)
        return c->source < g->n ? c->source : -1;
    return c->graph && !strcmp(c->graph, "grid") ? 0 : app_csr_max_degree_node(g);
}

void app_wl_destroy(void *st)
{
    app_wl_state *s = st;
    if (!s)
        return;
    app_wl_coop_free(s->coop);
    free(s->ref);
    free(s->got);
    free(s);
}

app_wl_state *app_wl_state_new(const app_config *c, const app_csr *g, app_wl_mode mode, app_wl_checker check,
                               char *err, size_t err_len)
{
    int32_t source = g->n > 0 ? app_wl_pick_source(c, g) : -1;
    if (source < 0) {
        snprintf(err, err_len, "source %d outside the graph's nodes 0..%d", c->source, g->n - 1);
        return NULL;
    }
    app_wl_state *s = calloc(1, sizeof *s);
    if (!s || !(s->ref = malloc((size_t)g->n * sizeof *s->ref)) || !(s->got = malloc((size_t)g->n * sizeof *s->got))) {
        snprintf(err, err_len, "out of host memory for %d nodes", g->n);
        app_wl_destroy(s);
        return NULL;
    }
    s->g = g;
    s->mode = mode;
    s->check = check;
    s->skip_reference = c->skip_reference;
    s->source = source;
    return s;
}

static int wl_check(app_wl_state *s, char *msg, size_t msg_len)
{
    if (s->skip_reference)
        return APP_UNCHECKED;
    return s->check(s->g, s->source, s->got, s->ref, msg, msg_len) ? 1 : 0;
}

int app_wl_plain(void *st, app_cl *c, const app_plain_args *a, app_plain_result *res, char *msg, size_t msg_len)
{
    app_wl_state *s = st;
    app_wl_result r;
    if (app_wl_plain_run(c, s->g, s->mode, s->source, a->persistent, a->wg, a->groups, a->timeout_s, s->got, &r,
                         msg, msg_len))
        return -1;
    s->iterations = r.iterations;
    res->ms = r.ms;
    res->launches = a->persistent ? 1 : r.iterations;
    return wl_check(s, msg, msg_len);
}

int app_wl_setup(void *st, ck_context *ctx, unsigned max_groups, char *err, size_t err_len)
{
    (void)max_groups;
    app_wl_state *s = st;
    return app_wl_coop_setup(ctx, s->g, s->mode, &s->coop, err, err_len);
}

int app_wl_start(void *st, unsigned groups, ck_launch **out, char *err, size_t err_len)
{
    app_wl_state *s = st;
    return app_wl_coop_start(s->coop, s->source, groups, out, err, err_len);
}

int app_wl_coop_check(void *st, char *msg, size_t msg_len)
{
    app_wl_state *s = st;
    if (app_wl_coop_read(s->coop, s->got, &s->iterations, msg, msg_len))
        return -1;
    return wl_check(s, msg, msg_len);
}

void app_wl_teardown(void *st)
{
    app_wl_state *s = st;
    app_wl_coop_free(s->coop);
    s->coop = NULL;
}

void app_wl_test_config(app_config *c, unsigned variant)
{
    c->graph = variant % 2 ? "grid" : "rmat";
    c->scale = variant % 2 ? 6 : 9;
}

double app_wl_reference_work(const app_config *c)
{
    app_graph_spec s = app_config_graph_spec(c, 0);
    return app_graph_spec_edges(&s);
}
