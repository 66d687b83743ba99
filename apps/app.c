/* apps/app.c: the common interface over the application modules (see
 * app.h, app_module.h): defaults and names, loading a graph input, the
 * reference-cost guard, opening the plain OpenCL device and dispatching to
 * the module. */
#include "app.h"
#include "app_module.h"
#include "graph_input.h"
#include "paths.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

struct app {
    app_config cfg;
    const app_module *mod;
    void *st;
    char desc[400];
    double cpu_ms;
    app_csr g;  /* graph apps */
    int set_up; /* app_coop_setup succeeded, no teardown since */
};

static const char *const kind_names[APP_KIND_COUNT] = {
    [APP_KIND_BFS] = "bfs",       [APP_KIND_WS] = "ws",     [APP_KIND_COLOR] = "color",  [APP_KIND_MIS] = "mis",
    [APP_KIND_PSSSP] = "p-sssp",  [APP_KIND_BC] = "bc",     [APP_KIND_BFSWL] = "bfs-wl", [APP_KIND_LSSSP] = "l-sssp",
    [APP_KIND_OCTREE] = "octree", [APP_KIND_GAME] = "game",
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
    c->max_weight = 100;
    /* Every module's defaults, so that options of one app keep sensible
     * values when the caller switches kind after setting defaults. */
    for (int k = 0; k < APP_KIND_COUNT; ++k) {
        const app_module *m = app_module_of((app_kind)k);
        if (m && m->defaults)
            m->defaults(c);
    }
}

int app_kind_parse(const char *s, app_kind *out)
{
    for (int k = 0; k < APP_KIND_COUNT; ++k) {
        const app_module *m = app_module_of((app_kind)k);
        if (m && (!strcasecmp(s, m->name) || (m->alias && !strcasecmp(s, m->alias)))) {
            *out = (app_kind)k;
            return 0;
        }
    }
    return -1;
}

const char *app_kind_name(app_kind k) { return (unsigned)k < APP_KIND_COUNT ? kind_names[k] : "?"; }

int app_kind_available(app_kind k) { return app_module_of(k) != NULL; }

const char *app_kind_list(void)
{
    static char list[256];
    if (!list[0]) {
        size_t at = 0;
        for (int k = 0; k < APP_KIND_COUNT; ++k)
            if (app_module_of((app_kind)k))
                at += (size_t)snprintf(list + at, sizeof list - at, "%s%s", at ? ", " : "", kind_names[k]);
    }
    return list;
}

int app_kind_uses_graph(app_kind k)
{
    const app_module *m = app_module_of(k);
    return m && (m->flags & APP_MOD_GRAPH);
}

int app_kind_has_multi_launch(app_kind k)
{
    const app_module *m = app_module_of(k);
    return m && (m->flags & APP_MOD_MULTI_LAUNCH);
}

void app_test_config(app_config *c, app_kind kind, unsigned variant)
{
    app_config_defaults(c, kind);
    const app_module *m = app_module_of(kind);
    c->seed = 1 + variant / 2;
    if (m && m->test_config)
        m->test_config(c, m->test_variants ? variant % m->test_variants : 0);
}

unsigned app_test_variants(app_kind kind)
{
    const app_module *m = app_module_of(kind);
    return m && m->test_variants ? m->test_variants : 1;
}

double app_reference_work(const app_config *cfg)
{
    const app_module *m = app_module_of(cfg->kind);
    if (!m || !m->reference_work)
        return 0;
    app_config c = *cfg;
    if (!c.graph)
        c.graph = "rmat";
    return m->reference_work(&c);
}

const char *app_reference_unit(app_kind k)
{
    const app_module *m = app_module_of(k);
    return m && m->work_unit ? m->work_unit : "units";
}

int app_create(const app_config *cfg, app **out, char *err, size_t err_len)
{
    *out = NULL;
    const app_module *m = app_module_of(cfg->kind);
    if (!m) {
        snprintf(err, err_len, "application '%s' is not built (built: %s)", app_kind_name(cfg->kind),
                 app_kind_list());
        return -1;
    }
    double work = app_reference_work(cfg);
    if (!cfg->skip_reference && work > APP_MAX_REFERENCE_WORK) {
        snprintf(err, err_len,
                 "the CPU reference would take %.3g units of work (%s), above the limit %.3g: skip it "
                 "(skip_reference, ckrun --no-reference) or choose a smaller input",
                 work, app_reference_unit(cfg->kind), APP_MAX_REFERENCE_WORK);
        return -1;
    }
    app *a = calloc(1, sizeof *a);
    if (!a) {
        snprintf(err, err_len, "out of host memory");
        return -1;
    }
    a->cfg = *cfg;
    a->mod = m;
    if (!a->cfg.graph)
        a->cfg.graph = "rmat";
    char input[300] = "";
    if (m->flags & APP_MOD_GRAPH) {
        app_graph_spec s = app_config_graph_spec(&a->cfg, (m->flags & APP_MOD_WEIGHTS) != 0);
        if (app_graph_load(&s, &a->g, input, sizeof input, err, err_len)) {
            app_destroy(a);
            return -1;
        }
    }
    a->st = m->create(&a->cfg, (m->flags & APP_MOD_GRAPH) ? &a->g : NULL, input, a->desc, sizeof a->desc, &a->cpu_ms,
                      err, err_len);
    if (!a->st) {
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
    if (a->st)
        a->mod->destroy(a->st);
    app_csr_free(&a->g);
    free(a);
}

const char *app_describe(const app *a) { return a->desc; }
double app_cpu_ms(const app *a) { return a->cpu_ms; }
const app_config *app_get_config(const app *a) { return &a->cfg; }

struct app_plain_session {
    app *a;
    app_cl c;
    app_plain_args args; /* build_options set per run                         */
    unsigned occupancy;  /* persistent: the co-resident groups checked against */
};

/* What a run of s reports besides its results (device, path, mode, occupancy). */
static void describe_session(const app_plain_session *s, app_plain_result *res)
{
    snprintf(res->device, sizeof res->device, "%s", s->c.name);
    snprintf(res->path, sizeof res->path, "%s", ck_path_name(s->c.path));
    snprintf(res->mode, sizeof res->mode, "%s", s->args.persistent ? "persistent" : "multi-launch");
    res->occupancy = s->occupancy;
}

/* app_plain_open, filling *info as far as the session got (app_plain reports
 * the device and mode of a refused run). */
static int plain_open(app *a, const app_plain_options *o, app_plain_session **out, app_plain_result *info, char *msg,
                      size_t msg_len)
{
    *out = NULL;
    app_plain_session *s = calloc(1, sizeof *s);
    if (!s) {
        snprintf(msg, msg_len, "plain baseline: out of host memory");
        return -1;
    }
    s->a = a;
    app_plain_args *args = &s->args;
    args->timeout_s = o->timeout_s > 0 ? o->timeout_s : APP_PLAIN_DEFAULT_TIMEOUT_S;
    app_cl_request req;
    memset(&req, 0, sizeof req);
    req.device = o->device;
    req.work_group_size = o->work_group_size ? o->work_group_size : 64;
    args->wg = req.work_group_size;
    args->persistent = !(a->mod->flags & APP_MOD_MULTI_LAUNCH) || o->persistent;
    req.want_occupancy = args->persistent && o->occupancy == 0;
    req.profiling = 1; /* device_ms */
    if (app_cl_open(&req, &s->c, msg, msg_len)) {
        free(s);
        return -1;
    }
    unsigned occupancy = o->occupancy ? o->occupancy : req.occupancy;
    args->groups = o->groups ? o->groups : (occupancy > 1 ? occupancy - 1 : 1);
    s->occupancy = args->persistent ? occupancy : 0;
    describe_session(s, info);
    if (args->persistent) {
        if (args->groups > occupancy) {
            snprintf(msg, msg_len,
                     "plain persistent baseline: %u work-groups asked for, but only %u are co-resident on %s at "
                     "work-group size %zu (discovered occupancy): it would never finish; use at most %u",
                     args->groups, occupancy, s->c.name, req.work_group_size, occupancy);
            app_plain_close(s);
            return -1;
        }
    }
    *out = s;
    return 0;
}

int app_plain_open(app *a, const app_plain_options *o, app_plain_session **out, char *msg, size_t msg_len)
{
    app_plain_result info;
    memset(&info, 0, sizeof info);
    return plain_open(a, o, out, &info, msg, msg_len);
}

int app_plain_run(app_plain_session *s, const char *build_options, app_plain_result *res, char *msg, size_t msg_len)
{
    memset(res, 0, sizeof *res);
    res->device_ms = -1;
    describe_session(s, res);
    if (s->c.stuck) {
        res->timed_out = 1;
        snprintf(msg, msg_len,
                 "plain baseline: a run of this session timed out earlier (its kernel may still run "
                 "on %s): open a new session once the device is free",
                 s->c.name);
        return -1;
    }
    app_plain_args args = s->args;
    args.build_options = build_options;
    size_t mark = app_cl_held_mark(&s->c);
    int rc = s->a->mod->plain(s->a->st, &s->c, &args, res, msg, msg_len);
    app_cl_release_since(&s->c, mark); /* this run's buffers (kept if a kernel is stuck) */
    if (rc >= 0)
        res->groups = args.persistent ? args.groups : 0;
    res->timed_out = s->c.stuck;
    return rc;
}

void app_plain_close(app_plain_session *s)
{
    if (!s)
        return;
    app_cl_close(&s->c);
    free(s);
}

int app_plain(app *a, const app_plain_options *o, app_plain_result *res, char *msg, size_t msg_len)
{
    memset(res, 0, sizeof *res);
    res->device_ms = -1;
    app_plain_session *s;
    if (plain_open(a, o, &s, res, msg, msg_len))
        return -1;
    int rc = -1;
    for (int k = o->warmup ? 0 : 1; k < 2; ++k)
        if ((rc = app_plain_run(s, o->build_options, res, msg, msg_len)) < 0)
            break;
    app_plain_close(s);
    return rc;
}

int app_add_sources(const app *a, ck_context *ctx, char *err, size_t err_len)
{
    char path[1024];
    const char *name = a->mod->coop_kernel;
    app_kernel_path(a->mod->coop_file, path, sizeof path);
    /* Read here rather than by ck_context_add_file: the includes of the
     * kernel directory (common/ws_pool.cl) are spliced in, which the
     * runtime's build cannot resolve (paths.h). */
    char why[1024];
    char *text = app_read_kernel(path, why, sizeof why);
    if (!text) {
        snprintf(err, err_len, "adding %s: %s", path, why);
        return -1;
    }
    ck_status s = ck_context_add_source(ctx, path, text, &name, 1);
    free(text);
    if (s != CK_OK) {
        snprintf(err, err_len, "adding %s: %s", path, ck_last_error());
        return -1;
    }
    return 0;
}

int app_coop_setup(app *a, ck_context *ctx, unsigned max_groups, char *err, size_t err_len)
{
    app_coop_teardown(a);
    if (a->mod->coop_setup(a->st, ctx, max_groups, err, err_len))
        return -1;
    a->set_up = 1;
    return 0;
}

int app_coop_start(app *a, unsigned groups, ck_launch **out, char *err, size_t err_len)
{
    if (!a->set_up) {
        snprintf(err, err_len, "cooperative %s: app_coop_setup was not called", a->mod->name);
        return -1;
    }
    return a->mod->coop_start(a->st, groups, out, err, err_len);
}

int app_coop_check(app *a, char *msg, size_t msg_len)
{
    if (!a->set_up) {
        snprintf(msg, msg_len, "cooperative %s: app_coop_setup was not called", a->mod->name);
        return -1;
    }
    return a->mod->coop_check(a->st, msg, msg_len);
}

void app_coop_teardown(app *a)
{
    a->mod->coop_teardown(a->st);
    a->set_up = 0;
}

void app_corrupt_reference(app *a) { a->mod->corrupt_reference(a->st); }
