/*
 * test_util.c -- unit tests of util/: exact contents of string buffers and
 * arrays, the exit status and signal convention of ku_spawn/ku_wait,
 * redirections, temporary files under $TMPDIR, and the message printer.
 */
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "check.h"
#include "util.h"

static void test_buf(void)
{
    ku_buf b = {0};
    char *empty = ku_buf_take(&b);
    CHECK_STR(empty, "");
    free(empty);
    ku_buf_put(&b, "a");
    ku_buf_putc(&b, '-');
    ku_buf_printf(&b, "%d:%s", 42, "x");
    CHECK_STR(b.s, "a-42:x");
    CHECK_INT(b.len, 6);
    /* longer than the printf fast path and the first allocation */
    char big[1000];
    memset(big, 'z', sizeof big - 1);
    big[sizeof big - 1] = '\0';
    ku_buf_printf(&b, "[%s]", big);
    CHECK_INT(b.len, 6 + 1001);
    CHECK_INT(strlen(b.s), 6 + 1001);
    CHECK_INT(b.s[7], 'z');
    CHECK_INT(b.s[b.len - 1], ']');
    char *s = ku_buf_take(&b);
    CHECK_INT(b.len, 0);
    CHECK(b.s == NULL);
    CHECK_INT(strlen(s), 1007);
    free(s);
    ku_buf_putn(&b, "abc", 2);
    CHECK_STR(b.s, "ab");
    ku_buf_free(&b);
    /* a sticky failure: later appends do nothing, take gives NULL */
    b.oom = 1;
    ku_buf_put(&b, "x");
    CHECK(b.s == NULL);
    CHECK(ku_buf_take(&b) == NULL);
    CHECK_INT(b.oom, 0);
}

static void test_push(void)
{
    int *v = NULL, n = 0;
    for (int i = 0; i < 1000; i++) {
        int *e = ku_push(&v, &n, sizeof *v);
        CHECK(e != NULL);
        if (!e)
            break;
        CHECK_INT(*e, 0);             /* zeroed */
        *e = i * 3;
    }
    CHECK_INT(n, 1000);
    long sum = 0;
    for (int i = 0; i < n; i++)
        sum += v[i];
    CHECK_INT(sum, 3L * 999 * 1000 / 2);
    /* shrinking the count and growing again keeps the elements */
    n = 3;
    int *e = ku_push(&v, &n, sizeof *v);
    CHECK_INT(n, 4);
    CHECK_INT(*e, 0);
    CHECK_INT(v[2], 6);
    free(v);

    char **argv = NULL;
    int na = 0;
    const char *words[] = { "cc", "-O2", "-c", "x.c", "-o", "x.o" };
    for (int i = 0; i < 6; i++)
        CHECK_INT(ku_push_ptr(&argv, &na, words[i]), 0);
    CHECK_INT(na, 6);
    CHECK_STR(argv[0], "cc");
    CHECK_STR(argv[5], "x.o");
    CHECK(argv[6] == NULL);
    free(argv);
}

static void test_spawn(const char *dir)
{
    pid_t pid;
    char *ok[] = { "sh", "-c", "exit 3", NULL };
    CHECK_INT(ku_spawn(ok, NULL, &pid), 0);
    CHECK_INT(ku_wait(pid), 3);
    char *slow[] = { "sh", "-c", "read x; exit 5", NULL };
    ku_io fromnull = { .in = "/dev/null", .err_fd = -1 };
    CHECK_INT(ku_spawn(slow, &fromnull, &pid), 0);
    int pst = -7, polled;
    while ((polled = ku_poll(pid, &pst)) == 0)
        nanosleep(&(struct timespec){ 0, 1000000 }, NULL);
    CHECK_INT(polled, 1);
    CHECK_INT(pst, 5);
    CHECK_INT(ku_poll(pid, &pst), -1);   /* reaped already */
    char *sig[] = { "sh", "-c", "kill -9 $$", NULL };
    CHECK_INT(ku_spawn(sig, NULL, &pid), 0);
    int st = ku_wait(pid);
    CHECK_INT(st, 128 + 9);
    char text[64];
    ku_status_text(st, text, sizeof text);
    CHECK(strncmp(text, "killed by signal 9 (", 20) == 0);
    ku_status_text(2, text, sizeof text);
    CHECK_STR(text, "exit status 2");
    char *missing[] = { "keel-no-such-program-here", NULL };
    CHECK(ku_spawn(missing, NULL, &pid) != 0);

    /* redirections: stdin from a file, stdout and stderr to files */
    char in[512], out[512], err[512];
    snprintf(in, sizeof in, "%s/in", dir);
    snprintf(out, sizeof out, "%s/out", dir);
    snprintf(err, sizeof err, "%s/err", dir);
    CHECK_INT(ku_write_file(in, "hello\n", 6), 0);
    char *cat[] = { "sh", "-c", "tr a-z A-Z; echo oops >&2", NULL };
    ku_io io = { .in = in, .out = out, .err = err, .err_fd = -1 };
    CHECK_INT(ku_spawn(cat, &io, &pid), 0);
    CHECK_INT(ku_wait(pid), 0);
    size_t len = 0;
    char *o = ku_read_file(out, &len);
    CHECK_STR(o, "HELLO\n");
    CHECK_INT(len, 6);
    free(o);
    char *e = ku_read_file(err, NULL);
    CHECK_STR(e, "oops\n");
    free(e);
    /* stderr to a descriptor */
    int fd = open(err, O_WRONLY | O_TRUNC);
    ku_io io2 = { .err_fd = fd };
    char *warn[] = { "sh", "-c", "echo to-fd >&2", NULL };
    CHECK_INT(ku_spawn(warn, &io2, &pid), 0);
    CHECK_INT(ku_wait(pid), 0);
    close(fd);
    e = ku_read_file(err, NULL);
    CHECK_STR(e, "to-fd\n");
    free(e);
    /* stdout and stderr to one file, in another folder; any child */
    ku_io io3 = { .out = out, .err_to_out = 1, .err_fd = -1, .dir = "/" };
    char *both[] = { "sh", "-c", "pwd; echo e >&2; exit 4", NULL };
    pid_t any;
    CHECK_INT(ku_spawn(both, &io3, &pid), 0);
    CHECK_INT(ku_wait_any(&any), 4);
    CHECK_INT(any, pid);
    e = ku_read_file(out, NULL);
    CHECK_STR(e, "/\ne\n");
    free(e);
    CHECK_INT(ku_wait_any(&any), -1);    /* no child left */
    CHECK_INT(any, -1);
    ku_io nodir = { .err_fd = -1, .dir = "/nonexistent/keel" };
    CHECK(ku_spawn(ok, &nodir, &pid) != 0);
    CHECK(ku_read_file("/nonexistent/keel", NULL) == NULL);
    unlink(in);
    unlink(out);
    unlink(err);
}

static void test_tmp(void)
{
    char dir[512];
    setenv("TMPDIR", "/nonexistent-keel-dir", 1);
    CHECK_STR(ku_tmpdir(), "/tmp");
    setenv("TMPDIR", "relative", 1);
    CHECK_STR(ku_tmpdir(), "/tmp");
    unsetenv("TMPDIR");
    CHECK_STR(ku_tmpdir(), "/tmp");
    CHECK_INT(ku_mkdtemp(dir, sizeof dir, "keel-test-"), 0);
    CHECK(strncmp(dir, "/tmp/keel-test-", 15) == 0);
    setenv("TMPDIR", dir, 1);
    CHECK_STR(ku_tmpdir(), dir);
    char path[600];
    int fd = ku_mkstemp(path, sizeof path, NULL, "keel-", ".c");
    CHECK(fd >= 0);
    CHECK(strncmp(path, dir, strlen(dir)) == 0);
    CHECK_STR(path + strlen(path) - 2, ".c");
    CHECK_INT(strlen(path), strlen(dir) + strlen("/keel-XXXXXX.c"));
    struct stat st;
    CHECK(fstat(fd, &st) == 0 && (st.st_mode & 0777) == 0600);
    close(fd);
    unlink(path);
    char tiny[8];
    CHECK_INT(ku_mkstemp(tiny, sizeof tiny, NULL, "keel-", ".c"), -1);
    CHECK_STR(tiny, "");
    test_spawn(dir);
    unsetenv("TMPDIR");
    CHECK_INT(rmdir(dir), 0);
}

static void test_msg(void)
{
    char err[16];
    CHECK_INT(ku_fail(err, sizeof err, "%s %d", "bad", 7), -1);
    CHECK_STR(err, "bad 7");
    CHECK_INT(ku_fail(err, 4, "%s", "truncated"), -1);
    CHECK_STR(err, "tru");
    CHECK_INT(ku_fail(NULL, 0, "%s", "nowhere"), -1);
    /* the printer: one line on stderr, warnings silenced by ku_quiet */
    char path[512];
    int fd = ku_mkstemp(path, sizeof path, "/tmp", "keel-msg-", "");
    CHECK(fd >= 0);
    fflush(stderr);
    int saved = dup(2);
    dup2(fd, 2);
    ku_msg("keelcc", "warning", "%s: %d accesses", "x.c", 300);
    ku_quiet = 1;
    ku_msg("keelcc", "warning", "hidden");
    ku_msg("keelcc", "error", "shown");
    ku_quiet = 0;
    fflush(stderr);
    dup2(saved, 2);
    close(saved);
    close(fd);
    char *t = ku_read_file(path, NULL);
    CHECK_STR(t, "keelcc: warning: x.c: 300 accesses\nkeelcc: error: shown\n");
    free(t);
    unlink(path);
}

/* ku_beside_self finds this test's own binary beside itself, and leaves
 * out alone for a file that is not there. */
static void test_beside_self(void)
{
    char out[4096] = "default";
    CHECK(ku_beside_self("test_util", X_OK, out, sizeof out) == 0);
    CHECK(out[0] == '/');
    size_t len = strlen(out);
    CHECK(len > 10 && strcmp(out + len - 10, "/test_util") == 0);
    CHECK(access(out, X_OK) == 0);
    char small[8] = "default";
    CHECK(ku_beside_self("test_util", X_OK, small, sizeof small) == -1);
    CHECK(strcmp(small, "default") == 0);
    strcpy(out, "default");
    CHECK(ku_beside_self("no-such-file-keel", R_OK, out, sizeof out) == -1);
    CHECK(strcmp(out, "default") == 0);
}

/* FNV-1a 64: the published vectors (Noll's test suite: "", "a",
 * "foobar"), computed by hand in Python as well; keel's start value
 * continued over "a" and over "keel" with its NUL (the stored hashes'
 * form); one update in pieces equals one over the whole; the word step. */
static void test_fnv(void)
{
    CHECK(ku_fnv1a64("", 0) == 0xcbf29ce484222325ULL);
    CHECK(ku_fnv1a64("a", 1) == 0xaf63dc4c8601ec8cULL);
    CHECK(ku_fnv1a64("foobar", 6) == 0x85944171f73967e8ULL);
    CHECK(KU_FNV1A64_INIT == 14695981039346656037ULL);
    CHECK(KU_FNV1A64_PRIME == 1099511628211ULL);
    CHECK(KU_FNV_KEEL_START == 0x14650fb0739d0383ULL);
    CHECK(ku_fnv1a64_update(KU_FNV_KEEL_START, "a", 1) == 0x44bd8ad473cd9906ULL);
    CHECK(ku_fnv1a64_update(KU_FNV_KEEL_START, "keel", 5) == 0xaa3243be6b4b167aULL);
    CHECK(ku_fnv1a64_update(ku_fnv1a64_update(KU_FNV1A64_INIT, "foo", 3), "bar", 3) ==
          0x85944171f73967e8ULL);
    CHECK(ku_fnv1a64_update(7, NULL, 0) == 7);
    CHECK(ku_fnv1a64_word(KU_FNV1A64_INIT, 'a') == 0xaf63dc4c8601ec8cULL);
}

int main(void)
{
    test_fnv();
    test_buf();
    test_push();
    test_tmp();
    test_msg();
    test_beside_self();
    return check_summary();
}
