#define _GNU_SOURCE /* mkstemps */
/* Chaos-test harness (see chaos_harness.h): record files for chaos runs and
 * the replay command line of a failing one. */
#include "chaos_harness.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

int chaos_harness_begin(chaos_harness *h, ck_context_options *o)
{
    memset(h, 0, sizeof *h);
    h->seed = o->chaos_seed;
    const char *fixed = getenv("CK_CHAOS_RECORD");
    if (fixed && *fixed) {
        snprintf(h->path, sizeof h->path, "%s", fixed);
    } else {
        const char *dir = getenv("TMPDIR");
        snprintf(h->path, sizeof h->path, "%s/ck-chaos-XXXXXX.txt", dir && *dir ? dir : "/tmp");
        int fd = mkstemps(h->path, 4);
        if (fd < 0) {
            h->path[0] = 0;
            return -1;
        }
        close(fd);
        h->temporary = 1;
    }
    o->chaos_record_path = h->path;
    return 0;
}

void chaos_harness_end(chaos_harness *h, int failed, const char *command, char *msg, size_t msg_size)
{
    if (!h->path[0])
        return;
    if (!failed) {
        if (h->temporary)
            remove(h->path);
        return;
    }
    char text[2048];
    snprintf(text, sizeof text,
             "chaos seed %llu failed; its schedule is recorded in %s\n"
             "replay it with:\n  CK_CHAOS_REPLAY=%s CK_CHAOS_SEED=%llu %s\n",
             (unsigned long long)h->seed, h->path, h->path, (unsigned long long)h->seed, command);
    fputs(text, stderr);
    if (msg && msg_size)
        snprintf(msg, msg_size, "%s", text);
}
