/* tests/apps/apps_test_util.h (owner: apps): helpers shared by the PoCL tests
 * of the applications: the test inputs, context options on PoCL for a path,
 * and running one cooperative configuration with a readable failure. */
#ifndef APPS_TEST_UTIL_H
#define APPS_TEST_UTIL_H

#include "app.h"
#include "multitask.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Small inputs: a few hundred ms per run on a 2-core CPU (the module's
 * test_config; variant picks among its shapes, e.g. BFS: even R-MAT, odd
 * grid). */
static inline app_config apps_test_config(app_kind kind, unsigned variant)
{
    app_config c;
    app_test_config(&c, kind, variant);
    return c;
}

/* PoCL unless CK_DEVICE names another device (the same tests on a GPU). A
 * run whose wait failed does not hold up the next for long: destroy then
 * aborts what still runs after 10 s. */
static inline ck_context_options apps_test_context(ck_path path, uint64_t chaos, int naive)
{
    ck_context_options o;
    memset(&o, 0, sizeof o);
    o.device.device = getenv("CK_DEVICE") && *getenv("CK_DEVICE") ? NULL : "Portable Computing Language";
    o.device.path = path;
    o.chaos_seed = chaos;
    o.naive_resizing_barrier = naive;
    o.timeout_s = 60;
    o.shutdown_timeout_s = 10;
    return o;
}

/* Runs one configuration; returns 0 if everything passed, else writes what
 * went wrong into why. */
static inline int apps_test_run(app_session *s, unsigned mm_groups, char *why, size_t why_len,
                                app_multitask_result *out)
{
    app_multitask_result r;
    char err[1024];
    int rc = app_multitask_run(s, mm_groups, 10.0, 8, 60.0, &r, err, sizeof err);
    int bad = 1;
    if (rc)
        snprintf(why, why_len, "error: %s", err);
    else if (r.coop_check != 0)
        snprintf(why, why_len, "cooperative result FAIL: %s", r.coop_msg);
    else if (r.mm_bad)
        snprintf(why, why_len, "matmul FAIL: %s", r.mm_msg);
    else if (mm_groups && r.mm_launches == 0)
        snprintf(why, why_len, "no matmul launch was made");
    else
        bad = 0;
    if (out)
        *out = r;
    else
        app_multitask_result_free(&r);
    return bad;
}

#endif
