/* runtime/chaos.c: chaos record and replay in the arena (chaos.h; device
 * side: megakernel/ck_chaos.cl): the area the device writes its decisions
 * into and reads a replay from, and each finished cooperative launch's
 * decisions collected from it into the record. */
#include "chaos.h"
#include "context_state.h"
#include "error.h"
#include "memory.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

ck_status ck_chaos_setup(ck_context *ctx)
{
    ck_chaos_state *c = &ctx->chaos;
    if (!ctx->opts.chaos_seed || (!c->record_path && !c->replay_path))
        return CK_OK;
    c->capacity = CK_CHAOS_RECORD_ENTRIES;
    size_t words = CK_CX_HEADER + (c->table_n + c->capacity) * CK_CX_ENTRY;
    uint32_t *area = calloc(words, 4);
    if (!area)
        return ck_fail(CK_ERR_NO_MEMORY, "out of host memory for the chaos record area");
    pthread_mutex_lock(&ctx->arena_lock);
    int r = ck_arena_alloc(&ctx->arena, words * 4, &c->area);
    pthread_mutex_unlock(&ctx->arena_lock);
    if (r != 0 || c->area >= 0xfffffff0u) {
        free(area);
        return ck_fail(CK_ERR_NO_MEMORY,
                       "the arena has no room for the chaos record (%zu bytes): set "
                       "ck_context_options.arena_bytes",
                       words * 4);
    }
    area[CK_CX_CAPACITY] = c->capacity;
    area[CK_CX_TABLE_N] = (uint32_t)c->table_n;
    area[CK_CX_FLAGS] = c->replay_path ? CK_CX_FLAG_REPLAY : 0u;
    if (c->table_n)
        memcpy(area + CK_CX_HEADER, c->table, c->table_n * sizeof *c->table);
    ck_status s = ck_arena_copy(ctx, c->area, area, words * 4, 1);
    free(area);
    if (s != CK_OK)
        return s;
    uint32_t where = (uint32_t)c->area + 1u;
    if ((s = ck_arena_copy(ctx, ctx->sched_off + offsetof(ck_sched, chaos_area), &where, sizeof where, 1)) != CK_OK)
        return s;
    c->on = 1;
    return CK_OK;
}

void ck_chaos_launch_done(ck_context *ctx, ck_launch *l)
{
    ck_chaos_state *c = &ctx->chaos;
    if (!c->on)
        return;
    uint32_t count = 0;
    if (ck_arena_copy(ctx, c->area + CK_CX_COUNT * 4, &count, 4, 0) != CK_OK) {
        fprintf(stderr, "ck: reading the chaos record failed: %s\n", ck_last_error());
        return;
    }
    c->device_count = count;
    uint32_t have = count < c->capacity ? count : c->capacity;
    size_t first_new = c->rec_n;
    /* Only one cooperative launch runs at a time, so the device's entries come
     * launch after launch: take this launch's, stop at a later one's. */
    while (c->taken < have) {
        ck_cx_entry e;
        uint64_t at = c->area + ((uint64_t)CK_CX_HEADER + ((uint64_t)c->table_n + c->taken) * CK_CX_ENTRY) * 4;
        if (ck_arena_copy(ctx, at, &e, sizeof e, 0) != CK_OK || e.w[0] != l->cx_key)
            break;
        if (c->rec_n == c->rec_cap) {
            size_t cap = c->rec_cap ? 2 * c->rec_cap : 256;
            ck_cx_entry *p = realloc(c->rec, cap * sizeof *p);
            if (!p)
                break;
            c->rec = p;
            c->rec_cap = cap;
        }
        c->rec[c->rec_n++] = e;
        c->taken++;
    }
    if (c->rec_n > first_new) /* never qsort or bsearch an empty or NULL array */
        qsort(c->rec + first_new, c->rec_n - first_new, sizeof *c->rec, ck_cx_compare);
    const ck_cx_entry *first = NULL;
    unsigned diverged = 0;
    for (size_t i = first_new; i < c->rec_n; ++i)
        if (c->rec[i].w[CK_CX_E_FLAGS] & 1u) {
            if (!first)
                first = &c->rec[i];
            ++diverged;
        }
    /* A replay also diverges where the record has a decision this run never
     * reached (e.g. a loop ran fewer times). */
    const ck_cx_entry *first_missed = NULL;
    unsigned missed = 0;
    for (size_t i = 0; i < c->table_n; ++i)
        if (c->table[i].w[0] == l->cx_key &&
            (c->rec_n == first_new ||
             !bsearch(&c->table[i], c->rec + first_new, c->rec_n - first_new, sizeof *c->rec, ck_cx_compare))) {
            if (!first_missed)
                first_missed = &c->table[i];
            ++missed;
        }
    l->divergences = diverged + missed;
    char line[256];
    if (first) {
        ck_cx_format(first, line, sizeof line);
        fprintf(stderr,
                "ck: chaos replay of cooperative launch %u (launch id %u) could not make %u recorded "
                "choice%s; first: %s\n",
                l->cx_key, l->id, diverged, diverged == 1 ? "" : "s", line);
    }
    if (first_missed) {
        ck_cx_format(first_missed, line, sizeof line);
        fprintf(stderr,
                "ck: chaos replay of cooperative launch %u (launch id %u) never reached %u recorded "
                "decision%s; first: %s\n",
                l->cx_key, l->id, missed, missed == 1 ? "" : "s", line);
    }
    if (c->rec_n)
        qsort(c->rec, c->rec_n, sizeof *c->rec, ck_cx_compare);
    ck_chaos_write_record(c, ctx->opts.chaos_seed);
}
