/* tools/study_rows.h: one row of ckstudy's runs.csv (one run of one
 * configuration) and the file's reading and writing: the columns, in order,
 * are STUDY_COLUMNS; a file with the earlier header STUDY_COLUMNS_V1 (no
 * device_ms, round_pos) reads too. Rows are appended and flushed one at a
 * time so that an interrupted sweep keeps what it measured; reading skips a
 * torn last line.
 * Errors: int functions return 0 on success, -1 with a message in err. */
#ifndef TOOLS_STUDY_ROWS_H
#define TOOLS_STUDY_ROWS_H

#include <stddef.h>
#include <stdio.h>

#define STUDY_COLUMNS_HEAD                                                                                          \
    "app,input,barrier,mode,class,groups_expr,run,workers,coop_groups,mm_groups,period_ms,target_exec_ms,"          \
    "matmul_n,coop_ms,coop_wall_ms,kills,forks,resizes,max_active,initial_groups,mm_launches,mm_missed,mm_bad,"     \
    "gather_med_ms,gather_mean_ms,gather_max_ms,exec_med_ms,exec_mean_ms,queue_med_ms,period_med_ms,"               \
    "period_mean_ms,"
#define STUDY_COLUMNS STUDY_COLUMNS_HEAD "device_ms,round_pos,check,message"
#define STUDY_NCOLS 35
/* The header before device_ms and round_pos: its rows read with both -1. */
#define STUDY_COLUMNS_V1 STUDY_COLUMNS_HEAD "check,message"
#define STUDY_NCOLS_V1 33

typedef struct {
    char app[16], input[32];
    char barrier[8];     /* query, naive; "-" for plain                         */
    char mode[16];       /* plain (original persistent), alone, stream;
                            --table2 also plain-fenced (built with
                            -DCK_PLAIN_BARRIER_FENCED)                          */
    char cls[8];         /* light, medium, heavy; "-" for plain and alone       */
    char groups_expr[8]; /* 1, N/4, N/2, N-1; "-" for plain and alone           */
    unsigned run, workers, coop_groups, mm_groups;
    double period_ms, target_exec_ms;
    int matmul_n;
    double coop_ms, coop_wall_ms; /* plain: the baseline's time in coop_ms    */
    unsigned kills, forks, resizes, max_active, initial_groups;
    unsigned mm_launches, mm_missed, mm_bad;
    double gather_med_ms, gather_mean_ms, gather_max_ms, exec_med_ms, exec_mean_ms, queue_med_ms;
    double period_med_ms, period_mean_ms; /* between launch starts; 0: fewer than 2 launches */
    double device_ms;                     /* the run on the device's clock: alone and stream, the
                            launch's exec_ms (ck_launch_stats); plain, the
                            persistent launch's profiling time; -1 unknown      */
    int round_pos;                        /* --table2: the run's place in its round (0 first);
                            -1 outside a round                                  */
    char check[12];                       /* PASS, FAIL, ERROR, unchecked                        */
    char message[256];                    /* commas, quotes and line breaks replaced             */
} study_row;

/* The configuration a row belongs to, as one string (app/input/barrier/
 * mode/class/groups_expr). */
void study_row_key(const study_row *r, char *out, size_t len);
/* Appends one CSV line and flushes it. */
int study_row_write(FILE *f, const study_row *r, char *err, size_t err_len);
/* Reads runs.csv: *rows (malloc'd, *n of them); a missing file gives 0
 * rows; a FIFO, a device or a folder is refused without blocking. Lines may
 * be of any length. Every field is checked: counts are whole numbers
 * 0..2^32-1, times finite and at least 0 (the launch statistics gather_*,
 * exec_*, queue_med_ms and device_ms at least -1, which ck_launch_stats
 * uses for unknown), round_pos -1..2^31-1, check one of PASS, FAIL, ERROR,
 * unchecked. A file with the header STUDY_COLUMNS_V1 reads with device_ms
 * and round_pos -1. A header that is neither or a malformed line other than
 * a torn last one (no newline) is an error naming the file, the line and
 * the column. */
int study_rows_read(const char *path, study_row **rows, size_t *n, char *err, size_t err_len);

#endif
