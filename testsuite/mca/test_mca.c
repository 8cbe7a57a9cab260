/*
 * test_mca.c -- unit tests of analysis/mca.c on hand-written inputs: the
 * figures read from llvm-mca's JSON (plugin/mcarun.c, through SQLite), the assembly ->
 * source loop mapping with its llvm-mca bodies, and whole-iteration costs.
 * Expected values are worked out by hand from the inputs below.
 */
#include <math.h>
#include <stdlib.h>

#include "check.h"
#include "mca.h"
#include "mcarun.h"

static void test_figures(void)
{
    /* Iterations 100, TotalCycles 267, TotaluOps 1500; pressure: P1 gets
     * 0.5 + 1 = 1.5, P2 gets 1. */
    const char *json =
        "{\"CodeRegions\":[{\"Name\":\"\",\"SummaryView\":{\"BlockRThroughput\":2.5,"
        "\"DispatchWidth\":6,\"IPC\":4.5,\"Instructions\":1300,\"Iterations\":100,"
        "\"TotalCycles\":267,\"TotaluOps\":1500},\"ResourcePressureView\":"
        "{\"ResourcePressureInfo\":[{\"InstructionIndex\":0,\"ResourceIndex\":1,"
        "\"ResourceUsage\":0.5},{\"InstructionIndex\":1,\"ResourceIndex\":2,\"ResourceUsage\":1},"
        "{\"InstructionIndex\":2,\"ResourceIndex\":1,\"ResourceUsage\":1}]}}],"
        "\"TargetInfo\":{\"CPUName\":\"x\",\"Resources\":[\"P0\",\"P1\",\"P2\"]}}";
    mca_figures f;
    char err[128];
    CHECK_INT(mcr_parse_json(json, 0, &f, err, sizeof err), 0);
    CHECK(f.cycles_per_iter == 2.67);
    CHECK(f.block_rthroughput == 2.5);
    CHECK(f.ipc == 4.5);
    CHECK(f.uops_per_iter == 15);
    CHECK_STR(f.resource, "P1");
    CHECK(f.resource_cycles == 1.5);
    CHECK_INT(mcr_parse_json("{\"CodeRegions\":[]}", 0, &f, err, sizeof err), -1);
    CHECK_STR(err, "llvm-mca output has no summary view");
    CHECK_INT(mcr_parse_json("{\"CodeRegions\":[{\"SummaryView\":}]}", 0, &f, err, sizeof err), -1);
    CHECK_STR(err, "llvm-mca output is not valid JSON");
    CHECK_INT(mcr_parse_json("", 0, &f, err, sizeof err), -1);
    CHECK_STR(err, "llvm-mca output is not valid JSON");
    /* Iterations not a number: no summary; a tie between P0 and P2 goes to
     * P0; index 7 names no resource and a string usage counts nothing. */
    CHECK_INT(mcr_parse_json("{\"CodeRegions\":[{\"SummaryView\":{\"Iterations\":\"100\","
                             "\"TotalCycles\":5}}]}", 0, &f, err, sizeof err), -1);
    const char *tie =
        "{\"CodeRegions\":[{\"SummaryView\":{\"Iterations\":4,\"TotalCycles\":10},"
        "\"ResourcePressureView\":{\"ResourcePressureInfo\":["
        "{\"ResourceIndex\":2,\"ResourceUsage\":2},{\"ResourceIndex\":7,\"ResourceUsage\":9},"
        "{\"ResourceIndex\":1,\"ResourceUsage\":\"9\"},{\"ResourceIndex\":0,\"ResourceUsage\":2}]}}],"
        "\"TargetInfo\":{\"Resources\":[\"P0\",\"P1\",\"P\\u00e9\"]}}";
    CHECK_INT(mcr_parse_json(tie, 0, &f, err, sizeof err), 0);
    CHECK(f.cycles_per_iter == 2.5);
    CHECK(f.ipc == 0 && f.block_rthroughput == 0 && f.uops_per_iter == 0);
    CHECK_STR(f.resource, "P0");
    CHECK(f.resource_cycles == 2);
    /* several code regions (a batch): each read by its index */
    const char *two =
        "{\"CodeRegions\":[{\"Name\":\"b0\",\"SummaryView\":{\"Iterations\":100,\"TotalCycles\":304}},"
        "{\"Name\":\"b3\",\"SummaryView\":{\"Iterations\":100,\"TotalCycles\":55,\"IPC\":1.75},"
        "\"ResourcePressureView\":{\"ResourcePressureInfo\":[{\"ResourceIndex\":1,\"ResourceUsage\":0.5}]}}],"
        "\"TargetInfo\":{\"Resources\":[\"P0\",\"P1\"]}}";
    CHECK_INT(mcr_parse_json(two, 1, &f, err, sizeof err), 0);
    CHECK(f.cycles_per_iter == 0.55);
    CHECK(f.ipc == 1.75);
    CHECK_STR(f.resource, "P1");
    CHECK_INT(mcr_parse_json(two, 0, &f, err, sizeof err), 0);
    CHECK(f.cycles_per_iter == 3.04);
    CHECK_STR(f.resource, "");
    CHECK_INT(mcr_parse_json(two, 2, &f, err, sizeof err), -1);
    CHECK_STR(err, "llvm-mca output has no summary view");
}

static const char *const asm_text =
    "\t.file\t0 \"/nonexistent-dir\" \"t.c\"\n"
    "f:                                      # @f\n"
    "\t.loc\t0 3 5\n"
    "\txorl\t%eax, %eax\n"
    ".LBB0_1:                                # =>This Loop Header: Depth=1\n"
    "                                        #     Child Loop BB0_2 Depth 2\n"
    "\t.loc\t0 3 23\n"
    "\tmovl\t$0, %ecx\n"
    "\t.p2align\t4, 0x90\n"
    ".LBB0_2:                                #   Parent Loop BB0_1 Depth=1\n"
    "                                        # =>  This Inner Loop Header: Depth=2\n"
    "\t.loc\t0 5 13\n"
    "\taddpd\t%xmm0, %xmm1                # comment\n"
    ".Ltmp3:\n"
    "\t.loc\t0 4 9\n"
    "\taddq\t$2, %rcx\n"
    "\tcmpq\t%rcx, %rdx\n"
    "\tjne\t.LBB0_2\n"
    "\tjmp\t.LBB0_9\n"
    "# %bb.3:                                #   in Loop: Header=BB0_1 Depth=1\n"
    "\t.loc\t0 3 30\n"
    "\tincq\t%rax\n"
    "\tcmpq\t%rax, %rdx\n"
    "\tjne\t.LBB0_1\n"
    ".LBB0_9:\n"
    "\tretq\n"
    "\t.section\t.debug_line\n";

static const char *const remarks =
    "--- !Passed\n"
    "Pass:            loop-vectorize\n"
    "Name:            Vectorized\n"
    "DebugLoc:        { File: t.c, Line: 4, Column: 9 }\n"
    "Function:        f\n"
    "Args:\n"
    "  - String:          'vectorized loop (vectorization width: '\n"
    "  - VectorizationFactor: '2'\n"
    "  - String:          ', interleaved count: '\n"
    "  - InterleaveCount: '1'\n"
    "  - String:          ')'\n"
    "...\n"
    "--- !Passed\n"
    "Pass:            loop-unroll\n"
    "Name:            FullyUnrolled\n"
    "DebugLoc:        { File: t.c, Line: 7, Column: 5 }\n"
    "Function:        f\n"
    "...\n";

/* f: loop 3:5 over i holding loop 4:9 over j (trip n); loop 7:5 unrolled away. */
static ir_tu *tu_by_hand(void)
{
    ir_tu *tu = ir_tu_new("/nonexistent-dir/t.c");
    int f = ir_add_function(tu, "f", "/nonexistent-dir/t.c", 1, 1);
    int a = ir_add_loop(tu, f, -1, IR_FOR, "/nonexistent-dir/t.c", 3, 5);
    ir_set_bounds(&tu->loops[a], "i", kx_int(0), kx_sym("n"), 1);
    tu->loops[a].end_line = 6;
    int b = ir_add_loop(tu, f, a, IR_FOR, "/nonexistent-dir/t.c", 4, 9);
    ir_set_bounds(&tu->loops[b], "j", kx_int(0), kx_sym("n"), 1);
    tu->loops[b].depth = 1;
    tu->loops[b].end_line = 5;
    int c = ir_add_loop(tu, f, -1, IR_FOR, "/nonexistent-dir/t.c", 7, 5);
    ir_set_bounds(&tu->loops[c], "k", kx_int(0), kx_int(4), 1);
    tu->loops[c].end_line = 8;
    return tu;
}

static void test_mapping(void)
{
    ir_tu *tu = tu_by_hand();
    mca_plan *p;
    char err[128];
    CHECK_INT(mca_plan_build(tu, asm_text, remarks, 1, &p, err, sizeof err), 0);
    CHECK_INT(p->nasm, 2);
    CHECK_INT(p->unmapped, 0);
    const mca_loop_plan *A = &p->loops[0], *B = &p->loops[1], *C = &p->loops[2];
    /* inner j loop: vectorised copy, VF 2 x IC 1 source iterations per asm one;
     * its body stops at the back edge (the jmp after it is not in it). */
    CHECK_INT(B->ncopies, 1);
    CHECK_STR(B->label, ".LBB0_2");
    CHECK_INT(B->asm_innermost, 1);
    CHECK_INT(B->vector, 1);
    CHECK_INT(B->vf, 2);
    CHECK_INT(B->ic, 1);
    CHECK_INT(B->iters_per_asm, 2);
    CHECK_STR(B->body, "addpd\t%xmm0, %xmm1\naddq\t$2, %rcx\ncmpq\t%rcx, %rdx\njne\t.LBB0_2\n");
    /* outer i loop: its own blocks only */
    CHECK_INT(A->ncopies, 1);
    CHECK_STR(A->label, ".LBB0_1");
    CHECK_INT(A->asm_innermost, 0);
    CHECK_INT(A->iters_per_asm, 1);
    CHECK_STR(A->body, "movl\t$0, %ecx\nincq\t%rax\ncmpq\t%rax, %rdx\njne\t.LBB0_1\n");
    /* the k loop has no assembly loop: the remark says why */
    CHECK_INT(C->ncopies, 0);
    CHECK(C->body == NULL);
    CHECK_STR(C->reason, "fully unrolled by the optimiser: no assembly loop");

    /* Whole iterations: j costs 0.25 cycles a source iteration, the i loop's
     * own blocks 1.5: W(i) = 1500 + n * 250 millicycles. */
    double c[3] = { 1.5, 0.25, NAN };
    kx_expr *w = mca_whole_iter_mcycles(tu, p, c, 0);
    char *s = kx_print(w);
    CHECK_STR(s, "250*n + 1500");
    free(s);
    kx_free(w);
    w = mca_whole_iter_mcycles(tu, p, c, 1);
    s = kx_print(w);
    CHECK_STR(s, "250");
    free(s);
    kx_free(w);
    CHECK(mca_whole_iter_mcycles(tu, p, c, 2) == NULL);
    c[1] = NAN;   /* an inner loop without figures: the whole is unknown */
    CHECK(mca_whole_iter_mcycles(tu, p, c, 0) == NULL);
    mca_plan_free(p);

    /* Without remarks: no vectorisation known, one source iteration. */
    CHECK_INT(mca_plan_build(tu, asm_text, NULL, 1, &p, err, sizeof err), 0);
    CHECK_INT(p->loops[1].iters_per_asm, 1);
    CHECK_STR(p->loops[2].reason, "no assembly loop maps to this loop (unrolled, merged "
                                  "or removed by the optimiser)");
    mca_plan_free(p);
    ir_tu_free(tu);
}

/* A file name with bytes outside printable ASCII, a quote and a tab: the
 * assembler writes them escaped (\303\274, \", \011) in .file, and the
 * loop still maps; an assembly that names another file says so. */
static void test_escaped_names(void)
{
    static const char name[] = "/nonexistent-dir/\xc3\xbc\"q\tt.c";
    static const char *const texts[2] = {
        "\t.file\t0 \"/nonexistent-dir\" \"\\303\\274\\\"q\\011t.c\"\n",
        "\t.file\t0 \"/nonexistent-dir\" \"other.c\"\n",
    };
    static const char body[] =
        "g:\n"
        "\t.loc\t0 2 3\n"
        "\txorl\t%eax, %eax\n"
        ".LBB1_1:                                # =>This Inner Loop Header: Depth=1\n"
        "\t.loc\t0 2 3\n"
        "\tincq\t%rax\n"
        "\tcmpq\t%rax, %rdx\n"
        "\tjne\t.LBB1_1\n"
        "\tretq\n";
    for (int k = 0; k < 2; k++) {
        ir_tu *tu = ir_tu_new(name);
        int f = ir_add_function(tu, "g", name, 1, 1);
        int a = ir_add_loop(tu, f, -1, IR_FOR, name, 2, 3);
        ir_set_bounds(&tu->loops[a], "i", kx_int(0), kx_sym("n"), 1);
        tu->loops[a].end_line = 2;
        char text[1024], err[128];
        snprintf(text, sizeof text, "%s%s", texts[k], body);
        mca_plan *p;
        CHECK_INT(mca_plan_build(tu, text, NULL, 1, &p, err, sizeof err), 0);
        if (k == 0) {
            CHECK_INT(p->loops[0].ncopies, 1);
            CHECK_STR(p->loops[0].label, ".LBB1_1");
            CHECK(p->loops[0].reason == NULL);
        } else {
            CHECK_INT(p->loops[0].ncopies, 0);
            CHECK_STR(p->loops[0].reason,
                      "the assembly's line table does not name this loop's source file");
        }
        mca_plan_free(p);
        ir_tu_free(tu);
    }
}

int main(void)
{
    test_figures();
    test_mapping();
    test_escaped_names();
    return check_summary();
}
