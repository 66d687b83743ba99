/* apps/mis/mis_cpu.c: the CPU independent sets of the rule (greedy and round
 * by round) and the maximal-independent-set checker (see mis.h). */
#include "mis.h"
#include "check.h"

#include <limits.h>
#include <stdio.h>
#include <stdlib.h>

int32_t app_mis_cpu(const app_csr *g, int32_t *status)
{
    int32_t size = 0;
    for (int32_t v = 0; v < g->n; ++v) {
        int in = 1;
        for (int32_t e = g->row[v]; e < g->row[v + 1] && in; ++e) {
            int32_t u = g->col[e];
            if (u < v && status[u] == 1)
                in = 0;
        }
        status[v] = in;
        size += in;
    }
    return size;
}

int32_t app_mis_cpu_rounds(const app_csr *g, int32_t *status, int32_t *rounds)
{
    size_t n1 = g->n ? (size_t)g->n : 1;
    int32_t *min_d = malloc(n1 * sizeof *min_d), *upd = malloc(n1 * sizeof *upd);
    if (!min_d || !upd) {
        free(min_d);
        free(upd);
        return -1;
    }
    for (int32_t v = 0; v < g->n; ++v)
        status[v] = upd[v] = -1;
    int32_t round = 0, size = 0;
    for (;;) {
        int stop = 0;
        for (int32_t v = 0; v < g->n; ++v) {
            if (status[v] != -1)
                continue;
            stop = 1;
            int32_t best = INT32_MAX;
            for (int32_t e = g->row[v]; e < g->row[v + 1]; ++e)
                if (status[g->col[e]] == -1 && g->col[e] < best)
                    best = g->col[e];
            min_d[v] = best;
        }
        if (!stop)
            break;
        for (int32_t v = 0; v < g->n; ++v)
            if (status[v] == -1 && v < min_d[v]) {
                status[v] = 1;
                ++size;
                for (int32_t e = g->row[v]; e < g->row[v + 1]; ++e)
                    if (status[g->col[e]] == -1)
                        upd[g->col[e]] = 0;
            }
        for (int32_t v = 0; v < g->n; ++v)
            if (upd[v] == 0 && status[v] == -1)
                status[v] = 0;
        ++round;
    }
    free(min_d);
    free(upd);
    if (rounds)
        *rounds = round;
    return size;
}

/* Appends a problem description to msg (the first three only). */
static void note(char *msg, size_t len, size_t *used, size_t count, const char *text)
{
    if (!msg || count >= 3 || *used >= len)
        return;
    int k = snprintf(msg + *used, len - *used, "%s%s", *used ? "; " : "", text);
    *used += k > 0 ? (size_t)k : 0;
}

size_t app_mis_check(const app_csr *g, const int32_t *got, const int32_t *want, char *msg, size_t msg_len)
{
    size_t used = 0, problems = 0;
    char text[160];
    if (msg && msg_len)
        msg[0] = 0;
    for (int32_t v = 0; v < g->n; ++v)
        if (got[v] != 0 && got[v] != 1) {
            snprintf(text, sizeof text, "node %d is %s (status %d)", v, got[v] == -1 ? "undecided" : "invalid",
                     got[v]);
            note(msg, msg_len, &used, problems++, text);
        }
    size_t invalid = problems; /* the structure is checked on 0/1 statuses only */
    for (int32_t v = 0; v < g->n && !invalid; ++v) {
        int covered = got[v] == 1;
        for (int32_t e = g->row[v]; e < g->row[v + 1]; ++e) {
            int32_t u = g->col[e];
            if (u == v)
                continue;
            if (got[v] == 1 && got[u] == 1) {
                snprintf(text, sizeof text, "edge %d-%d joins two members of the set (not independent)", v, u);
                note(msg, msg_len, &used, problems++, text);
            }
            covered |= got[u] == 1;
        }
        if (!covered) {
            snprintf(text, sizeof text, "node %d is out of the set but has no neighbour in it (not maximal)", v);
            note(msg, msg_len, &used, problems++, text);
        }
    }
    if (problems > 3 && msg && used < msg_len)
        snprintf(msg + used, msg_len - used, "; %zu problems in all", problems);
    if (problems || !want)
        return problems;
    return app_check_i32("set membership of node", got, want, (size_t)g->n, msg, msg_len);
}
