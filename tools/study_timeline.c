/* tools/study_timeline.c: ckstudy's timeline of one run (see
 * study_timeline.h), its three files written whole or not at all. */
#include "study_timeline.h"
#include "file_io.h"
#include "json_out.h"

#include <stdio.h>

/* The three files, each written through a temporary file and a rename
 * (file_io.h). The reason of a failure goes to stderr as one line; the
 * caller then counts the failure. */
enum { TL_JSON, TL_DAT, TL_GP, TL_FILES };
static const char *const tl_ext[TL_FILES] = {"json", "dat", "gp"};

static int open_files(const char *dir, const char *app, ck_file_writer *w)
{
    char path[4096], why[1024];
    for (int k = 0; k < TL_FILES; ++k) {
        snprintf(path, sizeof path, "%s/timeline_%s.%s", dir, app, tl_ext[k]);
        if (ck_file_writer_open(&w[k], path, 0, why, sizeof why)) {
            fprintf(stderr, "ckstudy: timeline: %s\n", why);
            for (int i = 0; i < k; ++i)
                ck_file_writer_abort(&w[i]);
            return -1;
        }
    }
    return 0;
}

/* Commits the .dat and .gp files before the .json: the JSON marks the
 * timeline as done for --resume, so it comes last. */
static int commit_files(ck_file_writer *w)
{
    static const int order[TL_FILES] = {TL_DAT, TL_GP, TL_JSON};
    char why[1024];
    int bad = 0;
    for (int i = 0; i < TL_FILES; ++i) {
        if (bad) {
            ck_file_writer_abort(&w[order[i]]);
            continue;
        }
        if (ck_file_writer_commit(&w[order[i]], why, sizeof why)) {
            fprintf(stderr, "ckstudy: timeline: %s\n", why);
            bad = 1;
        }
    }
    return bad ? -1 : 0;
}

/* A trace event that names the process (tid 0: none) or a thread. */
static void metadata_event(json_out *j, const char *what, int tid, const char *name)
{
    jo_object(j, NULL);
    jo_str(j, "name", what);
    jo_str(j, "ph", "M");
    jo_int(j, "pid", 1);
    if (tid)
        jo_int(j, "tid", tid);
    jo_object(j, "args");
    jo_str(j, "name", name);
    jo_end(j);
    jo_end(j);
}

/* A complete ("X") trace event from ts to ts + dur, in microseconds. */
static void span_event(json_out *j, const char *name, const char *cat, double ts_us, double dur_us, int tid)
{
    jo_object(j, NULL);
    jo_str(j, "name", name);
    jo_str(j, "cat", cat);
    jo_str(j, "ph", "X");
    jo_num(j, "ts", "%.1f", ts_us);
    jo_num(j, "dur", "%.1f", dur_us);
    jo_int(j, "pid", 1);
    jo_int(j, "tid", tid);
    jo_end(j);
}

int study_write_timeline(const char *dir, const char *app, const char *input, const char *desc,
                         const app_multitask_result *r, const ck_trace_sample *tr, size_t nt, size_t dropped)
{
    double t0 = r->coop_send_ms;
    ck_file_writer w[TL_FILES];
    if (open_files(dir, app, w))
        return -1;
    FILE *d = w[TL_DAT].f, *g = w[TL_GP].f;
    json_out j;
    jo_start(&j, w[TL_JSON].f);
    jo_object(&j, NULL);
    jo_str(&j, "displayTimeUnit", "ms");
    jo_object(&j, "otherData");
    jo_str(&j, "app", app);
    jo_str(&j, "input", input);
    jo_str(&j, "run", desc);
    jo_str(&j, "time_zero", "the cooperative launch was sent");
    jo_uint(&j, "trace_samples", nt);
    jo_uint(&j, "trace_dropped", dropped);
    jo_str(&j, "resolution", "the host progress thread's poll interval");
    jo_end(&j);
    jo_array(&j, "traceEvents");
    char name[256];
    snprintf(name, sizeof name, "%s %s", app, input);
    metadata_event(&j, "process_name", 0, name);
    snprintf(name, sizeof name, "cooperative %s", app);
    span_event(&j, name, "coop", 0, r->coop_wall_ms * 1000, 1);
    fprintf(d, "# block 0: host ms since the cooperative launch was sent, active groups M (trace samples)\n");
    for (size_t i = 0; i < nt; ++i) {
        double t = tr[i].t_s * 1000 - t0;
        jo_object(&j, NULL);
        jo_str(&j, "name", "active groups");
        jo_str(&j, "ph", "C");
        jo_num(&j, "ts", "%.1f", t * 1000);
        jo_int(&j, "pid", 1);
        jo_object(&j, "args");
        jo_uint(&j, "M", tr[i].active);
        jo_end(&j);
        jo_end(&j);
        fprintf(d, "%.4f %u\n", t, tr[i].active);
    }
    if (nt == 0)
        fprintf(d, "0 0\n");
    fprintf(d, "\n\n# block 1: matmul launch k: gather start, gather end, exec end (ms since the cooperative "
               "launch was sent)\n");
    for (unsigned k = 0; k < r->mm_launches; ++k) {
        double gs = r->send_ms[k] - t0 + r->queue_ms[k], ge = gs + r->gather_ms[k], ee = ge + r->exec_ms[k];
        snprintf(name, sizeof name, "gather %u", k);
        span_event(&j, name, "gather", gs * 1000, r->gather_ms[k] * 1000, 2);
        snprintf(name, sizeof name, "matmul %u", k);
        span_event(&j, name, "exec", ge * 1000, r->exec_ms[k] * 1000, 3);
        fprintf(d, "%u %.4f %.4f %.4f\n", k, gs, ge, ee);
    }
    if (r->mm_launches == 0)
        fprintf(d, "0 0 0 0\n");
    metadata_event(&j, "thread_name", 1, "cooperative kernel");
    metadata_event(&j, "thread_name", 2, "gather");
    metadata_event(&j, "thread_name", 3, "matmul execution");
    jo_end(&j);
    jo_end(&j);
    unsigned top = 1;
    for (size_t i = 0; i < nt; ++i)
        top = tr[i].active > top ? tr[i].active : top;
    fprintf(g,
            "# Timeline of one run (the paper's Figure 1's shape): %s %s, %s.\n"
            "# Top: active groups M of the cooperative kernel (sampled by the host progress thread);\n"
            "# bottom: each matmul launch's gather (red) and execution (blue). Re-plot: gnuplot timeline_%s.gp\n"
            "set terminal png size 1200,600\nset output (exists('ck_output') ? ck_output : 'timeline_%s.png')\n"
            "set multiplot layout 2,1\n"
            "set xlabel 'ms since the cooperative launch was sent'\nset xrange [0:%.3f]\n"
            "set ylabel 'active groups M'\nset yrange [0:%u]\nset title '%s %s: %s'\n"
            "plot 'timeline_%s.dat' index 0 using 1:2 with steps lw 2 title 'M'\n"
            "set ylabel 'matmul launch'\nset yrange [-1:%u]\nset title ''\n"
            "plot 'timeline_%s.dat' index 1 using 2:1:($3-$2):(0) with vectors nohead lw 6 lc rgb 'red' "
            "title 'gather', '' index 1 using 3:1:($4-$3):(0) with vectors nohead lw 6 lc rgb 'blue' "
            "title 'execution'\nunset multiplot\n",
            app, input, desc, app, app, r->coop_wall_ms > 0 ? r->coop_wall_ms : 1, top + 1, app, input, desc, app,
            r->mm_launches ? r->mm_launches : 1, app);
    return commit_files(w);
}
