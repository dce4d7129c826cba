/*
 * dds_driver: the native baseline for benchmarks/bench_binding.py.
 *
 * A plain C program that links libdds and does what ddsbind does, with no
 * Python in between, so the two can be timed on the same hands and threads.
 *
 *   dds_driver tables FILE THREADS [LIMIT]
 *       Reads the `PBN ... "N:..."` lines of a DDS reference-hands file (at
 *       most LIMIT deals when given), calls SetMaxThreads(THREADS), then
 *       CalcAllTablesPBN in batches of at most 40 deals (DDS's limit with all
 *       5 strains, as DDS's own test program sends them; trumpFilter all 0,
 *       mode -1 = no par).  Only the batches
 *       are timed (CLOCK_MONOTONIC), not reading the file.
 *
 *   dds_driver onecard ITER [THREADS]
 *       SolveBoard ITER times on a one-card-per-hand end position
 *       (N:A... K... Q... J..., NT, North leads, target -1, solutions 3,
 *       mode 1, threadIndex 0) after one untimed warm-up call.
 *
 * Output: one `key value` line per fact, for machines:
 *
 *   tables:  deals N / batches B / threads T / cores C / seconds S /
 *            cpu_seconds P / batch_seconds S1 S2 ... / tables_per_second R /
 *            checksum 0x...
 *   onecard: iterations N / threads T / score K / seconds S /
 *            microseconds_per_call U
 *
 * `threads` is GetDDSInfo's noOfThreads: DDS never runs more threads than
 * cores, whatever SetMaxThreads asked for.  `cpu_seconds` is the CPU time
 * of all the process's threads during the timed calls (getrusage), so
 * cpu_seconds / seconds is how many cores were busy on average.  `checksum` is 64-bit FNV-1a over
 * every table entry as one byte, in the order deal, strain (S H D C NT),
 * declarer (N E S W) -- the order of ddTableResults.resTable -- so a caller
 * can check it computed the same tables.
 *
 * Every DDS status is checked; on failure the driver prints DDS's
 * ErrorMessage text on stderr and exits with status 2 (1 for usage and I/O
 * errors).
 *
 * Why _exit: Debian's libdds 2.9.0 frees its thread memory from a library
 * destructor after the C++ statics it touches are gone, so a process that
 * returns from main normally may die with SIGSEGV afterwards.  The driver
 * flushes its output and leaves with _exit, which skips those destructors.
 */

#define _POSIX_C_SOURCE 200809L

#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <sys/resource.h>
#include <unistd.h>

#include <stdbool.h> /* DDS 2.9.0's own dll.h uses bool without it */

#include "dll.h" /* -I the directory of DDS's dll.h: see benchmarks/_common.py */

/* Tables one CalcAllTables* call accepts when all 5 strains are solved:
 * DDS refuses strains x tables > MAXNOOFTABLES x DDS_STRAINS. */
#define BATCH ((MAXNOOFTABLES * DDS_STRAINS) / DDS_STRAINS)

static void leave(int status)
{
    fflush(stdout);
    fflush(stderr);
    _exit(status);
}

static void die(const char *fmt, const char *arg)
{
    fprintf(stderr, "dds_driver: ");
    fprintf(stderr, fmt, arg);
    fputc('\n', stderr);
    leave(1);
}

static void check(int rc, const char *function)
{
    char line[80];

    if (rc == RETURN_NO_FAULT)
        return;
    ErrorMessage(rc, line);
    line[sizeof line - 1] = '\0';
    fprintf(stderr, "dds_driver: %s returned %d: %s\n", function, rc, line);
    leave(2);
}

static double cpu_now(void)
{
    struct rusage ru;

    getrusage(RUSAGE_SELF, &ru);
    return (double)ru.ru_utime.tv_sec + (double)ru.ru_utime.tv_usec * 1e-6 +
           (double)ru.ru_stime.tv_sec + (double)ru.ru_stime.tv_usec * 1e-6;
}

static double now(void)
{
    struct timespec ts;

    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

static long parse_long(const char *text, const char *what, long lo)
{
    char *end;
    long v;

    errno = 0;
    v = strtol(text, &end, 10);
    if (errno != 0 || end == text || *end != '\0' || v < lo)
        die("bad %s", what);
    return v;
}

static struct DDSInfo info_now(void)
{
    struct DDSInfo info;

    memset(&info, 0, sizeof info);
    GetDDSInfo(&info);
    return info;
}

/*
 * Reads the quoted deal of every line starting with "PBN" into a growing
 * array of 80-byte strings (the size of ddTableDealPBN.cards).  Returns the
 * number of deals; *out owns the array.
 */
static size_t read_deals(const char *path, long limit, char (**out)[80])
{
    FILE *f = fopen(path, "r");
    char line[1024];
    char(*deals)[80] = NULL;
    size_t n = 0, cap = 0;
    long lineno = 0;

    if (f == NULL) {
        fprintf(stderr, "dds_driver: cannot open %s: %s\n", path, strerror(errno));
        leave(1);
    }
    while (fgets(line, sizeof line, f) != NULL) {
        char *open, *close;
        size_t len;

        lineno++;
        if (strncmp(line, "PBN", 3) != 0 || (line[3] != ' ' && line[3] != '\t'))
            continue;
        if (limit >= 0 && (long)n >= limit)
            break;
        open = strchr(line, '"');
        close = open ? strchr(open + 1, '"') : NULL;
        len = close ? (size_t)(close - open - 1) : 0;
        if (open == NULL || close == NULL || len == 0 || len >= 80) {
            fprintf(stderr, "dds_driver: %s line %ld: PBN line without a quoted deal\n", path, lineno);
            leave(1);
        }
        if (n == cap) {
            cap = cap ? 2 * cap : 128;
            deals = realloc(deals, cap * sizeof *deals);
            if (deals == NULL)
                die("out of memory reading %s", path);
        }
        memcpy(deals[n], open + 1, len);
        deals[n][len] = '\0';
        n++;
    }
    if (ferror(f))
        die("error reading %s", path);
    fclose(f);
    *out = deals;
    return n;
}

static uint64_t fnv1a(uint64_t h, unsigned char byte)
{
    return (h ^ byte) * UINT64_C(0x100000001b3);
}

static int run_tables(const char *path, int threads, long limit)
{
    static struct ddTableDealsPBN batch;
    static struct ddTablesRes res;
    static struct allParResults par;
    int filter[DDS_STRAINS] = {0, 0, 0, 0, 0};
    char(*deals)[80] = NULL;
    size_t n = read_deals(path, limit, &deals);
    size_t start, batches = 0, b;
    uint64_t sum = UINT64_C(0xcbf29ce484222325);
    double seconds = 0.0, cpu = 0.0;
    double *batch_seconds;
    struct DDSInfo info;

    if (n == 0)
        die("no PBN lines in %s", path);
    batch_seconds = calloc((n + BATCH - 1) / BATCH, sizeof *batch_seconds);
    if (batch_seconds == NULL)
        die("out of memory for %s", "batch times");
    SetMaxThreads(threads);
    info = info_now();

    for (start = 0; start < n; start += BATCH) {
        size_t k = n - start < BATCH ? n - start : BATCH;
        size_t i;
        int s, h;
        double t0, c0;

        batch.noOfTables = (int)k;
        for (i = 0; i < k; i++)
            memcpy(batch.deals[i].cards, deals[start + i], sizeof batch.deals[i].cards);
        c0 = cpu_now();
        t0 = now();
        check(CalcAllTablesPBN(&batch, -1, filter, &res, &par), "CalcAllTablesPBN");
        batch_seconds[batches] = now() - t0;
        cpu += cpu_now() - c0;
        seconds += batch_seconds[batches];
        batches++;
        for (i = 0; i < k; i++)
            for (s = 0; s < DDS_STRAINS; s++)
                for (h = 0; h < DDS_HANDS; h++)
                    sum = fnv1a(sum, (unsigned char)res.results[i].resTable[s][h]);
    }

    printf("deals %zu\n", n);
    printf("batches %zu\n", batches);
    printf("threads %d\n", info.noOfThreads);
    printf("cores %d\n", info.numCores);
    printf("seconds %.6f\n", seconds);
    printf("cpu_seconds %.6f\n", cpu);
    printf("batch_seconds");
    for (b = 0; b < batches; b++)
        printf(" %.6f", batch_seconds[b]);
    printf("\n");
    printf("tables_per_second %.4f\n", seconds > 0 ? (double)n / seconds : 0.0);
    printf("checksum 0x%016llx\n", (unsigned long long)sum);
    free(batch_seconds);
    free(deals);
    return 0;
}

static int run_onecard(long iterations, int threads)
{
    struct deal dl;
    struct futureTricks fut;
    struct DDSInfo info;
    double t0, seconds;
    long i;
    int best = -1, c;

    SetMaxThreads(threads);
    info = info_now();

    memset(&dl, 0, sizeof dl);
    dl.trump = 4; /* NT */
    dl.first = 0; /* North leads */
    dl.remainCards[0][0] = 1u << 14; /* N: spade ace */
    dl.remainCards[1][0] = 1u << 13; /* E: spade king */
    dl.remainCards[2][0] = 1u << 12; /* S: spade queen */
    dl.remainCards[3][0] = 1u << 11; /* W: spade jack */

    /* Warm-up: the first call may allocate the thread's memory. */
    check(SolveBoard(dl, -1, 3, 1, &fut, 0), "SolveBoard");
    t0 = now();
    for (i = 0; i < iterations; i++)
        check(SolveBoard(dl, -1, 3, 1, &fut, 0), "SolveBoard");
    seconds = now() - t0;
    for (c = 0; c < fut.cards; c++)
        if (fut.score[c] > best)
            best = fut.score[c];

    printf("iterations %ld\n", iterations);
    printf("threads %d\n", info.noOfThreads);
    printf("score %d\n", best);
    printf("seconds %.6f\n", seconds);
    printf("microseconds_per_call %.4f\n", seconds * 1e6 / (double)iterations);
    return 0;
}

static void usage(void)
{
    fprintf(stderr,
            "usage: dds_driver tables FILE THREADS [LIMIT]\n"
            "       dds_driver onecard ITER [THREADS]\n");
    leave(1);
}

int main(int argc, char **argv)
{
    int rc;

    if (argc >= 4 && argc <= 5 && strcmp(argv[1], "tables") == 0) {
        int threads = (int)parse_long(argv[3], "THREADS", 0);
        long limit = argc == 5 ? parse_long(argv[4], "LIMIT", 1) : -1;
        rc = run_tables(argv[2], threads, limit);
    } else if (argc >= 3 && argc <= 4 && strcmp(argv[1], "onecard") == 0) {
        long iterations = parse_long(argv[2], "ITER", 1);
        int threads = argc == 4 ? (int)parse_long(argv[3], "THREADS", 0) : 0;
        rc = run_onecard(iterations, threads);
    } else {
        usage();
        rc = 1;
    }
    leave(rc);
    return rc;
}
