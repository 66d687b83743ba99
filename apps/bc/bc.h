/* apps/bc/bc.h: Pannotia betweenness centrality (Brandes, unweighted): the
 * CPU reference and its checker, and the kernel files (the host side is
 * the graph skeleton's, common/graph_app.h, driven by bc_app.c).
 *
 * bc[v] = sum over sources s in 0..sources-1 (s != v) of Brandes'
 * dependency delta_s(v) = sum over t of sigma_st(v) / sigma_st, where
 * sigma_st counts shortest s-t paths and sigma_st(v) those through v. Every
 * ordered pair counts (no halving on the symmetric graph). The kernels count
 * paths and accumulate in float (as Pannotia does); the reference uses
 * double and refuses graphs whose path counts pass float's range.
 *
 * Errors: int functions return 0 on success and -1 with a one-line message
 * in err. */
#ifndef APPS_BC_H
#define APPS_BC_H

#include <stddef.h>
#include <stdint.h>

#include "ck.h"
#include "cl_plain.h"
#include "graph.h"

#define APP_BC_COOP_FILE "bc/bc_coop.cl"
#define APP_BC_COOP_KERNEL "bc_coop"
#define APP_BC_PLAIN_FILE "bc/bc_plain.cl"

/* The check's tolerance: |got - want| <= APP_BC_REL_TOL * |want| +
 * APP_BC_ABS_TOL per node, and the same on the sum of all values. */
#define APP_BC_REL_TOL 1e-3
#define APP_BC_ABS_TOL 1e-3

/* Brandes from sources 0..sources-1 (1..g->n) into bc (n doubles); the
 * largest BFS depth into *depth (may be NULL). Fails when out of memory or
 * when a shortest-path count passes 1e37 (the kernels' float would
 * overflow). */
int app_bc_cpu(const app_csr *g, int32_t sources, double *bc, int32_t *depth, char *err, size_t err_len);
/* An independent total for the check: sum over sources s and nodes t
 * reached from s (t != s) of (hops(s, t) - 1), by plain BFS. Since
 * sum over v != s of delta_s(v) = sum over t of (hops(s, t) - 1) (each
 * shortest s-t path has hops - 1 interior nodes), the bc values must sum to
 * it. -1 when out of memory. */
int app_bc_hop_total(const app_csr *g, int32_t sources, double *total, char *err, size_t err_len);
/* Checks got (n floats) against the reference want (may be NULL: only the
 * independent checks) and, independently of it: every value finite and >= 0,
 * nodes of degree <= 1 at 0 (they are never inside a shortest path), and the
 * values summing to hop_total, all within the tolerance above. Returns the
 * number of problems (0: correct), the first ones described in msg. */
size_t app_bc_check(const app_csr *g, const float *got, const double *want, double hop_total, char *msg,
                    size_t msg_len);

#endif
