/*
 * dds_play_driver: the native baseline for benchmarks/bench_play.py.
 *
 *   dds_play_driver FILE THREADS [LIMIT]
 *
 * Reads a DDS reference-hands file (at most LIMIT hands when given): each
 * hand's `PBN dealer vul trump first "N:..."`, `PLAY n "..."` and
 * `TRACE n v...` lines.  Calls SetMaxThreads(THREADS), then
 * AnalyseAllPlaysPBN (chunkSize 1, as ddsbind calls AnalyseAllPlaysBin) in
 * batches of at most MAXNOOFBOARDS hands.  Only the batches are timed
 * (CLOCK_MONOTONIC), not reading the file.  Every solvedPlay is compared
 * with the hand's TRACE line.
 *
 * Output, one `key value` line per fact:
 *   deals N / batches B / threads T / seconds S / cpu_seconds P /
 *   deals_per_second R / mismatches M / checksum 0x...
 * `checksum` is 64-bit FNV-1a over every solvedPlay value (one byte each),
 * deal by deal, so a caller can check it computed the same traces.
 *
 * Exits 2 with DDS's ErrorMessage on a DDS error, 1 on usage/I/O errors; it
 * leaves through _exit (Debian's libdds 2.9.0 crashes in its unload code).
 */

#define _POSIX_C_SOURCE 200809L

#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <time.h>
#include <unistd.h>

#include <stdbool.h> /* DDS 2.9.0's own dll.h uses bool without it */

#include "dll.h" /* -I the directory of DDS's dll.h: see benchmarks/_common.py */

struct hand {
    int trump, first;
    char deal[80];
    char play[106];
    int trace[53];
    int ntrace;
};

static void leave(int status)
{
    fflush(stdout);
    fflush(stderr);
    _exit(status);
}

static void die(const char *fmt, const char *arg)
{
    fprintf(stderr, "dds_play_driver: ");
    fprintf(stderr, fmt, arg);
    fputc('\n', stderr);
    leave(1);
}

static double now(void)
{
    struct timespec ts;

    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

static double cpu_now(void)
{
    struct rusage ru;

    getrusage(RUSAGE_SELF, &ru);
    return (double)ru.ru_utime.tv_sec + (double)ru.ru_utime.tv_usec * 1e-6 +
           (double)ru.ru_stime.tv_sec + (double)ru.ru_stime.tv_usec * 1e-6;
}

/* Copies the first double-quoted string of line into out (size cap); 0 if none fits. */
static int quoted(const char *line, char *out, size_t cap)
{
    const char *open = strchr(line, '"');
    const char *close = open ? strchr(open + 1, '"') : NULL;
    size_t len;

    if (open == NULL || close == NULL)
        return 0;
    len = (size_t)(close - open - 1);
    if (len >= cap)
        return 0;
    memcpy(out, open + 1, len);
    out[len] = '\0';
    return 1;
}

static size_t read_hands(const char *path, long limit, struct hand **out)
{
    FILE *f = fopen(path, "r");
    char line[2048];
    struct hand *hands = NULL;
    size_t n = 0, cap = 0;

    if (f == NULL)
        die("cannot open %s", path);
    while (fgets(line, sizeof line, f) != NULL) {
        struct hand *h = n ? &hands[n - 1] : NULL;

        if (strncmp(line, "PBN ", 4) == 0) {
            int dealer, vul;

            if (limit >= 0 && (long)n >= limit)
                break;
            if (n == cap) {
                cap = cap ? 2 * cap : 128;
                hands = realloc(hands, cap * sizeof *hands);
                if (hands == NULL)
                    die("out of memory reading %s", path);
            }
            h = &hands[n++];
            memset(h, 0, sizeof *h);
            if (sscanf(line + 4, "%d %d %d %d", &dealer, &vul, &h->trump, &h->first) != 4 ||
                !quoted(line, h->deal, sizeof h->deal))
                die("bad PBN line in %s", path);
        } else if (h != NULL && strncmp(line, "PLAY ", 5) == 0) {
            if (!quoted(line, h->play, sizeof h->play))
                die("bad PLAY line in %s", path);
        } else if (h != NULL && strncmp(line, "TRACE ", 6) == 0) {
            char *p = line + 6, *end;
            long v;

            h->ntrace = 0;
            v = strtol(p, &end, 10); /* the count */
            for (p = end; h->ntrace < 53; p = end) {
                v = strtol(p, &end, 10);
                if (end == p)
                    break;
                h->trace[h->ntrace++] = (int)v;
            }
        }
    }
    fclose(f);
    *out = hands;
    return n;
}

int main(int argc, char **argv)
{
    static struct boardsPBN bo;
    static struct playTracesPBN pl;
    static struct solvedPlays solved;
    struct hand *hands;
    size_t n, start, b, batches = 0;
    long limit = -1, mismatches = 0;
    int threads;
    double seconds = 0.0, cpu = 0.0;
    uint64_t sum = UINT64_C(0xcbf29ce484222325);
    struct DDSInfo info;
    char msg[80];

    if (argc < 3 || argc > 4) {
        fprintf(stderr, "usage: dds_play_driver FILE THREADS [LIMIT]\n");
        leave(1);
    }
    threads = atoi(argv[2]);
    if (argc == 4)
        limit = atol(argv[3]);
    n = read_hands(argv[1], limit, &hands);
    if (n == 0)
        die("no hands in %s", argv[1]);
    SetMaxThreads(threads);
    for (start = 0; start < n; start += MAXNOOFBOARDS) {
        size_t k = n - start < MAXNOOFBOARDS ? n - start : MAXNOOFBOARDS;
        double t0, c0;
        int rc;

        bo.noOfBoards = pl.noOfBoards = (int)k;
        for (b = 0; b < k; b++) {
            struct hand *h = &hands[start + b];

            memset(&bo.deals[b], 0, sizeof bo.deals[b]);
            bo.deals[b].trump = h->trump;
            bo.deals[b].first = h->first;
            strcpy(bo.deals[b].remainCards, h->deal);
            bo.target[b] = -1;
            bo.solutions[b] = 1;
            bo.mode[b] = 1;
            pl.plays[b].number = (int)(strlen(h->play) / 2);
            strcpy(pl.plays[b].cards, h->play);
        }
        t0 = now();
        c0 = cpu_now();
        rc = AnalyseAllPlaysPBN(&bo, &pl, &solved, 1);
        seconds += now() - t0;
        cpu += cpu_now() - c0;
        batches++;
        if (rc != RETURN_NO_FAULT) {
            ErrorMessage(rc, msg);
            msg[sizeof msg - 1] = '\0';
            fprintf(stderr, "dds_play_driver: AnalyseAllPlaysPBN returned %d: %s\n", rc, msg);
            leave(2);
        }
        for (b = 0; b < k; b++) {
            struct hand *h = &hands[start + b];
            struct solvedPlay *s = &solved.solved[b];
            int i, bad = s->number != h->ntrace;

            for (i = 0; i < s->number; i++) {
                sum = (sum ^ (unsigned char)s->tricks[i]) * UINT64_C(0x100000001b3);
                if (!bad && s->tricks[i] != h->trace[i])
                    bad = 1;
            }
            mismatches += bad;
        }
    }
    memset(&info, 0, sizeof info);
    GetDDSInfo(&info);
    printf("deals %zu\n", n);
    printf("batches %zu\n", batches);
    printf("threads %d\n", info.noOfThreads);
    printf("seconds %.6f\n", seconds);
    printf("cpu_seconds %.6f\n", cpu);
    printf("deals_per_second %.3f\n", seconds > 0 ? (double)n / seconds : 0.0);
    printf("mismatches %ld\n", mismatches);
    printf("checksum 0x%016llx\n", (unsigned long long)sum);
    leave(0);
    return 0;
}
