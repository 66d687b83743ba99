/* tests/install/consumer.c: a program written the way a user would write one
 * against the installed library (only <ck.h>, built with pkg-config or CMake
 * by tests/install/test_install.sh). It runs a small cooperative kernel whose
 * rounds are separated by resizing barriers, so the number of groups may
 * change between rounds, and checks every element of the result.
 * Exit 0 when the result is right, 1 with a message otherwise. */
#include <ck.h>

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Round r adds r + 1 to every element; within a round each element belongs to
 * one work-item (stride = the round's global size, fixed between barriers). */
static const char kernel_source[] = "#include \"ck_cooperative.h\"\n"
                                    "kernel void add_rounds(global uint *data, uint n, uint rounds)\n"
                                    "{\n"
                                    "    transmit uint round = 0;\n"
                                    "    while (round < rounds) {\n"
                                    "        uint stride = get_global_size(0);\n"
                                    "        for (uint i = get_global_id(0); i < n; i += stride)\n"
                                    "            data[i] += round + 1u;\n"
                                    "        round++;\n"
                                    "        resizing_global_barrier();\n"
                                    "    }\n"
                                    "}\n";

enum { N = 4096, ROUNDS = 8 };

static int failed(const char *what, ck_status s)
{
    fprintf(stderr, "consumer: %s failed: %s: %s\n", what, ck_status_name(s), ck_last_error());
    return 1;
}

static int run(ck_context *ctx)
{
    const char *coop[] = {"add_rounds"};
    ck_status s = ck_context_add_source(ctx, "consumer.cl", kernel_source, coop, 1);
    if (s != CK_OK)
        return failed("ck_context_add_source", s);
    if ((s = ck_context_build(ctx)) != CK_OK)
        return failed("ck_context_build", s);

    uint32_t *host = malloc(N * sizeof *host);
    if (!host) {
        fprintf(stderr, "consumer: out of host memory\n");
        return 1;
    }
    for (uint32_t i = 0; i < N; i++)
        host[i] = i;
    ck_buffer buf;
    if ((s = ck_buffer_alloc(ctx, N * sizeof *host, &buf)) != CK_OK) {
        free(host);
        return failed("ck_buffer_alloc", s);
    }
    if ((s = ck_buffer_write(ctx, buf, 0, host, N * sizeof *host)) != CK_OK) {
        free(host);
        return failed("ck_buffer_write", s);
    }

    ck_arg args[] = {ck_arg_buffer(buf), ck_arg_uint(N), ck_arg_uint(ROUNDS)};
    ck_launch *launch;
    unsigned groups = ck_context_workers(ctx);
    if ((s = ck_launch_kernel(ctx, "add_rounds", groups, args, 3, &launch)) != CK_OK) {
        free(host);
        return failed("ck_launch_kernel", s);
    }
    s = ck_wait(launch, 0);
    ck_launch_stats st;
    if (s == CK_OK)
        s = ck_launch_get_stats(launch, &st);
    ck_launch_release(launch);
    if (s != CK_OK) {
        free(host);
        return failed("ck_wait", s);
    }
    memset(host, 0, N * sizeof *host);
    if ((s = ck_buffer_read(ctx, buf, 0, host, N * sizeof *host)) != CK_OK) {
        free(host);
        return failed("ck_buffer_read", s);
    }

    const uint32_t added = ROUNDS * (ROUNDS + 1) / 2;
    unsigned wrong = 0;
    for (uint32_t i = 0; i < N; i++) {
        if (host[i] != i + added) {
            if (wrong++ < 5)
                fprintf(stderr, "consumer: data[%u] = %u, expected %u\n", i, host[i], i + added);
        }
    }
    free(host);
    printf("consumer: %u rounds on %u of %u groups (largest M %u, %u resizes, %u kills, %u forked): %s\n", ROUNDS,
           st.initial_groups, st.groups, st.max_active, st.resizes, st.kills, st.forked,
           wrong ? "WRONG" : "all elements right");
    if (wrong) {
        fprintf(stderr, "consumer: %u of %u elements wrong\n", wrong, N);
        return 1;
    }
    return 0;
}

int main(void)
{
    /* The header and the loaded library must be the same release. */
    if (strcmp(ck_version(), CK_VERSION_STRING) != 0) {
        fprintf(stderr, "consumer: header version %s, library version %s\n", CK_VERSION_STRING, ck_version());
        return 1;
    }
    ck_context_options opts = {.timeout_s = 60};
    ck_context *ctx;
    ck_status s = ck_context_create(&opts, &ctx);
    if (s != CK_OK)
        return failed("ck_context_create", s);
    int rc = run(ctx);
    s = ck_context_destroy(ctx);
    if (s != CK_OK)
        rc = failed("ck_context_destroy", s);
    return rc;
}
