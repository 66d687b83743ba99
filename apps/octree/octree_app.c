/* apps/octree/octree_app.c: octree partitioning as an application module
 * (app_module.h): input and reference, the initial pool (the root task in
 * queue 0), the plain persistent baseline and the cooperative launch (both
 * through bufset.h, the same octree.cl), and the checks. */
#include "app_module.h"
#include "bufset.h"
#include "octree.h"
#include "timer.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum { B_PA, B_PB, B_OUT, B_LEAVES, B_QMETA, B_QTASKS, B_CTR, B_COUNT };

typedef struct {
    uint32_t n, clusters, max_children;
    uint64_t seed;
    int skip_reference;
    float *in;          /* the particles (4 n floats)            */
    app_ot_summary ref; /* the CPU run's leaves                   */
    uint32_t ref_tasks;
    app_bufset_coop coop;
    int have_coop;
    uint32_t nq; /* queues of the last cooperative launch */
    /* scratch for one run's results */
    float *out;
    app_ot_leaf *leaves;
    uint32_t *qmeta, *qtasks;
} ot_state;

static void ot_defaults(app_config *c)
{
    c->particles = 3000000; /* the paper: 3 M particles in 30 000 clusters of 100 */
    c->clusters = 30000;
    c->max_children = 5;
}

static void ot_test_config(app_config *c, unsigned variant)
{
    c->particles = variant ? 4000 : 10000; /* clustered, and uniform */
    c->clusters = variant ? 0 : 100;
    c->max_children = 5;
}

static double ot_reference_work(const app_config *c) { return (double)c->particles * 12.0; }

static void ot_destroy(void *st)
{
    ot_state *s = st;
    if (!s)
        return;
    if (s->have_coop)
        app_bufset_coop_free(&s->coop);
    free(s->in);
    free(s->out);
    free(s->leaves);
    free(s->qmeta);
    free(s->qtasks);
    free(s);
}

static void *ot_create(const app_config *c, const app_csr *g, const char *input, char *desc, size_t desc_len,
                       double *cpu_ms, char *err, size_t err_len)
{
    (void)g;
    (void)input;
    if (c->particles == 0 || c->particles > APP_OCTREE_MAX_PARTICLES || c->max_children == 0 ||
        c->max_children > (1u << 20)) {
        snprintf(err, err_len, "octree: need 1 <= particles <= %u and 1 <= max-children <= %u",
                 APP_OCTREE_MAX_PARTICLES, 1u << 20);
        return NULL;
    }
    ot_state *s = calloc(1, sizeof *s);
    if (!s) {
        snprintf(err, err_len, "octree: out of host memory");
        return NULL;
    }
    s->n = c->particles;
    s->clusters = c->clusters;
    s->max_children = c->max_children;
    s->seed = c->seed;
    s->skip_reference = c->skip_reference;
    s->in = malloc(16 * (size_t)s->n);
    s->out = malloc(16 * (size_t)s->n);
    s->leaves = malloc(sizeof *s->leaves * (size_t)s->n);
    if (!s->in || !s->out || !s->leaves) {
        snprintf(err, err_len, "octree: out of host memory for %u particles", s->n);
        ot_destroy(s);
        return NULL;
    }
    app_octree_generate(s->in, s->n, s->clusters, s->seed);
    char shape[48] = "uniform";
    if (s->clusters)
        snprintf(shape, sizeof shape, "in %u clusters", s->clusters);
    int w = snprintf(desc, desc_len, "octree: %u particles %s (seed %llu), max %u per leaf", s->n, shape,
                     (unsigned long long)s->seed, s->max_children);
    if (c->skip_reference) {
        snprintf(desc + w, desc_len > (size_t)w ? desc_len - (size_t)w : 0, ", no CPU reference");
        return s;
    }
    double t0 = app_now_ms();
    uint32_t nl = 0;
    if (app_octree_cpu(s->in, s->n, s->max_children, s->out, s->leaves, &nl, &s->ref_tasks)) {
        snprintf(err, err_len, "octree: out of host memory for the reference");
        ot_destroy(s);
        return NULL;
    }
    *cpu_ms = app_now_ms() - t0;
    s->ref = app_octree_summarize(s->leaves, nl);
    char msg[256];
    int bad = app_octree_check(s->in, s->n, s->max_children, s->out, s->leaves, nl, msg, sizeof msg);
    if (bad) {
        snprintf(err, err_len, "octree: the CPU reference fails its own check: %s", bad < 0 ? "out of memory" : msg);
        ot_destroy(s);
        return NULL;
    }
    snprintf(desc + w, desc_len > (size_t)w ? desc_len - (size_t)w : 0, ": %u tasks, %u leaves, depth %u",
             s->ref_tasks, s->ref.leaves, s->ref.max_depth);
    return s;
}

/* The kernel's buffers for nq queues; the initial pool and counters are
 * malloc'd into s->qmeta / s->qtasks (freed by the caller's next call). */
static int ot_bufset(ot_state *s, uint32_t nq, app_bufset *b, uint32_t ctr[APP_OT_COUNTERS], char *err,
                     size_t err_len)
{
    uint32_t cap = app_octree_capacity(s->n, s->max_children, nq);
    free(s->qmeta);
    free(s->qtasks);
    s->qmeta = calloc((size_t)nq * APP_OT_QSTRIDE, 4);
    s->qtasks = calloc((size_t)nq * cap * APP_OT_TASK, 4);
    if (!s->qmeta || !s->qtasks) {
        snprintf(err, err_len, "octree: out of host memory for %u queues of %u tasks", nq, cap);
        return -1;
    }
    s->qmeta[APP_OT_HI] = 1; /* queue 0 holds the root: all particles, depth 0, buffer pa */
    s->qtasks[1] = s->n;
    memset(ctr, 0, APP_OT_COUNTERS * 4);
    ctr[APP_OT_PENDING] = 1;
    ctr[APP_OT_LEAF_CAP] = s->n;
    memset(b, 0, sizeof *b);
    b->what = "octree";
    b->nbuf = B_COUNT;
    b->bytes[B_PA] = 16 * (size_t)s->n;
    b->init[B_PA] = s->in;
    b->bytes[B_PB] = 16 * (size_t)s->n;
    b->bytes[B_OUT] = 16 * (size_t)s->n;
    b->bytes[B_LEAVES] = sizeof(app_ot_leaf) * (size_t)s->n;
    b->bytes[B_QMETA] = (size_t)nq * APP_OT_QSTRIDE * 4;
    b->init[B_QMETA] = s->qmeta;
    b->bytes[B_QTASKS] = (size_t)nq * cap * APP_OT_TASK * 4;
    b->init[B_QTASKS] = s->qtasks;
    b->bytes[B_CTR] = APP_OT_COUNTERS * 4;
    b->init[B_CTR] = ctr;
    b->nuint = 4;
    b->uints[0] = nq;
    b->uints[1] = cap;
    b->uints[2] = s->max_children;
    b->uints[3] = APP_OCTREE_DEPTH_LIMIT;
    return 0;
}

/* Checks one run's results (in s->out, s->leaves, s->qmeta and ctr). */
static int ot_check_run(ot_state *s, const uint32_t ctr[APP_OT_COUNTERS], uint32_t nq, char *msg, size_t msg_len)
{
    uint32_t left = 0;
    for (uint32_t q = 0; q < nq; ++q)
        left += s->qmeta[(size_t)q * APP_OT_QSTRIDE + APP_OT_HI] - s->qmeta[(size_t)q * APP_OT_QSTRIDE + APP_OT_LO];
    if (ctr[APP_OT_OVERFLOW] || ctr[APP_OT_PENDING] || left || ctr[APP_OT_LEAVES] > s->n) {
        snprintf(msg, msg_len,
                 "octree: %u tasks lost to full pools, %u pending, %u left in queues, %u leaves (room %u)",
                 ctr[APP_OT_OVERFLOW], ctr[APP_OT_PENDING], left, ctr[APP_OT_LEAVES], s->n);
        return 1;
    }
    uint32_t nl = ctr[APP_OT_LEAVES];
    int bad = app_octree_check(s->in, s->n, s->max_children, s->out, s->leaves, nl, msg, msg_len);
    if (bad)
        return bad;
    if (s->skip_reference)
        return APP_UNCHECKED;
    app_ot_summary got = app_octree_summarize(s->leaves, nl);
    if (got.leaves != s->ref.leaves || got.max_depth != s->ref.max_depth || got.leaf_hash != s->ref.leaf_hash ||
        ctr[APP_OT_DONE] != s->ref_tasks) {
        snprintf(msg, msg_len,
                 "octree: %u tasks, %u leaves, depth %u, leaf hash %016llx; the CPU run: %u, %u, %u, %016llx",
                 ctr[APP_OT_DONE], got.leaves, got.max_depth, (unsigned long long)got.leaf_hash, s->ref_tasks,
                 s->ref.leaves, s->ref.max_depth, (unsigned long long)s->ref.leaf_hash);
        return 1;
    }
    snprintf(msg, msg_len, "%u tasks, %u leaves, depth %u, %u steals", ctr[APP_OT_DONE], got.leaves, got.max_depth,
             ctr[APP_OT_STEALS]);
    return 0;
}

static int ot_plain(void *st, app_cl *c, const app_plain_args *a, app_plain_result *res, char *msg, size_t msg_len)
{
    ot_state *s = st;
    app_bufset b;
    uint32_t ctr[APP_OT_COUNTERS];
    if (ot_bufset(s, a->groups, &b, ctr, msg, msg_len))
        return -1;
    void *dst[B_COUNT] = {0};
    size_t rd[B_COUNT] = {0};
    dst[B_OUT] = s->out;
    rd[B_OUT] = b.bytes[B_OUT];
    dst[B_LEAVES] = s->leaves;
    rd[B_LEAVES] = b.bytes[B_LEAVES];
    dst[B_QMETA] = s->qmeta;
    rd[B_QMETA] = b.bytes[B_QMETA];
    dst[B_CTR] = ctr;
    rd[B_CTR] = b.bytes[B_CTR];
    app_cl_launch l = app_plain_launch(a);
    app_cl_times t;
    if (app_bufset_plain_run(c, APP_OCTREE_FILE, APP_OCTREE_KERNEL, &b, &l, dst, rd, &t, msg, msg_len))
        return -1;
    res->ms = t.ms;
    res->device_ms = t.device_ms;
    res->launches = 1;
    return ot_check_run(s, ctr, a->groups, msg, msg_len);
}

static int ot_setup(void *st, ck_context *ctx, unsigned max_groups, char *err, size_t err_len)
{
    ot_state *s = st;
    if (max_groups == 0) {
        snprintf(err, err_len, "octree: max_groups must be at least 1");
        return -1;
    }
    size_t most = 0;
    for (uint32_t nq = 1; nq <= max_groups; ++nq) {
        size_t t = (size_t)nq * app_octree_capacity(s->n, s->max_children, nq);
        most = t > most ? t : most;
    }
    size_t sizes[B_COUNT] = {16 * (size_t)s->n,
                             16 * (size_t)s->n,
                             16 * (size_t)s->n,
                             sizeof(app_ot_leaf) * (size_t)s->n,
                             (size_t)max_groups * APP_OT_QSTRIDE * 4,
                             most * APP_OT_TASK * 4,
                             APP_OT_COUNTERS * 4};
    if (app_bufset_coop_alloc(&s->coop, ctx, "cooperative octree", B_COUNT, sizes, err, err_len))
        return -1;
    s->have_coop = 1;
    return 0;
}

static int ot_start(void *st, unsigned groups, ck_launch **out, char *err, size_t err_len)
{
    ot_state *s = st;
    app_bufset b;
    uint32_t ctr[APP_OT_COUNTERS];
    if (ot_bufset(s, groups, &b, ctr, err, err_len))
        return -1;
    s->nq = groups;
    return app_bufset_coop_start(&s->coop, &b, APP_OCTREE_KERNEL, groups, out, err, err_len);
}

static int ot_coop_check(void *st, char *msg, size_t msg_len)
{
    ot_state *s = st;
    uint32_t ctr[APP_OT_COUNTERS];
    if (app_bufset_coop_read(&s->coop, B_CTR, ctr, sizeof ctr, msg, msg_len) ||
        app_bufset_coop_read(&s->coop, B_QMETA, s->qmeta, (size_t)s->nq * APP_OT_QSTRIDE * 4, msg, msg_len) ||
        app_bufset_coop_read(&s->coop, B_OUT, s->out, 16 * (size_t)s->n, msg, msg_len))
        return -1;
    uint32_t nl = ctr[APP_OT_LEAVES] < s->n ? ctr[APP_OT_LEAVES] : s->n;
    if (app_bufset_coop_read(&s->coop, B_LEAVES, s->leaves, sizeof(app_ot_leaf) * (size_t)nl, msg, msg_len))
        return -1;
    return ot_check_run(s, ctr, s->nq, msg, msg_len);
}

static void ot_teardown(void *st)
{
    ot_state *s = st;
    if (s->have_coop)
        app_bufset_coop_free(&s->coop);
    s->have_coop = 0;
}

static void ot_corrupt(void *st) { ((ot_state *)st)->ref.leaves += 1; }

const app_module app_module_octree = {
    .name = "octree",
    .alias = NULL,
    .summary = "octree partitioning of clustered particles by work stealing (Cederman-Tsigas)",
    .flags = 0,
    .coop_file = APP_OCTREE_FILE,
    .coop_kernel = APP_OCTREE_KERNEL,
    .work_unit = "particle visits",
    .defaults = ot_defaults,
    .test_config = ot_test_config,
    .test_variants = 2,
    .reference_work = ot_reference_work,
    .create = ot_create,
    .destroy = ot_destroy,
    .plain = ot_plain,
    .coop_setup = ot_setup,
    .coop_start = ot_start,
    .coop_check = ot_coop_check,
    .coop_teardown = ot_teardown,
    .corrupt_reference = ot_corrupt,
};
