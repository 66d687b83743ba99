/* apps/common/graph_app.h: the host skeleton the graph applications share.
 * An app states its buffers and kernels once in a table (app_gk_spec); from
 * it this module creates the buffers, builds and runs the plain baselines
 * (the cooperative kernel as an occupancy-bound persistent kernel, or the
 * app's multi-launch loop over its plain kernels), runs the cooperative form
 * in the runtime's arena, reads the result back and checks it against the
 * CPU reference. The module callbacks of app_module.h (create, plain,
 * coop_setup, coop_start, coop_check, coop_teardown, destroy) are this
 * module's functions; an app gives only its table, reference, check and
 * what differs (app_gapp_ops: a multi-launch loop, run-time sizes, a check
 * of the run's own state).
 * Errors: int functions return 0 on success and -1 with a one-line message
 * in err naming the app's `what` and the failing step. */
#ifndef APPS_GRAPH_APP_H
#define APPS_GRAPH_APP_H

#include <stddef.h>
#include <stdint.h>

#include "app_module.h"
#include "ck.h"
#include "cl_plain.h"
#include "graph.h"

#define APP_GK_MAX_BUFS 10
#define APP_GK_MAX_ARGS 12
#define APP_GK_MAX_KERNELS 6
#define APP_GK_MAX_INTS 4
#define APP_GK_MAX_HOST 4

/* One kernel argument: buffer i of the table, int scalar i of the table,
 * the plain persistent kernel's barrier words (NULL in the cooperative
 * form), a NULL global pointer, the local scratch (plain: plain_local(wg)
 * bytes; cooperative: coop_local bytes) or its size in ints. */
typedef enum {
    APP_GK_BUF,
    APP_GK_INT,
    APP_GK_BARRIER,
    APP_GK_NULL,
    APP_GK_LOCAL,
    APP_GK_LOCAL_INTS
} app_gk_arg_kind;
typedef struct {
    unsigned char kind; /* app_gk_arg_kind */
    unsigned char index;
} app_gk_arg;
/* clang-format would spread each of these initializers over four lines: they stay as written. */
/* clang-format off */
#define APP_GK_B(i) {APP_GK_BUF, (i)}
#define APP_GK_I(i) {APP_GK_INT, (i)}
#define APP_GK_BAR {APP_GK_BARRIER, 0}
#define APP_GK_NUL {APP_GK_NULL, 0}
#define APP_GK_LM {APP_GK_LOCAL, 0}
#define APP_GK_LM_INTS {APP_GK_LOCAL_INTS, 0}
/* clang-format on */

/* When the cooperative form writes a buffer's initial contents (the plain
 * baselines write every buffer once, before the run). */
typedef enum {
    APP_GK_ONCE, /* at setup (the graph)                          */
    APP_GK_EACH, /* before every launch (values, flags)           */
    APP_GK_KEEP  /* never: scratch the kernel writes before reading */
} app_gk_when;

typedef struct {
    const char *what;  /* "CSR rows": messages                                       */
    size_t bytes;      /* size (an empty buffer gets 4 bytes)                        */
    const void *init;  /* initial contents of the first init_bytes, NULL: zeros      */
    size_t init_bytes; /* 0: all bytes                                               */
    app_gk_when coop;
} app_gk_buf;

typedef struct {
    const char *name;
    size_t nargs;
    app_gk_arg args[APP_GK_MAX_ARGS];
} app_gk_kernel;

typedef struct {
    const char *what; /* "colouring", "BFS": messages            */
    size_t nbuf;
    app_gk_buf buf[APP_GK_MAX_BUFS];
    int32_t ints[APP_GK_MAX_INTS]; /* int scalar arguments                    */
    const char *coop_file;         /* kernel file of the cooperative kernel   */
    app_gk_kernel coop;            /* cooperative and plain persistent kernel */
    const char *plain_file;        /* multi-launch kernels' file, or NULL     */
    size_t nplain;
    app_gk_kernel plain[APP_GK_MAX_KERNELS];
    /* The multi-launch loop when the app gives none (app_gapp_ops.multi
     * NULL): rounds of all plain kernels in order (app_gk_round on buffer
     * flag) until a round leaves the flag 0; round_kernel >= 0: argument
     * round_arg of that kernel is the round number. */
    size_t flag;
    int round_kernel;
    unsigned round_arg;
    size_t (*plain_local)(size_t wg); /* APP_GK_LOCAL bytes of the plain forms   */
    size_t coop_local;                /* APP_GK_LOCAL bytes of the cooperative one */
    size_t result;                    /* buffer read back after a run            */
    size_t result_bytes;
} app_gk_spec;

/* A plain run in progress, for an app's multi-launch loop: kernel i is
 * spec->plain[i] with its table arguments set. */
typedef struct {
    app_cl *c;
    const app_gk_spec *spec;
    cl_kernel k[APP_GK_MAX_KERNELS];
    cl_mem mem[APP_GK_MAX_BUFS];
    size_t wg;
    size_t global; /* the node count rounded up to wg (at least wg) */
} app_gk_plain;

/* Sets argument arg of kernel k to int v, or to buffer buf. */
int app_gk_set_int(app_gk_plain *p, size_t k, unsigned arg, int32_t v, char *err, size_t err_len);
int app_gk_set_buf(app_gk_plain *p, size_t k, unsigned arg, size_t buf, char *err, size_t err_len);
/* Enqueues kernel k over `global` items (p->wg per group). */
int app_gk_enqueue(app_gk_plain *p, size_t k, size_t global, char *err, size_t err_len);
/* One round of the multi-launch baselines: zeroes the first word of buffer
 * flag, launches the nk kernels `kernels` over `global` items (0: p->global)
 * and reads the first flag_bytes of flag back with a blocking read (as the
 * original host loops do) into flag_out. */
int app_gk_round(app_gk_plain *p, size_t flag, const size_t *kernels, size_t nk, size_t global, void *flag_out,
                 size_t flag_bytes, char *err, size_t err_len);
/* The message of a multi-launch loop past its deadline. */
int app_gk_timeout(const app_gk_plain *p, int32_t rounds, const char *unit, char *err, size_t err_len);

/* ---- the shared module state: an app's state struct begins with it */
typedef struct app_gapp app_gapp;
typedef struct {
    const char *what;          /* "colouring", "BFS": messages                  */
    size_t ref_elem, got_elem; /* bytes of one reference and one result element (0: 4) */
    /* Fills a->spec (and the app's own fields) from c; -1 with a message in
     * err (a bad option, out of memory). */
    int (*spec)(app_gapp *a, const app_config *c, char *err, size_t err_len);
    /* What the description says before the reference part (", source 3"),
     * or NULL. */
    void (*about)(const app_gapp *a, char *out, size_t out_len);
    /* Computes a->ref (timed as the CPU reference); -1 with a message in err. */
    int (*reference)(app_gapp *a, char *err, size_t err_len);
    /* After it, untimed: describes the reference in out (", 7 levels, 120
     * reached"); -1 with a message in err. NULL: the description is
     * stat_format (one %d) of a->ref_stat. */
    int (*describe)(app_gapp *a, char *out, size_t out_len, char *err, size_t err_len);
    const char *stat_format;
    /* Checks a->got against a->ref (and independently); returns the number
     * of problems, described in msg. */
    size_t (*check)(const app_gapp *a, char *msg, size_t msg_len);
    /* The multi-launch loop (NULL: the spec's flag rounds): runs until done
     * or deadline_ms, counting kernel launches into *launches. */
    int (*multi)(app_gapp *a, app_gk_plain *p, double deadline_ms, int32_t *launches, char *err, size_t err_len);
    /* Or NULL: before each plain run and cooperative setup, updates what
     * of a->spec is decided at run time (sizes); -1 with a message in err. */
    int (*prepare)(app_gapp *a, char *err, size_t err_len);
    /* Or NULL: after a persistent run (p: the plain one; NULL: the
     * cooperative one), before the result is read; -1 with a message in err
     * when the run failed (read state with app_gapp_read). */
    int (*after)(app_gapp *a, app_gk_plain *p, char *err, size_t err_len);
} app_gapp_ops;

struct app_gapp {
    const app_gapp_ops *ops;
    const app_csr *g;
    int skip_reference;
    int32_t source;              /* for apps with one                           */
    int32_t ref_stat;            /* what the reference returns, for describe    */
    void *ref, *got;             /* reference and result: n (at least 1) elements */
    void *host[APP_GK_MAX_HOST]; /* host arrays the spec's init points at   */
    app_gk_spec spec;
    struct app_gk_coop *coop; /* cooperative buffers between setup and teardown */
};

/* The module's create (app_module.h) for an app whose state of `size`
 * bytes begins with app_gapp: allocates it (ref and got of n elements),
 * fills the spec, runs the reference unless c->skip_reference and writes
 * desc: "<input>: N nodes, M directed edges<about><reference part>" (the
 * reference part " (no CPU reference)" when skipped). NULL with a message in
 * err (out of memory: "<what>: out of host memory"). */
void *app_gapp_create(size_t size, const app_gapp_ops *ops, const app_config *c, const app_csr *g, const char *input,
                      char *desc, size_t desc_len, double *cpu_ms, char *err, size_t err_len);
/* The module's create: a function fn over app_gapp_create for a state of
 * `size` bytes and app_gapp_ops ops. */
#define APP_GAPP_CREATE(fn, size, ops)                                                                              \
    static void *fn(const app_config *c, const app_csr *g, const char *input, char *desc, size_t desc_len,          \
                    double *cpu_ms, char *err, size_t err_len)                                                      \
    {                                                                                                               \
        return app_gapp_create(size, &(ops), c, g, input, desc, desc_len, cpu_ms, err, err_len);                    \
    }
/* app_gapp_ops.about of the apps with a source: ", source S". */
void app_gapp_about_source(const app_gapp *a, char *out, size_t out_len);
/* Of a->ref as int32 values: how many differ from `unreached`, and the
 * largest into *top. */
int32_t app_gapp_reached(const app_gapp *a, int32_t unreached, int32_t *top);

/* The references two apps share: BFS levels from a->source (bfs, bfs-wl)
 * and Dijkstra's distances (p-sssp, l-sssp; err: "<what> reference: ..."),
 * their checks, and the BFS description and test corruption. */
int app_gapp_bfs_reference(app_gapp *a, char *err, size_t err_len);
int app_gapp_bfs_describe(app_gapp *a, char *out, size_t out_len, char *err, size_t err_len);
size_t app_gapp_bfs_check(const app_gapp *a, char *msg, size_t msg_len);
void app_gapp_bfs_corrupt(void *st);
int app_gapp_sssp_reference(app_gapp *a, char *err, size_t err_len);
size_t app_gapp_sssp_check(const app_gapp *a, char *msg, size_t msg_len);
/* Host array i of `bytes` (at least 4) owned by the state; NULL when out of
 * memory. */
void *app_gapp_host(app_gapp *a, size_t i, size_t bytes);

/* Appends buffer {what, bytes, init, coop} to a->spec; returns its index. */
size_t app_gapp_buf(app_gapp *a, const char *what, size_t bytes, const void *init, app_gk_when coop);
/* Appends the CSR rows and columns (and, when weighted, the weights), all
 * written once, as buffers 0, 1 (and 2). */
void app_gapp_csr(app_gapp *a, int weighted);
/* Appends one buffer of n ints per name (the NULL-terminated list), each
 * with the same init and coop. */
void app_gapp_nodes(app_gapp *a, const void *init, app_gk_when coop, const char *what, ...);
/* Pannotia's graph buffers (color, mis): the CSR, then the node values
 * (priorities v, as color.h says) as buffer 2; returns host array 1, n ints
 * of -1 for the app's per-launch state, NULL when out of memory. */
int32_t *app_gapp_pannotia(app_gapp *a);
/* Host array i of n ints (at least 1) all equal to v, or (ids != 0) equal to
 * their index; NULL when out of memory. */
int32_t *app_gapp_ints(app_gapp *a, size_t i, int32_t v, int ids);

/* The module callbacks (app_module.h), for every graph app. */
void app_gapp_destroy(void *st);
int app_gapp_plain(void *st, app_cl *c, const app_plain_args *args, app_plain_result *res, char *msg,
                   size_t msg_len);
int app_gapp_coop_setup(void *st, ck_context *ctx, unsigned max_groups, char *err, size_t err_len);
int app_gapp_coop_start(void *st, unsigned groups, ck_launch **out, char *err, size_t err_len);
int app_gapp_coop_check(void *st, char *msg, size_t msg_len);
void app_gapp_coop_teardown(void *st);
/* The app_module of a graph app whose reference walks the edges once
 * (work unit "edges", reference_work app_gapp_reference_edges): its name,
 * alias (or NULL), summary, flags besides APP_MOD_GRAPH, cooperative kernel
 * file and kernel, test_config (two variants), create and
 * corrupt_reference; the other callbacks are this module's. */
#define APP_GAPP_MODULE(name_, alias_, summary_, flags_, file_, kernel_, test_config_, create_, corrupt_)           \
    {                                                                                                               \
        .name = name_, .alias = alias_, .summary = summary_, .flags = APP_MOD_GRAPH | (flags_), .coop_file = file_, \
        .coop_kernel = kernel_, .work_unit = "edges", .test_config = test_config_, .test_variants = 2,              \
        .reference_work = app_gapp_reference_edges, .create = create_, APP_GAPP_CALLBACKS,                          \
        .corrupt_reference = corrupt_,                                                                              \
    }
/* reference_work for apps whose reference walks the edges once: the
 * input's edge count (0 for a file). */
double app_gapp_reference_edges(const app_config *c);
/* The module table's entries that are this module's functions. */
#define APP_GAPP_CALLBACKS                                                                                          \
    .destroy = app_gapp_destroy, .plain = app_gapp_plain, .coop_setup = app_gapp_coop_setup,                        \
    .coop_start = app_gapp_coop_start, .coop_check = app_gapp_coop_check, .coop_teardown = app_gapp_coop_teardown
/* Reads the first bytes of buffer i after a run: of the plain run p, or
 * (p NULL) of the last cooperative launch. */
int app_gapp_read(app_gapp *a, app_gk_plain *p, size_t i, void *dst, size_t bytes, char *err, size_t err_len);

#endif
