/* runtime/chaos_record.h: chaos records on the host: one decision's form
 * (ck_cx_entry) and its text, the record/replay state a context keeps
 * (the paths, the loaded replay, the decisions collected so far), and the
 * record file written from it. No device memory here: the area in the
 * arena is chaos.h's. */
#ifndef CK_RUNTIME_CHAOS_RECORD_H
#define CK_RUNTIME_CHAOS_RECORD_H

#include "ck.h"

#include <stddef.h>
#include <stdint.h>

/* One decision: key (the cooperative launch's number in its context, 1 for
 * the first; kind << 24 | group; birth; n or epoch), the
 * value that took effect, M before and after, flags (bit 0: a replay could
 * not make the recorded choice; bits 1..: the recorded value). */
typedef struct {
    uint32_t w[8];
} ck_cx_entry;

typedef struct {
    char *record_path, *replay_path;
    ck_cx_entry *table; /* replay: the loaded record, sorted           */
    size_t table_n;
    uint64_t area;         /* arena byte offset of the area               */
    uint32_t capacity;     /* record entries the area holds               */
    int on;                /* an area exists                              */
    uint32_t taken;        /* device entries already collected            */
    uint32_t device_count; /* decisions the device counted (for truncation) */
    ck_cx_entry *rec;      /* collected decisions of finished launches    */
    size_t rec_n, rec_cap;
    int write_failed;
} ck_chaos_state;

/* Record entries the area holds; later decisions are counted, not kept. */
#define CK_CHAOS_RECORD_ENTRIES (1u << 15)

/* At context creation: takes the paths from the options or from
 * CK_CHAOS_RECORD / CK_CHAOS_REPLAY, loads the replay file and, when the
 * seed is 0 and a replay is asked, turns chaos mode on with the record's
 * seed. Errors: CK_ERR_INVALID_ARGUMENT (unreadable or malformed replay
 * file: the message names the line), CK_ERR_NO_MEMORY. */
ck_status ck_chaos_init(ck_chaos_state *c, ck_context_options *o);
/* Rewrites the record file with the decisions collected so far, under the
 * header that names `seed`. A failed write is said on stderr and stops the
 * recording (never an error of the launch). */
void ck_chaos_write_record(ck_chaos_state *c, uint64_t seed);
void ck_chaos_free(ck_chaos_state *c);

/* Text form of one decision (no newline); parses it back. 0 on success. */
void ck_cx_format(const ck_cx_entry *e, char *buf, size_t n);
int ck_cx_parse(const char *line, ck_cx_entry *e);
/* Orders two decisions (const ck_cx_entry *) by key, for qsort and bsearch. */
int ck_cx_compare(const void *a, const void *b);

#endif
