/* Reading NVIDIA's verbose build log, and the full-occupancy register
 * count (see nv_resources.h). */
#include "nv_resources.h"

#include <stdlib.h>
#include <string.h>

#define ENTRY_MARK "Compiling entry function '"

/* The number just before `unit` in [from, end) (e.g. "400 bytes stack
 * frame" with unit " bytes stack frame"), or 0 and *found untouched. */
static unsigned number_before(const char *from, const char *end, const char *unit, int *found)
{
    const char *u = strstr(from, unit);
    if (!u || u >= end)
        return 0;
    const char *d = u;
    while (d > from && d[-1] >= '0' && d[-1] <= '9')
        --d;
    if (d == u)
        return 0;
    if (found)
        *found = 1;
    unsigned long v = strtoul(d, NULL, 10);
    return v > 0xffffffffUL ? 0xffffffffu : (unsigned)v;
}

int ck_nv_parse_resources(const char *log, const char *entry, ck_nv_resources *out)
{
    if (!out)
        return 0;
    memset(out, 0, sizeof *out);
    if (!log || !entry || !*entry)
        return 0;
    size_t n = strlen(entry);
    const char *at = log;
    for (;;) {
        const char *m = strstr(at, ENTRY_MARK);
        if (!m)
            return 0;
        const char *name = m + strlen(ENTRY_MARK);
        at = name;
        if (strncmp(name, entry, n) || name[n] != '\'')
            continue;
        const char *end = strstr(name, ENTRY_MARK);
        if (!end)
            end = name + strlen(name);
        int used = 0;
        /* "Used N registers" names the count first: read the number after it. */
        const char *u = strstr(name, "Used ");
        if (u && u < end) {
            char *stop = NULL;
            unsigned long r = strtoul(u + 5, &stop, 10);
            if (stop != u + 5 && !strncmp(stop, " registers", 10)) {
                out->registers = (unsigned)r;
                used = 1;
            }
        }
        if (!used) {
            memset(out, 0, sizeof *out);
            return 0;
        }
        out->stack_bytes = number_before(name, end, " bytes stack frame", NULL);
        out->spill_store_bytes = number_before(name, end, " bytes spill stores", NULL);
        out->spill_load_bytes = number_before(name, end, " bytes spill loads", NULL);
        return 1;
    }
}

unsigned ck_nv_group_fit_registers(unsigned regs_per_block, size_t group_size)
{
    if (!regs_per_block || !group_size)
        return 0;
    size_t lanes = (group_size + 31u) / 32u * 32u;
    size_t fit = regs_per_block / lanes / 8u * 8u;
    return fit > 255u ? 255u : (unsigned)fit;
}

unsigned ck_nv_full_occupancy_registers(unsigned major, unsigned minor, unsigned regs_per_cu)
{
    if (!major || !regs_per_cu)
        return 0;
    unsigned threads = 2048;
    if (major == 7 && minor == 5)
        threads = 1024;
    else if ((major == 8 && (minor == 6 || minor == 9)) || major == 12)
        threads = 1536;
    return regs_per_cu / threads / 8u * 8u;
}
