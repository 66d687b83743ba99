/* Host side of occupancy discovery inside a launch: deciding when the poll
 * closes, and how many groups to launch. Device side: ck_discovery.cl. */
#ifndef CK_RUNTIME_DISCOVERY_H
#define CK_RUNTIME_DISCOVERY_H

#include "channel.h"

/* Waits until every launched group holds a ticket or the ticket count has
 * not moved for the quiet period (150 ms on CPU devices, 5 ms otherwise;
 * CK_DISCOVERY_QUIET_MS overrides; at least 1 s while fewer tickets than
 * compute units were taken), closes the poll, and returns the number of
 * discovered groups. t0 is when the launch was enqueued.
 * Errors: CK_ERR_TIMEOUT (no group started, or the poll did not close, by
 * t0 + timeout_s). The caller aborts the launch on error. */
ck_status ck_discovery_close(ck_device *dev, ck_channel *ch, size_t launched, double t0, double timeout_s,
                             unsigned *found);

/* Groups to launch so that more than can be resident are asked for: twice
 * what 2048 work-items per compute unit would hold on a GPU, twice the
 * compute units (threads) on a CPU device; within 4..65536. */
size_t ck_discovery_auto_launch(const ck_device *dev, size_t work_group_size);

#endif
