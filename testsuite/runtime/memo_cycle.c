/*
 * memo_cycle.c -- drives one keel_decide site through a cycle of size
 * sets, as a nest called in turn by the stages of a computation is:
 *
 *   memo_cycle FILE LINE SYM K ROUNDS
 *
 * calls the site ROUNDS times with each of K values of SYM in turn
 * (100, 200, ... 100*K), the base addresses "&C", "&A", "&B" far apart,
 * and prints the verdicts of the first round.  With KEEL_VERBOSE=1 the
 * runtime's exit summary says how often the models were evaluated.
 */
#include <stdio.h>
#include <stdlib.h>

#include "keelrt.h"

int main(int argc, char **argv)
{
    if (argc != 6)
        return 2;
    static const char *names[4];
    names[0] = argv[3], names[1] = "&C", names[2] = "&A", names[3] = "&B";
    keel_site site = { "unset.db", argv[1], atoi(argv[2]), 0, 4, names, NULL };
    int k = atoi(argv[4]), rounds = atoi(argv[5]);
    for (int r = 0; r < rounds; r++)
        for (int i = 0; i < k; i++) {
            long long v[4] = { 100LL * (i + 1), 1LL << 40, 2LL << 40, 3LL << 40 };
            int d = keel_decide(&site, v);
            if (r == 0)
                printf("%d", d);
        }
    printf("\n");
    return 0;
}
