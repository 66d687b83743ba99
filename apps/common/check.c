/* apps/common/check.c: comparison of result arrays against a reference
 * (see check.h). */
#include "check.h"

#include <stdio.h>
#include <string.h>

size_t app_check_i32(const char *what, const int32_t *got, const int32_t *want, size_t n, char *msg, size_t msg_len)
{
    size_t bad = 0, used = 0;
    if (msg && msg_len)
        msg[0] = 0;
    for (size_t i = 0; i < n; ++i) {
        if (got[i] == want[i])
            continue;
        if (msg && bad < 4 && used < msg_len) {
            int k = snprintf(msg + used, msg_len - used, "%s%s %zu: got %d, expected %d", bad ? "; " : "", what, i,
                             got[i], want[i]);
            used += k > 0 ? (size_t)k : 0;
        }
        ++bad;
    }
    if (bad > 4 && msg && used < msg_len)
        snprintf(msg + used, msg_len - used, "; %zu differences in all", bad);
    return bad;
}
