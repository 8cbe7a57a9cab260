/*
 * spawn.c -- processes for keel's tools (util.h, "processes"): ku_spawn
 * starts a program through posix_spawnp with its standard streams
 * redirected, ku_wait / ku_wait_any / ku_poll give one exit convention
 * (the status, or 128 + the signal).  Built as keel_spawn, which keelcc and
 * the keel tool link and libkeelrt (linked into user programs, which must
 * never start a process of keel's) does not.
 */
#define _GNU_SOURCE         /* posix_spawn_file_actions_addchdir_np (glibc >= 2.29) */
#include "util.h"

#include <assert.h>
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <spawn.h>
#include <stdio.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

extern char **environ;

/* ---- processes ---- */

int ku_spawn(char *const *argv, const ku_io *io, pid_t *pid)
{
    assert(argv && argv[0] && pid);
    posix_spawn_file_actions_t fa;
    int rc = posix_spawn_file_actions_init(&fa);
    if (rc)
        return rc;
    if (io && io->in)
        rc = posix_spawn_file_actions_addopen(&fa, 0, io->in, O_RDONLY, 0);
    if (!rc && io && io->out)
        rc = posix_spawn_file_actions_addopen(&fa, 1, io->out, O_WRONLY | O_CREAT | O_TRUNC,
                                              0600);
    if (!rc && io && io->err_to_out)
        rc = posix_spawn_file_actions_adddup2(&fa, 1, 2);
    else if (!rc && io && io->err)
        rc = posix_spawn_file_actions_addopen(&fa, 2, io->err, O_WRONLY | O_CREAT | O_TRUNC,
                                              0600);
    else if (!rc && io && io->err_fd >= 0 && io->err_fd != 2)
        rc = posix_spawn_file_actions_adddup2(&fa, io->err_fd, 2);
    if (!rc && io && io->dir)
        rc = posix_spawn_file_actions_addchdir_np(&fa, io->dir);
    if (!rc) {
        fflush(NULL);
        rc = posix_spawnp(pid, argv[0], &fa, NULL, argv, environ);
    }
    posix_spawn_file_actions_destroy(&fa);
    return rc;
}

/* One convention for every child: exit status, or 128 + signal. */
static int decode(int st)
{
    if (WIFEXITED(st))
        return WEXITSTATUS(st);
    if (WIFSIGNALED(st))
        return 128 + WTERMSIG(st);
    return -1;
}

int ku_wait(pid_t pid)
{
    int st;
    while (waitpid(pid, &st, 0) < 0)
        if (errno != EINTR)
            return -1;
    return decode(st);
}

int ku_wait_any(pid_t *pid)
{
    int st;
    while ((*pid = waitpid(-1, &st, 0)) < 0)
        if (errno != EINTR)
            return -1;
    return decode(st);
}

int ku_poll(pid_t pid, int *status)
{
    int st;
    pid_t w;
    while ((w = waitpid(pid, &st, WNOHANG)) < 0)
        if (errno != EINTR)
            return -1;
    if (w == 0)
        return 0;
    *status = decode(st);
    return 1;
}

void ku_status_text(int status, char *out, size_t n)
{
    if (status < 0)
        snprintf(out, n, "no exit status");
    else if (status > 128 && status < 128 + 65)
        snprintf(out, n, "killed by signal %d (%s)", status - 128, strsignal(status - 128));
    else
        snprintf(out, n, "exit status %d", status);
}

