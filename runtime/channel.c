/* Host side of the channel over its two transports. The host's view of the
 * memory is accessed with C11 atomics; each ring index has one writer. */
#include "channel.h"
#include "clock.h"
#include "error.h"
#include "zero_copy.h"

#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>

#define CHANNEL_BYTES (CK_CH_TOTAL_WORDS * sizeof(uint32_t))

struct ck_channel {
    ck_device *dev;
    ck_transport transport;
    uint32_t *words; /* the host's view                         */
    void *svm;       /* CL20: clSVMAlloc pointer (== words)      */
    cl_mem buf;      /* CL12 on NVIDIA: the pinned buffer        */
    ck_zero_copy zc; /* CL12 on a CPU device                     */
};

static _Atomic uint32_t *at(const ck_channel *ch, unsigned word) { return (_Atomic uint32_t *)&ch->words[word]; }

uint32_t ck_channel_load(const ck_channel *ch, unsigned word)
{
    return atomic_load_explicit(at(ch, word), memory_order_acquire);
}

void ck_channel_store(ck_channel *ch, unsigned word, uint32_t value)
{
    atomic_store_explicit(at(ch, word), value, memory_order_release);
}

uint32_t *ck_channel_words(ck_channel *ch) { return ch->words; }

void ck_channel_abort(ck_channel *ch) { ck_channel_store(ch, CK_CH_ABORT, 1u); }

void ck_channel_reset(ck_channel *ch)
{
    for (unsigned i = 0; i < CK_CH_TOTAL_WORDS; ++i)
        atomic_store_explicit(at(ch, i), 0u, memory_order_relaxed);
    atomic_thread_fence(memory_order_seq_cst);
}

ck_status ck_channel_create(ck_device *dev, double timeout_s, ck_channel **out)
{
    *out = NULL;
    ck_channel *ch = calloc(1, sizeof *ch);
    if (!ch)
        return ck_fail(CK_ERR_NO_MEMORY, "out of host memory creating a channel");
    ch->dev = dev;
    ch->transport = dev->info.transport;
    cl_int err = CL_SUCCESS;
    if (ch->transport == CK_TRANSPORT_SVM) {
        ch->svm = clSVMAlloc(dev->context, CL_MEM_READ_WRITE | CL_MEM_SVM_FINE_GRAIN_BUFFER | CL_MEM_SVM_ATOMICS,
                             CHANNEL_BYTES, 0);
        if (!ch->svm) {
            free(ch);
            return ck_fail(CK_ERR_OPENCL,
                           "clSVMAlloc of the %zu-byte fine-grain channel failed: the device "
                           "advertises fine-grain SVM with atomics but cannot allocate it; try --path cl12",
                           (size_t)CHANNEL_BYTES);
        }
        ch->words = ch->svm;
    } else {
        if (!dev->create_buffer_nv) {
            ck_status s = ck_zero_copy_create(dev, CHANNEL_BYTES, "channel", timeout_s, &ch->zc);
            if (s != CK_OK) {
                free(ch); /* a stuck map's buffer and memory stay allocated: only ch->zc knew them */
                return s;
            }
            ch->words = ch->zc.backing;
        } else {
            ch->buf = dev->create_buffer_nv(dev->context, CL_MEM_READ_WRITE,
                                            CK_MEM_LOCATION_HOST_NV | CK_MEM_PINNED_NV, CHANNEL_BYTES, NULL, &err);
            if (!ch->buf) {
                free(ch);
                return ck_fail_cl(err, "clCreateBufferNV(pinned host memory) for the channel", "");
            }
            cl_event ev = NULL;
            void *p = clEnqueueMapBuffer(dev->queue, ch->buf, CL_FALSE, CL_MAP_READ | CL_MAP_WRITE, 0, CHANNEL_BYTES,
                                         0, NULL, &ev, &err);
            if (!p) {
                ck_channel_destroy(ch);
                return ck_fail_cl(err, "clEnqueueMapBuffer of the channel", "");
            }
            ck_status w = ck_event_wait(ev, timeout_s, "mapping the channel");
            clReleaseEvent(ev);
            if (w != CK_OK) { /* the map may still run: the buffer is left */
                __atomic_store_n(&dev->stuck, 1, __ATOMIC_RELEASE);
                free(ch);
                return ck_fail(w, "the device did not map the channel within %.1f s: it is busy with other work",
                               timeout_s);
            }
            ch->words = p;
        }
    }
    ck_channel_reset(ch);
    *out = ch;
    return CK_OK;
}

void ck_channel_destroy(ck_channel *ch)
{
    if (!ch)
        return;
    if (__atomic_load_n(&ch->dev->stuck, __ATOMIC_ACQUIRE)) {
        /* A command that never ran holds the queue: every wait below would
         * wait behind it for good. The memory is left. */
        free(ch);
        return;
    }
    if (ch->svm) {
        clFinish(ch->dev->queue);
        clSVMFree(ch->dev->context, ch->svm);
    }
    if (ch->buf) {
        if (ch->words) {
            cl_event ev = NULL;
            if (clEnqueueUnmapMemObject(ch->dev->queue, ch->buf, ch->words, 0, NULL, &ev) == CL_SUCCESS && ev) {
                clWaitForEvents(1, &ev);
                clReleaseEvent(ev);
            }
        }
        clFinish(ch->dev->queue);
        clReleaseMemObject(ch->buf);
    }
    ck_zero_copy_destroy(ch->dev, &ch->zc);
    free(ch);
}

ck_status ck_channel_set_kernel_arg(ck_channel *ch, cl_kernel k, cl_uint index)
{
    if (ch->svm)
        CK_CL_TRY(clSetKernelArgSVMPointer(k, index, ch->svm), "clSetKernelArgSVMPointer(channel)", "");
    else
        CK_CL_TRY(clSetKernelArg(k, index, sizeof(cl_mem), ch->buf ? &ch->buf : &ch->zc.buf),
                  "clSetKernelArg(channel)", "");
    return CK_OK;
}

ck_status ck_channel_send(ck_channel *ch, const uint32_t *msg, unsigned len, double timeout_s)
{
    if (!msg || len == 0 || len > CK_CH_H2D_MAX_WORDS)
        return ck_fail(CK_ERR_INVALID_ARGUMENT, "channel message length %u is not in 1..%u", len,
                       CK_CH_H2D_MAX_WORDS);
    uint32_t head = atomic_load_explicit(at(ch, CK_CH_H2D_HEAD), memory_order_relaxed);
    double deadline = 0;
    for (unsigned spins = 0;; ++spins) {
        uint32_t tail = atomic_load_explicit(at(ch, CK_CH_H2D_TAIL), memory_order_acquire);
        if (head - tail < CK_CH_SLOTS)
            break;
        if ((spins & 1023u) == 0) {
            double now = ck_now_s();
            if (deadline == 0)
                deadline = now + timeout_s;
            else if (now > deadline)
                return ck_fail(CK_ERR_TIMEOUT,
                               "the device did not take a channel message within %.1f s "
                               "(all %u slots full; is the kernel still running?)",
                               timeout_s, CK_CH_SLOTS);
        }
    }
    /* The words after the tagged ones first, then the four tagged words
     * (ck_channel_layout.h): the device takes the message once all four
     * carry its tag, and then finds the rest written. The head is for the
     * host alone (ring space, task ordering). */
    unsigned base = CK_CH_H2D_RING + (head & (CK_CH_SLOTS - 1u)) * CK_CH_MSG_WORDS;
    for (unsigned w = CK_CH_TAGGED; w < len; ++w)
        atomic_store_explicit(at(ch, base + CK_CH_H2D_WORD(w)), msg[w], memory_order_relaxed);
    atomic_thread_fence(memory_order_release);
    uint64_t tag = (uint64_t)(head + 1u) << 32;
    for (unsigned w = 0; w < CK_CH_TAGGED; ++w)
        atomic_store_explicit((_Atomic uint64_t *)&ch->words[base + CK_CH_H2D_WORD(w)],
                              tag | (w < len ? msg[w] : 0u), memory_order_relaxed);
    atomic_store_explicit(at(ch, CK_CH_H2D_HEAD), head + 1u, memory_order_release);
    return CK_OK;
}

int ck_channel_try_recv(ck_channel *ch, uint32_t *msg)
{
    uint32_t tail = atomic_load_explicit(at(ch, CK_CH_D2H_TAIL), memory_order_relaxed);
    uint32_t head = atomic_load_explicit(at(ch, CK_CH_D2H_HEAD), memory_order_acquire);
    if (head == tail)
        return 0;
    unsigned base = CK_CH_D2H_RING + (tail & (CK_CH_SLOTS - 1u)) * CK_CH_MSG_WORDS;
    uint32_t w0 = atomic_load_explicit(at(ch, base), memory_order_relaxed);
    unsigned len = w0 >> 16;
    if (len == 0 || len > CK_CH_MSG_WORDS)
        len = CK_CH_MSG_WORDS;
    msg[0] = w0;
    for (unsigned w = 1; w < len; ++w)
        msg[w] = atomic_load_explicit(at(ch, base + w), memory_order_relaxed);
    atomic_store_explicit(at(ch, CK_CH_D2H_TAIL), tail + 1u, memory_order_release);
    return 1;
}

ck_status ck_channel_recv(ck_channel *ch, uint32_t *msg, double timeout_s)
{
    double deadline = 0;
    for (unsigned spins = 0;; ++spins) {
        if (ck_channel_try_recv(ch, msg))
            return CK_OK;
        if ((spins & 1023u) == 0) {
            double now = ck_now_s();
            if (deadline == 0)
                deadline = now + timeout_s;
            else if (now > deadline)
                return ck_fail(CK_ERR_TIMEOUT, "no channel message from the device within %.1f s", timeout_s);
        }
    }
}
