/* examples/multitask/multitask.c: launches the ordinary kernel `fill` many
 * times while the cooperative kernel `rounds` runs, prints how long each
 * launch waited for its groups (the gather time of ck_launch_get_stats), and
 * checks both kernels' results on the host.
 * Usage: multitask [--chaos SEED] [KERNEL_FILE] (default ./multitask.cl).
 * Exit status: 0 right results, 1 wrong result, 2 usage or runtime error. */
#include <ck.h>

#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum { N = 1 << 14, LAUNCHES = 24 };

#define CHECK(call)                                                                   \
    do {                                                                              \
        if ((call) != CK_OK) {                                                        \
            fprintf(stderr, "%s: %s failed: %s\n", argv[0], #call, ck_last_error()); \
            goto done;                                                                \
        }                                                                             \
    } while (0)

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
    const char *kernel_file = "multitask.cl";
    uint64_t seed = 0;
    if (parse_args(argc, argv, &kernel_file, &seed) != 0)
        return 2;
    static uint32_t data[N], out[LAUNCHES * N];
    int rc = 2;
    ck_context *ctx = NULL;
    ck_launch *coop_l = NULL, *l = NULL;
    ck_buffer data_b, ctl_b, out_b;
    ck_context_options o = {.timeout_s = 120, .chaos_seed = seed};
    CHECK(ck_context_create(&o, &ctx));
    const char *coop[] = {"rounds"}; /* `fill` is ordinary */
    CHECK(ck_context_add_file(ctx, kernel_file, coop, 1));
    CHECK(ck_context_build(ctx));
    unsigned w = ck_context_workers(ctx);
    if (w < 2) { /* the cooperative kernel keeps group 0 to the end */
        fprintf(stderr, "%s: the megakernel has %u worker; multitasking needs 2 or more "
                        "(on PoCL set POCL_MAX_PTHREAD_COUNT=4)\n", argv[0], w);
        goto done;
    }
    uint32_t ctl[3] = {0, 0, 0}; /* stop flag, group 0's sample of it, rounds done */
    CHECK(ck_buffer_alloc(ctx, sizeof data, &data_b));
    CHECK(ck_buffer_alloc(ctx, sizeof ctl, &ctl_b));
    CHECK(ck_buffer_alloc(ctx, sizeof out, &out_b));
    CHECK(ck_buffer_write(ctx, data_b, 0, data, sizeof data));
    CHECK(ck_buffer_write(ctx, ctl_b, 0, ctl, sizeof ctl));
    ck_arg coop_args[] = {ck_arg_buffer(data_b), ck_arg_uint(N), ck_arg_buffer(ctl_b)};
    CHECK(ck_launch_kernel(ctx, "rounds", w, coop_args, 3, &coop_l));

    /* README:begin host */
    /* Ordinary launches of 1, W/4, W/2 and W-1 groups, one after another,
     * while `rounds` holds the workers: each waits for its groups to be
     * given back at a resizing barrier. */
    unsigned sizes[4] = {1, w / 4 ? w / 4 : 1, w / 2 ? w / 2 : 1, w - 1};
    double gather_ms[4] = {0}, worst_ms[4] = {0};
    for (unsigned k = 0; k < LAUNCHES; k++) {
        ck_arg args[] = {ck_arg_buffer(out_b), ck_arg_uint(N), ck_arg_uint(k)};
        CHECK(ck_launch_kernel(ctx, "fill", sizes[k % 4], args, 3, &l));
        CHECK(ck_wait(l, 60.0));
        ck_launch_stats st;
        CHECK(ck_launch_get_stats(l, &st));
        gather_ms[k % 4] += st.gather_ms / (LAUNCHES / 4);
        worst_ms[k % 4] = st.gather_ms > worst_ms[k % 4] ? st.gather_ms : worst_ms[k % 4];
        ck_launch_release(l);
        l = NULL;
    }
    uint32_t stop = 1; /* let the cooperative kernel finish its round */
    CHECK(ck_buffer_write(ctx, ctl_b, 0, &stop, sizeof stop));
    CHECK(ck_wait(coop_l, 60.0));
    /* README:end host */
    ck_launch_stats cs;
    CHECK(ck_launch_get_stats(coop_l, &cs));
    CHECK(ck_buffer_read(ctx, out_b, 0, out, sizeof out));
    CHECK(ck_buffer_read(ctx, data_b, 0, data, sizeof data));
    CHECK(ck_buffer_read(ctx, ctl_b, 0, ctl, sizeof ctl));

    rc = 0;
    for (uint32_t i = 0; i < LAUNCHES * N && rc == 0; i++)
        if (out[i] != (i % N) * 3u + i / N) {
            fprintf(stderr, "%s: fill launch %u, word %u: %u, expected %u\n", argv[0], i / N, i % N, out[i],
                    (i % N) * 3u + i / N);
            rc = 1;
        }
    for (uint32_t i = 0; i < N && rc == 0; i++)
        if (data[i] != ctl[2]) {
            fprintf(stderr, "%s: rounds: word %u was added to %u times in %u rounds\n", argv[0], i, data[i], ctl[2]);
            rc = 1;
        }
    for (int c = 0; c < 4; c++)
        printf("fill on %3u groups: gather %.3f ms mean, %.3f ms worst over %d launches\n", sizes[c], gather_ms[c],
               worst_ms[c], LAUNCHES / 4);
    printf("rounds: %u rounds on up to %u groups beside them (%u kills, %u forked, %u resizes): %s\n", ctl[2], w,
           cs.kills, cs.forked, cs.resizes, rc == 0 ? "PASS" : "FAIL");
done:
    if (coop_l && !ck_launch_done(coop_l)) { /* after a failure: let `rounds` end */
        uint32_t one = 1;
        ck_buffer_write(ctx, ctl_b, 0, &one, sizeof one);
        ck_wait(coop_l, 10.0);
    }
    ck_launch_release(l);
    ck_launch_release(coop_l);
    if (ck_context_destroy(ctx) != CK_OK) {
        fprintf(stderr, "%s: ck_context_destroy failed: %s\n", argv[0], ck_last_error());
        if (rc == 0)
            rc = 2;
    }
    return rc;
}
