/* apps/workstealing/ws.h: the work-stealing application: the task tree's
 * definition (shared with ws.cl: keep the hash functions identical), the CPU
 * reference, the plain occupancy-bound baseline and the cooperative launch.
 * Errors: int functions return 0 on success, -1 with a message in err. */
#ifndef APPS_WS_H
#define APPS_WS_H

#include <stddef.h>
#include <stdint.h>

#include "ck.h"
#include "cl_plain.h"

#define APP_WS_FILE "workstealing/ws.cl"
#define APP_WS_KERNEL "ws_coop"

typedef struct {
    uint32_t roots;     /* initial tasks, spread over the queues          */
    uint32_t max_depth; /* tasks at this depth have no children           */
    uint32_t units;     /* hash chains per task (spread over a work-group) */
    uint32_t iters;     /* rounds per hash chain                          */
    uint64_t seed;      /* picks the root seeds, hence the whole tree     */
} app_ws_params;

typedef struct {
    uint32_t tasks;    /* tasks processed                                 */
    uint32_t checksum; /* sum of the tasks' values, mod 2^32              */
    uint32_t max_depth_seen;
    uint32_t overflow; /* children lost to full queues (must be 0)        */
    uint32_t pending;  /* left at the end (must be 0)                     */
    uint32_t steals;   /* informational                                    */
} app_ws_result;

uint32_t app_ws_hash(uint32_t x);
uint32_t app_ws_root_seed(uint64_t seed, uint32_t i);
uint32_t app_ws_task_value(uint32_t seed, uint32_t units, uint32_t iters);
uint32_t app_ws_children(uint32_t seed, uint32_t depth, uint32_t max_depth);
uint32_t app_ws_child_seed(uint32_t seed, uint32_t c);

/* Expands the whole tree on the CPU. -1 only when out of memory. */
int app_ws_cpu(const app_ws_params *p, app_ws_result *out);
/* Compares a device result with the reference; 0 if equal, else the number
 * of differing fields with a description in msg. */
int app_ws_check(const app_ws_result *got, const app_ws_result *want, char *msg, size_t msg_len);
/* Queue capacity that no queue can exceed for nq queues (see ws.cl). */
uint32_t app_ws_capacity(const app_ws_params *p, uint32_t nq);

/* Plain baseline: ws.cl (built with l->build_options) as an occupancy-bound
 * persistent kernel on c with l->groups work-groups (and as many queues) of
 * l->wg items; the kernel must end within l->timeout_s seconds (finite,
 * > 0), else -1 and c->stuck is set. *t: its host and device times. */
int app_ws_plain_run(app_cl *c, const app_ws_params *p, const app_cl_launch *l, app_ws_result *out, app_cl_times *t,
                     char *err, size_t err_len);

/* Cooperative form: buffers sized for at most max_groups queues. */
typedef struct app_ws_coop app_ws_coop;
int app_ws_coop_setup(ck_context *ctx, const app_ws_params *p, unsigned max_groups, app_ws_coop **out, char *err,
                      size_t err_len);
/* Resets queues and counters and launches ws_coop with N = groups
 * (<= max_groups) work-groups and N queues. */
int app_ws_coop_start(app_ws_coop *w, unsigned groups, ck_launch **out, char *err, size_t err_len);
int app_ws_coop_read(app_ws_coop *w, app_ws_result *out, char *err, size_t err_len);
void app_ws_coop_free(app_ws_coop *w);

#endif
