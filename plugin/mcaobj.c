/*
 * mcaobj.c -- the assembly of the user's own object for the llvm-mca stage
 * (mcaobj.h): relocate and read the object's DWARF line table, read
 * llvm-objdump's disassembly, find each function's blocks and natural
 * loops, and write them out as clang's verbose assembly.
 *
 * Three phases, each over the whole object: elf_read (sections, symbols,
 * .debug_line with its relocations applied), lines_read (the line
 * program's rows, each an address in one section), dis_read (instructions
 * per section, functions from the symbol lines, relocations from -r's
 * lines); then per function: blocks, dominators (Cooper, Harvey and
 * Kennedy's iterative algorithm over reverse post-order), natural loops,
 * and the text.
 */
#include "mcaobj.h"

#include <ctype.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "util.h"

/* ---- the object --------------------------------------------------------- */

typedef struct {
    char name[128];
    uint32_t type;
    uint64_t flags, offset, size;
    uint32_t link, info;
    uint64_t entsize;
} section;

typedef struct {
    const unsigned char *b;
    size_t len;
    section *s;
    int ns;
    int line, line_str, str, symtab, rela_line;   /* section indices, -1 none */
    unsigned char *dl;        /* .debug_line, relocated (malloc'd) */
    int *dl_sec;              /* per byte offset of an 8-byte relocation: the
                               * symbol's section, else -1 (malloc'd) */
} elf;

static uint64_t rd(const unsigned char *p, int n)
{
    uint64_t v = 0;
    for (int k = n - 1; k >= 0; k--)
        v = v << 8 | p[k];
    return v;
}

static void elf_free(elf *e)
{
    free(e->s);
    free(e->dl);
    free(e->dl_sec);
}

static int elf_read(elf *e, const unsigned char *b, size_t len, char *err, size_t errlen)
{
    memset(e, 0, sizeof *e);
    e->b = b;
    e->len = len;
    e->line = e->line_str = e->str = e->symtab = e->rela_line = -1;
    if (len < 64 || memcmp(b, "\177ELF", 4) != 0 || b[4] != 2 || b[5] != 1)
        return ku_fail(err, errlen, "not a 64-bit little-endian ELF object");
    if (rd(b + 16, 2) != 1 || rd(b + 18, 2) != 62)
        return ku_fail(err, errlen, "not an x86-64 relocatable object");
    uint64_t shoff = rd(b + 0x28, 8);
    unsigned shentsize = (unsigned)rd(b + 0x3a, 2), shnum = (unsigned)rd(b + 0x3c, 2),
             shstrndx = (unsigned)rd(b + 0x3e, 2);
    if (shentsize != 64 || shnum == 0 || shstrndx >= shnum || shoff > len
        || (uint64_t)shnum * 64 > len - shoff)
        return ku_fail(err, errlen, "unreadable section headers");
    if (!(e->s = calloc(shnum, sizeof *e->s)))
        return ku_fail(err, errlen, "out of memory");
    e->ns = (int)shnum;
    for (unsigned i = 0; i < shnum; i++) {
        const unsigned char *h = b + shoff + 64 * i;
        section *s = &e->s[i];
        s->type = (uint32_t)rd(h + 4, 4);
        s->flags = rd(h + 8, 8);
        s->offset = rd(h + 24, 8);
        s->size = rd(h + 32, 8);
        s->link = (uint32_t)rd(h + 40, 4);
        s->info = (uint32_t)rd(h + 44, 4);
        s->entsize = rd(h + 56, 8);
        if (s->type != 8 /* NOBITS */ && (s->offset > len || s->size > len - s->offset))
            return ku_fail(err, errlen, "a section lies outside the file");
    }
    const section *ss = &e->s[shstrndx];
    for (int i = 0; i < e->ns; i++) {
        uint32_t off = (uint32_t)rd(b + shoff + 64 * i, 4);
        if (off >= ss->size)
            return ku_fail(err, errlen, "unreadable section name");
        snprintf(e->s[i].name, sizeof e->s[i].name, "%.*s", (int)(ss->size - off),
                 (const char *)b + ss->offset + off);
    }
    for (int i = 0; i < e->ns; i++) {
        const char *n = e->s[i].name;
        if (strcmp(n, ".debug_line") == 0)
            e->line = i;
        else if (strcmp(n, ".debug_line_str") == 0)
            e->line_str = i;
        else if (strcmp(n, ".debug_str") == 0)
            e->str = i;
        else if (e->s[i].type == 2)
            e->symtab = i;
        if (strncmp(n, ".debug", 6) == 0 && (e->s[i].flags & 0x800))   /* SHF_COMPRESSED */
            return ku_fail(err, errlen, "compressed debug sections");
        if (strncmp(n, ".zdebug", 7) == 0)
            return ku_fail(err, errlen, "compressed debug sections");
    }
    if (e->line < 0)
        return ku_fail(err, errlen, "no line table (.debug_line)");
    for (int i = 0; i < e->ns; i++)
        if (e->s[i].type == 4 && (int)e->s[i].info == e->line)
            e->rela_line = i;
        else if (e->s[i].type == 9 && (int)e->s[i].info == e->line)
            return ku_fail(err, errlen, "REL relocations in the line table");
    /* .debug_line with its relocations applied: addresses become offsets
     * in their section (remembered per offset), string offsets final. */
    const section *L = &e->s[e->line];
    e->dl = malloc(L->size + 1);
    e->dl_sec = malloc(sizeof *e->dl_sec * (L->size + 1));
    if (!e->dl || !e->dl_sec)
        return ku_fail(err, errlen, "out of memory");
    memcpy(e->dl, b + L->offset, L->size);
    for (uint64_t k = 0; k <= L->size; k++)
        e->dl_sec[k] = -1;
    if (e->rela_line >= 0) {
        const section *R = &e->s[e->rela_line];
        if (e->symtab < 0 || (int)R->link != e->symtab || R->entsize != 24)
            return ku_fail(err, errlen, "unreadable line-table relocations");
        const section *S = &e->s[e->symtab];
        for (uint64_t r = 0; r + 24 <= R->size; r += 24) {
            const unsigned char *p = b + R->offset + r;
            uint64_t off = rd(p, 8), info = rd(p + 8, 8);
            int64_t add = (int64_t)rd(p + 16, 8);
            uint32_t sym = (uint32_t)(info >> 32), type = (uint32_t)info;
            if ((uint64_t)sym * 24 + 24 > S->size)
                return ku_fail(err, errlen, "a relocation names no symbol");
            const unsigned char *sy = b + S->offset + (uint64_t)sym * 24;
            uint64_t v = rd(sy + 8, 8) + (uint64_t)add;
            int shndx = (int)rd(sy + 6, 2);
            if (type == 1 && off + 8 <= L->size) {            /* R_X86_64_64 */
                for (int k = 0; k < 8; k++)
                    e->dl[off + k] = (unsigned char)(v >> (8 * k));
                e->dl_sec[off] = shndx;
            } else if (type == 10 && off + 4 <= L->size) {    /* R_X86_64_32 */
                for (int k = 0; k < 4; k++)
                    e->dl[off + k] = (unsigned char)(v >> (8 * k));
            } else {
                return ku_fail(err, errlen, "a line-table relocation of an unknown kind");
            }
        }
    }
    return 0;
}

/* ---- the line table ------------------------------------------------------ */

typedef struct {
    int sec;
    uint64_t addr;
    int file, line, col;
    int seq;
} row;

typedef struct {
    row *r;
    int nr;
    char **dir;
    int ndir;
    char **file;          /* per file index: "dir" "name" as .file writes it */
    int nfile;
} lines;

static void lines_free(lines *l)
{
    free(l->r);
    for (int i = 0; i < l->ndir; i++)
        free(l->dir[i]);
    free(l->dir);
    for (int i = 0; i < l->nfile; i++)
        free(l->file[i]);
    free(l->file);
}

typedef struct {
    const unsigned char *p, *end;
    int bad;
} cur;

static uint64_t u8(cur *c) { if (c->p + 1 > c->end) { c->bad = 1; return 0; } return *c->p++; }
static uint64_t un(cur *c, int n)
{
    if (c->end - c->p < n) {
        c->bad = 1;
        c->p = c->end;
        return 0;
    }
    uint64_t v = rd(c->p, n);
    c->p += n;
    return v;
}
static uint64_t uleb(cur *c)
{
    uint64_t v = 0;
    int sh = 0;
    for (;;) {
        uint64_t b = u8(c);
        if (c->bad)
            return 0;
        if (sh < 64)
            v |= (b & 0x7f) << sh;
        sh += 7;
        if (!(b & 0x80))
            return v;
    }
}
static int64_t sleb(cur *c)
{
    int64_t v = 0;
    int sh = 0;
    uint64_t b;
    do {
        b = u8(c);
        if (c->bad)
            return 0;
        if (sh < 64)
            v |= (int64_t)((b & 0x7f) << sh);
        sh += 7;
    } while (b & 0x80);
    if (sh < 64 && (b & 0x40))
        v |= -((int64_t)1 << sh);
    return v;
}

/* A string of section `sec` at offset off (NULL when out of range). */
static const char *sec_str(const elf *e, int sec, uint64_t off)
{
    if (sec < 0 || off >= e->s[sec].size)
        return NULL;
    const char *s = (const char *)e->b + e->s[sec].offset + off;
    return memchr(s, '\0', e->s[sec].size - off) ? s : NULL;
}

/* One entry's form value: a string (path) into *str, a number into *num. */
static int form_value(const elf *e, cur *c, uint64_t form, const char **str, uint64_t *num)
{
    *str = NULL;
    *num = 0;
    switch (form) {
    case 0x08: {        /* DW_FORM_string */
        const unsigned char *z = memchr(c->p, '\0', (size_t)(c->end - c->p));
        if (!z)
            return -1;
        *str = (const char *)c->p;
        c->p = z + 1;
        return 0;
    }
    case 0x1f: *str = sec_str(e, e->line_str, un(c, 4)); return *str ? 0 : -1;
    case 0x0e: *str = sec_str(e, e->str, un(c, 4)); return *str ? 0 : -1;
    case 0x0f: *num = uleb(c); return 0;
    case 0x0b: *num = un(c, 1); return 0;
    case 0x05: *num = un(c, 2); return 0;
    case 0x06: *num = un(c, 4); return 0;
    case 0x07: *num = un(c, 8); return 0;
    case 0x1e: un(c, 8); un(c, 8); return 0;
    case 0x09: {
        uint64_t n = uleb(c);
        if ((uint64_t)(c->end - c->p) < n)
            return -1;
        c->p += n;
        return 0;
    }
    default: return -1;
    }
}

/* The assembler's quoted form of s (", \ and bytes outside printable ASCII
 * as octal escapes), appended to b. */
static void put_quoted(ku_buf *b, const char *s)
{
    ku_buf_putc(b, '"');
    for (const unsigned char *p = (const unsigned char *)s; *p; p++)
        if (*p == '"' || *p == '\\' || *p < 0x20 || *p >= 0x7f)
            ku_buf_printf(b, "\\%03o", *p);
        else
            ku_buf_putc(b, (char)*p);
    ku_buf_putc(b, '"');
}

static int add_file(lines *l, const char *dir, const char *name)
{
    ku_buf b = { 0 };
    if (dir && name[0] != '/') {
        put_quoted(&b, dir);
        ku_buf_putc(&b, ' ');
    }
    put_quoted(&b, name);
    char **slot = ku_push(&l->file, &l->nfile, sizeof *slot);
    if (!slot || b.oom) {
        ku_buf_free(&b);
        return -1;
    }
    *slot = ku_buf_take(&b);
    return 0;
}

static int row_cmp(const void *x, const void *y);

/* A DWARF 5 line table's directory and file tables, at c. */
static int lines_files_v5(const elf *e, cur *c0, lines *l, char *err, size_t errlen)
{
    cur c = *c0;
    for (int pass = 0; pass < 2 && !c.bad; pass++) {
        int nfmt = (int)un(&c, 1);
        uint64_t fmt[16][2];
        if (nfmt > 16)
            return ku_fail(err, errlen, "unusual line-table entry format");
        for (int k = 0; k < nfmt; k++)
            fmt[k][0] = uleb(&c), fmt[k][1] = uleb(&c);
        uint64_t count = uleb(&c);
        for (uint64_t i = 0; i < count && !c.bad; i++) {
            const char *path = NULL;
            uint64_t dir = 0;
            for (int k = 0; k < nfmt; k++) {
                const char *s;
                uint64_t v;
                if (form_value(e, &c, fmt[k][1], &s, &v) != 0)
                    return ku_fail(err, errlen, "unreadable line-table file entry");
                if (fmt[k][0] == 1)
                    path = s;
                else if (fmt[k][0] == 2)
                    dir = v;
            }
            if (!path)
                return ku_fail(err, errlen, "a line-table entry without a path");
            if (pass == 0) {
                char **slot = ku_push(&l->dir, &l->ndir, sizeof *slot);
                if (!slot || !(*slot = strdup(path)))
                    return ku_fail(err, errlen, "out of memory");
            } else if (add_file(l, dir < (uint64_t)l->ndir ? l->dir[dir] : NULL, path)) {
                return ku_fail(err, errlen, "out of memory");
            }
        }
    }
    *c0 = c;
    return 0;
}

/* A DWARF 4 line table's include directories and file names, at c. */
static int lines_files_v4(const elf *e, cur *c0, lines *l, char *err, size_t errlen)
{
    cur c = *c0;
    /* DWARF 4: directories 1.., files 1..; 0 is the compilation folder,
     * which only the unit's DW_AT_comp_dir names: relative there. */
    while (!c.bad && c.p < c.end && *c.p) {
        const char *s;
        uint64_t v;
        form_value(e, &c, 0x08, &s, &v);
        char **slot = ku_push(&l->dir, &l->ndir, sizeof *slot);
        if (!slot || !(*slot = strdup(s)))
            return ku_fail(err, errlen, "out of memory");
    }
    u8(&c);
    if (add_file(l, NULL, "") != 0)   /* index 0: none */
        return ku_fail(err, errlen, "out of memory");
    while (!c.bad && c.p < c.end && *c.p) {
        const char *s;
        uint64_t v;
        form_value(e, &c, 0x08, &s, &v);
        uint64_t dir = uleb(&c);
        uleb(&c);
        uleb(&c);
        if (add_file(l, dir >= 1 && dir <= (uint64_t)l->ndir ? l->dir[dir - 1] : NULL, s))
            return ku_fail(err, errlen, "out of memory");
    }
    u8(&c);
    *c0 = c;
    return 0;
}

/* The line-table header's figures the program reads. */
typedef struct {
    int min_inst, line_base, line_range, opcode_base;
    unsigned char oplen[256];   /* operands of each standard opcode */
} lhdr;

/* Run the line program at c (to c.end), adding a row per emitted line. */
static int lines_program(const elf *e, cur c, const lhdr *h, lines *l, char *err,
                         size_t errlen)
{
    int sec = -1, file = 1, line = 1, col = 0;
    uint64_t addr = 0;
    while (c.p < c.end && !c.bad) {
        int op = (int)u8(&c), emit = 0;
        if (op >= h->opcode_base) {
            int adj = op - h->opcode_base;
            addr += (uint64_t)((adj / h->line_range) * h->min_inst);
            line += h->line_base + adj % h->line_range;
            emit = 1;
        } else if (op == 0) {
            uint64_t n = uleb(&c);
            const unsigned char *next = c.p + n;
            if (n == 0 || n > (uint64_t)(c.end - c.p))
                return ku_fail(err, errlen, "unreadable line program");
            int sub = (int)u8(&c);
            if (sub == 1) {             /* end_sequence */
                sec = -1, file = 1, line = 1, col = 0, addr = 0;
            } else if (sub == 2) {      /* set_address: relocated, its section kept */
                size_t off = (size_t)(c.p - e->dl);
                if (n != 9)
                    return ku_fail(err, errlen, "unusual set_address");
                sec = e->dl_sec[off];
                addr = un(&c, 8);
                if (sec <= 0 || sec >= e->ns)
                    return ku_fail(err, errlen, "a line-table address in no section");
            }
            c.p = next;
        } else {
            switch (op) {
            case 1: emit = 1; break;
            case 2: addr += uleb(&c) * (uint64_t)h->min_inst; break;
            case 3: line += (int)sleb(&c); break;
            case 4: file = (int)uleb(&c); break;
            case 5: col = (int)uleb(&c); break;
            case 8:
                addr += (uint64_t)(((255 - h->opcode_base) / h->line_range) * h->min_inst);
                break;
            case 9: addr += un(&c, 2); break;
            default:
                for (int k = 0; k < h->oplen[op]; k++)
                    uleb(&c);
            }
        }
        if (emit) {
            if (sec < 0)
                return ku_fail(err, errlen, "a line-table row without an address");
            row *r = ku_push(&l->r, &l->nr, sizeof *r);
            if (!r)
                return ku_fail(err, errlen, "out of memory");
            r->sec = sec, r->addr = addr, r->file = file, r->line = line, r->col = col;
            r->seq = l->nr;
        }
    }
    if (c.bad)
        return ku_fail(err, errlen, "unreadable line program");
    return 0;
}


static int lines_read(const elf *e, lines *l, char *err, size_t errlen)
{
    memset(l, 0, sizeof *l);
    const section *L = &e->s[e->line];
    cur c = { e->dl, e->dl + L->size, 0 };
    uint64_t unit_len = un(&c, 4);
    if (c.bad || unit_len == 0xffffffffu || unit_len > (uint64_t)(c.end - c.p))
        return ku_fail(err, errlen, "unreadable line table");
    const unsigned char *unit_end = c.p + unit_len;
    if (unit_end != c.end)
        return ku_fail(err, errlen, "more than one line-table unit");
    c.end = unit_end;
    int version = (int)un(&c, 2);
    if (version != 4 && version != 5)
        return ku_fail(err, errlen, "DWARF line table version %d", version);
    if (version == 5 && (un(&c, 1) != 8 || un(&c, 1) != 0))
        return ku_fail(err, errlen, "unusual line-table addresses");
    uint64_t hlen = un(&c, 4);
    if (c.bad || hlen > (uint64_t)(c.end - c.p))
        return ku_fail(err, errlen, "unreadable line table");
    const unsigned char *prog = c.p + hlen;
    lhdr h = { 0 };
    h.min_inst = (int)un(&c, 1);
    int max_ops = (int)un(&c, 1);
    (void)un(&c, 1);    /* default_is_stmt */
    h.line_base = (int)(signed char)un(&c, 1);
    h.line_range = (int)un(&c, 1);
    h.opcode_base = (int)un(&c, 1);
    if (c.bad || max_ops != 1 || h.line_range == 0 || h.opcode_base < 1)
        return ku_fail(err, errlen, "unusual line-table header");
    for (int k = 1; k < h.opcode_base; k++)
        h.oplen[k] = (unsigned char)un(&c, 1);
    if ((version == 5 ? lines_files_v5 : lines_files_v4)(e, &c, l, err, errlen))
        return -1;
    if (c.bad)
        return ku_fail(err, errlen, "unreadable line-table header");
    c.p = prog;
    if (lines_program(e, c, &h, l, err, errlen))
        return -1;
    if (l->nr)
        qsort(l->r, (size_t)l->nr, sizeof *l->r, row_cmp);
    return 0;
}

/* Rows by section, address and their order in the program. */
static int row_cmp(const void *x, const void *y)
{
    const row *a = x, *b = y;
    if (a->sec != b->sec)
        return a->sec < b->sec ? -1 : 1;
    if (a->addr != b->addr)
        return a->addr < b->addr ? -1 : 1;
    return a->seq < b->seq ? -1 : a->seq > b->seq;
}

/* The first row at (sec, addr) or after it. */
static int first_row(const lines *L, int sec, uint64_t addr)
{
    int lo = 0, hi = L->nr;
    while (lo < hi) {
        int mid = (lo + hi) / 2;
        const row *r = &L->r[mid];
        if (r->sec < sec || (r->sec == sec && r->addr < addr))
            lo = mid + 1;
        else
            hi = mid;
    }
    return lo;
}

/* ---- the disassembly ------------------------------------------------------ */

typedef struct {
    int sec;              /* ELF section index */
    uint64_t addr;
    char *text;           /* mnemonic and operands, comments and <...> removed */
    char reloc[128];      /* symbol of a relocation inside it, "" none */
    int fn;               /* function index */
    int branch;           /* 1 conditional, 2 unconditional jump, 3 return/trap */
    int has_target;       /* a direct jump to target inside the section */
    uint64_t target;
    int block;
} insn;

typedef struct {
    insn *in;
    int nin;
    int nfn;
} dis;

static void dis_free(dis *d)
{
    for (int i = 0; i < d->nin; i++)
        free(d->in[i].text);
    free(d->in);
}

static int section_named(const elf *e, const char *name)
{
    int found = -1;
    for (int i = 0; i < e->ns; i++)
        if (strcmp(e->s[i].name, name) == 0) {
            if (found >= 0)
                return -2;        /* two sections of one name: ambiguous */
            found = i;
        }
    return found;
}

static int is_nop(const char *t)
{
    while (strncmp(t, "data16 ", 7) == 0 || strncmp(t, "cs ", 3) == 0)
        t += strncmp(t, "cs ", 3) == 0 ? 3 : 7;
    return strncmp(t, "nop", 3) == 0;
}

static int dis_read(const elf *e, const char *text, dis *d, char *err, size_t errlen)
{
    memset(d, 0, sizeof *d);
    int sec = -1;
    d->nfn = 0;
    int fn = -1;
    for (const char *s = text; s && *s;) {
        const char *nl = strchr(s, '\n');
        size_t n = nl ? (size_t)(nl - s) : strlen(s);
        char line[1024];
        if (n >= sizeof line)
            return ku_fail(err, errlen, "a disassembly line too long");
        memcpy(line, s, n);
        line[n] = '\0';
        s = nl ? nl + 1 : NULL;
        const char *p;
        unsigned long long a;
        int k;
        if (strncmp(line, "Disassembly of section ", 23) == 0) {
            char *nm = line + 23;
            size_t m = strlen(nm);
            if (m && nm[m - 1] == ':')
                nm[m - 1] = '\0';
            sec = section_named(e, nm);
            if (sec < 0)
                return ku_fail(err, errlen, "disassembly of an unknown section %s", nm);
            fn = -1;
        } else if (sscanf(line, "%llx <%n", &a, &k) == 1 && k > 0 && strchr(line, '>')
                   && line[0] != ' ' && line[0] != '\t') {
            fn = d->nfn++;
        } else if (line[0] == '\t' && (p = strstr(line, ":  R_X86_64_"))) {
            if (!d->nin || sec < 0)
                continue;
            /* "\t\t0000000000000016:  R_X86_64_PLT32\tsym-0x4" */
            insn *in = &d->in[d->nin - 1];
            const char *sym = strchr(p + 3, '\t');
            if (!sym)
                sym = strchr(p + 3, ' ');
            if (sym && !in->reloc[0]) {
                sym++;
                size_t m = strcspn(sym, "+- \t");
                snprintf(in->reloc, sizeof in->reloc, "%.*s", (int)m, sym);
                if (!in->reloc[0])
                    snprintf(in->reloc, sizeof in->reloc, "0");
            }
        } else if (sscanf(line, " %llx:%n", &a, &k) == 1 && k > 0 && line[0] == ' ') {
            if (sec < 0 || fn < 0)
                return ku_fail(err, errlen, "an instruction outside any function");
            const char *t = line + k;
            while (*t == ' ' || *t == '\t')
                t++;
            char buf[1024];
            snprintf(buf, sizeof buf, "%s", t);
            char *hash = strchr(buf, '#');
            if (hash)
                *hash = '\0';
            char *lt = strstr(buf, " <");
            if (lt && strchr(lt, '>'))
                *lt = '\0';
            size_t m = strlen(buf);
            while (m && (buf[m - 1] == ' ' || buf[m - 1] == '\t'))
                buf[--m] = '\0';
            if (!m || strncmp(buf, "<unknown>", 9) == 0)
                return ku_fail(err, errlen, "an instruction llvm-objdump cannot decode");
            if (is_nop(buf))
                continue;   /* padding: clang's assembly has .p2align there */
            insn *in = ku_push(&d->in, &d->nin, sizeof *in);
            if (!in || !(in->text = strdup(buf)))
                return ku_fail(err, errlen, "out of memory");
            in->sec = sec;
            in->addr = a;
            in->fn = fn;
        }
    }
    /* Branches. */
    for (int i = 0; i < d->nin; i++) {
        insn *in = &d->in[i];
        char mn[32];
        int m = 0;
        const char *t = in->text;
        while (m < 31 && t[m] && t[m] != '\t' && t[m] != ' ')
            mn[m] = t[m], m++;
        mn[m] = '\0';
        const char *ops = t + m;
        while (*ops == ' ' || *ops == '\t')
            ops++;
        if (strncmp(mn, "ret", 3) == 0 || strcmp(mn, "ud2") == 0 || strcmp(mn, "int3") == 0
            || strcmp(mn, "hlt") == 0) {
            in->branch = 3;
            continue;
        }
        int jump = mn[0] == 'j' || strncmp(mn, "loop", 4) == 0;
        if (!jump)
            continue;
        in->branch = strncmp(mn, "jmp", 3) == 0 ? 2 : 1;
        if (ops[0] == '*') {
            if (!in->reloc[0])
                return ku_fail(err, errlen, "an indirect jump (a jump table)");
            in->branch = in->branch == 2 ? 3 : 1;     /* a tail call through memory */
            continue;
        }
        if (in->reloc[0]) {
            /* to a symbol: a tail call, leaving the function */
            if (in->branch == 2)
                in->branch = 3;
            continue;
        }
        unsigned long long to;
        if (sscanf(ops, "0x%llx", &to) != 1)
            return ku_fail(err, errlen, "a jump llvm-mca's input cannot name: %s", in->text);
        in->has_target = 1;
        in->target = to;
    }
    return 0;
}

/* ---- one function: blocks, dominators, loops, text ------------------------ */

typedef struct {
    int first, last;      /* instruction range [first, last) */
    int succ[2], nsucc;
    int *pred, npred;     /* predecessors (malloc'd) */
    int rpo;              /* reverse post-order number, -1 unreachable */
    int idom;
    int loop;             /* innermost loop, -1 none */
} blk;

typedef struct {
    int header;
    int parent, depth;
    unsigned char *in;    /* per block: member */
    int size;
} nloop;

static int block_at(const blk *b, int nb, const insn *in, uint64_t addr)
{
    for (int k = 0; k < nb; k++)
        if (in[b[k].first].addr == addr)
            return k;
    return -1;
}

static int intersect(const blk *b, int x, int y)
{
    while (x != y) {
        while (b[x].rpo > b[y].rpo)
            x = b[x].idom;
        while (b[y].rpo > b[x].rpo)
            y = b[y].idom;
    }
    return x;
}

static int dominates(const blk *b, int h, int x)
{
    while (x >= 0) {
        if (x == h)
            return 1;
        if (b[x].idom == x)
            return 0;
        x = b[x].idom;
    }
    return 0;
}

/* A function's control flow: its blocks, their order and its loops. */
typedef struct {
    blk *b;
    int nb;
    nloop *lp;
    int nl;
    int *order, no;         /* blocks in post-order (reverse it: RPO) */
    int *stack, *pos;       /* scratch of nb + 1 */
} cfg;

static void cfg_free(cfg *g)
{
    for (int k = 0; k < g->nb; k++)
        free(g->b[k].pred);
    free(g->b);
    for (int k = 0; k < g->nl; k++)
        free(g->lp[k].in);
    free(g->lp);
    free(g->order);
    free(g->stack);
    free(g->pos);
}

/* Mark in `leader` (n + 1 bytes, one per instruction of [i0, i1)) each
 * block's first instruction; a jump to another function's start becomes a
 * tail call.  0, or -1 (err) for a jump into another function. */
static int cfg_leaders(const dis *d, int i0, int i1, unsigned char *leader, char *err,
                       size_t errlen)
{
    insn *in = d->in;
    leader[0] = 1;
    for (int i = i0; i < i1; i++) {
        /* a conditional branch and the jump after it end one block, as the
         * two terminators of one machine block */
        if (in[i].branch && i + 1 < i1
            && !(in[i].branch == 1 && strncmp(in[i + 1].text, "jmp", 3) == 0))
            leader[i + 1 - i0] = 1;
        if (in[i].has_target) {
            /* the target, or the first instruction after the padding there */
            int t = -1;
            for (int k = i0; k < i1 && t < 0 && in[i].target >= in[i0].addr; k++)
                if (in[k].addr >= in[i].target && (k == i0 || in[k - 1].addr < in[i].target))
                    t = k;
            if (t >= 0)
                in[i].target = in[t].addr;
            if (t < 0) {
                /* outside this function: a tail call, when it is another
                 * function's start; anything else is not understood */
                int start = 0;
                for (int k = 0; k < d->nin; k++)
                    if (in[k].sec == in[i].sec && in[k].addr == in[i].target
                        && (k == 0 || in[k - 1].fn != in[k].fn))
                        start = 1;
                if (!start) {
                    ku_fail(err, errlen, "a jump into another function");
                    return -1;
                }
                in[i].has_target = 0;
                if (in[i].branch == 2)
                    in[i].branch = 3;
                continue;
            }
            leader[t - i0] = 1;
        }
    }
    return 0;
}

/* The blocks of [i0, i1) from their leaders, with successors and
 * predecessors. */
static int cfg_blocks(const dis *d, int i0, int i1, const unsigned char *leader, cfg *g,
                      char *err, size_t errlen)
{
    insn *in = d->in;
    int n = i1 - i0;
    for (int i = 0; i < n; i++)
        if (leader[i]) {
            blk *x = ku_push(&g->b, &g->nb, sizeof *x);
            if (!x) {
                ku_fail(err, errlen, "out of memory");
                return -1;
            }
            x->first = i0 + i;
            x->last = i1;
            x->loop = -1;
            x->rpo = -1;
            if (g->nb > 1)
                g->b[g->nb - 2].last = i0 + i;
        }
    blk *b = g->b;
    int nb = g->nb;
    for (int k = 0; k < nb; k++) {
        const insn *t = &in[b[k].last - 1];
        for (int i = b[k].first; i < b[k].last; i++) {
            in[i].block = k;
            if (in[i].has_target && b[k].nsucc < 2) {
                int y = block_at(b, nb, in, in[i].target);
                if (y >= 0 && (b[k].nsucc == 0 || b[k].succ[0] != y))
                    b[k].succ[b[k].nsucc++] = y;
            }
        }
        if ((t->branch == 0 || t->branch == 1) && k + 1 < nb && b[k].nsucc < 2
            && (b[k].nsucc == 0 || b[k].succ[0] != k + 1))
            b[k].succ[b[k].nsucc++] = k + 1;
    }
    for (int k = 0; k < nb; k++)
        for (int s2 = 0; s2 < b[k].nsucc; s2++) {
            int *slot = ku_push(&b[b[k].succ[s2]].pred, &b[b[k].succ[s2]].npred, sizeof *slot);
            if (!slot) {
                ku_fail(err, errlen, "out of memory");
                return -1;
            }
            *slot = k;
        }
    return 0;
}

/* Reverse post-order from the entry (iterative depth-first search), then
 * the immediate dominators by the iterative algorithm in that order. */
static int cfg_order(cfg *g, char *err, size_t errlen)
{
    blk *b = g->b;
    int nb = g->nb;
    int *order = g->order = malloc(sizeof *order * (size_t)(nb + 1));
    int *stack = g->stack = malloc(sizeof *stack * (size_t)(nb + 1));
    int *pos = g->pos = calloc((size_t)nb + 1, sizeof *pos);
    unsigned char *seen = calloc((size_t)nb + 1, 1);
    if (!order || !stack || !pos || !seen) {
        free(seen);
        return ku_fail(err, errlen, "out of memory");
    }
    int no = 0, sp = 0;
    stack[sp++] = 0;
    seen[0] = 1;
    while (sp) {
        int x = stack[sp - 1];
        if (pos[x] < b[x].nsucc) {
            int y = b[x].succ[pos[x]++];
            if (!seen[y]) {
                seen[y] = 1;
                stack[sp++] = y;
            }
        } else {
            order[no++] = x;     /* post-order */
            sp--;
        }
    }
    free(seen);
    for (int k = 0; k < no; k++)
        b[order[no - 1 - k]].rpo = k;
    /* Dominators: idom by the iterative algorithm, in reverse post-order. */
    for (int k = 0; k < nb; k++)
        b[k].idom = -1;
    b[0].idom = 0;
    for (int changed = 1; changed;) {
        changed = 0;
        for (int r = 1; r < no; r++) {
            int x = order[no - 1 - r], nd = -1;
            for (int q = 0; q < b[x].npred; q++) {
                int p = b[x].pred[q];
                if (b[p].idom >= 0)
                    nd = nd < 0 ? p : intersect(b, p, nd);
            }
            if (nd >= 0 && b[x].idom != nd) {
                b[x].idom = nd;
                changed = 1;
            }
        }
    }
    g->no = no;
    return 0;
}

/* Natural loops: per header, every block that reaches a back edge's
 * source without passing the header; their nesting, depths, and each
 * block's innermost loop. */
static int cfg_loops(cfg *g, char *err, size_t errlen)
{
    blk *b = g->b;
    int nb = g->nb, *stack = g->stack, sp;
    for (int u = 0; u < nb; u++) {
        if (b[u].rpo < 0)
            continue;
        for (int s = 0; s < b[u].nsucc; s++) {
            int h = b[u].succ[s];
            if (!dominates(b, h, u))
                continue;
            nloop *L2 = NULL;
            for (int k = 0; k < g->nl; k++)
                if (g->lp[k].header == h)
                    L2 = &g->lp[k];
            if (!L2) {
                if (!(L2 = ku_push(&g->lp, &g->nl, sizeof *L2))
                    || !(L2->in = calloc((size_t)nb, 1))) {
                    ku_fail(err, errlen, "out of memory");
                    return -1;
                }
                L2->header = h;
                L2->in[h] = 1;
            }
            sp = 0;
            if (!L2->in[u]) {
                L2->in[u] = 1;
                stack[sp++] = u;
            }
            while (sp) {
                int x = stack[--sp];
                for (int q = 0; q < b[x].npred; q++) {
                    int p = b[x].pred[q];
                    if (b[p].rpo < 0 || L2->in[p])
                        continue;
                    L2->in[p] = 1;
                    stack[sp++] = p;
                }
            }
        }
    }
    nloop *lp = g->lp;
    int nl = g->nl;
    for (int k = 0; k < nl; k++)
        for (int x = 0; x < nb; x++)
            lp[k].size += lp[k].in[x];
    /* Nesting: the parent is the smallest other loop holding the header. */
    for (int k = 0; k < nl; k++) {
        lp[k].parent = -1;
        for (int j = 0; j < nl; j++)
            if (j != k && lp[j].in[lp[k].header] && lp[j].size > lp[k].size
                && (lp[k].parent < 0 || lp[j].size < lp[lp[k].parent].size))
                lp[k].parent = j;
    }
    for (int k = 0; k < nl; k++) {
        lp[k].depth = 1;
        for (int j = lp[k].parent; j >= 0; j = lp[j].parent)
            lp[k].depth++;
    }
    for (int x = 0; x < nb; x++)
        for (int k = 0; k < nl; k++)
            if (lp[k].in[x] && (b[x].loop < 0 || lp[k].size < lp[b[x].loop].size))
                b[x].loop = k;
    return 0;
}

/* The mnemonic of an instruction's text (up to a tab or space) into mn[32]. */
static void mnemonic(const char *text, char mn[32])
{
    int m = 0;
    while (m < 31 && text[m] && text[m] != '\t' && text[m] != ' ')
        mn[m] = text[m], m++;
    mn[m] = '\0';
}

/* The assembly text of the function's blocks, as clang's verbose -S. */
static void cfg_text(const dis *d, const cfg *g, int fn, const lines *L, ku_buf *out)
{
    insn *in = d->in;
    const blk *b = g->b;
    const nloop *lp = g->lp;
    int nb = g->nb;
    for (int x = 0; x < nb; x++) {
        int l = b[x].loop;
        ku_buf_printf(out, ".LBB%d_%d:", fn, x);
        if (l >= 0 && lp[l].header == x) {
            int chain[64], nc = 0;
            for (int j = lp[l].parent; j >= 0 && nc < 64; j = lp[j].parent)
                chain[nc++] = j;
            for (int c = nc - 1; c >= 0; c--)
                ku_buf_printf(out, "%s# Parent Loop BB%d_%d Depth=%d\n", c == nc - 1 ? "   " : "\t",
                              fn, lp[chain[c]].header, lp[chain[c]].depth);
            ku_buf_printf(out, "%s# =>This Inner Loop Header: Depth=%d\n", nc ? "\t" : "   ",
                          lp[l].depth);
        } else if (l >= 0) {
            ku_buf_printf(out, "   # in Loop: Header=BB%d_%d Depth=%d\n", fn, lp[l].header,
                          lp[l].depth);
        } else {
            ku_buf_putc(out, '\n');
        }
        for (int i = b[x].first; i < b[x].last; i++) {
            /* the rows at this instruction, and at the padding before it */
            uint64_t from = i > 0 && in[i - 1].sec == in[i].sec ? in[i - 1].addr + 1 : 0;
            for (int r = first_row(L, in[i].sec, from);
                 r < L->nr && L->r[r].sec == in[i].sec && L->r[r].addr <= in[i].addr; r++)
                ku_buf_printf(out, "\t.loc\t%d %d %d\n", L->r[r].file, L->r[r].line,
                              L->r[r].col);
            if (in[i].has_target) {
                char mn[32];
                mnemonic(in[i].text, mn);
                ku_buf_printf(out, "\t%s\t.LBB%d_%d\n", mn, fn,
                              block_at(b, nb, in, in[i].target));
            } else if (in[i].reloc[0] && (in[i].branch || strncmp(in[i].text, "call", 4) == 0)
                       && !strchr(in[i].text, '*')) {
                char mn[32];
                mnemonic(in[i].text, mn);
                ku_buf_printf(out, "\t%s\t%s\n", mn, in[i].reloc);
            } else {
                ku_buf_printf(out, "\t%s\n", in[i].text);
            }
        }
    }
}

/* Write function `fn` (instructions [i0, i1) of d) to out; its blocks get
 * labels .LBB<fn>_<k>. */
static int emit_function(const dis *d, int i0, int i1, int fn, const lines *L, ku_buf *out,
                         char *err, size_t errlen)
{
    cfg g = { 0 };
    int rc = -1;
    unsigned char *leader = calloc((size_t)(i1 - i0) + 1, 1);
    if (!leader)
        ku_fail(err, errlen, "out of memory");
    else if (cfg_leaders(d, i0, i1, leader, err, errlen) == 0
             && cfg_blocks(d, i0, i1, leader, &g, err, errlen) == 0
             && cfg_order(&g, err, errlen) == 0 && cfg_loops(&g, err, errlen) == 0) {
        cfg_text(d, &g, fn, L, out);
        rc = out->oom ? ku_fail(err, errlen, "out of memory") : 0;
    }
    free(leader);
    cfg_free(&g);
    return rc;
}

int mco_asm_from_object(const unsigned char *obj, size_t len, const char *objdump, char **out,
                        char *err, size_t errlen)
{
    elf e;
    lines L;
    dis d;
    *out = NULL;
    memset(&L, 0, sizeof L);
    memset(&d, 0, sizeof d);
    int rc = -1;
    ku_buf b = { 0 };
    if (elf_read(&e, obj, len, err, errlen) || lines_read(&e, &L, err, errlen)
        || dis_read(&e, objdump, &d, err, errlen))
        goto done;
    for (int f = 0; f < L.nfile; f++)
        ku_buf_printf(&b, "\t.file\t%d %s\n", f, L.file[f]);
    ku_buf_put(&b, "\t.text\n");
    for (int i = 0; i < d.nin;) {
        int j = i;
        while (j < d.nin && d.in[j].fn == d.in[i].fn)
            j++;
        if (emit_function(&d, i, j, d.in[i].fn, &L, &b, err, errlen))
            goto done;
        i = j;
    }
    if (b.oom) {
        ku_fail(err, errlen, "out of memory");
        goto done;
    }
    *out = ku_buf_take(&b);
    rc = 0;
done:
    ku_buf_free(&b);
    dis_free(&d);
    lines_free(&L);
    elf_free(&e);
    return rc;
}
