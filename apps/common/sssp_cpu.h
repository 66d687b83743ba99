/* apps/common/sssp_cpu.h: single-source shortest paths on the CPU for the
 * SSSP applications (p-sssp, l-sssp): Dijkstra's algorithm as the reference,
 * and a check of a device result against it and, independently, against the
 * shortest-path conditions. Distances are int32; APP_SSSP_INF marks an
 * unreachable node. Errors: 0 on success, -1 with a message in err. */
#ifndef APPS_SSSP_CPU_H
#define APPS_SSSP_CPU_H

#include <stddef.h>
#include <stdint.h>

#include "graph.h"

#define APP_SSSP_INF INT32_MAX

/* Dijkstra from source over g's weights (g->w must be set, weights >= 1).
 * Fails if a distance would not fit below APP_SSSP_INF, or out of memory. */
int app_sssp_dijkstra(const app_csr *g, int32_t source, int32_t *dist, char *err, size_t err_len);
/* Compares got with want and checks got on its own: dist[source] == 0, no
 * edge can still relax (dist[v] <= dist[u] + w), every other reached node
 * has a neighbour u with dist[u] + w == dist[v], unreached nodes have no
 * reached neighbour. Returns the number of problems (0: correct), the first
 * ones described in msg. */
size_t app_sssp_check(const app_csr *g, int32_t source, const int32_t *got, const int32_t *want, char *msg,
                      size_t msg_len);

#endif
