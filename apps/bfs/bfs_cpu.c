/* apps/bfs/bfs_cpu.c: the sequential reference BFS and the level checker
 * (see bfs.h). */
#include "bfs.h"
#include "check.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int32_t app_bfs_cpu(const app_csr *g, int32_t source, int32_t *levels)
{
    for (int32_t v = 0; v < g->n; ++v)
        levels[v] = -1;
    int32_t *queue = malloc((size_t)g->n * sizeof *queue);
    if (!queue)
        return -1;
    int32_t head = 0, tail = 0, depth = 0;
    levels[source] = 0;
    queue[tail++] = source;
    while (head < tail) {
        int32_t v = queue[head++];
        if (levels[v] + 1 > depth)
            depth = levels[v] + 1;
        for (int32_t e = g->row[v]; e < g->row[v + 1]; ++e) {
            int32_t u = g->col[e];
            if (levels[u] == -1) {
                levels[u] = levels[v] + 1;
                queue[tail++] = u;
            }
        }
    }
    free(queue);
    return depth;
}

/* Appends a problem description to msg (the first three only). */
static void note(char *msg, size_t len, size_t *used, size_t count, const char *text)
{
    if (!msg || count >= 3 || *used >= len)
        return;
    int k = snprintf(msg + *used, len - *used, "%s%s", *used ? "; " : "", text);
    *used += k > 0 ? (size_t)k : 0;
}

size_t app_bfs_check(const app_csr *g, int32_t source, const int32_t *got, const int32_t *want, char *msg,
                     size_t msg_len)
{
    size_t used = 0, problems = 0;
    char text[160];
    if (msg && msg_len)
        msg[0] = 0;
    if (want) {
        size_t bad = app_check_i32("level of node", got, want, (size_t)g->n, msg, msg_len);
        if (bad)
            return bad;
    }
    unsigned char *has_parent = calloc((size_t)g->n, 1);
    if (!has_parent) {
        if (msg)
            snprintf(msg, msg_len, "BFS check: out of memory");
        return 1;
    }
    if (got[source] != 0) {
        snprintf(text, sizeof text, "source %d has level %d, not 0", source, got[source]);
        note(msg, msg_len, &used, problems++, text);
    }
    for (int32_t v = 0; v < g->n; ++v) {
        int32_t lv = got[v];
        if (lv < -1 || lv >= g->n) {
            snprintf(text, sizeof text, "node %d has impossible level %d", v, lv);
            note(msg, msg_len, &used, problems++, text);
            continue;
        }
        if (lv < 0)
            continue;
        for (int32_t e = g->row[v]; e < g->row[v + 1]; ++e) {
            int32_t u = g->col[e], lu = got[u];
            if (lu == -1 || lu > lv + 1) {
                snprintf(text, sizeof text, "edge %d->%d goes from level %d to level %d", v, u, lv, lu);
                note(msg, msg_len, &used, problems++, text);
            } else if (lu == lv + 1) {
                has_parent[u] = 1;
            }
        }
    }
    for (int32_t v = 0; v < g->n; ++v)
        if (got[v] > 0 && !has_parent[v]) {
            snprintf(text, sizeof text, "node %d at level %d has no predecessor at level %d", v, got[v], got[v] - 1);
            note(msg, msg_len, &used, problems++, text);
        }
    free(has_parent);
    if (problems > 3 && msg && used < msg_len)
        snprintf(msg + used, msg_len - used, "; %zu problems in all", problems);
    return problems;
}
