/* The arena allocator: hands out aligned byte ranges of one big device
 * buffer. Pure bookkeeping (no OpenCL), first fit with coalescing. */
#ifndef CK_RUNTIME_ARENA_H
#define CK_RUNTIME_ARENA_H

#include <stddef.h>
#include <stdint.h>

#define CK_ARENA_ALIGN 256u

typedef struct {
    uint64_t offset, size;
} ck_range;

typedef struct {
    uint64_t capacity;
    ck_range *free_list; /* sorted by offset, coalesced */
    size_t n_free, cap_free;
    ck_range *live; /* allocations, unsorted */
    size_t n_live, cap_live;
} ck_arena;

void ck_arena_init(ck_arena *a, uint64_t capacity);
void ck_arena_destroy(ck_arena *a);
/* Returns 0 and the offset, or -1 if no free range fits (or out of memory). */
int ck_arena_alloc(ck_arena *a, uint64_t size, uint64_t *offset);
/* Returns 0, or -1 if offset is not a live allocation of that size. */
int ck_arena_free(ck_arena *a, uint64_t offset, uint64_t size);
/* 1 if [offset, offset+size) lies inside a live allocation. */
int ck_arena_contains(const ck_arena *a, uint64_t offset, uint64_t size);
uint64_t ck_arena_free_bytes(const ck_arena *a);

#endif
