/* apps/app.c: the common interface over BFS and work stealing (see app.h):
 * input creation, CPU reference, plain baseline and cooperative runs. */
#include "app.h"
#include "bfs/bfs.h"
#include "graph.h"
#include "paths.h"
#include "timer.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

struct app {
    app_config cfg;
    char desc[320];
    double cpu_ms;
    /* BFS */
    app_csr g;
    int32_t source, depth, reached;
    int32_t *ref, *got;
    app_bfs_coop *bfs;
    /* work stealing */
    app_ws_result ws_ref;
    app_ws_coop *ws;
};

void app_config_defaults(app_config *c, app_kind kind)
{
    memset(c, 0, sizeof *c);
    c->kind = kind;
    c->seed = 1;
    c->graph = "rmat";
    c->scale = 14;
    c->edge_factor = 8;
    c->grid_drop = 10;
    c->source = -1;
    c->ws.roots = 256;
    c->ws.max_depth = 96;
    c->ws.units = 64;
    c->ws.iters = 16;
}

int app_kind_parse(const char *s, app_kind *out)
{
    if (!strcasecmp(s, "bfs"))
        *out = APP_KIND_BFS;
    else if (!strcasecmp(s, "ws") || !strcasecmp(s, "workstealing"))
        *out = APP_KIND_WS;
    else
        return -1;
    return 0;
}

const char *app_kind_name(app_kind k) { return k == APP_KIND_BFS ? "bfs" : "ws"; }

static int create_bfs(app *a, char *err, size_t err_len)
{
    const app_config *c = &a->cfg;
    app_edges e;
    char what[160];
    if (!strcmp(c->graph, "rmat")) {
        if (app_gen_rmat(c->scale, c->edge_factor, c->seed, &e, err, err_len))
            return -1;
        snprintf(what, sizeof what, "rmat 2^%u x %u (seed %llu)", c->scale, c->edge_factor,
                 (unsigned long long)c->seed);
    } else if (!strcmp(c->graph, "grid")) {
        unsigned w = 1u << ((c->scale + 1) / 2), h = 1u << (c->scale / 2);
        if (app_gen_grid(w, h, c->grid_drop, c->seed, &e, err, err_len))
            return -1;
        snprintf(what, sizeof what, "grid %ux%u drop %u%% (seed %llu)", w, h, c->grid_drop,
                 (unsigned long long)c->seed);
    } else {
        if (app_read_graph(c->graph, &e, err, err_len))
            return -1;
        snprintf(what, sizeof what, "%s", c->graph);
    }
    int rc = app_csr_build(&e, 1, &a->g, err, err_len);
    app_edges_free(&e);
    if (rc)
        return -1;
    if (c->source >= a->g.n) {
        snprintf(err, err_len, "BFS source %d outside 0..%d", c->source, a->g.n - 1);
        return -1;
    }
    a->source = c->source >= 0 ? c->source : !strcmp(c->graph, "grid") ? 0 : app_csr_max_degree_node(&a->g);
    a->ref = malloc((size_t)a->g.n * sizeof *a->ref);
    a->got = malloc((size_t)a->g.n * sizeof *a->got);
    if (!a->ref || !a->got) {
        snprintf(err, err_len, "BFS: out of host memory");
        return -1;
    }
    if (c->skip_reference) {
        snprintf(a->desc, sizeof a->desc, "%s: %d nodes, %d directed edges, source %d (no CPU reference)", what,
                 a->g.n, a->g.m, a->source);
        return 0;
    }
    double t0 = app_now_ms();
    a->depth = app_bfs_cpu(&a->g, a->source, a->ref);
    a->cpu_ms = app_now_ms() - t0;
    for (int32_t v = 0; v < a->g.n; ++v)
        a->reached += a->ref[v] >= 0;
    snprintf(a->desc, sizeof a->desc, "%s: %d nodes, %d directed edges, source %d, %d levels, %d reached", what,
             a->g.n, a->g.m, a->source, a->depth, a->reached);
    return 0;
}

static int create_ws(app *a, char *err, size_t err_len)
{
    app_ws_params *p = &a->cfg.ws;
    p->seed = a->cfg.seed;
    if (p->roots == 0 || p->units == 0 || p->max_depth > 100000) {
        snprintf(err, err_len, "work stealing: need roots >= 1, units >= 1 and depth <= 100000");
        return -1;
    }
    if (a->cfg.skip_reference) {
        snprintf(a->desc, sizeof a->desc,
                 "task tree: %u roots, depth <= %u, %u x %u hash rounds per task (seed %llu), no CPU reference",
                 p->roots, p->max_depth, p->units, p->iters, (unsigned long long)a->cfg.seed);
        return 0;
    }
    double t0 = app_now_ms();
    if (app_ws_cpu(p, &a->ws_ref)) {
        snprintf(err, err_len, "work stealing: out of host memory for the reference");
        return -1;
    }
    a->cpu_ms = app_now_ms() - t0;
    snprintf(a->desc, sizeof a->desc,
             "task tree: %u roots, depth <= %u, %u x %u hash rounds per task (seed %llu): %u tasks, deepest %u, "
             "checksum 0x%08x",
             p->roots, p->max_depth, p->units, p->iters, (unsigned long long)a->cfg.seed, a->ws_ref.tasks,
             a->ws_ref.max_depth_seen, a->ws_ref.checksum);
    return 0;
}

double app_reference_work(const app_config *cfg)
{
    if (cfg->kind == APP_KIND_WS) {
        const app_ws_params *p = &cfg->ws;
        return (double)p->roots * ((double)p->max_depth + 1) * p->units * (p->iters ? p->iters : 1);
    }
    const char *graph = cfg->graph ? cfg->graph : "rmat";
    if (!strcmp(graph, "rmat"))
        return ldexp(1.0, (int)cfg->scale) * cfg->edge_factor;
    if (!strcmp(graph, "grid"))
        return ldexp(2.0, (int)cfg->scale);
    return 0;
}

int app_create(const app_config *cfg, app **out, char *err, size_t err_len)
{
    *out = NULL;
    double work = app_reference_work(cfg);
    if (!cfg->skip_reference && work > APP_MAX_REFERENCE_WORK) {
        snprintf(err, err_len,
                 "the CPU reference would take %.3g units of work (%s), above the limit %.3g: skip it "
                 "(skip_reference, ckrun --no-reference) or choose a smaller input",
                 work, cfg->kind == APP_KIND_WS ? "hash rounds" : "edges", APP_MAX_REFERENCE_WORK);
        return -1;
    }
    app *a = calloc(1, sizeof *a);
    if (!a) {
        snprintf(err, err_len, "out of host memory");
        return -1;
    }
    a->cfg = *cfg;
    if (!a->cfg.graph)
        a->cfg.graph = "rmat";
    int rc = cfg->kind == APP_KIND_BFS ? create_bfs(a, err, err_len) : create_ws(a, err, err_len);
    if (rc) {
        app_destroy(a);
        return -1;
    }
    *out = a;
    return 0;
}

void app_destroy(app *a)
{
    if (!a)
        return;
    app_coop_teardown(a);
    app_csr_free(&a->g);
    free(a->ref);
    free(a->got);
    free(a);
}

const char *app_describe(const app *a) { return a->desc; }
double app_cpu_ms(const app *a) { return a->cpu_ms; }
const app_config *app_get_config(const app *a) { return &a->cfg; }

int app_plain(app *a, const app_plain_options *o, app_plain_result *res, char *msg, size_t msg_len)
{
    memset(res, 0, sizeof *res);
    double timeout_s = o->timeout_s > 0 ? o->timeout_s : APP_PLAIN_DEFAULT_TIMEOUT_S;
    app_cl_request req;
    memset(&req, 0, sizeof req);
    req.device = o->device;
    req.work_group_size = o->work_group_size ? o->work_group_size : 64;
    int persistent = a->cfg.kind == APP_KIND_WS || o->bfs_persistent;
    req.want_occupancy = persistent && o->occupancy == 0;
    app_cl c;
    if (app_cl_open(&req, &c, msg, msg_len))
        return -1;
    snprintf(res->device, sizeof res->device, "%s", c.name);
    snprintf(res->path, sizeof res->path, "%s", ck_path_name(c.path));
    unsigned occupancy = o->occupancy ? o->occupancy : req.occupancy;
    unsigned groups = o->groups ? o->groups : (occupancy > 1 ? occupancy - 1 : 1);
    snprintf(res->mode, sizeof res->mode, "%s", persistent ? "persistent" : "multi-launch");
    if (persistent) {
        res->occupancy = occupancy;
        if (groups > occupancy) {
            snprintf(msg, msg_len,
                     "plain persistent baseline: %u work-groups asked for, but only %u are co-resident on %s at "
                     "work-group size %zu (discovered occupancy): it would never finish; use at most %u",
                     groups, occupancy, c.name, req.work_group_size, occupancy);
            app_cl_close(&c);
            return -1;
        }
    }
    int rc = -1, ok = 0;
    if (a->cfg.kind == APP_KIND_BFS) {
        app_bfs_plain_result r;
        app_bfs_plain_mode mode = persistent ? APP_BFS_PLAIN_PERSISTENT : APP_BFS_PLAIN_MULTI;
        for (int k = o->warmup ? 0 : 1; k < 2; ++k)
            if (!(ok = app_bfs_plain_run(&c, &a->g, a->source, mode, req.work_group_size, groups, timeout_s, a->got,
                                         &r, msg, msg_len) == 0))
                break;
        if (ok) {
            res->ms = r.ms;
            res->groups = persistent ? groups : 0;
            res->launches = persistent ? 1 : r.levels_run;
            rc = a->cfg.skip_reference ? APP_UNCHECKED
                 : app_bfs_check(&a->g, a->source, a->got, a->ref, msg, msg_len) ? 1 : 0;
        }
    } else {
        app_ws_result r;
        for (int k = o->warmup ? 0 : 1; k < 2; ++k)
            if (!(ok = app_ws_plain_run(&c, &a->cfg.ws, req.work_group_size, groups, timeout_s, &r, &res->ms, msg,
                                        msg_len) == 0))
                break;
        if (ok) {
            res->groups = groups;
            res->launches = 1;
            rc = a->cfg.skip_reference ? APP_UNCHECKED : app_ws_check(&r, &a->ws_ref, msg, msg_len) ? 1 : 0;
        }
    }
    res->timed_out = c.stuck;
    app_cl_close(&c);
    return rc;
}

int app_add_sources(const app *a, ck_context *ctx, char *err, size_t err_len)
{
    char path[1024];
    const char *name = a->cfg.kind == APP_KIND_BFS ? APP_BFS_COOP_KERNEL : APP_WS_KERNEL;
    app_kernel_path(a->cfg.kind == APP_KIND_BFS ? APP_BFS_COOP_FILE : APP_WS_FILE, path, sizeof path);
    if (ck_context_add_file(ctx, path, &name, 1) != CK_OK) {
        snprintf(err, err_len, "adding %s: %s", path, ck_last_error());
        return -1;
    }
    return 0;
}

int app_coop_setup(app *a, ck_context *ctx, unsigned max_groups, char *err, size_t err_len)
{
    app_coop_teardown(a);
    if (a->cfg.kind == APP_KIND_BFS)
        return app_bfs_coop_setup(ctx, &a->g, &a->bfs, err, err_len);
    return app_ws_coop_setup(ctx, &a->cfg.ws, max_groups, &a->ws, err, err_len);
}

int app_coop_start(app *a, unsigned groups, ck_launch **out, char *err, size_t err_len)
{
    if (a->cfg.kind == APP_KIND_BFS) {
        if (!a->bfs) {
            snprintf(err, err_len, "cooperative BFS: app_coop_setup was not called");
            return -1;
        }
        return app_bfs_coop_start(a->bfs, a->source, groups, out, err, err_len);
    }
    if (!a->ws) {
        snprintf(err, err_len, "cooperative work stealing: app_coop_setup was not called");
        return -1;
    }
    return app_ws_coop_start(a->ws, groups, out, err, err_len);
}

int app_coop_check(app *a, char *msg, size_t msg_len)
{
    if (a->cfg.kind == APP_KIND_BFS) {
        if (!a->bfs || app_bfs_coop_read(a->bfs, a->got, msg, msg_len))
            return -1;
        if (a->cfg.skip_reference)
            return APP_UNCHECKED;
        return app_bfs_check(&a->g, a->source, a->got, a->ref, msg, msg_len) ? 1 : 0;
    }
    app_ws_result r;
    if (!a->ws || app_ws_coop_read(a->ws, &r, msg, msg_len))
        return -1;
    if (a->cfg.skip_reference)
        return APP_UNCHECKED;
    return app_ws_check(&r, &a->ws_ref, msg, msg_len) ? 1 : 0;
}

void app_coop_teardown(app *a)
{
    app_bfs_coop_free(a->bfs);
    a->bfs = NULL;
    app_ws_coop_free(a->ws);
    a->ws = NULL;
}

void app_corrupt_reference(app *a)
{
    if (a->cfg.kind == APP_KIND_BFS) {
        int32_t v = a->source == 0 && a->g.n > 1 ? 1 : 0;
        a->ref[v] = a->ref[v] + 1;
    } else {
        a->ws_ref.checksum ^= 1u;
    }
}
