/* The registry of live handles and the quarantine of released ones (see
 * handle.h for the design). One mutex guards both; the live set is an
 * open-addressing hash table of pointer values with tombstones. */
#include "handle.h"
#include "error.h"

#include <pthread.h>
#include <stdlib.h>

typedef struct {
    uintptr_t key; /* 0: empty, 1: tombstone, else the handle's address */
    ck_handle_kind kind;
} slot;

#define TOMBSTONE ((uintptr_t)1)

static pthread_mutex_t reg_lock = PTHREAD_MUTEX_INITIALIZER;
static slot *table;
static size_t table_cap, table_used; /* used counts live entries and tombstones */

static struct {
    void *p;
    ck_handle_kind kind;
} quarantine[CK_QUARANTINE];
static size_t q_next, q_count;

/* Addresses of the most recent releases, for messages only: a launch
 * released before it finished is unregistered at once but its memory reaches
 * the quarantine later, when the scheduler is done with it. */
#define RECENT (2 * CK_QUARANTINE)
static struct {
    const void *p;
    ck_handle_kind kind;
} recent[RECENT];
static size_t r_next;

static size_t hash(uintptr_t k, size_t cap)
{
    uint64_t h = (uint64_t)k * 0x9E3779B97F4A7C15ull;
    return (size_t)(h >> 17) & (cap - 1);
}

/* Index of key, or of the empty slot ending its probe sequence. */
static size_t probe(uintptr_t key)
{
    size_t i = hash(key, table_cap);
    while (table[i].key && table[i].key != key)
        i = (i + 1) & (table_cap - 1);
    return i;
}

/* Rehashes into a table sized for the live entries (tombstones dropped), so
 * that many create/release cycles do not make it grow. */
static int grow(void)
{
    size_t live = 0;
    for (size_t i = 0; i < table_cap; ++i)
        live += table[i].key > TOMBSTONE;
    size_t cap = 64;
    while (cap < 4 * (live + 1))
        cap *= 2;
    slot *old = table;
    size_t old_cap = table_cap;
    slot *t = calloc(cap, sizeof *t);
    if (!t)
        return -1;
    table = t;
    table_cap = cap;
    table_used = 0;
    for (size_t i = 0; i < old_cap; ++i)
        if (old[i].key > TOMBSTONE) {
            table[probe(old[i].key)] = old[i];
            table_used++;
        }
    free(old);
    return 0;
}

static const char *kind_name(ck_handle_kind k)
{
    return k == CK_HANDLE_CONTEXT ? "context" : k == CK_HANDLE_LAUNCH ? "launch" : "device";
}

ck_status ck_handle_register(const void *p, ck_handle_kind k)
{
    uintptr_t key = (uintptr_t)p;
    pthread_mutex_lock(&reg_lock);
    if ((table_used + 1) * 2 > table_cap && grow() != 0) {
        pthread_mutex_unlock(&reg_lock);
        return ck_fail(CK_ERR_NO_MEMORY, "out of host memory registering a %s handle", kind_name(k));
    }
    size_t i = probe(key);
    if (!table[i].key)
        table_used++;
    table[i].key = key;
    table[i].kind = k;
    pthread_mutex_unlock(&reg_lock);
    return CK_OK;
}

static int live_locked(uintptr_t key, ck_handle_kind k, size_t *at)
{
    if (!table_cap || key <= TOMBSTONE)
        return 0;
    size_t i = probe(key);
    *at = i;
    return table[i].key == key && table[i].kind == k;
}

int ck_handle_unregister_locked(const void *p, ck_handle_kind k)
{
    size_t at;
    int live = live_locked((uintptr_t)p, k, &at);
    if (live) {
        table[at].key = TOMBSTONE;
        recent[r_next].p = p;
        recent[r_next].kind = k;
        r_next = (r_next + 1) % RECENT;
    }
    return live;
}

int ck_handle_unregister(const void *p, ck_handle_kind k)
{
    pthread_mutex_lock(&reg_lock);
    int live = ck_handle_unregister_locked(p, k);
    pthread_mutex_unlock(&reg_lock);
    return live;
}

int ck_handle_is_live(const void *p, ck_handle_kind k)
{
    size_t at;
    pthread_mutex_lock(&reg_lock);
    int live = live_locked((uintptr_t)p, k, &at);
    pthread_mutex_unlock(&reg_lock);
    return live;
}

void ck_handle_lock(void) { pthread_mutex_lock(&reg_lock); }
void ck_handle_unlock(void) { pthread_mutex_unlock(&reg_lock); }

int ck_handle_is_live_locked(const void *p, ck_handle_kind k)
{
    size_t at;
    return live_locked((uintptr_t)p, k, &at);
}

ck_status ck_handle_check(const void *p, ck_handle_kind k, const char *fn)
{
    if (!p)
        return ck_fail(CK_ERR_INVALID_ARGUMENT, "%s: the %s handle is NULL", fn, kind_name(k));
    size_t at;
    pthread_mutex_lock(&reg_lock);
    int live = live_locked((uintptr_t)p, k, &at);
    int released = 0;
    for (size_t q = 0; !live && q < CK_QUARANTINE; ++q)
        released |= quarantine[q].p == p && quarantine[q].kind == k;
    for (size_t r = 0; !live && r < RECENT; ++r)
        released |= recent[r].p == p && recent[r].kind == k;
    pthread_mutex_unlock(&reg_lock);
    if (live)
        return CK_OK;
    if (released)
        return ck_fail(CK_ERR_INVALID_ARGUMENT, "%s: the %s handle %p was already %s; it must not be used again", fn,
                       kind_name(k), p,
                       k == CK_HANDLE_CONTEXT  ? "destroyed"
                       : k == CK_HANDLE_LAUNCH ? "released"
                                               : "closed");
    return ck_fail(CK_ERR_INVALID_ARGUMENT,
                   "%s: %p is not a live %s handle (never created, or released or destroyed "
                   "earlier)",
                   fn, p, kind_name(k));
}

void ck_handle_retire(void *p, uint32_t *magic, ck_handle_kind k)
{
    if (!p)
        return;
    *magic = CK_MAGIC_DEAD;
    void *evict = NULL;
    pthread_mutex_lock(&reg_lock);
    if (q_count == CK_QUARANTINE)
        evict = quarantine[q_next].p;
    else
        q_count++;
    quarantine[q_next].p = p;
    quarantine[q_next].kind = k;
    q_next = (q_next + 1) % CK_QUARANTINE;
    pthread_mutex_unlock(&reg_lock);
    free(evict);
}
