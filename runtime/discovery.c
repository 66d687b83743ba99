/* Closing the occupancy poll from the host once the ticket count settles. */
#include "discovery.h"
#include "clock.h"
#include "error.h"

#include <stdlib.h>

/* How long the ticket count must stay unchanged before the poll closes.
 * Groups that are resident start within microseconds on a GPU; on a CPU
 * device they are threads that the OS may start tens of milliseconds late
 * when cores are oversubscribed. CK_DISCOVERY_QUIET_MS overrides it. */
static double quiet_period_s(const ck_device *dev)
{
    const char *env = getenv("CK_DISCOVERY_QUIET_MS");
    if (env && atof(env) > 0)
        return atof(env) / 1000.0;
    return dev->info.is_cpu ? 0.15 : 0.005;
}

ck_status ck_discovery_close(ck_device *dev, ck_channel *ch, size_t launched, double t0, double timeout_s,
                             unsigned *found)
{
    double quiet = quiet_period_s(dev), last_change = t0;
    uint32_t seen = 0;
    for (;;) {
        double now = ck_now_s();
        uint32_t c = ck_channel_load(ch, CK_CH_POLL_COUNT);
        if (c != seen) {
            seen = c;
            last_change = now;
        }
        /* Fewer tickets than compute units: more groups are probably still
         * starting (a CPU device's threads under load), so wait longer. The
         * hint only lengthens the wait; the count itself is what was seen. */
        double need_quiet = seen < dev->info.compute_units ? (quiet > 1.0 ? quiet : 1.0) : quiet;
        if (seen >= launched || (seen > 0 && now - last_change >= need_quiet))
            break;
        if (now - t0 > timeout_s)
            return ck_fail(CK_ERR_TIMEOUT,
                           "no work-group of %zu started within %.1f s; the device may be busy or "
                           "hung",
                           launched, timeout_s);
        ck_sleep_us(100);
    }
    ck_channel_store(ch, CK_CH_POLL_CLOSE, 1u);
    uint32_t final;
    while ((final = ck_channel_load(ch, CK_CH_POLL_FINAL)) == 0) {
        if (ck_now_s() - t0 > timeout_s)
            return ck_fail(CK_ERR_TIMEOUT, "the occupancy poll did not close within %.1f s", timeout_s);
        ck_sleep_us(50);
    }
    *found = final - 1u;
    return CK_OK;
}
