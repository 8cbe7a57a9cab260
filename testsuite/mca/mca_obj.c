/*
 * mca_obj.c -- print the assembly plugin/mcaobj.c makes of an object.
 *
 *     mca_obj OBJECT DISASSEMBLY
 *
 * DISASSEMBLY is `llvm-objdump-19 -d -r --no-show-raw-insn OBJECT`'s
 * output.  Prints the assembly text (what mca_map reads in place of
 * clang's -S output), or `mca_obj: REASON` on stderr and exits 1.
 */
#include <stdio.h>
#include <stdlib.h>

#include "mcaobj.h"
#include "util.h"

int main(int argc, char **argv)
{
    if (argc != 3) {
        fprintf(stderr, "usage: mca_obj OBJECT DISASSEMBLY\n");
        return 2;
    }
    size_t len;
    char *obj = ku_read_file(argv[1], &len), *dis = ku_read_file(argv[2], NULL), *out;
    char err[512];
    if (!obj || !dis) {
        fprintf(stderr, "mca_obj: cannot read the inputs\n");
        return 1;
    }
    if (mco_asm_from_object((const unsigned char *)obj, len, dis, &out, err, sizeof err)) {
        fprintf(stderr, "mca_obj: %s\n", err);
        return 1;
    }
    fputs(out, stdout);
    free(out);
    free(obj);
    free(dis);
    return 0;
}
