/* apps/workstealing/ws_host.c: host side of the work stealing, both forms
 * through bufset.h: ws.cl compiled as ordinary OpenCL and run as an
 * occupancy-bound persistent kernel (the plain baseline), and the ws_coop
 * launch with its queues and counters in the runtime's arena (see ws.h). */
#include "bufset.h"
#include "ws_queues.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum { WS_QMETA, WS_QTASKS, WS_CTR };

struct app_ws_coop {
    app_ws_params p;
    unsigned max_groups;
    uint32_t nq; /* queues of the last launch */
    app_bufset_coop b;
};

/* The kernel's buffers and arguments for nq queues; *qmeta and *qtasks are
 * the caller's to free; ctr must outlive s. -1 when out of host memory. */
static int ws_bufset(const app_ws_params *p, uint32_t nq, const char *what, app_bufset *s, uint32_t **qmeta,
                     uint32_t **qtasks, uint32_t ctr[APP_WS_COUNTERS])
{
    uint32_t cap = app_ws_capacity(p, nq);
    if (app_ws_initial_state(p, nq, cap, qmeta, qtasks))
        return -1;
    app_ws_initial_counters(p, ctr);
    *s = (app_bufset){.what = what,
                      .nbuf = 3,
                      .bytes = {(size_t)nq * APP_WS_QSTRIDE * 4, (size_t)nq * cap * 8, APP_WS_COUNTERS * 4},
                      .init = {*qmeta, *qtasks, ctr},
                      .nuint = 5,
                      .uints = {nq, cap, p->max_depth, p->units, p->iters}};
    return 0;
}

int app_ws_plain_run(app_cl *c, const app_ws_params *p, const app_cl_launch *l, app_ws_result *out, app_cl_times *t,
                     char *err, size_t err_len)
{
    memset(out, 0, sizeof *out);
    t->ms = t->device_ms = -1;
    unsigned groups = l->groups;
    if (groups == 0 || l->wg == 0) {
        snprintf(err, err_len, "plain work stealing: need at least one group of at least one item");
        return -1;
    }
    uint32_t nq = groups, *qmeta = NULL, *qtasks = NULL, ctr[APP_WS_COUNTERS];
    app_bufset s;
    if (ws_bufset(p, nq, "work stealing", &s, &qmeta, &qtasks, ctr)) {
        snprintf(err, err_len, "plain work stealing: out of host memory for %u queues", nq);
        return -1;
    }
    void *dst[APP_BUFSET_MAX] = {[WS_QMETA] = qmeta, [WS_CTR] = ctr};
    size_t rd[APP_BUFSET_MAX] = {[WS_QMETA] = s.bytes[WS_QMETA], [WS_CTR] = s.bytes[WS_CTR]};
    int rc = app_bufset_plain_run(c, APP_WS_FILE, APP_WS_KERNEL, &s, l, dst, rd, t, err, err_len);
    if (!rc)
        app_ws_decode(ctr, qmeta, nq, out);
    free(qmeta);
    free(qtasks);
    return rc;
}

int app_ws_coop_setup(ck_context *ctx, const app_ws_params *p, unsigned max_groups, app_ws_coop **out, char *err,
                      size_t err_len)
{
    *out = NULL;
    if (max_groups == 0) {
        snprintf(err, err_len, "cooperative work stealing: max_groups must be at least 1");
        return -1;
    }
    app_ws_coop *w = calloc(1, sizeof *w);
    if (!w) {
        snprintf(err, err_len, "cooperative work stealing: out of host memory");
        return -1;
    }
    w->p = *p;
    w->max_groups = max_groups;
    /* The capacity shrinks as nq grows, so sizing for one queue per group
     * at every count <= max_groups needs the largest nq * cap product. */
    size_t most = 0;
    for (uint32_t nq = 1; nq <= max_groups; ++nq) {
        size_t t = (size_t)nq * app_ws_capacity(p, nq);
        most = t > most ? t : most;
    }
    size_t max_bytes[] = {(size_t)max_groups * APP_WS_QSTRIDE * 4, most * 8, APP_WS_COUNTERS * 4};
    if (app_bufset_coop_alloc(&w->b, ctx, "cooperative work stealing", 3, max_bytes, err, err_len)) {
        free(w);
        return -1;
    }
    *out = w;
    return 0;
}

int app_ws_coop_start(app_ws_coop *w, unsigned groups, ck_launch **out, char *err, size_t err_len)
{
    *out = NULL;
    if (groups == 0 || groups > w->max_groups) {
        snprintf(err, err_len, "cooperative work stealing: %u groups asked, buffers sized for 1..%u", groups,
                 w->max_groups);
        return -1;
    }
    uint32_t *qmeta, *qtasks, ctr[APP_WS_COUNTERS];
    app_bufset s;
    if (ws_bufset(&w->p, groups, "cooperative work stealing", &s, &qmeta, &qtasks, ctr)) {
        snprintf(err, err_len, "cooperative work stealing: out of host memory");
        return -1;
    }
    int rc = app_bufset_coop_start(&w->b, &s, APP_WS_KERNEL, groups, out, err, err_len);
    free(qmeta);
    free(qtasks);
    if (!rc)
        w->nq = groups;
    return rc;
}

int app_ws_coop_read(app_ws_coop *w, app_ws_result *out, char *err, size_t err_len)
{
    uint32_t ctr[APP_WS_COUNTERS];
    size_t mbytes = (size_t)w->nq * APP_WS_QSTRIDE * 4;
    uint32_t *qmeta = malloc(mbytes);
    if (!qmeta) {
        snprintf(err, err_len, "cooperative work stealing: out of host memory");
        return -1;
    }
    int rc = app_bufset_coop_read(&w->b, WS_CTR, ctr, sizeof ctr, err, err_len) ||
             app_bufset_coop_read(&w->b, WS_QMETA, qmeta, mbytes, err, err_len);
    if (!rc)
        app_ws_decode(ctr, qmeta, w->nq, out);
    free(qmeta);
    return rc ? -1 : 0;
}

void app_ws_coop_free(app_ws_coop *w)
{
    if (!w)
        return;
    app_bufset_coop_free(&w->b);
    free(w);
}
