/*
 * common.c -- what every command of the keel tool parses and prints the
 * same way (keel.h): the "keel: ..." message printer (one line, control
 * bytes of stored names escaped, as in all text output), the option parser
 * (getopt_long per command, with --help/-h added to every command), the
 * one strict number parser, the one FILE:LINE[:COL] parser and the
 * SYM=INT,... list of --set.
 */
#include "keel.h"

#include <errno.h>
#include <limits.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

int keel_say(int code, const char *fmt, ...)
{
    char line[2048];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(line, sizeof line, fmt, ap);
    va_end(ap);
    ku_msg("keel", NULL, "%s", keel_printable(line));   /* one line, whatever the names hold */
    return code;
}

/* A stored name as text output shows it: each control byte (below 0x20,
 * and 0x7f) written as \n, \t or \xHH, so that a file name cannot move
 * the terminal's cursor, colour its text or break a table's row.  The
 * result lives in one of four static buffers (a name longer than 4 KiB is
 * cut), enough for the names of one printed line. */
const char *keel_printable(const char *s)
{
    static char bufs[4][4096];
    static int next;
    if (!s)
        return s;
    const char *p = s;
    while (*p && (unsigned char)*p >= 0x20 && *p != 0x7f)
        p++;
    if (!*p)
        return s;   /* nothing to escape: the name itself */
    char *b = bufs[next];
    next = (next + 1) % 4;
    size_t k = 0, cap = sizeof bufs[0];
    for (p = s; *p && k + 5 < cap; p++) {
        unsigned char c = (unsigned char)*p;
        if (c == '\n')
            b[k++] = '\\', b[k++] = 'n';
        else if (c == '\t')
            b[k++] = '\\', b[k++] = 't';
        else if (c < 0x20 || c == 0x7f)
            k += (size_t)snprintf(b + k, cap - k, "\\x%02x", c);
        else
            b[k++] = (char)c;
    }
    b[k] = '\0';
    return b;
}

int keel_fmtn(char *buf, size_t n, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    int k = vsnprintf(buf, n, fmt, ap);
    va_end(ap);
    return k;
}

const char *keel_default_db(void)
{
    const char *e = getenv("KEEL_DB");
    return e && *e ? e : "keel.db";
}

/* ---- options ------------------------------------------------------------ */

/* The option as the user wrote it, for messages: "--name" (without any
 * "=value") or "-c". */
static void opt_text(const keel_opts *o, char *b, size_t n)
{
    const char *a = optind > 0 && optind <= o->argc ? o->argv[optind - 1] : "";
    if (strncmp(a, "--", 2) == 0) {
        size_t k = strcspn(a, "=");
        keel_fmtn(b, n, "%.*s", (int)k, a);
    } else if (optopt > 0 && optopt < 128)
        keel_fmtn(b, n, "-%c", optopt);
    else
        keel_fmtn(b, n, "%s", a);
}

int keel_opt_next(keel_opts *o)
{
    int n = 0;
    while (o->longs && o->longs[n].name)
        n++;
    struct option *longs = malloc(sizeof *longs * (size_t)(n + 2));
    ku_buf sb = { 0 };
    /* ':' first: a missing value is ':', not '?' */
    ku_buf_printf(&sb, ":h%s", o->shorts ? o->shorts : "");
    char *shorts = ku_buf_take(&sb);
    if (!longs || !shorts) {
        free(longs);
        free(shorts);
        keel_say(1, "out of memory");
        return KEEL_OPT_BAD;
    }
    if (n)
        memcpy(longs, o->longs, sizeof *longs * (size_t)n);
    longs[n++] = (struct option){ "help", no_argument, NULL, 'h' };
    longs[n] = (struct option){ 0 };
    if (!o->started) {
        o->started = 1;
        optind = 0;          /* glibc: start over, whatever parsed before */
    }
    opterr = 0;
    optopt = 0;
    int c = getopt_long(o->argc, o->argv, shorts, longs, NULL), r = c;
    char b[128];
    switch (c) {
    case -1:
        r = KEEL_OPT_END;
        break;
    case 'h':
        keel_help(o->help_cmd ? o->help_cmd : o->cmd);
        r = KEEL_OPT_HELP;
        break;
    case ':':
        opt_text(o, b, sizeof b);
        keel_say(KEEL_EXIT_USAGE, "%s needs a value", b);
        r = KEEL_OPT_BAD;
        break;
    case '?': {
        opt_text(o, b, sizeof b);
        int known = 0;      /* --json=1: a known option given a value */
        for (int i = 0; i < n && !known; i++)
            known = b[0] == '-' && b[1] == '-' && strcmp(b + 2, longs[i].name) == 0 &&
                    longs[i].has_arg == no_argument;
        if (known)
            keel_say(KEEL_EXIT_USAGE, "%s takes no value", b);
        else
            keel_say(KEEL_EXIT_USAGE, "unknown option '%s' for %s (see keel %s --help)", b,
                     o->cmd, o->help_cmd ? o->help_cmd : o->cmd);
        r = KEEL_OPT_BAD;
        break;
    }
    default:
        o->arg = optarg;
    }
    free(longs);
    free(shorts);
    return r;
}

int keel_getopts(const char *cmd, const char *help_cmd, const keel_opt *opts, int argc,
                 char **argv, int maxpos, char ***pos, int *npos)
{
    int n = 0;
    while (opts[n].name || opts[n].letter)
        n++;
    /* getopt's tables: long options return 256 + their row, short ones
     * their letter */
    struct option *longs = calloc((size_t)n + 1, sizeof *longs);
    ku_buf sb = { 0 };
    ku_buf_put(&sb, "");
    for (int i = 0; longs && i < n; i++) {
        int k = opts[i].kind;
        int arg = k == KEEL_FLAG || k == KEEL_CLEAR || k == KEEL_ACT ? no_argument
                                                                     : required_argument;
        if (opts[i].name)
            longs[i] = (struct option){ opts[i].name, arg, NULL, 256 + i };
        if (opts[i].letter)
            ku_buf_printf(&sb, "%c%s", opts[i].letter, arg == required_argument ? ":" : "");
    }
    char *shorts = ku_buf_take(&sb);
    if (!longs || !shorts) {
        free(longs);
        free(shorts);
        return keel_say(1, "out of memory");
    }
    /* rows with no long name are left out of the long table */
    int nl = 0;
    for (int i = 0; i < n; i++)
        if (longs[i].name)
            longs[nl++] = longs[i];
    longs[nl] = (struct option){ 0 };
    keel_opts o = { .cmd = cmd, .help_cmd = help_cmd, .shorts = shorts, .longs = longs,
                    .argc = argc, .argv = argv };
    int c = KEEL_OPT_END, r = -1;
    while (r < 0 && (c = keel_opt_next(&o)) >= 0) {
        int i = c >= 256 ? c - 256 : -1;
        for (int k = 0; k < n && i < 0; k++)
            if (opts[k].letter == c)
                i = k;
        if (i < 0 || i >= n)
            continue;
        const keel_opt *p = &opts[i];
        char name[64];
        if (p->name)
            keel_fmtn(name, sizeof name, "--%s", p->name);
        else
            keel_fmtn(name, sizeof name, "-%c", p->letter);
        switch (p->kind) {
        case KEEL_FLAG: *(int *)p->dest = 1; break;
        case KEEL_CLEAR: *(int *)p->dest = 0; break;
        case KEEL_TEXT: *(const char **)p->dest = o.arg; break;
        case KEEL_INT:
            if (keel_opt_int(name, o.arg, p->lo, p->hi, p->dest))
                r = KEEL_EXIT_USAGE;
            break;
        case KEEL_CALL:
        case KEEL_ACT:
            if ((c = p->call(p->dest, p->kind == KEEL_CALL ? o.arg : NULL)) != 0)
                r = c;
            break;
        }
    }
    if (r < 0 && c != KEEL_OPT_END)
        r = c == KEEL_OPT_HELP ? 0 : KEEL_EXIT_USAGE;
    if (r < 0) {
        *pos = keel_opt_rest(&o, npos);
        if (maxpos >= 0 && *npos > maxpos)
            r = keel_say(KEEL_EXIT_USAGE, "too many arguments for %s (see keel %s --help)", cmd,
                         help_cmd ? help_cmd : cmd);
    }
    free(longs);
    free(shorts);
    return r;
}

char **keel_opt_rest(keel_opts *o, int *n)
{
    int i = optind < 1 ? 1 : optind;
    if (i > o->argc)
        i = o->argc;
    *n = o->argc - i;
    return o->argv + i;
}

/* ---- numbers ------------------------------------------------------------ */

int keel_parse_ll(const char *s, long long lo, long long hi, long long *out)
{
    const char *p = s;
    if (!s)
        return -1;
    if (*p == '-')
        p++;
    if (*p < '0' || *p > '9')
        return -1;
    for (const char *q = p; *q; q++)
        if (*q < '0' || *q > '9')
            return -1;
    char *end;
    errno = 0;
    long long v = strtoll(s, &end, 10);
    if (*end || errno == ERANGE || v < lo || v > hi)
        return -1;
    *out = v;
    return 0;
}

int keel_opt_int(const char *opt, const char *s, int lo, int hi, int *out)
{
    long long v;
    if (keel_parse_ll(s, lo, hi, &v))
        return keel_say(KEEL_EXIT_USAGE, "bad %s '%s' (want %d to %d)", opt, s, lo, hi);
    *out = (int)v;
    return 0;
}

/* ---- FILE:LINE[:COL] ---------------------------------------------------- */

int keel_parse_site(const char *arg, char **file, int *line, int *col)
{
    return keel_site(arg, file, line, col, 1);
}

int keel_site(const char *arg, char **file, int *line, int *col, int say)
{
    long long v[2];
    int n = 0;
    size_t len = strlen(arg);
    *line = *col = 0;
    *file = NULL;
    /* numbers from the end: LINE, or COL then LINE */
    while (n < 2) {
        const char *p = arg + len, *q = p;
        while (q > arg && q[-1] >= '0' && q[-1] <= '9')
            q--;
        if (q == p || q == arg || q[-1] != ':' || p - q > 9)
            break;
        char digits[10];
        keel_fmtn(digits, sizeof digits, "%.*s", (int)(p - q), q);
        if (keel_parse_ll(digits, 1, INT_MAX, &v[n]))
            goto bad;
        n++;
        len = (size_t)(q - 1 - arg);
    }
    const char *f = arg;
    while (len > 2 && f[0] == '.' && f[1] == '/')
        f += 2, len -= 2;
    if (n == 0 || len == 0)
        goto bad;
    /* FILE:LINE:COL, or FILE:LINE where FILE itself ends in ":digits" is
     * read as FILE:LINE:COL too -- a path with such a name needs ./ */
    *line = (int)v[n - 1];
    *col = n == 2 ? (int)v[0] : 0;
    if (!(*file = strndup(f, len)))
        return keel_say(KEEL_EXIT_DB, "out of memory"), -1;
    return 0;
bad:
    if (say)
        keel_say(KEEL_EXIT_USAGE, "bad location '%s' (want FILE:LINE or FILE:LINE:COL)", arg);
    return -1;
}

int keel_parse_set(const char *s, char ***names, long long **values, int *n)
{
    char *copy = strdup(s);
    if (!copy)
        return -1;
    int rc = 0;
    /* items split by hand: strtok_r would skip an empty item ("n=1,,m=2") */
    for (char *tok = copy, *next; tok && !rc; tok = next) {
        next = strchr(tok, ',');
        if (next)
            *next++ = '\0';
        char *eq = strchr(tok, '=');
        long long v;
        if (!eq || eq == tok) {
            rc = -1;
            break;
        }
        *eq = 0;
        if (keel_parse_ll(eq + 1, LLONG_MIN, LLONG_MAX, &v)) {  /* no silent INT64_MAX */
            rc = -1;
            break;
        }
        int nn = *n;
        char *name = strdup(tok), **slot = name ? ku_push(names, &nn, sizeof **names) : NULL;
        long long *vv = slot ? ku_push(values, n, sizeof **values) : NULL;
        if (!vv) {
            free(name);
            rc = -1;
        } else {
            *slot = name;
            *vv = v;
        }
    }
    free(copy);
    return rc;
}
