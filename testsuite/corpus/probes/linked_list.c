/*
 * linked_list.c -- pointer chasing: scaling every node of a singly linked
 * list (the next node is known only after loading this one's link), and
 * the list's length.
 */
#include "probe.h"

struct node { double val; struct node *next; };

static void scale_list(struct node *head, double f)
{
    for (struct node *q = head; q; q = q->next) // V:sequential I:-
        q->val *= f;
}

static long length(const struct node *q)
{
    long n = 0;
    while (q) { // V:sequential I:-
        n++;
        q = q->next;
    }
    return n;
}

int main(int argc, char **argv)
{
    int large = probe_large(argc, argv);
    long n = large ? 1000000 : 500;
    struct node *pool = calloc((size_t)n, sizeof *pool);
    double *v = probe_alloc(n);
    if (!pool) return 1;
    probe_fill(v, n, 90);
    for (long i = 0; i < n; i++) { // V:parallel I:stream
        pool[i].val = v[i];
        pool[i].next = i + 1 < n ? &pool[i + 1] : NULL;
    }
    scale_list(pool, 1.5);
    double s = 0.0;
    for (long i = 0; i < n; i++) // V:reduction I:reduction
        s += pool[i].val;
    printf("%ld %.9e\n", length(pool), s);
    free(pool); free(v);
    return 0;
}
