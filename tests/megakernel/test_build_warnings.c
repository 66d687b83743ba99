/* The build's warnings on PoCL, run with POCL_MAX_PTHREAD_COUNT = 2, 3 or 4
 * (a scheduler group and 1, 2 or 3 workers): with fewer than three workers
 * the build says what little cooperation that allows and how to get more,
 * once, after the stitcher's own warnings, in ck_context_build_warnings
 * (quiet_warnings keeps them off stderr but in the text); with three it says
 * nothing of the workers. */
#include "ck.h"

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

static unsigned want_workers;

static unsigned count(const char *text, const char *what)
{
    unsigned n = 0;
    for (const char *at = strstr(text, what); at; at = strstr(at + 1, what))
        ++n;
    return n;
}

static void test_few_workers(void **state)
{
    (void)state;
    ck_context_options o = {.timeout_s = 60, .quiet_warnings = 1};
    o.device.device = "Portable Computing Language";
    ck_context *c;
    if (ck_context_create(&o, &c) != CK_OK)
        fail_msg("%s", ck_last_error());
    const char *coop[] = {"k"};
    const char *src = "kernel void k(global uint *d) {\n"
                      "  d[0] = 1;\n"
                      "  mem_fence(CLK_GLOBAL_MEM_FENCE);\n"
                      "  offer_kill();\n"
                      "}\n";
    assert_int_equal(ck_context_add_source(c, "w.cl", src, coop, 1), CK_OK);
    if (ck_context_build(c) != CK_OK)
        fail_msg("%s", ck_last_error());
    if (ck_context_workers(c) != want_workers)
        fail_msg("POCL_MAX_PTHREAD_COUNT=%u gave %u workers (want %u)", want_workers + 1, ck_context_workers(c),
                 want_workers);
    const char *w = ck_context_build_warnings(c);
    const char *fence = strstr(w, "w.cl:3: warning: mem_fence");
    if (!fence)
        fail_msg("want the stitcher's mem_fence warning; got:\n%s", w);
    const char *about = "ck: warning: the megakernel has ";
    if (want_workers >= 3) {
        if (strstr(w, about))
            fail_msg("%u workers: want no warning about the workers; got:\n%s", want_workers, w);
    } else {
        char head[160];
        snprintf(head, sizeof head, "%s%u worker%s on this CPU device", about, want_workers,
                 want_workers == 1 ? "" : "s");
        const char *few = strstr(w, head);
        if (!few || few < fence || count(w, about) != 1 || !strstr(w, "POCL_MAX_PTHREAD_COUNT=8 gives 7 workers"))
            fail_msg("want the stitcher's warning, then once '%s' naming POCL_MAX_PTHREAD_COUNT; got:\n%s", head, w);
    }
    assert_int_equal(ck_context_destroy(c), CK_OK);
}

int main(void)
{
    const char *n = getenv("POCL_MAX_PTHREAD_COUNT");
    if (!n || (strcmp(n, "2") && strcmp(n, "3") && strcmp(n, "4"))) {
        fprintf(stderr, "run with POCL_MAX_PTHREAD_COUNT=2, 3 or 4 (a megakernel of 1, 2 or 3 workers)\n");
        return 1;
    }
    want_workers = (unsigned)atoi(n) - 1;
    const struct CMUnitTest tests[] = {cmocka_unit_test(test_few_workers)};
    return cmocka_run_group_tests_name("build-warnings", tests, NULL, NULL);
}
