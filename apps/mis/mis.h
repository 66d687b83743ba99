/* apps/mis/mis.h: maximal independent set (Pannotia's "mis"): the CPU
 * reference and checker, the plain OpenCL baselines and the cooperative
 * launch through the runtime.
 *
 * The rule, in rounds: every undecided node takes the smallest priority among
 * its undecided neighbours; every undecided node whose own priority is
 * smaller than that joins the set and marks its undecided neighbours out;
 * the marks are committed. Priorities are Pannotia's deterministic
 * node_value[v] = v / (n + 1); this code stores and compares the integers v
 * (node_value[v] = v), which orders nodes exactly as those fractions do for
 * every n, so ties are impossible. The result: status[v] = 1 (in the set) or
 * 0 (out: a neighbour is in the set); -1 while undecided.
 * The host side (buffers, baselines, cooperative launch) is the graph
 * skeleton's (common/graph_app.h), driven by mis_app.c. */
#ifndef APPS_MIS_H
#define APPS_MIS_H

#include <stddef.h>
#include <stdint.h>

#include "ck.h"
#include "cl_plain.h"
#include "graph.h"

#define APP_MIS_COOP_FILE "mis/mis_coop.cl"
#define APP_MIS_COOP_KERNEL "mis_coop"
#define APP_MIS_PLAIN_FILE "mis/mis_plain.cl"

/* The rule's result in O(n + m): with fixed priorities it equals the greedy
 * set in increasing priority (v joins iff no smaller neighbour joined).
 * Fills status (1/0); returns the set's size. */
int32_t app_mis_cpu(const app_csr *g, int32_t *status);
/* The rule run literally, round by round as the kernels do (for tests).
 * Returns the set's size, -1 when out of memory; *rounds gets the rounds
 * that decided something (may be NULL). */
int32_t app_mis_cpu_rounds(const app_csr *g, int32_t *status, int32_t *rounds);
/* Checks got against the reference want (if not NULL) and, independently of
 * it, that got is a maximal independent set of g: every status is 0 or 1,
 * no edge joins two members (independent), every non-member has a member
 * neighbour (maximal). Returns the number of problems (0: correct) and
 * describes the first ones in msg. */
size_t app_mis_check(const app_csr *g, const int32_t *got, const int32_t *want, char *msg, size_t msg_len);

#endif
