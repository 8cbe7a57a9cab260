/*
 * test_walker_caps.c -- the walker's one size limit is never silent
 * (issue 11 item 5): an access with more subscripts than the walker keeps
 * (8) is recorded as an access to an unknown array, the subscripts' own
 * reads are kept, and the TU carries a note that keelcc prints as a
 * warning; an access with 8 subscripts is recorded exactly.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "check.h"
#include "util.h"
#include "walker.h"

static char *acc(const ir_access *a)
{
    static char buf[4][256];
    static int k;
    k = (k + 1) % 4;
    ku_buf b = {0};
    ku_buf_printf(&b, "%c %s", a->is_write ? 'W' : 'R', a->array);
    for (int d = 0; d < a->ndims; d++) {
        char *t = a->index[d] ? kx_print(a->index[d]) : NULL;
        ku_buf_printf(&b, "[%s]", t ? t : "(null)");
        free(t);
    }
    snprintf(buf[k], sizeof buf[k], "%s", b.s ? b.s : "(oom)");
    ku_buf_free(&b);
    return buf[k];
}

int main(void)
{
    char dir[KU_TMP_PATH], path[KU_TMP_PATH + 16], err[512];
    if (ku_mkdtemp(dir, sizeof dir, "keel-walker-caps-") != 0)
        return 1;
    snprintf(path, sizeof path, "%s/deep.c", dir);
    const char *src =
        "double A8[2][2][2][2][2][2][2][2];\n"
        "double A10[2][2][2][2][2][2][2][2][2][2];\n"
        "void f(int n, double *B, int *C) {\n"
        "  for (int i = 0; i < n; i++)\n"
        "    B[i] = A10[C[i]][0][0][0][0][0][0][0][0][1] + A8[i][0][0][0][0][0][0][1];\n"
        "}\n";
    CHECK_INT(ku_write_file(path, src, strlen(src)), 0);
    ir_tu *tu = NULL;
    CHECK_INT(walk_file(path, 0, NULL, &tu, err, sizeof err), 0);
    CHECK(tu != NULL);
    if (tu) {
        CHECK_INT(tu->nnotes, 1);
        if (tu->nnotes == 1)
            CHECK_STR(tu->notes[0], "line 5: an access with more than 8 subscripts is "
                                    "recorded as an access to an unknown array");
        CHECK_INT(tu->nloops, 1);
        ir_stmt *s = tu->nloops == 1 && tu->loops[0].nstmts == 1 ? &tu->loops[0].stmts[0]
                                                                    : NULL;
        CHECK(s != NULL);
        if (s) {
            CHECK_INT(s->nacc, 4);
            char all[1024] = "";
            for (int a = 0; a < s->nacc; a++)
                snprintf(all + strlen(all), sizeof all - strlen(all), "%s%s", a ? "; " : "",
                         acc(&s->acc[a]));
            CHECK_STR(all, "W B[i]; R ?[?\"A10[C[i]][0][0][0][0][0][0][0][0][1]\"]; R C[i]; "
                           "R A8[i][0][0][0][0][0][0][1]");
        }
    }
    ir_tu_free(tu);
    unlink(path);
    rmdir(dir);
    return check_summary();
}
