/* Integration tests of the host-device channel on PoCL, for the transport of
 * the path given as argv[1]: thousands of messages of every length cross in
 * both directions through a running echo kernel, in bursts that fill the
 * rings, with nothing lost, duplicated, reordered or corrupted; a message
 * half written is not taken; and the error cases time out instead of
 * hanging. */
#include "channel.h"
#include "clock.h"
#include "probes.h"
#include "program.h"
#include "support.h"

#include <setjmp.h>
#include <stdatomic.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

static const char *path_name;
static ck_device *dev;

static int setup(void **state)
{
    dev = support_open_pocl(path_name);
    cl_program p;
    if (ck_probe_program(dev, &p) != CK_OK) {
        fprintf(stderr, "%s\n", ck_last_error());
        return -1;
    }
    return 0;
}

static int teardown(void **state)
{
    ck_device_close(dev);
    return 0;
}

static cl_event start_echo(ck_channel *ch, cl_kernel *k)
{
    cl_program p;
    assert_int_equal(ck_probe_program(dev, &p), CK_OK);
    assert_int_equal(ck_kernel_create(p, "ck_channel_echo", k), CK_OK);
    assert_int_equal(ck_channel_set_kernel_arg(ch, *k, 0), CK_OK);
    size_t one = 1;
    cl_event ev;
    assert_int_equal(clEnqueueNDRangeKernel(dev->queue, *k, 1, NULL, &one, &one, 0, NULL, &ev), CL_SUCCESS);
    assert_int_equal(clFlush(dev->queue), CL_SUCCESS);
    return ev;
}

static uint32_t payload(uint32_t seq, unsigned w) { return seq * 2654435761u ^ (w * 40503u); }

static void test_thousands_of_messages_both_ways(void **state)
{
    ck_channel *ch;
    assert_int_equal(ck_channel_create(dev, 30.0, &ch), CK_OK);
    cl_kernel k;
    cl_event ev = start_echo(ch, &k);
    const uint32_t total = 6000;
    uint32_t sent = 0, got = 0, rng = 12345;
    uint32_t msg[CK_CH_MSG_WORDS], reply[CK_CH_MSG_WORDS];
    while (got < total) {
        rng = rng * 1103515245u + 12345u;
        uint32_t burst = 1 + (rng >> 16) % CK_CH_SLOTS; /* up to a full ring */
        uint32_t first = sent;
        for (uint32_t b = 0; b < burst && sent < total; ++b, ++sent) {
            unsigned len = 2 + sent % (CK_CH_H2D_MAX_WORDS - 1); /* 2..60 words */
            msg[0] = CK_MSG_HEADER(CK_MSG_ECHO, len);
            msg[1] = sent;
            for (unsigned w = 2; w < len; ++w)
                msg[w] = payload(sent, w);
            if (ck_channel_send(ch, msg, len, 20.0) != CK_OK)
                fail_msg("send %u: %s", sent, ck_last_error());
        }
        for (uint32_t seq = first; seq < sent; ++seq, ++got) {
            if (ck_channel_recv(ch, reply, 20.0) != CK_OK)
                fail_msg("receive %u: %s", seq, ck_last_error());
            unsigned len = 2 + seq % (CK_CH_H2D_MAX_WORDS - 1);
            if (reply[1] != seq)
                fail_msg("expected reply %u, got %u (lost, duplicated or reordered)", seq, reply[1]);
            assert_int_equal(CK_MSG_LEN(reply[0]), len);
            assert_int_equal(CK_MSG_TYPE(reply[0]), CK_MSG_ECHO);
            for (unsigned w = 2; w < len; ++w)
                if (reply[w] != ~payload(seq, w))
                    fail_msg("reply %u word %u corrupted", seq, w);
        }
    }
    assert_false(ck_channel_try_recv(ch, reply)); /* nothing extra */
    msg[0] = CK_MSG_HEADER(CK_MSG_QUIT, 1);
    assert_int_equal(ck_channel_send(ch, msg, 1, 5.0), CK_OK);
    assert_int_equal(ck_event_wait(ev, 30.0, "echo kernel"), CK_OK);
    clReleaseEvent(ev);
    clReleaseKernel(k);
    ck_channel_destroy(ch);
}

static void test_receive_times_out_without_kernel(void **state)
{
    ck_channel *ch;
    assert_int_equal(ck_channel_create(dev, 30.0, &ch), CK_OK);
    uint32_t m[CK_CH_MSG_WORDS];
    double t0 = ck_now_s();
    assert_int_equal(ck_channel_recv(ch, m, 0.2), CK_ERR_TIMEOUT);
    assert_true(ck_now_s() - t0 < 5.0);
    assert_non_null(strstr(ck_last_error(), "no channel message"));
    ck_channel_destroy(ch);
}

static void test_send_times_out_when_ring_stays_full(void **state)
{
    ck_channel *ch;
    assert_int_equal(ck_channel_create(dev, 30.0, &ch), CK_OK);
    uint32_t m[2] = {CK_MSG_HEADER(CK_MSG_ECHO, 2), 0};
    for (unsigned i = 0; i < CK_CH_SLOTS; ++i)
        assert_int_equal(ck_channel_send(ch, m, 2, 0.1), CK_OK);
    assert_int_equal(ck_channel_send(ch, m, 2, 0.2), CK_ERR_TIMEOUT);
    assert_non_null(strstr(ck_last_error(), "slots full"));
    ck_channel_destroy(ch);
}

static void test_bad_message_lengths(void **state)
{
    ck_channel *ch;
    assert_int_equal(ck_channel_create(dev, 30.0, &ch), CK_OK);
    uint32_t m[CK_CH_MSG_WORDS + 1] = {0};
    assert_int_equal(ck_channel_send(ch, m, 0, 0.1), CK_ERR_INVALID_ARGUMENT);
    assert_int_equal(ck_channel_send(ch, m, CK_CH_MSG_WORDS + 1, 0.1), CK_ERR_INVALID_ARGUMENT);
    assert_int_equal(ck_channel_send(ch, m, CK_CH_H2D_MAX_WORDS + 1, 0.1), CK_ERR_INVALID_ARGUMENT);
    ck_channel_destroy(ch);
}

/* The rule that lets the device skip the ring's head: a message is taken
 * only once all four of its tagged words carry its tag. Here the head says
 * a message is posted and three of the four words are written; the fourth
 * still holds the previous lap's tag (none). The echo kernel must not answer
 * until the fourth is written, and then answer with the whole message. */
static void test_half_written_message_is_not_taken(void **state)
{
    ck_channel *ch;
    assert_int_equal(ck_channel_create(dev, 30.0, &ch), CK_OK);
    cl_kernel k;
    cl_event ev = start_echo(ch, &k);
    uint32_t *words = ck_channel_words(ch);
    _Atomic uint64_t *tagged = (_Atomic uint64_t *)&words[CK_CH_H2D_RING]; /* slot 0 */
    const uint32_t msg[CK_CH_TAGGED] = {CK_MSG_HEADER(CK_MSG_ECHO, 4), 7u, 0x1234u, 0x5678u};
    const uint64_t tag = (uint64_t)1u << 32; /* the first message: sequence 0, tag 1 */
    for (unsigned w = 0; w < CK_CH_TAGGED - 1; ++w)
        atomic_store_explicit(&tagged[w], tag | msg[w], memory_order_release);
    atomic_store_explicit((_Atomic uint32_t *)&words[CK_CH_H2D_HEAD], 1u, memory_order_release);
    uint32_t reply[CK_CH_MSG_WORDS];
    double t0 = ck_now_s();
    while (ck_now_s() - t0 < 0.3)
        if (ck_channel_try_recv(ch, reply))
            fail_msg("the device took a message whose fourth tagged word was not written yet");
    atomic_store_explicit(&tagged[CK_CH_TAGGED - 1], tag | msg[CK_CH_TAGGED - 1], memory_order_release);
    if (ck_channel_recv(ch, reply, 20.0) != CK_OK)
        fail_msg("no answer once the message was whole: %s", ck_last_error());
    assert_int_equal(CK_MSG_LEN(reply[0]), 4);
    assert_int_equal(reply[1], 7u);
    assert_int_equal(reply[2], ~0x1234u);
    assert_int_equal(reply[3], ~0x5678u);
    const uint32_t quit = CK_MSG_HEADER(CK_MSG_QUIT, 1);
    assert_int_equal(ck_channel_send(ch, &quit, 1, 5.0), CK_OK); /* slot 1, after the head we stored */
    assert_int_equal(ck_event_wait(ev, 30.0, "echo kernel"), CK_OK);
    clReleaseEvent(ev);
    clReleaseKernel(k);
    ck_channel_destroy(ch);
}

static void test_abort_ends_a_waiting_kernel(void **state)
{
    ck_channel *ch;
    assert_int_equal(ck_channel_create(dev, 30.0, &ch), CK_OK);
    cl_kernel k;
    cl_event ev = start_echo(ch, &k);
    assert_int_equal(ck_event_wait(ev, 0.2, "echo kernel"), CK_ERR_TIMEOUT); /* still polling */
    ck_channel_abort(ch);
    assert_int_equal(ck_event_wait(ev, 30.0, "echo kernel after abort"), CK_OK);
    clReleaseEvent(ev);
    clReleaseKernel(k);
    ck_channel_destroy(ch);
}

static void test_latency_probe(void **state)
{
    ck_latency_result r;
    assert_int_equal(ck_channel_latency(dev, 0, &r), CK_ERR_INVALID_ARGUMENT);
    if (ck_channel_latency(dev, 500, &r) != CK_OK)
        fail_msg("%s", ck_last_error());
    assert_int_equal(r.round_trips, 500);
    assert_true(r.min_us > 0 && r.min_us <= r.median_us && r.median_us <= r.p99_us && r.p99_us <= r.max_us);
}

int main(int argc, char **argv)
{
    if (argc != 2) {
        fprintf(stderr, "usage: %s cl20|cl12\n", argv[0]);
        return 2;
    }
    path_name = argv[1];
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_thousands_of_messages_both_ways),
        cmocka_unit_test(test_receive_times_out_without_kernel),
        cmocka_unit_test(test_send_times_out_when_ring_stays_full),
        cmocka_unit_test(test_bad_message_lengths),
        cmocka_unit_test(test_half_written_message_is_not_taken),
        cmocka_unit_test(test_abort_ends_a_waiting_kernel),
        cmocka_unit_test(test_latency_probe),
    };
    char name[64];
    snprintf(name, sizeof name, "channel-%s", path_name);
    return cmocka_run_group_tests_name(name, tests, setup, teardown);
}
