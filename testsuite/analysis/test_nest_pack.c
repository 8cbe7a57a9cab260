/*
 * test_nest_pack.c -- a loop model (analysis/nest.h) to bytes and back
 * (nest_pack.h), and what nest_derive works out.
 *
 * A hand-made nest -- for (i = 0; i < n; i++) for (j = 0; j < m; j++)
 * C[i][j] = C[i][j] + A[j][i], the j loop the thread loop -- is derived,
 * encoded, decoded and encoded again: the bytes must be equal, and the
 * decoded members the values written.  Then the refusals, each with its
 * exact message: no bytes, another magic, an older version, a length that
 * is not the bytes', a flipped byte, and bytes whose checksum fits but
 * whose content is wrong (a loop whose parent comes after it, a cut
 * string, bytes left over).
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "expr.h"
#include "nest.h"
#include "nest_pack.h"
#include "util.h"

static kx_expr *ex(const char *text)
{
    char err[128];
    kx_expr *e = kx_parse(text, err, sizeof err);
    if (!e)
        fprintf(stderr, "%s: %s\n", text, err);
    return e;
}

static int is(const kx_expr *e, const char *text)
{
    kx_expr *w = ex(text);
    int same = e && w && kx_equal(e, w);
    kx_free(w);
    return same;
}

static void make_acc(nest_acc *a, int id, const char *array, int is_write, const char *i0,
                     const char *i1, int nloops)
{
    a->id = id;
    a->stmt = 0;
    a->array = strdup(array);
    a->elem = 8;
    a->is_write = is_write;
    a->ndims = 2;
    a->index = calloc(2, sizeof *a->index);
    a->extent = calloc(2, sizeof *a->extent);
    a->diff = calloc(2 * (size_t)nloops, sizeof *a->diff);
    a->lin = calloc((size_t)nloops, sizeof *a->lin);
    a->index[0] = strdup(i0);
    a->index[1] = strdup(i1);
    size_t tl = strlen(array) + strlen(i0) + strlen(i1) + 5;
    a->text = malloc(tl);
    snprintf(a->text, tl, "%s[%s][%s]", array, i0, i1);
    a->extent[1] = ex("m");
}

static void make(nest_model *n, nest_head *h)
{
    memset(n, 0, sizeof *n);
    memset(h, 0, sizeof *h);
    h->root = 42;
    h->file = strdup("/src/k.c");
    h->function = strdup("kernel");
    h->hash = strdup("0123456789abcdef");
    h->label = strdup("stream");
    h->line = 3;
    h->nfacts = 2;
    h->fact_name = calloc(2, sizeof *h->fact_name);
    h->fact = calloc(2, sizeof *h->fact);
    h->fact_name[0] = strdup("parallel");
    h->fact[0] = strdup("parallel");
    h->fact_name[1] = strdup("site");
    h->fact[1] = NULL;                   /* a fact whose value is unknown */
    n->nloops = 2, n->nstmts = 1, n->naccs = 3, n->nov = 1;
    n->loops = calloc(2, sizeof *n->loops);
    n->stmts = calloc(1, sizeof *n->stmts);
    n->accs = calloc(3, sizeof *n->accs);
    n->ov = calloc(1, sizeof *n->ov);
    nest_loop *i = &n->loops[0], *j = &n->loops[1];
    i->id = 42, i->parent = -1, i->line = 3, i->col = 5, i->iv = strdup("i");
    i->trip = ex("n"), i->lower = ex("0"), i->step = 1, i->nchildren = 1, i->parallel = 1;
    i->kroot = 0, i->thread_on_path = -1;
    j->id = 43, j->parent = 0, j->line = 4, j->col = 9, j->iv = strdup("j");
    j->trip = ex("m"), j->lower = ex("0"), j->step = 1, j->parallel = 1, j->thread = 1;
    j->gpu_map = strdup("threads"), j->thread_on_path = -1;
    nest_add_mca(j, "znver4", 1, 1, 1.5, 2, 2.5);
    nest_add_mca(j, "pwr9", 0, 1, 9, 1, 1);          /* not ok: not kept */
    j->nrec = nest_recur_parse("C[i][j]->C[i][j] dist=1 fadd=2 mem all; x dist=0", j->rec,
                               NEST_MAX_RECUR);
    n->stmts[0] = (nest_stmt){ 7, 1, 5, 0, 3.25, 4.5, 1, 0, 3 };
    make_acc(&n->accs[0], 100, "C", 0, "i", "j", 2);
    make_acc(&n->accs[1], 101, "A", 0, "j", "i", 2);
    make_acc(&n->accs[2], 102, "C", 1, "i", "j", 2);
    for (int a = 0; a < 3; a++) {
        int fast = a == 1 ? 0 : 1;                     /* A[j][i]: i is fastest */
        n->accs[a].diff[fast * 2 + (a == 1 ? 0 : 1)] = ex("1");
        n->accs[a].lin[1] = ex(a == 1 ? "m" : "1");
        n->accs[a].lin[0] = ex(a == 1 ? "1" : "m");
    }
    n->ov[0] = (nest_ov){ 2, strdup("C"), ex("m * i + j"), 1 };
    n->region = 0, n->omp_target = 1;
}

static void store_u32(unsigned char *p, uint32_t v)
{
    for (int i = 0; i < 4; i++)
        p[i] = (unsigned char)(v >> (8 * i));
}

/* Fix the checksum of a hand-edited form. */
static void resum(unsigned char *p, size_t n)
{
    uint64_t sum = ku_fnv1a64(p + 24, n - 24);
    store_u32(p + 16, (uint32_t)sum);
    store_u32(p + 20, (uint32_t)(sum >> 32));
}

static const char *refusal(const unsigned char *p, size_t n)
{
    static char err[256];
    nest_head h;
    nest_model m;
    err[0] = '\0';
    if (nest_decode(p, n, &h, &m, err, sizeof err) == 0) {
        nest_head_free(&h);
        nest_free(&m);
        return "(accepted)";
    }
    CHECK(m.nloops == 0 && !m.loops && !h.file && h.root == 0);   /* left empty */
    return err;
}

int main(void)
{
    nest_model n, d;
    nest_head h, hd;
    char err[256];
    make(&n, &h);
    CHECK_INT(nest_derive(&n), 0);
    /* derived: the last values, the thread loop on each path, the strides
     * along it, the arrays and the write that a read precedes */
    CHECK(is(n.loops[0].last, "n - 1") && is(n.loops[1].last, "m - 1"));
    CHECK_INT(n.loops[0].thread_on_path, -1);
    CHECK_INT(n.loops[1].thread_on_path, 1);
    CHECK_INT(n.loops[1].spread, 1);
    CHECK(is(n.accs[0].stride, "1") && is(n.accs[1].stride, "m"));
    CHECK_INT(n.accs[2].arr, 0);
    CHECK_INT(n.accs[1].arr, 1);
    CHECK_INT(n.accs[2].read_first, 1);
    CHECK_INT(n.uneven, 0);
    CHECK_INT(n.nsyms, 2);
    CHECK_STR(n.syms[0], "m");
    CHECK_STR(n.syms[1], "n");
    CHECK_INT(n.loops[1].nmca, 1);
    CHECK(n.loops[1].mca[0].cycles == 1.5 && n.loops[1].mca[0].rthru == 1.25);
    CHECK_INT(n.loops[1].nrec, 1);
    CHECK(n.loops[1].rec[0].dist == 1 && n.loops[1].rec[0].mem && n.loops[1].rec[0].all &&
          n.loops[1].rec[0].ops[KU_CHAIN_FADD] == 2);

    ku_buf b = { 0 }, b2 = { 0 };
    nest_encode(&h, &n, &b);
    CHECK(!b.oom && b.len > NEST_PACK_HEADER);
    CHECK_INT(nest_pack_version(b.s, b.len), NEST_PACK_VERSION);
    CHECK_INT(nest_decode(b.s, b.len, &hd, &d, err, sizeof err), 0);
    nest_encode(&hd, &d, &b2);
    CHECK(b2.len == b.len && memcmp(b.s, b2.s, b.len) == 0);     /* the same bytes again */
    CHECK_INT(hd.root, 42);
    CHECK_STR(hd.file, "/src/k.c");
    CHECK_STR(hd.hash, "0123456789abcdef");
    CHECK_INT(hd.nfacts, 2);
    CHECK(!strcmp(hd.fact_name[1], "site") && hd.fact[1] == NULL);
    CHECK(d.nloops == 2 && d.nstmts == 1 && d.naccs == 3 && d.nov == 1 && d.omp_target == 1);
    CHECK(is(d.loops[1].last, "m - 1") && d.loops[1].thread == 1 && d.loops[1].kroot == 0);
    CHECK_STR(d.loops[1].gpu_map, "threads");
    CHECK_STR(d.loops[1].mca[0].target, "znver4");
    CHECK(d.stmts[0].cpu_cycles == 3.25 && d.stmts[0].gpu_insts == 4.5 && d.stmts[0].nacc == 3);
    CHECK_STR(d.accs[1].text, "A[j][i]");
    CHECK(is(d.accs[1].extent[1], "m") && d.accs[1].extent[0] == NULL);
    CHECK(is(d.accs[1].lin[1], "m") && is(d.accs[1].stride, "m"));
    CHECK(is(d.ov[0].offset, "m * i + j") && d.ov[0].acc == 2);
    CHECK_STR(d.syms[1], "n");
    nest_head_free(&hd);
    nest_free(&d);

    /* refusals, each whole, with one message */
    unsigned char *c = malloc(b.len + 8);
    size_t len = b.len;
    CHECK_STR(refusal(NULL, 0), "packed facts: not packed facts");
    CHECK_STR(refusal((const unsigned char *)"KEEL", 4), "packed facts: truncated");
    CHECK_STR(refusal((const unsigned char *)"KEELLINK\1\0\0\0", 12),
              "packed facts: not packed facts");
    memcpy(c, b.s, len);
    c[8] = 2;                             /* an older keelcc's rows packed by db/ */
    CHECK_STR(refusal(c, len), "packed facts: format version 2, this runtime reads 3");
    CHECK_STR(refusal(c, 12), "packed facts: format version 2, this runtime reads 3");
    memcpy(c, b.s, len);
    CHECK_STR(refusal(c, 20), "packed facts: truncated");
    CHECK_STR(refusal(c, len - 1), "packed facts: truncated");
    memcpy(c, b.s, len);
    c[len + 0] = 0;
    CHECK_STR(refusal(c, len + 1), "packed facts: corrupt (its length)");
    c[len / 2] ^= 0x40;
    CHECK_STR(refusal(c, len), "packed facts: corrupt (checksum differs)");
    /* checksums that fit, contents that do not */
    memcpy(c, b.s, len);
    c[len] = 0;
    store_u32(c + 12, (uint32_t)(len + 1));
    resum(c, len + 1);
    CHECK_STR(refusal(c, len + 1), "packed facts: corrupt (bytes after the model)");
    memcpy(c, b.s, len);
    store_u32(c + 12, (uint32_t)(len - 1));
    resum(c, len - 1);
    CHECK_STR(refusal(c, len - 1), "packed facts: truncated");
    /* the file name's length (the first byte after the header) made huge */
    memcpy(c, b.s, len);
    c[NEST_PACK_HEADER] = 0x7f;
    resum(c, len);
    CHECK(strncmp(refusal(c, len), "packed facts: corrupt (", 23) == 0);
    free(c);
    ku_buf_free(&b);
    ku_buf_free(&b2);
    nest_head_free(&h);
    nest_free(&n);
    return check_summary();
}
