/*
 * test_json.c -- db/'s one JSON helper (db_json.h), byte for byte: the
 * document writer (nesting, every scalar type, stored lists, the first
 * failure sticking), the UTF-8 rule (each byte outside a well-formed
 * sequence becomes U+FFFD, well-formed text is unchanged), arrays of
 * strings and their text form, and the compile-database reader.
 */
#include "check.h"
#include "db_json.h"

#include <math.h>
#include <stdlib.h>

/* db_json_utf8(s) as a string: s itself when it is valid already. */
static const char *fixed(const char *s, char **keep)
{
    int oom;
    free(*keep);
    *keep = db_json_utf8(s, &oom);
    return *keep ? *keep : s;
}

static void test_utf8(void)
{
    char *k = NULL;
    int oom;
    char *none = db_json_utf8("plain ascii \t\n", &oom);
    CHECK(none == NULL);
    CHECK_INT(oom, 0);
    /* well-formed: 2, 3 and 4 byte sequences, the edges of table 3-7 */
    const char *good = "\xC2\x80 \xDF\xBF \xE0\xA0\x80 \xED\x9F\xBF \xEE\x80\x80 \xEF\xBF\xBF"
                       " \xF0\x90\x80\x80 \xF4\x8F\xBF\xBF \xC3\xA9t\xC3\xA9";
    CHECK(db_json_utf8(good, &oom) == NULL);
    /* each bad byte is one U+FFFD */
    CHECK_STR(fixed("bad\xFF\xFE.c", &k), "bad\xEF\xBF\xBD\xEF\xBF\xBD.c");
    CHECK_STR(fixed("\x80", &k), "\xEF\xBF\xBD");                       /* lone continuation */
    CHECK_STR(fixed("\xC0\xAF", &k), "\xEF\xBF\xBD\xEF\xBF\xBD");         /* overlong '/' */
    CHECK_STR(fixed("\xE0\x80\xAF", &k), "\xEF\xBF\xBD\xEF\xBF\xBD\xEF\xBF\xBD"); /* overlong */
    CHECK_STR(fixed("\xED\xA0\x80", &k), "\xEF\xBF\xBD\xEF\xBF\xBD\xEF\xBF\xBD"); /* surrogate */
    CHECK_STR(fixed("\xF4\x90\x80\x80", &k),                             /* above U+10FFFF */
              "\xEF\xBF\xBD\xEF\xBF\xBD\xEF\xBF\xBD\xEF\xBF\xBD");
    CHECK_STR(fixed("a\xE2\x82", &k), "a\xEF\xBF\xBD\xEF\xBF\xBD");       /* cut at the end */
    CHECK_STR(fixed("\xE2\x82x\xE2\x82\xAC", &k), "\xEF\xBF\xBD\xEF\xBF\xBDx\xE2\x82\xAC");
    CHECK_STR(fixed("\xF5\xC1", &k), "\xEF\xBF\xBD\xEF\xBF\xBD");
    free(k);
}

static void test_writer(void)
{
    db_json *j = db_json_new();
    const char *why = NULL;
    db_json_object(j, NULL);
    db_json_str(j, "s", "a \"q\" \\ \n\x01");
    db_json_str(j, "null", NULL);
    db_json_int(j, "i", -42);
    db_json_num(j, "x", 0.5);
    db_json_num(j, "nan", NAN);
    db_json_bool(j, "t", 1);
    db_json_bool(j, "f", 0);
    db_json_null(j, "z");
    db_json_list(j, "l", "[\"omp parallel for\",\"x\"]");
    db_json_list(j, "lt", "not json");
    db_json_list(j, "ln", NULL);
    db_json_csv(j, "c", "matmul,reduction");
    db_json_array(j, "a");
    db_json_int(j, NULL, 1);
    db_json_object(j, NULL);
    db_json_end(j);
    db_json_end(j);
    db_json_str(j, "file\xFF", "bad\xFF\xFE.c");
    db_json_list(j, "lb", "[\"\xC3\xA9\xFF\"]");
    db_json_end(j);
    CHECK_STR(db_json_doc(j, &why),
              "{\"s\":\"a \\\"q\\\" \\\\ \\n\\u0001\",\"null\":null,\"i\":-42,\"x\":0.5,"
              "\"nan\":null,\"t\":true,\"f\":false,\"z\":null,\"l\":[\"omp parallel for\",\"x\"],"
              "\"lt\":[\"not json\"],\"ln\":null,\"c\":[\"matmul\",\"reduction\"],\"a\":[1,{}],"
              "\"file\xEF\xBF\xBD\":\"bad\xEF\xBF\xBD\xEF\xBF\xBD.c\","
              "\"lb\":[\"\xC3\xA9\xEF\xBF\xBD\"]}");
    CHECK(why == NULL);
    db_json_free(j);

    /* the first failure sticks; an open container is unfinished */
    j = db_json_new();
    db_json_object(j, NULL);
    db_json_int(j, NULL, 1);
    db_json_int(j, "later", 2);
    db_json_end(j);
    CHECK(db_json_doc(j, &why) == NULL);
    CHECK_STR(why, "JSON: a member without a key");
    db_json_free(j);
    j = db_json_new();
    db_json_array(j, NULL);
    CHECK(db_json_doc(j, &why) == NULL);
    CHECK_STR(why, "JSON: unfinished document");
    db_json_free(j);
    db_json_free(NULL);
}

static void test_lists(void)
{
    char *items[] = { "-O2", "-DX=\"a b\"", "\xFF" };
    char *t = db_json_array_of(3, items);
    CHECK_STR(t, "[\"-O2\",\"-DX=\\\"a b\\\"\",\"\xFF\"]");     /* stored as it is */
    free(t);
    t = db_json_array_of(0, NULL);
    CHECK_STR(t, "[]");
    free(t);
    t = db_json_list_text("[\"omp parallel for\",\"omp simd\"]", "; ");
    CHECK_STR(t, "omp parallel for; omp simd");
    free(t);
    t = db_json_list_text("[]", ", ");
    CHECK_STR(t, "-");
    free(t);
    t = db_json_list_text(NULL, ", ");
    CHECK_STR(t, "-");
    free(t);
    t = db_json_list_text("matmul,reduction", ", ");
    CHECK_STR(t, "matmul,reduction");
    free(t);
}

typedef struct {
    int n;
    char seen[512];
} walk;

static int entry(void *ctx, const db_json_compdb_entry *e)
{
    walk *w = ctx;
    size_t at = strlen(w->seen);
    snprintf(w->seen + at, sizeof w->seen - at, "%d:%s:%s:%s:%d:", e->index,
             e->directory ? e->directory : "-", e->file ? e->file : "-",
             e->command ? e->command : "-", e->has_args);
    for (int k = 0; k < e->nargs; k++) {
        at = strlen(w->seen);
        snprintf(w->seen + at, sizeof w->seen - at, "[%s]", e->args[k] ? e->args[k] : "NULL");
    }
    at = strlen(w->seen);
    snprintf(w->seen + at, sizeof w->seen - at, ";");
    return ++w->n == 9 ? 7 : 0;
}

static void test_compdb(void)
{
    char err[256] = "";
    walk w = { 0 };
    const char *cdb = "[{\"directory\":\"/d\",\"file\":\"a.c\",\"command\":\"cc -c a.c\"},"
                      " {\"directory\":\"/e\",\"file\":\"b.c\",\"arguments\":[\"cc\",\"-c\",null,3]},"
                      " {\"file\":\"c.c\"}]";
    CHECK_INT(db_json_compdb_each(cdb, "cc.json", entry, &w, err, sizeof err), 0);
    CHECK_STR(w.seen, "0:/d:a.c:cc -c a.c:0:;1:/e:b.c:-:1:[cc][-c][NULL][3];2:-:c.c:-:0:;");
    CHECK_INT(db_json_compdb_each("{\"a\":1}", "cc.json", entry, &w, err, sizeof err), -1);
    CHECK_STR(err, "cc.json: not a compile database (want a JSON array)");
    CHECK_INT(db_json_compdb_each("[1,", "x.json", entry, &w, err, sizeof err), -1);
    CHECK_STR(err, "x.json: not a compile database (want a JSON array)");
    /* the callback's non-zero value stops the walk and is returned */
    w.n = 8;
    CHECK_INT(db_json_compdb_each(cdb, "cc.json", entry, &w, err, sizeof err), 7);
}

int main(void)
{
    test_utf8();
    test_writer();
    test_lists();
    test_compdb();
    return check_summary();
}
