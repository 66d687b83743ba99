/* The build's warnings on PoCL (run with POCL_MAX_PTHREAD_COUNT=2, so the
 * megakernel gets one scheduler group and one worker): the build says that a
 * single worker allows no cooperation and how to get more, after the
 * stitcher's own warnings, in ck_context_build_warnings; quiet_warnings
 * keeps them off stderr but in the text. */
#include "ck.h"

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

static void test_one_worker(void **state)
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
    assert_int_equal(ck_context_workers(c), 1);
    const char *w = ck_context_build_warnings(c);
    const char *fence = strstr(w, "w.cl:3: warning: mem_fence");
    const char *one = strstr(w, "ck: warning: the megakernel has 1 worker on this CPU device");
    if (!fence || !one || one < fence || !strstr(w, "POCL_MAX_PTHREAD_COUNT=8 gives 7 workers"))
        fail_msg("want the stitcher's warning, then the one-worker warning naming POCL_MAX_PTHREAD_COUNT; got:\n%s",
                 w);
    assert_int_equal(ck_context_destroy(c), CK_OK);
}

int main(void)
{
    const char *n = getenv("POCL_MAX_PTHREAD_COUNT");
    if (!n || strcmp(n, "2") != 0) {
        fprintf(stderr, "run with POCL_MAX_PTHREAD_COUNT=2 (the test wants a one-worker megakernel)\n");
        return 1;
    }
    const struct CMUnitTest tests[] = {cmocka_unit_test(test_one_worker)};
    return cmocka_run_group_tests_name("build-warnings", tests, NULL, NULL);
}
