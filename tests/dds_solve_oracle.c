/*
 * dds_solve_oracle: DDS's own SolveBoardPBN answers, from C, for the tests.
 *
 * The oracle tests/core/test_solve_board_modes.py compares ddsbind.solve_board
 * with: the same DDS called from a plain C program, so no line of ddsbind
 * (validation, marshalling, result decoding, thread slots) lies between the
 * question and the answer.  Built by benchmarks/_common.build_driver against
 * the DDS the installed ddsbind uses (system library or source tree).
 *
 * Input, one request a line on stdin:
 *
 *     TRUMP FIRST TARGET SOLUTIONS MODE N S1 R1 S2 R2 S3 R3 PBN
 *
 * TRUMP 0..4 (S H D C NT), FIRST 0..3 (N E S W), N the cards already played
 * to the trick (0..3; S/R pairs beyond N are 0), suits 0..3, ranks 2..14,
 * PBN the remaining cards ("N:AK.Q.. ...", no spaces inside hands' dots).
 * Each request is solved with SolveBoardPBN on thread 0, in input order.
 *
 * or the one word "info", or
 *
 *     dealerpar DEALER VUL T0 ... T19
 *
 * for DealerPar of the DD table T (resTable order: strain S H D C NT, then
 * hand N E S W), DEALER 0..3, VUL 0 none 1 both 2 NS 3 EW.
 *
 * Output, one line per request:
 *
 *     ok NODES CARDS SUIT RANK EQUALS SCORE ...   (CARDS quadruples)
 *     err CODE                                    (DDS's return code)
 *     info MAJOR MINOR PATCH THREADS CORES        (GetDDSInfo)
 *     par SCORE NUMBER CONTRACT ...               (DealerPar)
 *
 * Leaves with _exit: Debian's libdds 2.9.0 may crash in its destructors
 * after a normal return from main (see benchmarks/dds_driver.c).
 */

#define _POSIX_C_SOURCE 200809L

#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include <stdbool.h> /* DDS 2.9.0's own dll.h uses bool without it */

#include "dll.h"

int main(void)
{
    char line[512];
    SetMaxThreads(0);
    while (fgets(line, sizeof line, stdin) != NULL) {
        struct dealPBN dl;
        struct futureTricks fut;
        int target, solutions, mode, n, used = 0;
        memset(&dl, 0, sizeof dl);
        if (strncmp(line, "dealerpar", 9) == 0) {
            struct ddTableResults table;
            struct parResultsDealer par;
            int dealer, vul, at = 9, n = 0;
            if (sscanf(line + at, "%d %d%n", &dealer, &vul, &n) != 2) {
                fprintf(stderr, "dds_solve_oracle: bad request: %s", line);
                _exit(1);
            }
            at += n;
            for (int i = 0; i < 20; i++) {
                if (sscanf(line + at, "%d%n", &table.resTable[i / 4][i % 4], &n) != 1) {
                    fprintf(stderr, "dds_solve_oracle: bad table: %s", line);
                    _exit(1);
                }
                at += n;
            }
            int rc = DealerPar(&table, &par, dealer, vul);
            if (rc != RETURN_NO_FAULT) {
                printf("err %d\n", rc);
                continue;
            }
            printf("par %d %d", par.score, par.number);
            for (int i = 0; i < par.number; i++)
                printf(" %s", par.contracts[i]);
            printf("\n");
            continue;
        }
        if (strncmp(line, "info", 4) == 0) {
            struct DDSInfo info;
            GetDDSInfo(&info);
            printf("info %d %d %d %d %d\n", info.major, info.minor, info.patch, info.noOfThreads, info.numCores);
            continue;
        }
        if (sscanf(line, "%d %d %d %d %d %d %d %d %d %d %d %d %n", &dl.trump, &dl.first, &target, &solutions,
                   &mode, &n, &dl.currentTrickSuit[0], &dl.currentTrickRank[0], &dl.currentTrickSuit[1],
                   &dl.currentTrickRank[1], &dl.currentTrickSuit[2], &dl.currentTrickRank[2], &used) != 12
            || used == 0) {
            fprintf(stderr, "dds_solve_oracle: bad request: %s", line);
            fflush(stdout);
            _exit(1);
        }
        (void)n; /* DDS counts the trick's cards from the hands' lengths */
        strncpy(dl.remainCards, line + used, sizeof dl.remainCards - 1);
        dl.remainCards[strcspn(dl.remainCards, "\r\n")] = '\0';
        int rc = SolveBoardPBN(dl, target, solutions, mode, &fut, 0);
        if (rc != RETURN_NO_FAULT) {
            printf("err %d\n", rc);
            continue;
        }
        printf("ok %d %d", fut.nodes, fut.cards);
        for (int i = 0; i < fut.cards; i++)
            printf(" %d %d %d %d", fut.suit[i], fut.rank[i], fut.equals[i], fut.score[i]);
        printf("\n");
    }
    fflush(stdout);
    fflush(stderr);
    _exit(0);
}
