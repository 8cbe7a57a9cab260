/*
 * json.c -- the keel tool's JSON (keel.h): every --json document is built
 * by db/'s one JSON helper (db_json.h), which writes it through SQLite's
 * JSON functions, so it is valid JSON (and UTF-8: bytes of a stored path
 * that are not UTF-8 become U+FFFD) whatever the database holds.  This
 * file only names it for the commands and prints the finished document.
 */
#include "keel.h"

#include "db_json.h"

keel_json *keel_json_new(void) { return db_json_new(); }
void keel_json_free(keel_json *j) { db_json_free(j); }
void keel_json_object(keel_json *j, const char *key) { db_json_object(j, key); }
void keel_json_array(keel_json *j, const char *key) { db_json_array(j, key); }
void keel_json_end(keel_json *j) { db_json_end(j); }
void keel_json_str(keel_json *j, const char *key, const char *s) { db_json_str(j, key, s); }
void keel_json_int(keel_json *j, const char *key, long long v) { db_json_int(j, key, v); }
void keel_json_num(keel_json *j, const char *key, double v) { db_json_num(j, key, v); }
void keel_json_bool(keel_json *j, const char *key, int v) { db_json_bool(j, key, v); }
void keel_json_null(keel_json *j, const char *key) { db_json_null(j, key); }
void keel_json_list(keel_json *j, const char *key, const char *text) { db_json_list(j, key, text); }
void keel_json_csv(keel_json *j, const char *key, const char *text) { db_json_csv(j, key, text); }

int keel_json_print(keel_json *j, FILE *out)
{
    if (!j)
        return keel_say(KEEL_EXIT_DB, "out of memory");
    const char *why, *doc = db_json_doc(j, &why);
    if (!doc)
        return keel_say(KEEL_EXIT_DB, "%s", why);
    fputs(doc, out);
    fputc('\n', out);
    return 0;
}

char *keel_list_text(const char *text, const char *sep)
{
    return db_json_list_text(text, sep);
}
