/* apps/game/game_app.c: the Connect-Four look-ahead as an application module
 * (app_module.h): the position and its CPU minimax, the node and task
 * buffers (the root task in queue 0), the plain persistent baseline and the
 * cooperative launch (both through bufset.h, the same game.cl), the checks. */
#include "app_module.h"
#include "bufset.h"
#include "game.h"
#include "timer.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum { B_VAL, B_CNT, B_QMETA, B_QTASKS, B_CTR, B_COUNT };

typedef struct {
    app_game_pos root;
    unsigned depth;
    char position[64];
    int skip_reference;
    app_game_result ref;
    uint64_t slots;
    app_bufset_coop coop;
    int have_coop;
    uint32_t nq;
    uint32_t *qmeta, *qtasks;
} gm_state;

static void gm_defaults(app_config *c)
{
    c->game_depth = 6; /* the paper: depth 6, 137 257 nodes */
    c->game_position = NULL;
}

static void gm_test_config(app_config *c, unsigned variant)
{
    c->game_depth = 4;
    /* variant 1: column 4 full, and the side to move must block a vertical
     * threat in column 1 (every other move loses at once: terminal nodes) */
    c->game_position = variant ? "4444441212123" : NULL;
}

static double gm_reference_work(const app_config *c)
{
    return (double)app_game_slots(c->game_depth < 20 ? c->game_depth : 20); /* create refuses above 9 */
}

static void gm_destroy(void *st)
{
    gm_state *s = st;
    if (!s)
        return;
    if (s->have_coop)
        app_bufset_coop_free(&s->coop);
    free(s->qmeta);
    free(s->qtasks);
    free(s);
}

static void *gm_create(const app_config *c, const app_csr *g, const char *input, char *desc, size_t desc_len,
                       double *cpu_ms, char *err, size_t err_len)
{
    (void)g;
    (void)input;
    if (c->game_depth < 1 || c->game_depth > APP_GAME_MAX_DEPTH) {
        snprintf(err, err_len, "game: depth %u outside 1..%u", c->game_depth, APP_GAME_MAX_DEPTH);
        return NULL;
    }
    const char *pos = c->game_position && c->game_position[0] ? c->game_position : APP_GAME_DEFAULT_POSITION;
    if (strlen(pos) >= 64) {
        snprintf(err, err_len, "game: position of %zu moves, at most 42", strlen(pos));
        return NULL;
    }
    gm_state *s = calloc(1, sizeof *s);
    if (!s) {
        snprintf(err, err_len, "game: out of host memory");
        return NULL;
    }
    if (app_game_parse(pos, &s->root, err, err_len)) {
        free(s);
        return NULL;
    }
    snprintf(s->position, sizeof s->position, "%s", pos);
    s->depth = c->game_depth;
    s->slots = app_game_slots(s->depth);
    s->skip_reference = c->skip_reference;
    int w = snprintf(desc, desc_len, "connect four after \"%s\", depth %u (%llu node slots)", s->position, s->depth,
                     (unsigned long long)s->slots);
    if (c->skip_reference) {
        snprintf(desc + w, desc_len > (size_t)w ? desc_len - (size_t)w : 0, ", no CPU reference");
        return s;
    }
    double t0 = app_now_ms();
    app_game_cpu(s->root, s->depth, &s->ref);
    *cpu_ms = app_now_ms() - t0;
    char mv[128];
    size_t u = 0;
    for (int m = 0; m < 7 && u < sizeof mv; ++m) {
        int k = s->ref.move[m] == APP_GAME_ILLEGAL
                    ? snprintf(mv + u, sizeof mv - u, "%s-", m ? " " : "")
                    : snprintf(mv + u, sizeof mv - u, "%s%d", m ? " " : "", s->ref.move[m]);
        u += k > 0 ? (size_t)k : 0;
    }
    snprintf(desc + w, desc_len > (size_t)w ? desc_len - (size_t)w : 0, ": %llu nodes, move values %s",
             (unsigned long long)s->ref.nodes, mv);
    return s;
}

static uint32_t gm_capacity(const gm_state *s, uint32_t nq)
{
    /* pushes are nodes of levels 1..depth-1, plus the root */
    uint64_t total = app_game_slots(s->depth - 1);
    return (uint32_t)((total + nq - 1) / nq + 8);
}

static int gm_bufset(gm_state *s, uint32_t nq, app_bufset *b, uint32_t ctr[APP_GM_COUNTERS], char *err,
                     size_t err_len)
{
    uint32_t cap = gm_capacity(s, nq);
    free(s->qmeta);
    free(s->qtasks);
    s->qmeta = calloc((size_t)nq * APP_GM_QSTRIDE, 4);
    s->qtasks = calloc((size_t)nq * cap * APP_GM_TASK, 4);
    if (!s->qmeta || !s->qtasks) {
        snprintf(err, err_len, "game: out of host memory for %u queues of %u tasks", nq, cap);
        return -1;
    }
    s->qmeta[APP_GM_HI] = 1; /* queue 0 holds the root */
    s->qtasks[2] = (uint32_t)s->root.cur;
    s->qtasks[3] = (uint32_t)(s->root.cur >> 32);
    s->qtasks[4] = (uint32_t)s->root.mask;
    s->qtasks[5] = (uint32_t)(s->root.mask >> 32);
    memset(ctr, 0, APP_GM_COUNTERS * 4);
    ctr[APP_GM_PENDING] = 1;
    memset(b, 0, sizeof *b);
    b->what = "game";
    b->nbuf = B_COUNT;
    b->bytes[B_VAL] = 4 * (size_t)s->slots;
    b->bytes[B_CNT] = 4 * (size_t)s->slots;
    b->bytes[B_QMETA] = (size_t)nq * APP_GM_QSTRIDE * 4;
    b->init[B_QMETA] = s->qmeta;
    b->bytes[B_QTASKS] = (size_t)nq * cap * APP_GM_TASK * 4;
    b->init[B_QTASKS] = s->qtasks;
    b->bytes[B_CTR] = APP_GM_COUNTERS * 4;
    b->init[B_CTR] = ctr;
    b->nuint = 3;
    b->uints[0] = nq;
    b->uints[1] = cap;
    b->uints[2] = s->depth;
    return 0;
}

/* Checks one run: val8 = val[0..7] (the root and its seven moves). */
static int gm_check_run(gm_state *s, const int32_t val8[8], const uint32_t ctr[APP_GM_COUNTERS], uint32_t nq,
                        char *msg, size_t msg_len)
{
    uint32_t left = 0;
    for (uint32_t q = 0; q < nq; ++q)
        left += s->qmeta[(size_t)q * APP_GM_QSTRIDE + APP_GM_HI] - s->qmeta[(size_t)q * APP_GM_QSTRIDE + APP_GM_LO];
    if (ctr[APP_GM_OVERFLOW] || ctr[APP_GM_PENDING] || left) {
        snprintf(msg, msg_len, "game: %u tasks lost to full pools, %u pending, %u left in queues",
                 ctr[APP_GM_OVERFLOW], ctr[APP_GM_PENDING], left);
        return 1;
    }
    /* Independent of the reference: illegal exactly at full columns, and the
     * root is the best legal move. */
    app_game_result got = {.root = val8[0], .nodes = ctr[APP_GM_NODES]};
    int32_t best = -APP_GAME_INF;
    for (unsigned m = 0; m < 7; ++m) {
        got.move[m] = val8[1 + m];
        int legal = app_game_can_play(s->root, m);
        if (legal != (got.move[m] != APP_GAME_ILLEGAL)) {
            snprintf(msg, msg_len, "game: move %u is %s but its value is %d", m + 1,
                     legal ? "legal" : "a full column", got.move[m]);
            return 1;
        }
        if (legal && got.move[m] > best)
            best = got.move[m];
    }
    if (got.root != best) {
        snprintf(msg, msg_len, "game: root value %d, but the best move is worth %d", got.root, best);
        return 1;
    }
    if (s->skip_reference)
        return APP_UNCHECKED;
    if (app_game_check(&got, &s->ref, msg, msg_len))
        return 1;
    snprintf(msg, msg_len, "root %d, %llu nodes, %u tasks, %u steals", got.root, (unsigned long long)got.nodes,
             ctr[APP_GM_DONE], ctr[APP_GM_STEALS]);
    return 0;
}

static int gm_plain(void *st, app_cl *c, const app_plain_args *a, app_plain_result *res, char *msg, size_t msg_len)
{
    gm_state *s = st;
    app_bufset b;
    uint32_t ctr[APP_GM_COUNTERS];
    int32_t val8[8];
    if (gm_bufset(s, a->groups, &b, ctr, msg, msg_len))
        return -1;
    void *dst[B_COUNT] = {0};
    size_t rd[B_COUNT] = {0};
    dst[B_VAL] = val8;
    rd[B_VAL] = sizeof val8;
    dst[B_QMETA] = s->qmeta;
    rd[B_QMETA] = b.bytes[B_QMETA];
    dst[B_CTR] = ctr;
    rd[B_CTR] = b.bytes[B_CTR];
    app_cl_launch l = app_plain_launch(a);
    app_cl_times t;
    if (app_bufset_plain_run(c, APP_GAME_FILE, APP_GAME_KERNEL, &b, &l, dst, rd, &t, msg, msg_len))
        return -1;
    res->ms = t.ms;
    res->device_ms = t.device_ms;
    res->launches = 1;
    return gm_check_run(s, val8, ctr, a->groups, msg, msg_len);
}

static int gm_setup(void *st, ck_context *ctx, unsigned max_groups, char *err, size_t err_len)
{
    gm_state *s = st;
    if (max_groups == 0) {
        snprintf(err, err_len, "game: max_groups must be at least 1");
        return -1;
    }
    size_t most = 0;
    for (uint32_t nq = 1; nq <= max_groups; ++nq) {
        size_t t = (size_t)nq * gm_capacity(s, nq);
        most = t > most ? t : most;
    }
    size_t sizes[B_COUNT] = {4 * (size_t)s->slots, 4 * (size_t)s->slots, (size_t)max_groups * APP_GM_QSTRIDE * 4,
                             most * APP_GM_TASK * 4, APP_GM_COUNTERS * 4};
    if (app_bufset_coop_alloc(&s->coop, ctx, "cooperative game", B_COUNT, sizes, err, err_len))
        return -1;
    s->have_coop = 1;
    return 0;
}

static int gm_start(void *st, unsigned groups, ck_launch **out, char *err, size_t err_len)
{
    gm_state *s = st;
    app_bufset b;
    uint32_t ctr[APP_GM_COUNTERS];
    if (gm_bufset(s, groups, &b, ctr, err, err_len))
        return -1;
    s->nq = groups;
    return app_bufset_coop_start(&s->coop, &b, APP_GAME_KERNEL, groups, out, err, err_len);
}

static int gm_coop_check(void *st, char *msg, size_t msg_len)
{
    gm_state *s = st;
    uint32_t ctr[APP_GM_COUNTERS];
    int32_t val8[8];
    if (app_bufset_coop_read(&s->coop, B_CTR, ctr, sizeof ctr, msg, msg_len) ||
        app_bufset_coop_read(&s->coop, B_QMETA, s->qmeta, (size_t)s->nq * APP_GM_QSTRIDE * 4, msg, msg_len) ||
        app_bufset_coop_read(&s->coop, B_VAL, val8, sizeof val8, msg, msg_len))
        return -1;
    return gm_check_run(s, val8, ctr, s->nq, msg, msg_len);
}

static void gm_teardown(void *st)
{
    gm_state *s = st;
    if (s->have_coop)
        app_bufset_coop_free(&s->coop);
    s->have_coop = 0;
}

/* Damages the value of the last legal move, so the next check must FAIL. */
static void gm_corrupt(void *st)
{
    gm_state *s = st;
    for (int m = 6; m >= 0; --m)
        if (s->ref.move[m] != APP_GAME_ILLEGAL) {
            s->ref.move[m] += 1;
            return;
        }
}

const app_module app_module_game = {
    .name = "game",
    .alias = "connect4",
    .summary = "Connect-Four minimax look-ahead by work stealing",
    .flags = 0,
    .coop_file = APP_GAME_FILE,
    .coop_kernel = APP_GAME_KERNEL,
    .work_unit = "node slots",
    .defaults = gm_defaults,
    .test_config = gm_test_config,
    .test_variants = 2,
    .reference_work = gm_reference_work,
    .create = gm_create,
    .destroy = gm_destroy,
    .plain = gm_plain,
    .coop_setup = gm_setup,
    .coop_start = gm_start,
    .coop_check = gm_coop_check,
    .coop_teardown = gm_teardown,
    .corrupt_reference = gm_corrupt,
};
