/* examples/workstealing/workstealing.c: runs the work-stealing kernel of
 * workstealing.cl over a tree of N_NODES tasks and checks on the host that
 * every task ran once (the count and the checksum of all tasks).
 * Usage: workstealing [--chaos SEED] [KERNEL_FILE] (default ./workstealing.cl).
 * Exit status: 0 right result, 1 wrong result, 2 usage or runtime error. */
#include <ck.h>

#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum { N_NODES = 4095, UNITS = 256 };
enum { PENDING, DONE, SUM, STEALS, N_COUNTERS }; /* as in workstealing.cl */

#define CHECK(call)                                                                                                 \
    do {                                                                                                            \
        if ((call) != CK_OK) {                                                                                      \
            fprintf(stderr, "%s: %s failed: %s\n", argv[0], #call, ck_last_error());                                \
            goto done;                                                                                              \
        }                                                                                                           \
    } while (0)

static uint32_t hash(uint32_t x) /* the kernel's hash */
{
    x ^= x >> 16;
    x *= 0x7feb352du;
    x ^= x >> 15;
    x *= 0x846ca68bu;
    return x ^ (x >> 16);
}

/* Reads [--chaos SEED] [KERNEL_FILE]. Returns 0, or 2 after a message. */
static int parse_args(int argc, char **argv, const char **kernel_file, uint64_t *seed)
{
    for (int i = 1; i < argc; i++) {
        if (!strcmp(argv[i], "--chaos") && i + 1 < argc) {
            char *end;
            errno = 0;
            *seed = strtoull(argv[++i], &end, 10);
            if (errno || end == argv[i] || *end || argv[i][0] == '-') {
                fprintf(stderr, "%s: --chaos needs a seed from 0 (off) to 2^64-1, not '%s'\n", argv[0], argv[i]);
                return 2;
            }
        } else if (argv[i][0] == '-' || i != argc - 1) {
            fprintf(stderr, "usage: %s [--chaos SEED] [KERNEL_FILE]\n", argv[0]);
            return 2;
        } else {
            *kernel_file = argv[i];
        }
    }
    return 0;
}

int main(int argc, char **argv)
{
    const char *kernel_file = "workstealing.cl";
    uint64_t seed = 0;
    if (parse_args(argc, argv, &kernel_file, &seed) != 0)
        return 2;
    uint32_t want_sum = 0; /* what the kernel adds up, task by task */
    for (uint32_t t = 0; t < N_NODES; t++)
        for (uint32_t u = 0; u < UNITS; u++)
            want_sum += hash(hash(t) + u);

    int rc = 2;
    ck_context *ctx = NULL;
    ck_launch *l = NULL;
    uint32_t *zeros = NULL;
    ck_context_options o = {.timeout_s = 120, .chaos_seed = seed}; /* seed 0: no chaos */
    CHECK(ck_context_create(&o, &ctx));
    const char *coop[] = {"steal"};
    CHECK(ck_context_add_file(ctx, kernel_file, coop, 1));
    CHECK(ck_context_build(ctx));

    /* One queue per group the launch may have, each with room for every
     * task; the root task (node 0) waits in queue 0 and counts as pending. */
    unsigned nq = ck_context_workers(ctx);
    size_t cap = N_NODES, meta_bytes = 2 * nq * sizeof(uint32_t);
    ck_buffer meta, tasks, ctr;
    CHECK(ck_buffer_alloc(ctx, meta_bytes, &meta));
    CHECK(ck_buffer_alloc(ctx, nq * cap * sizeof(uint32_t), &tasks));
    CHECK(ck_buffer_alloc(ctx, N_COUNTERS * sizeof(uint32_t), &ctr));
    if (!(zeros = calloc(2 * nq, sizeof(uint32_t)))) {
        fprintf(stderr, "%s: out of host memory\n", argv[0]);
        goto done;
    }
    zeros[1] = 1; /* queue 0 holds one task */
    uint32_t root = 0, counters[N_COUNTERS] = {[PENDING] = 1};
    CHECK(ck_buffer_write(ctx, meta, 0, zeros, meta_bytes));
    CHECK(ck_buffer_write(ctx, tasks, 0, &root, sizeof root));
    CHECK(ck_buffer_write(ctx, ctr, 0, counters, sizeof counters));

    ck_arg args[] = {ck_arg_buffer(meta),        ck_arg_buffer(tasks), ck_arg_buffer(ctr), ck_arg_uint(nq),
                     ck_arg_uint((uint32_t)cap), ck_arg_uint(N_NODES), ck_arg_uint(UNITS)};
    CHECK(ck_launch_kernel(ctx, "steal", nq, args, 7, &l));
    CHECK(ck_wait(l, 60.0));
    ck_launch_stats st;
    CHECK(ck_launch_get_stats(l, &st));
    CHECK(ck_buffer_read(ctx, ctr, 0, counters, sizeof counters));

    rc = counters[DONE] == N_NODES && counters[SUM] == want_sum && counters[PENDING] == 0 ? 0 : 1;
    if (rc)
        fprintf(stderr, "%s: %u tasks done (expected %u), checksum %08x (expected %08x), %u pending\n", argv[0],
                counters[DONE], N_NODES, counters[SUM], want_sum, counters[PENDING]);
    printf("workstealing: %u tasks on up to %u groups, %u stolen; %u kills, %u forked, M up to %u; "
           "%.1f ms: %s\n",
           counters[DONE], nq, counters[STEALS], st.kills, st.forked, st.max_active, st.exec_ms,
           rc == 0 ? "PASS" : "FAIL");
done:
    free(zeros);
    ck_launch_release(l);
    if (ck_context_destroy(ctx) != CK_OK) {
        fprintf(stderr, "%s: ck_context_destroy failed: %s\n", argv[0], ck_last_error());
        if (rc == 0)
            rc = 2;
    }
    return rc;
}
