/* apps/color/color.h: graph colouring (Pannotia's "color", Jones-Plassmann
 * style): the CPU reference and checker, the plain OpenCL baselines and the
 * cooperative launch through the runtime.
 *
 * The rule, in rounds r = 0, 1, ...: every uncoloured node takes the largest
 * priority among its uncoloured neighbours; then every uncoloured node whose
 * own priority beats that maximum gets colour r. Priorities are Pannotia's
 * deterministic node_value[v] = v / (n + 1); this code stores and compares the
 * integers v instead (node_value[v] = v), which orders nodes exactly as those
 * fractions do, for every n (floats would tie above 2^24 nodes), so ties are
 * impossible. colors[v] = the round that coloured v, -1 while uncoloured.
 * The host side (buffers, baselines, cooperative launch) is the graph
 * skeleton's (common/graph_app.h), driven by color_app.c. */
#ifndef APPS_COLOR_H
#define APPS_COLOR_H

#include <stddef.h>
#include <stdint.h>

#include "ck.h"
#include "cl_plain.h"
#include "graph.h"

#define APP_COLOR_COOP_FILE "color/color_coop.cl"
#define APP_COLOR_COOP_KERNEL "color_coop"
#define APP_COLOR_PLAIN_FILE "color/color_plain.cl"

/* The rule's result in O(n + m) without rounds: a node is coloured in the
 * round after the last of its higher-priority neighbours, so
 * colors[v] = 1 + max(colors[u] : u neighbour of v, u > v), or 0 if v beats
 * all its neighbours, filled in decreasing v. Returns the colours used
 * (largest colour + 1; 0 for an empty graph). */
int32_t app_color_cpu(const app_csr *g, int32_t *colors);
/* The rule run literally, round by round as the kernels do (O(rounds * m):
 * for tests). Returns the colours used, -1 when out of memory. */
int32_t app_color_cpu_rounds(const app_csr *g, int32_t *colors);
/* Checks got against the reference want (if not NULL) and, independently of
 * it, that got is a proper colouring of g: every node has a colour in
 * 0..n-1 and no edge joins two nodes of the same colour. Returns the number
 * of problems (0: correct) and describes the first ones in msg. */
size_t app_color_check(const app_csr *g, const int32_t *got, const int32_t *want, char *msg, size_t msg_len);

#endif
