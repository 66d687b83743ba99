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
 * Errors: int functions return 0 on success and -1 with a message in err. */
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

typedef struct {
    int32_t rounds;   /* multi-launch: rounds run, the last one finding nothing undecided; persistent: -1 */
    int32_t launches; /* kernel launches (multi-launch: 3 per round; else 1) */
    double ms;        /* kernel work, uploads excluded                       */
} app_mis_plain_result;

/* Runs a plain baseline on c: persistent != 0: mis_coop.cl as an
 * occupancy-bound persistent kernel on `groups` groups of wg items (no more
 * than the occupancy); else the original multi-launch form (mis1, mis2 and
 * mis3 once per round, the host reading the stop flag after each round).
 * Reads the statuses into status_out. The kernel work must end within
 * timeout_s seconds (finite, > 0), else -1 and c->stuck is set. */
int app_mis_plain_run(app_cl *c, const app_csr *g, int persistent, size_t wg, unsigned groups, double timeout_s,
                      int32_t *status_out, app_mis_plain_result *res, char *err, size_t err_len);

/* The cooperative form's buffers in a built context. */
typedef struct app_mis_coop app_mis_coop;
int app_mis_coop_setup(ck_context *ctx, const app_csr *g, app_mis_coop **out, char *err, size_t err_len);
/* Resets statuses, marks and the stop flag and launches mis_coop asking for
 * at most `groups` work-groups. */
int app_mis_coop_start(app_mis_coop *b, unsigned groups, ck_launch **out, char *err, size_t err_len);
/* Reads the statuses of the last finished launch. */
int app_mis_coop_read(app_mis_coop *b, int32_t *status, char *err, size_t err_len);
void app_mis_coop_free(app_mis_coop *b);

#endif
