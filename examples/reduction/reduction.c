/* examples/reduction/reduction.c: runs the cooperative reduction of
 * reduction.cl on the megakernel and checks every chunk's sum on the host.
 * Usage: reduction [--chaos SEED] [KERNEL_FILE] (default ./reduction.cl).
 * Exit status: 0 right result, 1 wrong result, 2 usage or runtime error. */
#include <ck.h>

#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum { CHUNK_LEN = 1 << 14, CHUNKS = 64 };

/* README:begin check */
/* Every call is checked: on failure, say which call and why, then clean up. */
#define CHECK(call)                                                                   \
    do {                                                                              \
        if ((call) != CK_OK) {                                                        \
            fprintf(stderr, "%s: %s failed: %s\n", argv[0], #call, ck_last_error()); \
            goto done;                                                                \
        }                                                                             \
    } while (0)
/* README:end check */

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
    const char *kernel_file = "reduction.cl";
    uint64_t seed = 0;
    if (parse_args(argc, argv, &kernel_file, &seed) != 0)
        return 2;

    /* Input words 0..255, and the sum of each chunk (uint arithmetic wraps
     * the same way on both sides). */
    static uint32_t in[CHUNK_LEN * CHUNKS];
    uint32_t want[CHUNKS] = {0}, sums[CHUNKS] = {0};
    for (uint32_t i = 0; i < CHUNK_LEN * CHUNKS; i++) {
        in[i] = (i * 2654435761u) >> 24;
        want[i / CHUNK_LEN] += in[i];
    }

    int rc = 2;
    ck_context *ctx = NULL;
    ck_launch *l = NULL;
    /* README:begin host */
    ck_context_options o = {.timeout_s = 120, .chaos_seed = seed}; /* seed 0: no chaos */
    CHECK(ck_context_create(&o, &ctx));
    const char *coop[] = {"reduce"};              /* the file's cooperative kernels */
    CHECK(ck_context_add_file(ctx, kernel_file, coop, 1));
    CHECK(ck_context_build(ctx));                 /* stitch, compile, start the megakernel */
    unsigned n = ck_context_workers(ctx);         /* N: the most groups the launch may get */
    ck_buffer in_b, sums_b;
    CHECK(ck_buffer_alloc(ctx, sizeof in, &in_b));
    CHECK(ck_buffer_alloc(ctx, sizeof sums, &sums_b));
    CHECK(ck_buffer_write(ctx, in_b, 0, in, sizeof in));
    CHECK(ck_buffer_write(ctx, sums_b, 0, sums, sizeof sums)); /* zeros: groups add into them */
    ck_arg args[] = {ck_arg_buffer(in_b), ck_arg_uint(CHUNK_LEN), ck_arg_uint(CHUNKS),
                     ck_arg_buffer(sums_b)};
    CHECK(ck_launch_kernel(ctx, "reduce", n, args, 4, &l));
    CHECK(ck_wait(l, 60.0));                      /* every wait has a deadline */
    ck_launch_stats st;
    CHECK(ck_launch_get_stats(l, &st));
    CHECK(ck_buffer_read(ctx, sums_b, 0, sums, sizeof sums));
    /* README:end host */

    rc = 0;
    for (int c = 0; c < CHUNKS; c++)
        if (sums[c] != want[c]) {
            fprintf(stderr, "%s: chunk %d sums to %u, expected %u\n", argv[0], c, sums[c], want[c]);
            rc = 1;
        }
    printf("reduction: %d chunks of %d words, N = %u groups (M from %u up to %u; %u kills, %u forked, "
           "%u resizes) in %.1f ms: %s\n",
           CHUNKS, CHUNK_LEN, n, st.initial_groups, st.max_active, st.kills, st.forked, st.resizes, st.exec_ms,
           rc == 0 ? "PASS" : "FAIL");
done:
    ck_launch_release(l);
    if (ck_context_destroy(ctx) != CK_OK) {
        fprintf(stderr, "%s: ck_context_destroy failed: %s\n", argv[0], ck_last_error());
        if (rc == 0)
            rc = 2;
    }
    return rc;
}
