/* apps/bfs/bfs.h: frontier BFS: the CPU reference and checker and the
 * kernel files (the host side is the graph skeleton's, common/graph_app.h,
 * driven by bfs_app.c).
 *
 * Levels: levels[v] = hops from the source, -1 for unreachable nodes. */
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

#endif
