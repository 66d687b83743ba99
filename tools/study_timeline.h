/* tools/study_timeline.h: the timeline of one multitasked run, the shape of
 * the paper's Figure 1: the cooperative kernel's active-group count over time
 * (the runtime's active-group trace, ck_context_take_trace) and each matmul
 * launch's gather and execution (ck_launch_stats, placed at the host time the
 * launch was sent plus its queue time). Written as timeline_<app>.json in
 * Chrome/Perfetto trace format, and timeline_<app>.dat/.gp for gnuplot.
 * Times are ms (JSON: us) since the cooperative launch was sent. */
#ifndef TOOLS_STUDY_TIMELINE_H
#define TOOLS_STUDY_TIMELINE_H

#include <stddef.h>

#include "ck.h"
#include "multitask.h"

/* Writes the three files into dir, each whole or not at all (a temporary
 * file and a rename), the JSON last. -1 if one cannot be written; the
 * reason is then on stderr, in one line. */
int study_write_timeline(const char *dir, const char *app, const char *input, const char *desc,
                         const app_multitask_result *r, const ck_trace_sample *tr, size_t nt, size_t dropped);

#endif
