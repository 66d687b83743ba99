/* tools/study_rows.h: one row of ckstudy's runs.csv (one run of one
 * configuration) and the file's reading and writing: the columns, in order,
 * are STUDY_COLUMNS. Rows are appended and flushed one at a time so that an
 * interrupted sweep keeps what it measured; reading skips a torn last line.
 * Errors: int functions return 0 on success, -1 with a message in err. */
#ifndef TOOLS_STUDY_ROWS_H
#define TOOLS_STUDY_ROWS_H

#include <stddef.h>
#include <stdio.h>

#define STUDY_COLUMNS                                                                                              \
    "app,input,barrier,mode,class,groups_expr,run,workers,coop_groups,mm_groups,period_ms,target_exec_ms,"         \
    "matmul_n,coop_ms,coop_wall_ms,kills,forks,resizes,max_active,initial_groups,mm_launches,mm_missed,mm_bad,"    \
    "gather_med_ms,gather_mean_ms,gather_max_ms,exec_med_ms,exec_mean_ms,queue_med_ms,period_med_ms,"              \
    "period_mean_ms,check,message"
#define STUDY_NCOLS 33

typedef struct {
    char app[16], input[32];
    char barrier[8];     /* query, naive; "-" for plain                         */
    char mode[8];        /* plain (original persistent), alone, stream          */
    char cls[8];         /* light, medium, heavy; "-" for plain and alone       */
    char groups_expr[8]; /* 1, N/4, N/2, N-1; "-" for plain and alone           */
    unsigned run, workers, coop_groups, mm_groups;
    double period_ms, target_exec_ms;
    int matmul_n;
    double coop_ms, coop_wall_ms;  /* plain: the baseline's time in coop_ms    */
    unsigned kills, forks, resizes, max_active, initial_groups;
    unsigned mm_launches, mm_missed, mm_bad;
    double gather_med_ms, gather_mean_ms, gather_max_ms, exec_med_ms, exec_mean_ms, queue_med_ms;
    double period_med_ms, period_mean_ms; /* between launch starts; 0: fewer than 2 launches */
    char check[12];      /* PASS, FAIL, ERROR, unchecked                        */
    char message[256];   /* commas, quotes and line breaks replaced             */
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
 * exec_*, queue_med_ms at least -1, which ck_launch_stats uses for
 * unknown), check one of PASS, FAIL, ERROR, unchecked. A header that is not
 * STUDY_COLUMNS or a malformed line other than a torn last one (no newline)
 * is an error naming the file, the line and the column. */
int study_rows_read(const char *path, study_row **rows, size_t *n, char *err, size_t err_len);

#endif
