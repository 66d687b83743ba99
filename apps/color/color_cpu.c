/* apps/color/color_cpu.c: the CPU colourings of the rule (closed form and
 * round by round) and the colouring checker (see color.h). */
#include "color.h"
#include "check.h"

#include <stdio.h>
#include <stdlib.h>

int32_t app_color_cpu(const app_csr *g, int32_t *colors)
{
    int32_t used = 0;
    for (int32_t v = g->n - 1; v >= 0; --v) {
        int32_t c = 0;
        for (int32_t e = g->row[v]; e < g->row[v + 1]; ++e) {
            int32_t u = g->col[e];
            if (u > v && colors[u] + 1 > c)
                c = colors[u] + 1;
        }
        colors[v] = c;
        if (c + 1 > used)
            used = c + 1;
    }
    return used;
}

int32_t app_color_cpu_rounds(const app_csr *g, int32_t *colors)
{
    int32_t *max_d = malloc(((size_t)g->n + 1) * sizeof *max_d);
    if (!max_d)
        return -1;
    for (int32_t v = 0; v < g->n; ++v)
        colors[v] = -1;
    int32_t color = 0;
    for (;;) {
        int stop = 0;
        for (int32_t v = 0; v < g->n; ++v) {
            if (colors[v] != -1)
                continue;
            int32_t max = -1;
            for (int32_t e = g->row[v]; e < g->row[v + 1]; ++e) {
                int32_t u = g->col[e];
                if (colors[u] == -1) {
                    stop = 1;
                    max = u > max ? u : max;
                }
            }
            max_d[v] = max;
        }
        for (int32_t v = 0; v < g->n; ++v)
            if (colors[v] == -1 && v > max_d[v])
                colors[v] = color;
        if (!stop)
            break;
        ++color;
    }
    free(max_d);
    return g->n ? color + 1 : 0;
}

/* Appends a problem description to msg (the first three only). */
static void note(char *msg, size_t len, size_t *used, size_t count, const char *text)
{
    if (!msg || count >= 3 || *used >= len)
        return;
    int k = snprintf(msg + *used, len - *used, "%s%s", *used ? "; " : "", text);
    *used += k > 0 ? (size_t)k : 0;
}

size_t app_color_check(const app_csr *g, const int32_t *got, const int32_t *want, char *msg, size_t msg_len)
{
    size_t used = 0, problems = 0;
    char text[160];
    if (msg && msg_len)
        msg[0] = 0;
    for (int32_t v = 0; v < g->n; ++v) {
        if (got[v] < 0 || got[v] >= g->n) {
            snprintf(text, sizeof text, "node %d has %s colour %d", v, got[v] == -1 ? "no" : "impossible", got[v]);
            note(msg, msg_len, &used, problems++, text);
            continue;
        }
        for (int32_t e = g->row[v]; e < g->row[v + 1]; ++e) {
            int32_t u = g->col[e];
            if (u != v && got[u] == got[v]) {
                snprintf(text, sizeof text, "edge %d-%d joins two nodes of colour %d", v, u, got[v]);
                note(msg, msg_len, &used, problems++, text);
            }
        }
    }
    if (problems > 3 && msg && used < msg_len)
        snprintf(msg + used, msg_len - used, "; %zu problems in all", problems);
    if (problems || !want)
        return problems;
    return app_check_i32("colour of node", got, want, (size_t)g->n, msg, msg_len);
}
