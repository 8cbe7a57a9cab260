/*
 * test_linkobj.c -- keelcc's link object written without a compiler run
 * (plugin/linkobj.c): the object's exact layout, a program linked with it
 * reading each array as the C initialiser would have given it (and the
 * same program linked with the compiled C text printing the same), and
 * the real linker's name kept per compiler.
 */
#define _XOPEN_SOURCE 700
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <dirent.h>
#include <sys/stat.h>
#include <unistd.h>

#include "check.h"
#include "linkobj.h"
#include "util.h"

static char dir[512];

/* Run argv, stdout into out (NULL: /dev/null); its exit status. */
static int run(char **argv, const char *out)
{
    ku_io io = { .in = "/dev/null", .out = out ? out : "/dev/null", .err = NULL, .err_fd = -1 };
    pid_t pid;
    if (ku_spawn(argv, &io, &pid) != 0)
        return -1;
    return ku_wait(pid);
}

static const unsigned char facts[] = { 'K', 0, 1, 2, 0x7f, 0x80, 0xff, '"', '\\', '?', 0 };

/* The program: each weak array's presence, length up to the added NUL
 * (sizeof is not known through an extern), and bytes in hex. */
static const char main_c[] =
    "#include <stdio.h>\n"
    "extern const char keel_link_db[] __attribute__((weak, visibility(\"hidden\")));\n"
    "extern const unsigned char keel_link_facts[] __attribute__((weak, visibility(\"hidden\")));\n"
    "extern const unsigned char keel_link_calib[] __attribute__((weak, visibility(\"hidden\")));\n"
    "int main(void) {\n"
    "  printf(\"db=%s\\n\", keel_link_db ? keel_link_db : \"(none)\");\n"
    "  printf(\"facts=\");\n"
    "  for (int i = 0; keel_link_facts && i < 12; i++) printf(\"%02x\", keel_link_facts[i]);\n"
    "  printf(\"\\ncalib=%s\\n\", keel_link_calib ? \"present\" : \"absent\");\n"
    "  return 0;\n"
    "}\n";

static const char c_text[] =
    "__attribute__((weak, visibility(\"hidden\"))) const char keel_link_db[] = "
    "\"/tmp/x/keel.db\";\n"
    "__attribute__((weak, visibility(\"hidden\"))) const unsigned char keel_link_facts[] = "
    "\"K\\000\\001\\002\\177\\200\\377\\\"\\\\\\?\\000\";\n";

static void test_image(void)
{
    lobj_sym s[2] = { { "keel_link_db", (const unsigned char *)"/tmp/x/keel.db", 14 },
                      { "keel_link_facts", facts, sizeof facts } };
    size_t len = 0;
    int unsupported = -1;
    unsigned char *b = lobj_image(s, 2, &len, &unsupported);
#if defined(__linux__) && (defined(__x86_64__) || defined(__aarch64__))
    CHECK_INT(unsupported, 0);
    CHECK(b != NULL);
    if (!b)
        return;
    /* header 64; .rodata: 15 bytes, pad to 16, 12 bytes = 28; .strtab:
     * 1 + 13 + 16 = 30; .shstrtab 51; .symtab at 64+28+30+51 = 173 -> 176,
     * 3 symbols of 24 = 72; 6 section headers of 64 */
    CHECK_INT(len, 176 + 72 + 6 * 64);
    CHECK(memcmp(b, "\177ELF\2\1\1", 7) == 0);
    CHECK_INT(b[16], 1);                        /* ET_REL */
#if defined(__x86_64__)
    CHECK_INT(b[18] | b[19] << 8, 62);          /* EM_X86_64 */
#else
    CHECK_INT(b[18] | b[19] << 8, 183);         /* EM_AARCH64 */
#endif
    CHECK_INT(b[60], 6);                        /* sections */
    CHECK_INT(b[62], 5);                        /* .shstrtab */
    CHECK(memcmp(b + 64, "/tmp/x/keel.db", 15) == 0);   /* with its NUL */
    CHECK_INT(b[64 + 15], 0);                   /* padding */
    CHECK(memcmp(b + 64 + 16, facts, sizeof facts) == 0);
    CHECK_INT(b[64 + 16 + sizeof facts], 0);    /* the added NUL */
    CHECK(memcmp(b + 92, "\0keel_link_db\0keel_link_facts\0", 30) == 0);
    /* the second symbol: name 14, weak object, hidden, .rodata, at 16, 12 bytes */
    const unsigned char *sym = b + 176 + 2 * 24;
    CHECK_INT(sym[0], 14);
    CHECK_INT(sym[4], 0x21);
    CHECK_INT(sym[5], 2);
    CHECK_INT(sym[6], 1);
    CHECK_INT(sym[8], 16);
    CHECK_INT(sym[16], 12);
    free(b);
#else
    CHECK_INT(unsupported, 1);
    CHECK(b == NULL);
#endif
}

/* Link main_c with each object; both programs print the same, exactly. */
static void test_link(void)
{
    char mainc[600], maino[600], obj[600], csrc[600], cobj[600], prog[600], out[600];
    snprintf(mainc, sizeof mainc, "%s/main.c", dir);
    snprintf(maino, sizeof maino, "%s/main.o", dir);
    snprintf(obj, sizeof obj, "%s/link.o", dir);
    snprintf(csrc, sizeof csrc, "%s/link.c", dir);
    snprintf(cobj, sizeof cobj, "%s/clink.o", dir);
    snprintf(prog, sizeof prog, "%s/prog", dir);
    snprintf(out, sizeof out, "%s/out", dir);
    CHECK_INT(ku_write_file(mainc, main_c, strlen(main_c)), 0);
    CHECK_INT(ku_write_file(csrc, c_text, strlen(c_text)), 0);
    char *cc1[] = { "clang-19", "-c", "-o", maino, mainc, NULL };
    CHECK_INT(run(cc1, NULL), 0);
    lobj_sym s[2] = { { "keel_link_db", (const unsigned char *)"/tmp/x/keel.db", 14 },
                      { "keel_link_facts", facts, sizeof facts } };
    char err[256] = "";
    int w = lobj_write(obj, s, 2, err, sizeof err);
    if (w == 1) {
        printf("object format not written on this machine: link test skipped\n");
        return;
    }
    CHECK_INT(w, 0);
    const char *want = "db=/tmp/x/keel.db\nfacts=4b0001027f80ff225c3f0000\ncalib=absent\n";
    const char *objs[2] = { obj, cobj };
    char *cc2[] = { "clang-19", "-c", "-w", "-o", cobj, csrc, NULL };
    CHECK_INT(run(cc2, NULL), 0);
    for (int k = 0; k < 2; k++) {
        char errf[600];
        snprintf(errf, sizeof errf, "%s/link.err", dir);
        char *ld[] = { "clang-19", "-o", prog, maino, (char *)objs[k], NULL };
        ku_io io = { .in = "/dev/null", .out = "/dev/null", .err = errf, .err_fd = -1 };
        pid_t pid;
        CHECK(ku_spawn(ld, &io, &pid) == 0 && ku_wait(pid) == 0);
        char *e = ku_read_file(errf, NULL);
        CHECK_STR(e ? e : "(unreadable)", "");   /* no linker warning (executable stack) */
        free(e);
        char *runp[] = { prog, NULL };
        CHECK_INT(run(runp, out), 0);
        char *got = ku_read_file(out, NULL);
        CHECK_STR(got, want);
        free(got);
    }
    /* none of the arrays: the weak references stay NULL */
    CHECK_INT(lobj_write(obj, s, 0, err, sizeof err), 0);
    char *ld[] = { "clang-19", "-o", prog, maino, obj, NULL };
    CHECK_INT(run(ld, NULL), 0);
    char *runp[] = { prog, NULL };
    CHECK_INT(run(runp, out), 0);
    char *got = ku_read_file(out, NULL);
    CHECK_STR(got, "db=(none)\nfacts=\ncalib=absent\n");
    free(got);
}

/* The one keel-ld-* file in dir, into path; 0 or -1. */
static int kept_file(char *path, size_t n)
{
    DIR *d = opendir(dir);
    int found = 0;
    for (struct dirent *e; d && (e = readdir(d));)
        if (strncmp(e->d_name, "keel-ld-", 8) == 0 && strchr(e->d_name + 8, '-')) {
            snprintf(path, n, "%s/%s", dir, e->d_name);
            found++;
        }
    if (d)
        closedir(d);
    return found == 1 ? 0 : -1;
}

static void test_linker(void)
{
    char want[4096] = "", wantnl[4100], got[4096] = "", out[600], kept[1024];
    snprintf(out, sizeof out, "%s/pp", dir);
    char *argv[] = { "clang-19", "-print-prog-name=ld", NULL };
    CHECK_INT(run(argv, out), 0);
    char *t = ku_read_file(out, NULL);
    if (t)
        snprintf(want, sizeof want, "%.*s", (int)strcspn(t, "\n"), t);
    free(t);
    unlink(out);
    snprintf(wantnl, sizeof wantnl, "%s\n", want);
    CHECK_INT(lobj_linker("clang-19", got, sizeof got), 0);
    CHECK_STR(got, want);
    /* kept: the answer is read back, not asked again */
    CHECK_INT(kept_file(kept, sizeof kept), 0);
    char *k = ku_read_file(kept, NULL);
    CHECK_STR(k, wantnl);
    free(k);
    CHECK_INT(ku_write_file(kept, "/bin/sh\n", 8), 0);
    CHECK_INT(lobj_linker("clang-19", got, sizeof got), 0);
    CHECK_STR(got, "/bin/sh");
    /* a kept answer that names no executable: asked again, and kept anew */
    CHECK_INT(ku_write_file(kept, "ld\n", 3), 0);
    CHECK_INT(lobj_linker("clang-19", got, sizeof got), 0);
    CHECK_STR(got, want);
    k = ku_read_file(kept, NULL);
    CHECK_STR(k, wantnl);
    free(k);
    unlink(kept);
    /* another search path: another answer file */
    const char *path = getenv("PATH");
    char *saved = path ? strdup(path) : NULL;
    CHECK_INT(lobj_linker("clang-19", got, sizeof got), 0);
    CHECK_INT(kept_file(kept, sizeof kept), 0);
    char more[8192];
    snprintf(more, sizeof more, "%s:%s", saved ? saved : "/usr/bin", dir);
    setenv("PATH", more, 1);
    CHECK_INT(lobj_linker("clang-19", got, sizeof got), 0);
    CHECK_INT(kept_file(kept, sizeof kept), -1);        /* two files now */
    if (saved)
        setenv("PATH", saved, 1);
    free(saved);
    /* no such compiler: no linker */
    CHECK_INT(lobj_linker("keel-no-such-compiler", got, sizeof got), -1);
}

static void cleanup(void)
{
    DIR *d = opendir(dir);
    for (struct dirent *e; d && (e = readdir(d));) {
        char p[1024];
        if (e->d_name[0] == '.')
            continue;
        snprintf(p, sizeof p, "%s/%s", dir, e->d_name);
        unlink(p);
    }
    if (d)
        closedir(d);
    rmdir(dir);
}

int main(void)
{
    snprintf(dir, sizeof dir, "/tmp/keel-linkobj-XXXXXX");
    if (!mkdtemp(dir)) {
        perror("mkdtemp");
        return 1;
    }
    setenv("TMPDIR", dir, 1);       /* the kept linker name goes here */
    test_image();
    test_link();
    test_linker();
    cleanup();
    return check_summary();
}
