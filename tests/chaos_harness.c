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

extern char **environ;

/* Appends ' NAME=value' for a variable that decides how the run goes: the
 * runtime's CK_* (not the three the replay line sets itself) and PoCL's
 * POCL_* (POCL_MAX_PTHREAD_COUNT sets the worker count). A value with
 * characters the shell would read is single-quoted. */
static void append_env(char *out, size_t n)
{
    for (char **e = environ; e && *e; ++e) {
        const char *v = *e;
        int ck = !strncmp(v, "CK_", 3), pocl = !strncmp(v, "POCL_", 5);
        if ((!ck && !pocl) || !strncmp(v, "CK_CHAOS_REPLAY=", 16) || !strncmp(v, "CK_CHAOS_SEED=", 14) ||
            !strncmp(v, "CK_CHAOS_RECORD=", 16))
            continue;
        const char *eq = strchr(v, '=');
        if (!eq)
            continue;
        size_t at = strlen(out);
        int plain =
            eq[1] && strspn(eq + 1, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_-.,/:+=@%") ==
                         strlen(eq + 1);
        if (plain || strchr(eq + 1, '\''))
            snprintf(out + at, n - at, "%s ", v);
        else
            snprintf(out + at, n - at, "%.*s='%s' ", (int)(eq - v + 1), v, eq + 1);
    }
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
    char env[1024] = "";
    append_env(env, sizeof env);
    char text[4096];
    snprintf(text, sizeof text,
             "chaos seed %llu failed; its schedule is recorded in %s\n"
             "replay it with:\n  %sCK_CHAOS_REPLAY=%s CK_CHAOS_SEED=%llu %s\n",
             (unsigned long long)h->seed, h->path, env, h->path, (unsigned long long)h->seed, command);
    fputs(text, stderr);
    if (msg && msg_size)
        snprintf(msg, msg_size, "%s", text);
}
