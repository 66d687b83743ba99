/* tools/study_report.h: ckstudy's reports, all computed from the rows of
 * runs.csv (so a resumed sweep reports on every row, old and new):
 * table2.csv/.md, table3.csv/.md, the data and gnuplot scripts of
 * fig5_<app>_<input>.png and fig6.png, and running gnuplot on them (and on
 * the timeline scripts ckstudy wrote). Definitions: docs/STUDY.md.
 * Errors: int functions return 0 on success, -1 with a message in err. */
#ifndef TOOLS_STUDY_REPORT_H
#define TOOLS_STUDY_REPORT_H

#include <stddef.h>
#include <stdio.h>

#include "study_rows.h"

/* A period counts as met when the median period is at most this factor
 * times P (the stream sleeps to each slot; timer slack makes periods a
 * little longer than P even when nothing is late). */
#define STUDY_PERIOD_TOLERANCE 1.05

typedef struct {
    const char *const *groups; /* group expressions in sweep order ("1", "N/4", ...) */
    unsigned n_groups;
    const char *out_dir;
} study_report_options;

/* Numbers the summary repeats (NAN where there is no data). */
typedef struct {
    double t2_geomean[3], t2_max[3]; /* overall, barrier, workstealing */
    char t2_argmax[3][64];
    unsigned t2_count[3];
    char t3_groups[3][8]; /* per class: smallest group expression meeting P, "" none */
    double t3_slowdown[3], t3_period[3], t3_model[3];
} study_report_numbers;

/* Writes table2.*, table3.*, the fig5/fig6 .dat and .gp files. */
int study_report_write(const study_report_options *o, const study_row *rows, size_t n, study_report_numbers *num,
                       char *err, size_t err_len);
/* Runs `gnuplot NAME.gp` in dir for every NAME.gp there. -1 (message names
 * the script) if gnuplot fails or is missing. */
int study_run_gnuplot(const char *dir, char *err, size_t err_len);
/* 1 if a gnuplot executable is on PATH. */
int study_have_gnuplot(void);
/* Median (mean of the middle two for an even count) of n > 0 values,
 * reordered in place. */
double study_median(double *xs, size_t n);

#endif
