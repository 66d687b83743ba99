/* fuzz_driver.c: a self-driven mutation fuzzer for machines without
 * libFuzzer (any C compiler). It loads inputs (files, or the files of
 * folders), runs each once through LLVMFuzzerTestOneInput (fuzz_stitcher.c),
 * then, given --seconds or --runs, keeps running mutants: byte flips and
 * overwrites, deletions, insertions of tokens of a dictionary (--dict),
 * duplicated ranges, splices of two inputs, and a new header line of names
 * taken from the source; all from a fixed seed, so a run can be repeated.
 * A crash (signal, sanitizer report, abort), an input slower than --timeout
 * or a process bigger than --rss-limit-mb is a finding: the input is written
 * to the artifact folder as crash-/timeout-/oom-SEED-RUN and the driver
 * exits 1 (or dies of the signal, re-raised). Exit 0: no finding; 2: bad
 * command line or no input. */
#define _DEFAULT_SOURCE
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
/* UBSan's defaults when it is built in (UBSAN_OPTIONS still wins): a report
 * aborts, and the SIGABRT handler saves the input. gcc links UBSan as a
 * runtime of its own that never calls the death callback below. */
const char *__ubsan_default_options(void);
const char *__ubsan_default_options(void) { return "print_stacktrace=1:halt_on_error=1:abort_on_error=1"; }
/* Present when a sanitizer runtime is linked in: called before it exits. */
extern void __sanitizer_set_death_callback(void (*callback)(void)) __attribute__((weak));

typedef struct {
    uint8_t *data;
    size_t len;
} input;

static input *pool;
static size_t n_pool, cap_pool;

/* The input being run, and where a finding goes; read by the handlers. */
static const uint8_t *cur_data;
static size_t cur_len;
static char artifact_dir[512] = ".";
static char cur_tag[64] = "none";
static unsigned timeout_s = 10;

static double now_s(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + (double)t.tv_nsec * 1e-9;
}

static _Noreturn void usage_error(const char *what, const char *value)
{
    fprintf(stderr,
            "fuzz_driver: %s%s%s (usage: fuzz_driver [--seconds S] [--runs N] [--seed N] [--max-len N] "
            "[--timeout S] [--rss-limit-mb N] [--dict FILE] [--artifacts DIR] PATH...)\n",
            what, value ? ": " : "", value ? value : "");
    exit(2);
}

static unsigned long long parse_count(const char *opt, const char *v, unsigned long long hi)
{
    char *end;
    errno = 0;
    unsigned long long x = v && *v >= '0' && *v <= '9' ? strtoull(v, &end, 10) : (end = (char *)"x", 0);
    if (*end || errno || x > hi) {
        char what[128];
        snprintf(what, sizeof what, "%s wants an integer in 0..%llu", opt, hi);
        usage_error(what, v ? v : "(none)");
    }
    return x;
}

/* Writes the current input to ARTIFACTS/KIND-TAG with async-signal-safe calls
 * and says so on stderr. */
static void save_finding(const char *kind)
{
    char path[700];
    size_t n = 0;
    const char *parts[] = {artifact_dir, "/", kind, "-", cur_tag};
    for (size_t i = 0; i < sizeof parts / sizeof *parts; ++i)
        for (const char *p = parts[i]; *p && n + 1 < sizeof path; ++p)
            path[n++] = *p;
    path[n] = 0;
    int fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0644);
    if (fd >= 0) {
        size_t done = 0;
        while (cur_data && done < cur_len) {
            ssize_t w = write(fd, cur_data + done, cur_len - done);
            if (w <= 0)
                break;
            done += (size_t)w;
        }
        close(fd);
    }
    const char *msg[] = {"fuzz_driver: finding (", kind, "): input written to ", path, "\n"};
    for (size_t i = 0; i < sizeof msg / sizeof *msg; ++i)
        if (write(2, msg[i], strlen(msg[i])) < 0)
            break;
}

static void on_death(void) { save_finding("crash"); }

static void on_signal(int sig)
{
    save_finding(sig == SIGALRM ? "timeout" : "crash");
    if (sig == SIGALRM)
        _exit(1);
    signal(sig, SIG_DFL);
    raise(sig);
}

static void install_handlers(void)
{
    static char alt[1 << 16];
    stack_t ss = {.ss_sp = alt, .ss_size = sizeof alt};
    struct sigaction sa;
    memset(&sa, 0, sizeof sa);
    sa.sa_handler = on_signal;
    sa.sa_flags = SA_ONSTACK;
    sigaction(SIGALRM, &sa, NULL);
    sigaction(SIGABRT, &sa, NULL);
    if (__sanitizer_set_death_callback) {
        __sanitizer_set_death_callback(on_death); /* the sanitizer handles the faults */
        return;
    }
    sigaltstack(&ss, NULL); /* a stack overflow must still reach the handler */
    sigaction(SIGSEGV, &sa, NULL);
    sigaction(SIGBUS, &sa, NULL);
    sigaction(SIGFPE, &sa, NULL);
    sigaction(SIGILL, &sa, NULL);
}

static void add_input(uint8_t *data, size_t len)
{
    if (n_pool == cap_pool) {
        cap_pool = cap_pool ? cap_pool * 2 : 64;
        pool = realloc(pool, cap_pool * sizeof *pool);
        if (!pool) {
            fprintf(stderr, "fuzz_driver: out of memory loading inputs\n");
            exit(2);
        }
    }
    pool[n_pool++] = (input){data, len};
}

static void load_file(const char *path)
{
    FILE *f = fopen(path, "rb");
    if (!f) {
        fprintf(stderr, "fuzz_driver: cannot open '%s': %s\n", path, strerror(errno));
        exit(2);
    }
    fseek(f, 0, SEEK_END);
    long len = ftell(f);
    fseek(f, 0, SEEK_SET);
    uint8_t *data = malloc(len > 0 ? (size_t)len : 1);
    if (len < 0 || !data || fread(data, 1, (size_t)len, f) != (size_t)len) {
        fprintf(stderr, "fuzz_driver: cannot read '%s'\n", path);
        exit(2);
    }
    fclose(f);
    add_input(data, (size_t)len);
}

static void load_path(const char *path)
{
    struct stat s;
    if (stat(path, &s) != 0) {
        fprintf(stderr, "fuzz_driver: cannot open '%s': %s\n", path, strerror(errno));
        exit(2);
    }
    if (!S_ISDIR(s.st_mode)) {
        load_file(path);
        return;
    }
    DIR *d = opendir(path);
    struct dirent *e;
    while (d && (e = readdir(d))) {
        char sub[4096];
        snprintf(sub, sizeof sub, "%s/%s", path, e->d_name);
        if (e->d_name[0] != '.' && stat(sub, &s) == 0 && S_ISREG(s.st_mode))
            load_file(sub);
    }
    if (d)
        closedir(d);
}

/* xorshift64*: small, fast and the same on every machine. */
static uint64_t rng_state;
static uint64_t rnd(void)
{
    rng_state ^= rng_state >> 12;
    rng_state ^= rng_state << 25;
    rng_state ^= rng_state >> 27;
    return rng_state * 2685821657736338717ull;
}
static size_t below(size_t n) { return n ? (size_t)(rnd() % n) : 0; }

/* Tokens inserted by mutations (--dict, libFuzzer's dictionary format:
 * lines "text" with the escapes \\, \" and \xAB; other lines ignored). */
static char **tokens;
static size_t n_tokens;

static int hex(int c)
{
    return c >= '0' && c <= '9' ? c - '0' : (c | 32) >= 'a' && (c | 32) <= 'f' ? (c | 32) - 'a' + 10 : -1;
}

static void load_dict(const char *path)
{
    FILE *f = fopen(path, "r");
    if (!f) {
        fprintf(stderr, "fuzz_driver: cannot open dictionary '%s': %s\n", path, strerror(errno));
        exit(2);
    }
    char line[1024];
    while (fgets(line, sizeof line, f)) {
        char *q = strchr(line, '"'), *end = strrchr(line, '"');
        if (line[0] == '#' || !q || end == q)
            continue;
        char *t = malloc((size_t)(end - q)), *w = t;
        char **grown = realloc(tokens, (n_tokens + 1) * sizeof *tokens);
        if (!t || !grown) {
            fprintf(stderr, "fuzz_driver: out of memory loading '%s'\n", path);
            exit(2);
        }
        tokens = grown;
        for (char *p = q + 1; p < end; ++p) {
            if (*p == '\\' && p + 1 < end && p[1] == 'x' && p + 3 < end && hex(p[2]) >= 0 && hex(p[3]) >= 0) {
                *w++ = (char)(hex(p[2]) * 16 + hex(p[3]));
                p += 3;
            } else if (*p == '\\' && p + 1 < end) {
                *w++ = *++p;
            } else {
                *w++ = *p;
            }
        }
        *w = 0;
        tokens[n_tokens++] = t;
    }
    fclose(f);
    if (!n_tokens) {
        fprintf(stderr, "fuzz_driver: dictionary '%s' has no \"token\" line\n", path);
        exit(2);
    }
}

/* Buffer of the mutant being built. */
static uint8_t *mut;
static size_t mut_len, max_len;

static void insert_bytes(size_t at, const uint8_t *src, size_t n)
{
    if (mut_len + n > max_len)
        n = max_len - mut_len;
    memmove(mut + at + n, mut + at, mut_len - at);
    memcpy(mut + at, src, n);
    mut_len += n;
}

static void delete_bytes(size_t at, size_t n)
{
    if (at + n > mut_len)
        n = mut_len - at;
    memmove(mut + at, mut + at + n, mut_len - at - n);
    mut_len -= n;
}

static int is_ident(uint8_t c)
{
    return c == '_' || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9');
}

/* Replaces the header line with 1..3 identifiers picked from the body. */
static void new_header(void)
{
    uint8_t *nl = memchr(mut, '\n', mut_len);
    size_t body = nl ? (size_t)(nl - mut) + 1 : 0;
    char head[256];
    size_t h = 0;
    int names = 1 + (int)below(3);
    for (int tries = 0; tries < 40 && names > 0 && mut_len > body; ++tries) {
        size_t at = body + below(mut_len - body);
        while (at > body && is_ident(mut[at - 1]))
            --at;
        size_t end = at;
        while (end < mut_len && is_ident(mut[end]))
            ++end;
        if (end == at || end - at > 48 || h + (end - at) + 2 > sizeof head)
            continue;
        if (h)
            head[h++] = ',';
        memcpy(head + h, mut + at, end - at);
        h += end - at;
        --names;
    }
    head[h++] = '\n';
    delete_bytes(0, body);
    insert_bytes(0, (const uint8_t *)head, h);
}

static void mutate_once(void)
{
    static const char INTERESTING[] = "{}();,=\n#/*\"'\\ 0_";
    size_t at = below(mut_len + 1);
    switch (below(9)) {
    case 0:
        if (mut_len)
            mut[below(mut_len)] ^= (uint8_t)(1u << below(8));
        break;
    case 1:
        if (mut_len)
            mut[below(mut_len)] = (uint8_t)INTERESTING[below(sizeof INTERESTING - 1)];
        break;
    case 2:
        if (mut_len)
            delete_bytes(below(mut_len), 1 + below(16));
        break;
    case 3:
    case 4:
        if (n_tokens) {
            const char *t = tokens[below(n_tokens)];
            insert_bytes(at, (const uint8_t *)t, strlen(t));
        }
        break;
    case 5: /* copy a range of the input elsewhere: repeats, nesting */
        if (mut_len) {
            size_t from = below(mut_len), n = 1 + below(mut_len - from < 256 ? mut_len - from : 256);
            uint8_t tmp[256];
            memcpy(tmp, mut + from, n);
            insert_bytes(at, tmp, n);
        }
        break;
    case 6: { /* splice: keep a prefix, append the tail of another input */
        const input *o = &pool[below(n_pool)];
        size_t from = below(o->len + 1);
        mut_len = at;
        insert_bytes(mut_len, o->data + from, o->len - from);
        break;
    }
    case 7: { /* insert a range of another input */
        const input *o = &pool[below(n_pool)];
        if (o->len) {
            size_t from = below(o->len), n = 1 + below(o->len - from < 512 ? o->len - from : 512);
            insert_bytes(at, o->data + from, n);
        }
        break;
    }
    default: new_header(); break;
    }
}

static void run_one(const uint8_t *data, size_t len, size_t rss_limit_mb)
{
    cur_data = data;
    cur_len = len;
    alarm(timeout_s);
    LLVMFuzzerTestOneInput(data, len);
    alarm(0);
    if (rss_limit_mb) {
        struct rusage u;
        getrusage(RUSAGE_SELF, &u);
        if ((size_t)u.ru_maxrss / 1024 > rss_limit_mb) {
            fprintf(stderr, "fuzz_driver: the process grew to %ld MB (limit %zu MB)\n", u.ru_maxrss / 1024,
                    rss_limit_mb);
            save_finding("oom");
            exit(1);
        }
    }
}

int main(int argc, char **argv)
{
    double seconds = 0;
    unsigned long long runs = 0, seed = 1;
    size_t rss_limit_mb = 2048;
    int fuzz = 0;
    max_len = 1 << 16;
    for (int i = 1; i < argc; ++i) {
        const char *a = argv[i], *v = i + 1 < argc ? argv[i + 1] : NULL;
        if (!strcmp(a, "--seconds")) {
            seconds = (double)parse_count(a, v, 86400), fuzz = 1, ++i;
        } else if (!strcmp(a, "--runs")) {
            runs = parse_count(a, v, 1ull << 40), fuzz = 1, ++i;
        } else if (!strcmp(a, "--seed")) {
            seed = parse_count(a, v, UINT64_MAX - 1), ++i;
        } else if (!strcmp(a, "--max-len")) {
            max_len = (size_t)parse_count(a, v, 1u << 24), ++i;
            if (max_len == 0)
                usage_error("--max-len must be at least 1", v);
        } else if (!strcmp(a, "--timeout")) {
            timeout_s = (unsigned)parse_count(a, v, 3600), ++i;
        } else if (!strcmp(a, "--rss-limit-mb")) {
            rss_limit_mb = (size_t)parse_count(a, v, 1u << 20), ++i;
        } else if (!strcmp(a, "--dict")) {
            if (!v)
                usage_error("--dict needs a file", NULL);
            load_dict(v), ++i;
        } else if (!strcmp(a, "--artifacts")) {
            if (!v)
                usage_error("--artifacts needs a folder", NULL);
            snprintf(artifact_dir, sizeof artifact_dir, "%s", v), ++i;
        } else if (a[0] == '-' && a[1] == '-') {
            usage_error("unknown option", a);
        } else {
            load_path(a);
        }
    }
    if (!n_pool)
        usage_error("no input: give files or folders of inputs", NULL);
    install_handlers();
    rng_state = seed * 0x9E3779B97F4A7C15ull + 1;

    double t0 = now_s();
    for (size_t i = 0; i < n_pool; ++i) {
        snprintf(cur_tag, sizeof cur_tag, "%llu-input%zu", seed, i);
        run_one(pool[i].data, pool[i].len, rss_limit_mb);
    }
    unsigned long long done = 0;
    if (fuzz) {
        mut = malloc(max_len + 1);
        if (!mut)
            usage_error("out of memory for --max-len", NULL);
        while ((!runs || done < runs) && (seconds <= 0 || now_s() - t0 < seconds)) {
            const input *base = &pool[below(n_pool)];
            mut_len = base->len < max_len ? base->len : max_len;
            memcpy(mut, base->data, mut_len);
            for (size_t k = 1 + below(4); k > 0; --k)
                mutate_once();
            snprintf(cur_tag, sizeof cur_tag, "%llu-%llu", seed, done);
            run_one(mut, mut_len, rss_limit_mb);
            ++done;
        }
    }
    printf("fuzz_driver: %zu inputs and %llu mutants run in %.1f s (seed %llu, max-len %zu, %zu dictionary tokens), "
           "no finding\n",
           n_pool, done, now_s() - t0, seed, max_len, n_tokens);
    return 0;
}
