#define _GNU_SOURCE  /* getline: must come before any header */
/* text.c -- text: getline loops, a hash, a volatile counter, a #line. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "kl.h"

volatile int kl_pending = 4;

size_t kl_count_words(FILE *f, size_t *lines)
{
    char *line = NULL;
    size_t cap = 0, words = 0;
    ssize_t n;
    *lines = 0;
    while ((n = getline(&line, &cap, f)) != -1) {
        int in = 0;
        (*lines)++;
        for (ssize_t i = 0; i < n; i++) {
            int sp = line[i] == ' ' || line[i] == '\n' || line[i] == '\t';
            if (!sp && !in)
                words++;
            in = !sp;
        }
    }
    free(line);
    return words;
}

unsigned long kl_hash(const char *s)
{
    unsigned long h = 5381;
    while (*s)
        h = h * 33 + (unsigned char)*s++;
    return h;
}

#line 500 "text-generated.c"
int kl_drain(void)
{
    int got = 0, buf[16];
    for (int i = 0; i < kl_pending; i++)
        buf[i] = i;
    for (int i = 0; i < 4; i++)
        got += buf[i];
    printf("%s:%d drained %d\n", __FILE__, __LINE__, got);
    return got;
}
