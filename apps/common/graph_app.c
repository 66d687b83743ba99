/* apps/common/graph_app.c: the graph applications' shared host skeleton:
 * buffers from a table, plain baselines, cooperative launches, read-back and
 * check (see graph_app.h). */
#include "graph_app.h"

#include "bfs.h"
#include "sssp_cpu.h"
#include "timer.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct app_gk_coop {
    ck_context *ctx;
    ck_buffer buf[APP_GK_MAX_BUFS];
};

static size_t buf_bytes(const app_gk_buf *b) { return b->bytes ? b->bytes : 4; }

static size_t init_bytes(const app_gk_buf *b) { return b->init_bytes ? b->init_bytes : b->bytes; }

/* ---- plain */

int app_gk_set_int(app_gk_plain *p, size_t k, unsigned arg, int32_t v, char *err, size_t err_len)
{
    cl_int e = clSetKernelArg(p->k[k], arg, sizeof v, &v);
    return e == CL_SUCCESS ? 0 : app_cl_fail(e, "clSetKernelArg (int)", err, err_len);
}

int app_gk_set_buf(app_gk_plain *p, size_t k, unsigned arg, size_t buf, char *err, size_t err_len)
{
    cl_int e = clSetKernelArg(p->k[k], arg, sizeof p->mem[buf], &p->mem[buf]);
    return e == CL_SUCCESS ? 0 : app_cl_fail(e, "clSetKernelArg (buffer)", err, err_len);
}

int app_gk_enqueue(app_gk_plain *p, size_t k, size_t global, char *err, size_t err_len)
{
    cl_int e = clEnqueueNDRangeKernel(p->c->queue, p->k[k], 1, NULL, &global, &p->wg, 0, NULL, NULL);
    if (e == CL_SUCCESS)
        return 0;
    char what[96];
    snprintf(what, sizeof what, "clEnqueueNDRangeKernel (%s)", p->spec->plain[k].name);
    return app_cl_fail(e, what, err, err_len);
}

int app_gk_round(app_gk_plain *p, size_t flag, const size_t *kernels, size_t nk, size_t global, void *flag_out,
                 size_t flag_bytes, char *err, size_t err_len)
{
    int32_t zero = 0;
    cl_int e = clEnqueueWriteBuffer(p->c->queue, p->mem[flag], CL_FALSE, 0, 4, &zero, 0, NULL, NULL);
    if (e != CL_SUCCESS)
        return app_cl_fail(e, "clEnqueueWriteBuffer (clear the flag)", err, err_len);
    for (size_t i = 0; i < nk; ++i)
        if (app_gk_enqueue(p, kernels[i], global ? global : p->global, err, err_len))
            return -1;
    /* A blocking read, as the original host loops do; every launch ends by
     * itself, so the caller checks the deadline between rounds. */
    e = clEnqueueReadBuffer(p->c->queue, p->mem[flag], CL_TRUE, 0, flag_bytes, flag_out, 0, NULL, NULL);
    return e == CL_SUCCESS ? 0 : app_cl_fail(e, "clEnqueueReadBuffer (flag)", err, err_len);
}

int app_gk_timeout(const app_gk_plain *p, int32_t rounds, const char *unit, char *err, size_t err_len)
{
    snprintf(err, err_len,
             "the plain multi-launch %s did not finish within the timeout (%d %s run): raise the "
             "timeout if the graph is just large",
             p->spec->what, rounds, unit);
    return -1;
}

/* The spec's flag rounds (graph_app.h). */
static int flag_rounds(app_gk_plain *p, double deadline_ms, int32_t *launches, char *err, size_t err_len)
{
    const app_gk_spec *s = p->spec;
    size_t all[APP_GK_MAX_KERNELS];
    for (size_t i = 0; i < s->nplain; ++i)
        all[i] = i;
    int32_t rounds = 0, flag = 1;
    while (flag) {
        if ((s->round_kernel >= 0 &&
             app_gk_set_int(p, (size_t)s->round_kernel, s->round_arg, rounds, err, err_len)) ||
            app_gk_round(p, s->flag, all, s->nplain, 0, &flag, 4, err, err_len))
            return -1;
        ++rounds;
        if (flag && app_now_ms() > deadline_ms)
            return app_gk_timeout(p, rounds, "rounds", err, err_len);
    }
    *launches = rounds * (int32_t)s->nplain;
    return 0;
}

static int set_args(app_gk_plain *p, size_t k, const app_gk_kernel *kd, cl_mem barrier, char *err, size_t err_len)
{
    for (size_t i = 0; i < kd->nargs; ++i) {
        const app_gk_arg *a = &kd->args[i];
        int rc;
        if (a->kind == APP_GK_BUF)
            rc = app_gk_set_buf(p, k, (unsigned)i, a->index, err, err_len);
        else if (a->kind == APP_GK_INT)
            rc = app_gk_set_int(p, k, (unsigned)i, p->spec->ints[a->index], err, err_len);
        else if (a->kind == APP_GK_LOCAL_INTS)
            rc = app_gk_set_int(p, k, (unsigned)i, (int32_t)(p->spec->plain_local(p->wg) / 4), err, err_len);
        else {
            size_t bytes = a->kind == APP_GK_LOCAL ? p->spec->plain_local(p->wg) : sizeof(cl_mem);
            cl_mem none = NULL;
            const void *v = a->kind == APP_GK_LOCAL ? NULL : a->kind == APP_GK_NULL ? &none : &barrier;
            cl_int e = clSetKernelArg(p->k[k], (cl_uint)i, bytes, v);
            rc = e == CL_SUCCESS ? 0
                                 : app_cl_fail(e, "clSetKernelArg (barrier, NULL or local scratch)", err, err_len);
        }
        if (rc)
            return -1;
    }
    return 0;
}

static int upload(app_gk_plain *p, cl_mem *barrier, char *err, size_t err_len)
{
    const app_gk_spec *s = p->spec;
    for (size_t i = 0; i < s->nbuf; ++i) {
        const app_gk_buf *b = &s->buf[i];
        size_t part = init_bytes(b);
        int whole = part == b->bytes;
        if (app_cl_buffer(p->c, buf_bytes(b), whole && b->bytes ? b->init : NULL, &p->mem[i], b->what, err, err_len))
            return -1;
        if (!whole && b->init && part) {
            cl_int e = clEnqueueWriteBuffer(p->c->queue, p->mem[i], CL_TRUE, 0, part, b->init, 0, NULL, NULL);
            if (e != CL_SUCCESS)
                return app_cl_fail(e, "clEnqueueWriteBuffer (initial contents)", err, err_len);
        }
    }
    uint32_t words[APP_PLAIN_BARRIER_WORDS] = {0}; /* ck_cooperative.h: two lines */
    return app_cl_buffer(p->c, sizeof words, words, barrier, "barrier words", err, err_len);
}

static int plain_run(app_gapp *a, app_cl *c, const app_plain_args *args, app_plain_result *res, char *err,
                     size_t err_len)
{
    const app_gk_spec *s = &a->spec;
    if (a->ops->prepare && a->ops->prepare(a, err, err_len))
        return -1;
    if (!(args->timeout_s > 0 && args->timeout_s <= 1e9)) {
        snprintf(err, err_len, "plain %s: timeout %g s is not a finite number of seconds above 0", s->what,
                 args->timeout_s);
        return -1;
    }
    int persistent = args->persistent || !s->plain_file;
    if (args->wg == 0 || (persistent && args->groups == 0)) {
        snprintf(err, err_len, "plain %s: bad work-group size %zu or group count %u", s->what, args->wg,
                 args->groups);
        return -1;
    }
    app_gk_plain p;
    memset(&p, 0, sizeof p);
    p.c = c;
    p.spec = s;
    p.wg = args->wg;
    p.global = ((size_t)a->g->n + p.wg - 1) / p.wg * p.wg;
    if (p.global == 0)
        p.global = p.wg;
    const app_gk_kernel *kd = persistent ? &s->coop : s->plain;
    size_t nk = persistent ? 1 : s->nplain;
    cl_program prog = NULL;
    cl_mem barrier = NULL;
    int rc = -1;
    if (upload(&p, &barrier, err, err_len) ||
        app_cl_build(c, persistent ? s->coop_file : s->plain_file, args->build_options, &prog, err, err_len))
        goto out;
    for (size_t k = 0; k < nk; ++k) {
        cl_int e;
        p.k[k] = clCreateKernel(prog, kd[k].name, &e);
        if (e != CL_SUCCESS) {
            char what[96];
            snprintf(what, sizeof what, "clCreateKernel (%s)", kd[k].name);
            app_cl_fail(e, what, err, err_len);
            goto out;
        }
        if (set_args(&p, k, &kd[k], barrier, err, err_len))
            goto out;
    }
    if (persistent) {
        char what[96];
        snprintf(what, sizeof what, "the plain persistent %s kernel", s->what);
        app_cl_launch l = app_plain_launch(args);
        app_cl_times t;
        if (app_cl_run_persistent(c, p.k[0], &l, what, &t, err, err_len))
            goto out;
        res->launches = 1;
        res->ms = t.ms;
        res->device_ms = t.device_ms;
        if (a->ops->after && a->ops->after(a, &p, err, err_len))
            goto out;
    } else {
        double t0 = app_now_ms(), deadline = t0 + args->timeout_s * 1e3;
        int32_t launches = 0;
        if (a->ops->multi ? a->ops->multi(a, &p, deadline, &launches, err, err_len)
                          : flag_rounds(&p, deadline, &launches, err, err_len))
            goto out;
        res->launches = launches;
        res->ms = app_now_ms() - t0;
    }
    if (app_gapp_read(a, &p, s->result, a->got, s->result_bytes, err, err_len))
        goto out;
    rc = 0;
out: /* the buffers belong to c (app_cl_buffer) */
    for (size_t k = 0; k < APP_GK_MAX_KERNELS; ++k)
        if (p.k[k])
            clReleaseKernel(p.k[k]);
    if (prog)
        clReleaseProgram(prog);
    return rc;
}

/* ---- cooperative */

static int ck_fail(const app_gk_spec *s, const char *step, char *err, size_t err_len)
{
    snprintf(err, err_len, "cooperative %s: %s: %s", s->what, step, ck_last_error());
    return -1;
}

/* Writes buffer i's initial contents (zeros when it has none). */
static int coop_write(struct app_gk_coop *k, const app_gk_buf *b, size_t i, char *err, size_t err_len)
{
    size_t part = init_bytes(b);
    if (!part)
        return 0;
    const void *src = b->init;
    void *zeros = NULL;
    if (!src && !(src = zeros = calloc(1, part))) {
        snprintf(err, err_len, "out of host memory");
        return -1;
    }
    ck_status st = ck_buffer_write(k->ctx, k->buf[i], 0, src, part);
    free(zeros);
    if (st != CK_OK) {
        snprintf(err, err_len, "writing %s: %s", b->what, ck_last_error());
        return -1;
    }
    return 0;
}

static int coop_write_all(app_gapp *a, app_gk_when when, char *err, size_t err_len)
{
    const app_gk_spec *s = &a->spec;
    for (size_t i = 0; i < s->nbuf; ++i)
        if (s->buf[i].coop == when && coop_write(a->coop, &s->buf[i], i, err, err_len)) {
            char tmp[512];
            snprintf(tmp, sizeof tmp, "cooperative %s: %s", s->what, err);
            snprintf(err, err_len, "%s", tmp);
            return -1;
        }
    return 0;
}

int app_gapp_coop_setup(void *st, ck_context *ctx, unsigned max_groups, char *err, size_t err_len)
{
    (void)max_groups;
    app_gapp *a = st;
    const app_gk_spec *s = &a->spec;
    app_gapp_coop_teardown(a);
    if (a->ops->prepare && a->ops->prepare(a, err, err_len))
        return -1;
    if (!(a->coop = calloc(1, sizeof *a->coop))) {
        snprintf(err, err_len, "cooperative %s: out of host memory", s->what);
        return -1;
    }
    a->coop->ctx = ctx;
    for (size_t i = 0; i < s->nbuf; ++i)
        if (ck_buffer_alloc(ctx, buf_bytes(&s->buf[i]), &a->coop->buf[i]) != CK_OK) {
            ck_fail(s, "allocating buffers in the arena (raise --arena-mb?)", err, err_len);
            app_gapp_coop_teardown(a);
            return -1;
        }
    if (coop_write_all(a, APP_GK_ONCE, err, err_len)) {
        app_gapp_coop_teardown(a);
        return -1;
    }
    return 0;
}

int app_gapp_coop_start(void *st, unsigned groups, ck_launch **out, char *err, size_t err_len)
{
    app_gapp *a = st;
    const app_gk_spec *s = &a->spec;
    *out = NULL;
    if (!a->coop) {
        snprintf(err, err_len, "cooperative %s: not set up", s->what);
        return -1;
    }
    if (coop_write_all(a, APP_GK_EACH, err, err_len))
        return -1;
    ck_arg args[APP_GK_MAX_ARGS];
    for (size_t i = 0; i < s->coop.nargs; ++i) {
        const app_gk_arg *g = &s->coop.args[i];
        args[i] = g->kind == APP_GK_BUF          ? ck_arg_buffer(a->coop->buf[g->index])
                  : g->kind == APP_GK_INT        ? ck_arg_int(s->ints[g->index])
                  : g->kind == APP_GK_LOCAL      ? ck_arg_local(s->coop_local)
                  : g->kind == APP_GK_LOCAL_INTS ? ck_arg_int((int32_t)(s->coop_local / 4))
                                                 : ck_arg_null();
    }
    if (ck_launch_kernel(a->coop->ctx, s->coop.name, groups, args, s->coop.nargs, out) != CK_OK) {
        snprintf(err, err_len, "launching %s: %s", s->coop.name, ck_last_error());
        return -1;
    }
    return 0;
}

int app_gapp_read(app_gapp *a, app_gk_plain *p, size_t i, void *dst, size_t bytes, char *err, size_t err_len)
{
    if ((!p && !a->coop) || i >= a->spec.nbuf || bytes > buf_bytes(&a->spec.buf[i])) {
        snprintf(err, err_len, "cooperative %s: reading %zu bytes of buffer %zu: out of range", a->spec.what, bytes,
                 i);
        return -1;
    }
    if (p) {
        cl_int e =
            bytes ? clEnqueueReadBuffer(p->c->queue, p->mem[i], CL_TRUE, 0, bytes, dst, 0, NULL, NULL) : CL_SUCCESS;
        return e == CL_SUCCESS ? 0 : app_cl_fail(e, "clEnqueueReadBuffer", err, err_len);
    }
    if (bytes && ck_buffer_read(a->coop->ctx, a->coop->buf[i], 0, dst, bytes) != CK_OK)
        return ck_fail(&a->spec, "reading the results", err, err_len);
    return 0;
}

void app_gapp_coop_teardown(void *st)
{
    app_gapp *a = st;
    if (!a->coop)
        return;
    for (size_t i = 0; i < APP_GK_MAX_BUFS; ++i)
        if (a->coop->buf[i].size)
            ck_buffer_free(a->coop->ctx, a->coop->buf[i]);
    free(a->coop);
    a->coop = NULL;
}

/* ---- module */

static int check(app_gapp *a, char *msg, size_t msg_len)
{
    if (a->skip_reference)
        return APP_UNCHECKED;
    return a->ops->check(a, msg, msg_len) ? 1 : 0;
}

int app_gapp_plain(void *st, app_cl *c, const app_plain_args *args, app_plain_result *res, char *msg, size_t msg_len)
{
    app_gapp *a = st;
    if (plain_run(a, c, args, res, msg, msg_len))
        return -1;
    return check(a, msg, msg_len);
}

int app_gapp_coop_check(void *st, char *msg, size_t msg_len)
{
    app_gapp *a = st;
    if ((a->ops->after && a->ops->after(a, NULL, msg, msg_len)) ||
        app_gapp_read(a, NULL, a->spec.result, a->got, a->spec.result_bytes, msg, msg_len))
        return -1;
    return check(a, msg, msg_len);
}

void *app_gapp_create(size_t size, const app_gapp_ops *ops, const app_config *c, const app_csr *g, const char *input,
                      char *desc, size_t desc_len, double *cpu_ms, char *err, size_t err_len)
{
    size_t n1 = g->n ? (size_t)g->n : 1;
    app_gapp *a = calloc(1, size);
    size_t ref_elem = ops->ref_elem ? ops->ref_elem : 4, got_elem = ops->got_elem ? ops->got_elem : 4;
    if (!a || !(a->ref = calloc(n1, ref_elem)) || !(a->got = calloc(n1, got_elem))) {
        snprintf(err, err_len, "%s: out of host memory", ops->what);
        app_gapp_destroy(a);
        return NULL;
    }
    a->ops = ops;
    a->g = g;
    a->skip_reference = c->skip_reference;
    a->spec.what = ops->what;
    a->spec.round_kernel = -1;
    char about[128] = "", ref[256] = " (no CPU reference)";
    if (ops->spec(a, c, err, err_len)) {
        app_gapp_destroy(a);
        return NULL;
    }
    if (ops->about)
        ops->about(a, about, sizeof about);
    if (!c->skip_reference) {
        double t0 = app_now_ms();
        int rc = ops->reference(a, err, err_len);
        *cpu_ms = app_now_ms() - t0;
        if (!rc && !ops->describe)
            snprintf(ref, sizeof ref, ops->stat_format, a->ref_stat);
        if (rc || (ops->describe && ops->describe(a, ref, sizeof ref, err, err_len))) {
            app_gapp_destroy(a);
            return NULL;
        }
    }
    snprintf(desc, desc_len, "%s: %d nodes, %d directed edges%s%s", input, g->n, g->m, about, ref);
    return a;
}

void app_gapp_about_source(const app_gapp *a, char *out, size_t out_len)
{
    snprintf(out, out_len, ", source %d", a->source);
}

void *app_gapp_host(app_gapp *a, size_t i, size_t bytes)
{
    free(a->host[i]);
    a->host[i] = malloc(bytes >= 4 ? bytes : 4);
    return a->host[i];
}

void app_gapp_destroy(void *st)
{
    app_gapp *a = st;
    if (!a)
        return;
    app_gapp_coop_teardown(a);
    for (size_t i = 0; i < APP_GK_MAX_HOST; ++i)
        free(a->host[i]);
    free(a->ref);
    free(a->got);
    free(a);
}

size_t app_gapp_buf(app_gapp *a, const char *what, size_t bytes, const void *init, app_gk_when coop)
{
    app_gk_buf *b = &a->spec.buf[a->spec.nbuf];
    b->what = what;
    b->bytes = bytes;
    b->init = init;
    b->coop = coop;
    return a->spec.nbuf++;
}

void app_gapp_csr(app_gapp *a, int weighted)
{
    const app_csr *g = a->g;
    app_gapp_buf(a, "CSR rows", ((size_t)g->n + 1) * 4, g->row, APP_GK_ONCE);
    app_gapp_buf(a, "CSR columns", (size_t)g->m * 4, g->col, APP_GK_ONCE);
    if (weighted)
        app_gapp_buf(a, "weights", (size_t)g->m * 4, g->w, APP_GK_ONCE);
}

void app_gapp_nodes(app_gapp *a, const void *init, app_gk_when coop, const char *what, ...)
{
    va_list ap;
    va_start(ap, what);
    for (const char *w = what; w; w = va_arg(ap, const char *))
        app_gapp_buf(a, w, (size_t)a->g->n * 4, init, coop);
    va_end(ap);
}

int32_t *app_gapp_pannotia(app_gapp *a)
{
    const int32_t *ids = app_gapp_ints(a, 0, 0, 1);
    int32_t *none = app_gapp_ints(a, 1, -1, 0);
    if (!ids || !none)
        return NULL;
    app_gapp_csr(a, 0);
    app_gapp_nodes(a, ids, APP_GK_ONCE, "node values", NULL);
    return none;
}

int32_t *app_gapp_ints(app_gapp *a, size_t i, int32_t v, int ids)
{
    size_t n = (size_t)a->g->n;
    int32_t *h = app_gapp_host(a, i, n * 4);
    if (h)
        for (size_t u = 0; u < n; ++u)
            h[u] = ids ? (int32_t)u : v;
    return h;
}

double app_gapp_reference_edges(const app_config *c)
{
    app_graph_spec s = app_config_graph_spec(c, 0);
    return app_graph_spec_edges(&s);
}

int32_t app_gapp_reached(const app_gapp *a, int32_t unreached, int32_t *top)
{
    const int32_t *ref = a->ref;
    int32_t reached = 0;
    *top = 0;
    for (int32_t v = 0; v < a->g->n; ++v)
        if (ref[v] != unreached) {
            ++reached;
            *top = ref[v] > *top ? ref[v] : *top;
        }
    return reached;
}

int app_gapp_bfs_reference(app_gapp *a, char *err, size_t err_len)
{
    if ((a->ref_stat = app_bfs_cpu(a->g, a->source, a->ref)) >= 0)
        return 0;
    snprintf(err, err_len, "%s reference: out of host memory", a->spec.what);
    return -1;
}

int app_gapp_bfs_describe(app_gapp *a, char *out, size_t out_len, char *err, size_t err_len)
{
    (void)err, (void)err_len;
    int32_t deepest, reached = app_gapp_reached(a, -1, &deepest);
    snprintf(out, out_len, ", %d levels, %d reached", a->ref_stat, reached);
    return 0;
}

size_t app_gapp_bfs_check(const app_gapp *a, char *msg, size_t msg_len)
{
    return app_bfs_check(a->g, a->source, a->got, a->ref, msg, msg_len);
}

void app_gapp_bfs_corrupt(void *st)
{
    app_gapp *a = st;
    int32_t v = a->source == 0 && a->g->n > 1 ? 1 : 0;
    ((int32_t *)a->ref)[v] += 1;
}

int app_gapp_sssp_reference(app_gapp *a, char *err, size_t err_len)
{
    char why[256];
    if (!app_sssp_dijkstra(a->g, a->source, a->ref, why, sizeof why))
        return 0;
    snprintf(err, err_len, "%s reference: %s", a->spec.what, why);
    return -1;
}

size_t app_gapp_sssp_check(const app_gapp *a, char *msg, size_t msg_len)
{
    return app_sssp_check(a->g, a->source, a->got, a->ref, msg, msg_len);
}
