/* First-fit arena allocator over offsets (see arena.h). */
#include "arena.h"

#include <stdlib.h>
#include <string.h>

static int push(ck_range **v, size_t *n, size_t *cap, size_t at, ck_range r)
{
    if (*n == *cap) {
        size_t c = *cap ? *cap * 2 : 16;
        ck_range *nv = realloc(*v, c * sizeof *nv);
        if (!nv)
            return -1;
        *v = nv;
        *cap = c;
    }
    memmove(*v + at + 1, *v + at, (*n - at) * sizeof **v);
    (*v)[at] = r;
    ++*n;
    return 0;
}

static void erase(ck_range *v, size_t *n, size_t at)
{
    memmove(v + at, v + at + 1, (*n - at - 1) * sizeof *v);
    --*n;
}

void ck_arena_init(ck_arena *a, uint64_t capacity)
{
    memset(a, 0, sizeof *a);
    a->capacity = capacity;
    if (capacity)
        push(&a->free_list, &a->n_free, &a->cap_free, 0, (ck_range){0, capacity});
}

void ck_arena_destroy(ck_arena *a)
{
    free(a->free_list);
    free(a->live);
    memset(a, 0, sizeof *a);
}

/* size rounded up to CK_ARENA_ALIGN, or 0 when that would not fit in 64 bits
 * (checked before the addition, which would otherwise wrap to a small size). */
static uint64_t rounded(uint64_t size)
{
    if (size > UINT64_MAX - (CK_ARENA_ALIGN - 1))
        return 0;
    return (size + CK_ARENA_ALIGN - 1) / CK_ARENA_ALIGN * CK_ARENA_ALIGN;
}

int ck_arena_alloc(ck_arena *a, uint64_t size, uint64_t *offset)
{
    if (size == 0 || size > a->capacity)
        return -1;
    uint64_t need = rounded(size);
    if (need == 0)
        return -1;
    for (size_t i = 0; i < a->n_free; ++i) {
        ck_range *f = &a->free_list[i];
        if (f->size < need)
            continue;
        uint64_t at = f->offset;
        if (push(&a->live, &a->n_live, &a->cap_live, a->n_live, (ck_range){at, need}) != 0)
            return -1;
        f->offset += need;
        f->size -= need;
        if (f->size == 0)
            erase(a->free_list, &a->n_free, i);
        *offset = at;
        return 0;
    }
    return -1;
}

int ck_arena_free(ck_arena *a, uint64_t offset, uint64_t size)
{
    uint64_t need = rounded(size);
    if (need == 0)
        return -1;
    size_t li = 0;
    while (li < a->n_live && !(a->live[li].offset == offset && a->live[li].size == need))
        ++li;
    if (li == a->n_live)
        return -1;
    a->live[li] = a->live[a->n_live - 1];
    --a->n_live;
    size_t i = 0;
    while (i < a->n_free && a->free_list[i].offset < offset)
        ++i;
    if (push(&a->free_list, &a->n_free, &a->cap_free, i, (ck_range){offset, need}) != 0)
        return -1;
    if (i + 1 < a->n_free && a->free_list[i].offset + a->free_list[i].size == a->free_list[i + 1].offset) {
        a->free_list[i].size += a->free_list[i + 1].size;
        erase(a->free_list, &a->n_free, i + 1);
    }
    if (i > 0 && a->free_list[i - 1].offset + a->free_list[i - 1].size == a->free_list[i].offset) {
        a->free_list[i - 1].size += a->free_list[i].size;
        erase(a->free_list, &a->n_free, i);
    }
    return 0;
}

int ck_arena_contains(const ck_arena *a, uint64_t offset, uint64_t size)
{
    /* Written without offset + size, which a forged range could wrap. */
    for (size_t i = 0; i < a->n_live; ++i)
        if (offset >= a->live[i].offset && size <= a->live[i].size &&
            offset - a->live[i].offset <= a->live[i].size - size)
            return 1;
    return 0;
}

uint64_t ck_arena_free_bytes(const ck_arena *a)
{
    uint64_t s = 0;
    for (size_t i = 0; i < a->n_free; ++i)
        s += a->free_list[i].size;
    return s;
}
