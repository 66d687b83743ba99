/* apps/bfs/bfs.h: frontier BFS: the CPU reference and checker, the plain
 * OpenCL baselines and the cooperative launch through the runtime.
 *
 * Levels: levels[v] = hops from the source, -1 for unreachable nodes.
 * Errors: int functions return 0 on success and -1 with a message in err. */
#ifndef APPS_BFS_H
#define APPS_BFS_H

#include <stddef.h>
#include <stdint.h>

#include "ck.h"
#include "cl_plain.h"
#include "graph.h"

#define APP_BFS_COOP_FILE "bfs/bfs_coop.cl"
#define APP_BFS_COOP_KERNEL "bfs_coop"
#define APP_BFS_PLAIN_FILE "bfs/bfs_plain.cl"

/* Sequential queue BFS; returns the number of levels (largest level + 1). */
int32_t app_bfs_cpu(const app_csr *g, int32_t source, int32_t *levels);
/* Checks got against the reference want and, independently of it, that got
 * is a BFS level map of g from source (source at 0, every edge spans at most
 * one level, every other reached node has a neighbour one level closer,
 * unreached nodes have no reached neighbour). Returns the number of problems
 * found (0: correct) and describes the first ones in msg. */
size_t app_bfs_check(const app_csr *g, int32_t source, const int32_t *got, const int32_t *want, char *msg,
                     size_t msg_len);

typedef enum {
    APP_BFS_PLAIN_MULTI = 0,  /* one launch per level (bfs_plain.cl)              */
    APP_BFS_PLAIN_PERSISTENT  /* bfs_coop.cl as an occupancy-bound persistent kernel */
} app_bfs_plain_mode;

typedef struct {
    int32_t levels_run;   /* launches (multi) or levels (persistent)  */
    double ms;            /* kernel work, uploads excluded            */
} app_bfs_plain_result;

/* Runs the baseline on c: uploads g, runs BFS from source with work-groups of
 * wg items (persistent mode: `groups` groups, no more than the occupancy),
 * reads the levels into levels_out. The kernel work must end within
 * timeout_s seconds (finite, > 0), else -1 and c->stuck is set. */
int app_bfs_plain_run(app_cl *c, const app_csr *g, int32_t source, app_bfs_plain_mode mode, size_t wg,
                      unsigned groups, double timeout_s, int32_t *levels_out, app_bfs_plain_result *res, char *err,
                      size_t err_len);

/* The cooperative form's buffers in a built context. */
typedef struct app_bfs_coop app_bfs_coop;
int app_bfs_coop_setup(ck_context *ctx, const app_csr *g, app_bfs_coop **out, char *err, size_t err_len);
/* Resets levels and frontiers for a BFS from source and launches bfs_coop
 * asking for at most `groups` work-groups. */
int app_bfs_coop_start(app_bfs_coop *b, int32_t source, unsigned groups, ck_launch **out, char *err,
                       size_t err_len);
/* Reads the levels of the last finished launch. */
int app_bfs_coop_read(app_bfs_coop *b, int32_t *levels, char *err, size_t err_len);
void app_bfs_coop_free(app_bfs_coop *b);

#endif
