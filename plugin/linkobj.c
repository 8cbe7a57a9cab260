/*
 * linkobj.c -- the link step's small objects without a compiler run, and
 * the real linker's name kept per compiler (linkobj.h).
 *
 * The object is an ELF64 little-endian relocatable with six sections:
 * the null section, .rodata (the arrays), .note.GNU-stack (empty),
 * .symtab (the null symbol, then one weak hidden object symbol per
 * array), .strtab and .shstrtab.  It has no relocations: the arrays are
 * plain bytes.
 */
#define _XOPEN_SOURCE 700
#include "linkobj.h"

#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/utsname.h>
#include <unistd.h>

#include "cache.h"
#include "ccargs.h"
#include "util.h"

/* ---- the object ---------------------------------------------------------- */

enum { EHDR = 64, SHDR = 64, SYM = 24, NSECT = 6 };
enum { EM_X86_64_ = 62, EM_AARCH64_ = 183 };

/* The machine of this build of keelcc (what a native compiler targets by
 * default), 0 when keelcc does not write its objects. */
static int host_machine(void)
{
#if defined(__linux__) && defined(__x86_64__) && !defined(__ILP32__)
    return EM_X86_64_;
#elif defined(__linux__) && defined(__aarch64__) && !defined(__ILP32__) \
    && defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
    return EM_AARCH64_;
#else
    return 0;
#endif
}

static void put16(unsigned char *p, unsigned v)
{
    p[0] = (unsigned char)v;
    p[1] = (unsigned char)(v >> 8);
}

static void put32(unsigned char *p, uint32_t v)
{
    for (int i = 0; i < 4; i++)
        p[i] = (unsigned char)(v >> (8 * i));
}

static void put64(unsigned char *p, uint64_t v)
{
    for (int i = 0; i < 8; i++)
        p[i] = (unsigned char)(v >> (8 * i));
}

static size_t align_up(size_t v, size_t a)
{
    return (v + a - 1) / a * a;
}

/* One section header at p. */
static void put_shdr(unsigned char *p, uint32_t name, uint32_t type, uint64_t flags,
                     uint64_t off, uint64_t size, uint32_t link, uint32_t info, uint64_t align,
                     uint64_t entsize)
{
    put32(p, name);
    put32(p + 4, type);
    put64(p + 8, flags);
    put64(p + 16, 0);               /* sh_addr */
    put64(p + 24, off);
    put64(p + 32, size);
    put32(p + 40, link);
    put32(p + 44, info);
    put64(p + 48, align);
    put64(p + 56, entsize);
}

static const char shstr[] = "\0.rodata\0.note.GNU-stack\0.symtab\0.strtab\0.shstrtab";
enum { N_RODATA = 1, N_NOTE = 9, N_SYMTAB = 25, N_STRTAB = 33, N_SHSTRTAB = 41 };

unsigned char *lobj_image(const lobj_sym *syms, int n, size_t *len, int *unsupported)
{
    int machine = host_machine();
    *unsupported = machine == 0;
    *len = 0;
    if (!machine || n < 0)
        return NULL;
    /* the layout: header, .rodata, .strtab, .shstrtab, .symtab, headers */
    size_t rodata = EHDR, rosize = 0;
    for (int k = 0; k < n; k++)
        rosize = align_up(rosize, 16) + syms[k].len + 1;
    size_t strtab = rodata + rosize, strsize = 1;
    for (int k = 0; k < n; k++)
        strsize += strlen(syms[k].name) + 1;
    size_t shstrtab = strtab + strsize;
    size_t symtab = align_up(shstrtab + sizeof shstr, 8), symsize = (size_t)(n + 1) * SYM;
    size_t shoff = symtab + symsize, total = shoff + NSECT * SHDR;
    unsigned char *b = calloc(1, total);
    if (!b)
        return NULL;

    memcpy(b, "\177ELF", 4);
    b[4] = 2;                       /* ELFCLASS64 */
    b[5] = 1;                       /* ELFDATA2LSB */
    b[6] = 1;                       /* EV_CURRENT */
    put16(b + 16, 1);               /* ET_REL */
    put16(b + 18, (unsigned)machine);
    put32(b + 20, 1);
    put64(b + 40, shoff);
    put16(b + 52, EHDR);
    put16(b + 58, SHDR);
    put16(b + 60, NSECT);
    put16(b + 62, NSECT - 1);       /* .shstrtab */

    size_t off = 0, name = 1;
    for (int k = 0; k < n; k++) {
        off = align_up(off, 16);
        if (syms[k].len)
            memcpy(b + rodata + off, syms[k].bytes, syms[k].len);   /* NUL: calloc's */
        size_t nl = strlen(syms[k].name) + 1;
        memcpy(b + strtab + name, syms[k].name, nl);
        unsigned char *s = b + symtab + (size_t)(k + 1) * SYM;
        put32(s, (uint32_t)name);
        s[4] = (2 << 4) | 1;        /* STB_WEAK, STT_OBJECT */
        s[5] = 2;                   /* STV_HIDDEN */
        put16(s + 6, 1);            /* .rodata */
        put64(s + 8, off);
        put64(s + 16, syms[k].len + 1);
        name += nl;
        off += syms[k].len + 1;
    }
    memcpy(b + shstrtab, shstr, sizeof shstr);

    unsigned char *h = b + shoff;   /* section 0 stays zero */
    put_shdr(h + 1 * SHDR, N_RODATA, 1, 2, rodata, rosize, 0, 0, 16, 0);   /* PROGBITS, ALLOC */
    put_shdr(h + 2 * SHDR, N_NOTE, 1, 0, strtab, 0, 0, 0, 1, 0);
    put_shdr(h + 3 * SHDR, N_SYMTAB, 2, 0, symtab, symsize, 4, 1, 8, SYM);  /* all global */
    put_shdr(h + 4 * SHDR, N_STRTAB, 3, 0, strtab, strsize, 0, 0, 1, 0);
    put_shdr(h + 5 * SHDR, N_SHSTRTAB, 3, 0, shstrtab, sizeof shstr, 0, 0, 1, 0);
    *len = total;
    return b;
}

int lobj_write(const char *path, const lobj_sym *syms, int n, char *err, size_t errlen)
{
    size_t len;
    int unsupported;
    unsigned char *b = lobj_image(syms, n, &len, &unsupported);
    if (unsupported)
        return 1;
    if (!b)
        return ku_fail(err, errlen, "out of memory");
    int rc = ku_write_file(path, (const char *)b, len);
    free(b);
    if (rc != 0)
        return ku_fail(err, errlen, "%s: %s", path, strerror(errno));
    return 0;
}

/* ---- the real linker, kept --------------------------------------------- */

/* Is text a line naming an executable by its absolute path?  Then into ld. */
static int linker_line(const char *text, char *ld, size_t n)
{
    size_t len = text ? strcspn(text, "\n") : 0;
    if (!text || len == 0 || len >= n || text[0] != '/')
        return -1;
    memcpy(ld, text, len);
    ld[len] = '\0';
    return access(ld, X_OK) == 0 ? 0 : -1;
}

int lobj_linker(const char *compiler, char *ld, size_t n)
{
    char kept[KU_TMP_PATH] = "";
    struct utsname u;
    if (uname(&u) == 0) {
        dc_hash h;
        dc_init(&h);
        dc_str(&h, "print-prog-name=ld");
        dc_program(&h, compiler);
        dc_str(&h, getenv("PATH"));
        dc_str(&h, getenv("COMPILER_PATH"));
        dc_str(&h, u.nodename);
        char hex[33];
        dc_hex(&h, hex);
        int k = snprintf(kept, sizeof kept, "%s/keel-ld-%u-%s", ku_tmpdir(), (unsigned)getuid(),
                         hex);
        if (k <= 0 || (size_t)k >= sizeof kept)
            kept[0] = '\0';
    }
    struct stat st;
    if (kept[0] && lstat(kept, &st) == 0 && S_ISREG(st.st_mode) && st.st_uid == getuid()) {
        char *t = ku_read_file(kept, NULL);
        int rc = linker_line(t, ld, n);
        free(t);
        if (rc == 0)
            return 0;
    }
    char out[KU_TMP_PATH];
    int fd = ku_mkstemp(out, sizeof out, NULL, "keel-ld-", "");
    if (fd < 0)
        return -1;
    close(fd);
    char *argv[] = { (char *)compiler, "-print-prog-name=ld", NULL };
    ku_io io = { .out = out, .err = "/dev/null", .err_fd = -1 };
    pid_t pid;
    int rc = -1;
    if (ku_spawn(argv, &io, &pid) == 0 && ku_wait(pid) == 0) {
        char *text = ku_read_file(out, NULL);
        rc = linker_line(text, ld, n);
        free(text);
        /* atomic: a reader sees the whole answer or none */
        if (rc == 0 && kept[0] && rename(out, kept) == 0)
            return 0;
    }
    unlink(out);
    return rc;
}
