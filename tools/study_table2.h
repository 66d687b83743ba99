/* tools/study_table2.h: the fair Table 2 of `ckstudy --table2`, computed
 * from the rows of runs.csv (modes alone, plain, plain-fenced; docs/STUDY.md
 * "Table 2"): per app/input the median and min..max of each form on the
 * device's clock and host to host, the ratios cooperative / plain and
 * cooperative / plain-fenced (of the medians) with the min..max of the
 * per-round ratios, and their geometric mean and maximum over the items
 * beside the paper's. Writes table2.csv and table2.md; the numbers go to the
 * caller for summary.json.
 * Errors: int functions return 0 on success, -1 with a message in err. */
#ifndef TOOLS_STUDY_TABLE2_H
#define TOOLS_STUDY_TABLE2_H

#include <stddef.h>

#include "study_rows.h"

/* The paper's Table 2 (FSE'17, Intel GPUs): geomean and max slowdown. */
#define STUDY_T2_PAPER_GEOMEAN 1.07
#define STUDY_T2_PAPER_MAX 1.23

/* Timed cooperative runs ckstudy tries per round before a run that is not a
 * fair comparison (not N groups throughout, a kill, fork or resize) FAILs. */
#define STUDY_T2_COOP_ATTEMPTS 3

/* Forms, in the order of a round that starts with the cooperative one. */
enum { STUDY_T2_COOP, STUDY_T2_PLAIN, STUDY_T2_FENCED, STUDY_T2_FORMS };
/* Clocks. */
enum { STUDY_T2_DEVICE, STUDY_T2_HOST, STUDY_T2_CLOCKS };
/* Ratios: cooperative over plain, over plain-fenced. */
enum { STUDY_T2_VS_PLAIN, STUDY_T2_VS_FENCED, STUDY_T2_RATIOS };

/* The runs.csv mode of each form ("alone", "plain", "plain-fenced"). */
extern const char *const study_t2_mode[STUDY_T2_FORMS];

typedef struct {
    char app[16], input[32];
    unsigned groups;               /* the plain runs' group count (0: none)   */
    unsigned runs[STUDY_T2_FORMS]; /* usable (PASS or unchecked) runs per form */
    unsigned redone;               /* usable cooperative runs redone because an
                                        attempt was not fair (message "redone")  */
    int clock;                     /* STUDY_T2_DEVICE when every usable run has
                                        a device time, else STUDY_T2_HOST       */
    /* per form and clock: median, min, max over the usable runs (NaN: none,
     * or on the device clock some run without a device time) */
    double med[STUDY_T2_FORMS][STUDY_T2_CLOCKS], lo[STUDY_T2_FORMS][STUDY_T2_CLOCKS],
        hi[STUDY_T2_FORMS][STUDY_T2_CLOCKS];
    /* on the item's clock: median coop / median plain (-fenced), and the
     * min..max of coop / plain of the same round */
    double ratio[STUDY_T2_RATIOS], ratio_lo[STUDY_T2_RATIOS], ratio_hi[STUDY_T2_RATIOS];
    char check[12];    /* PASS, unchecked, FAIL, ERROR            */
    char message[300]; /* the first problem                        */
} study_t2_item;

typedef struct {
    study_t2_item *items; /* malloc'd: study_t2_free                 */
    size_t n_items;
    unsigned counted;                                      /* items in the geomean and max: those whose
                                        check is PASS or unchecked              */
    int clock;                                             /* of the geomean and max: device when every
                                        counted item has it, else host          */
    double geomean[STUDY_T2_RATIOS], max[STUDY_T2_RATIOS]; /* NaN: no item      */
    char max_at[STUDY_T2_RATIOS][64];
} study_t2_numbers;

/* 1 when the rows hold a --table2 run (a plain-fenced row). */
int study_rows_are_table2(const study_row *rows, size_t n);
/* Computes the table from rows into *num (study_t2_free it, also after an
 * error) and writes dir/table2.csv and dir/table2.md (whole or not at all). */
int study_table2_write(const char *dir, const study_row *rows, size_t n, study_t2_numbers *num, char *err,
                       size_t err_len);
void study_t2_free(study_t2_numbers *num);
/* "device" or "host". */
const char *study_t2_clock_name(int clock);

#endif
