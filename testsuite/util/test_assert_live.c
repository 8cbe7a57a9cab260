/*
 * test_assert_live.c -- the unit tests' libraries have their asserts on.
 *
 * Linked with keel_util_checked, the twin of keel_util that the unit tests
 * use.  A child process breaks one of util's stated contracts (a NULL
 * string handed to ku_buf_put); it must die by SIGABRT, the signal of a
 * failed assert().  With the asserts compiled out the same call dies by
 * SIGSEGV instead (or lives), and the test fails.
 */
#include "check.h"
#include "util.h"

#include <fcntl.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

int main(void)
{
    pid_t pid = fork();
    if (pid == 0) {
        int null = open("/dev/null", O_WRONLY);   /* the assert's own message */
        if (null >= 0)
            dup2(null, 2);
        ku_buf b = {0};
        const char *volatile none = NULL;
        ku_buf_put(&b, none);
        _exit(0);
    }
    CHECK(pid > 0);
    int st = 0;
    CHECK(waitpid(pid, &st, 0) == pid);
    CHECK(WIFSIGNALED(st));
    CHECK_INT(WIFSIGNALED(st) ? WTERMSIG(st) : 0, SIGABRT);
    return check_summary();
}
