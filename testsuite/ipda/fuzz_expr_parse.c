/*
 * fuzz_expr_parse.c -- libFuzzer target for kx_parse.
 *
 * Any input: parse it; when it parses, print it, parse the printed form
 * again and require the second print to equal the first (the text form
 * round-trips) and the two expressions to be kx_equal.  Everything is
 * freed, so LeakSanitizer catches leaks on both the error and the success
 * paths.  Built and run by fuzz_smoke.sh (ctest ipda_fuzz_smoke).
 */
#include "expr.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    char err[128], err2[128];
    char *text = malloc(size + 1);
    if (!text)
        return 0;
    memcpy(text, data, size);
    text[size] = '\0';

    kx_expr *e = kx_parse(text, err, sizeof err);
    if (!e) {
        if (err[0] == '\0' || strchr(err, '\n')) {
            fprintf(stderr, "bad error message for input\n");
            abort();
        }
    } else {
        char *s1 = kx_print(e);
        kx_expr *e2 = s1 ? kx_parse(s1, err2, sizeof err2) : NULL;
        char *s2 = e2 ? kx_print(e2) : NULL;
        if (s1 && (!e2 || !s2 || strcmp(s1, s2) != 0 || !kx_equal(e, e2))) {
            fprintf(stderr, "round trip failed:\n  first:  %s\n  second: %s\n  error:  %s\n",
                    s1, s2 ? s2 : "(none)", e2 ? "" : err2);
            abort();
        }
        free(s1);
        free(s2);
        kx_free(e2);
        kx_free(e);
    }
    free(text);
    return 0;
}
