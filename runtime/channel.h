/* Host side of the host-device channel: the memory through which the host
 * talks to a running kernel, over either transport, behind one interface.
 * The host is the single producer of the host-to-device ring and the single
 * consumer of the device-to-host ring; one host thread at a time may use a
 * channel. Word layout: megakernel/ck_channel_layout.h. */
#ifndef CK_RUNTIME_CHANNEL_H
#define CK_RUNTIME_CHANNEL_H

#include "ck_channel_layout.h"
#include "device_internal.h"

#include <stdint.h>

typedef struct ck_channel ck_channel;

/* Allocates and zeroes the channel with the device's transport: fine-grain
 * SVM with SVM atomics (cl20), or pinned host memory (clCreateBufferNV on
 * NVIDIA, a zero-copy CL_MEM_USE_HOST_PTR buffer mapped once on CPU devices),
 * waiting at most timeout_s for the map.
 * Errors: CK_ERR_OPENCL (allocation or map failed), CK_ERR_NO_PATH (a CPU
 * device copied the host buffer instead of using it in place),
 * CK_ERR_TIMEOUT (the device did not run the map: another kernel holds it;
 * the buffer is then left allocated, since the map may still run),
 * CK_ERR_NO_MEMORY. */
ck_status ck_channel_create(ck_device *dev, double timeout_s, ck_channel **out);
void ck_channel_destroy(ck_channel *ch); /* NULL allowed */
/* Zeroes every word. Only while no kernel uses the channel. */
void ck_channel_reset(ck_channel *ch);
/* Passes the channel as argument `index` of k. Errors: CK_ERR_OPENCL. */
ck_status ck_channel_set_kernel_arg(ck_channel *ch, cl_kernel k, cl_uint index);

/* Posts a message of `len` words (1..CK_CH_MSG_WORDS; msg[0] is the header)
 * to the device, waiting up to timeout_s for a free slot.
 * Errors: CK_ERR_INVALID_ARGUMENT, CK_ERR_TIMEOUT (ring stayed full). */
ck_status ck_channel_send(ck_channel *ch, const uint32_t *msg, unsigned len, double timeout_s);
/* Takes the oldest device message into msg (CK_CH_MSG_WORDS words), waiting
 * up to timeout_s. Errors: CK_ERR_TIMEOUT. */
ck_status ck_channel_recv(ck_channel *ch, uint32_t *msg, double timeout_s);
/* Non-blocking receive: 1 if a message was taken, 0 if none was there. */
int ck_channel_try_recv(ck_channel *ch, uint32_t *msg);

/* Control and status words (ck_channel_layout.h): acquire load, release store. */
uint32_t ck_channel_load(const ck_channel *ch, unsigned word);
void ck_channel_store(ck_channel *ch, unsigned word, uint32_t value);
/* The host's view of the channel's words, for the task table
 * (runtime/task_table.c), which reads and writes them with C11 atomics. */
uint32_t *ck_channel_words(ck_channel *ch);
/* Tells every device spin loop to give up (sets CK_CH_ABORT). */
void ck_channel_abort(ck_channel *ch);

#endif
