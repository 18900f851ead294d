/* The executable's isolation of unverifiable file reads: a forked child.
 * It lives in cli/ because ending a process is the executable's decision;
 * the tests and fuzz harnesses link it too (tests/isolate_on.c). */
#include "cli/isolate.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "common/hn.h"

int cli_isolate(void (*fn)(void *), void *arg, char *why, size_t cap)
{
    fflush(NULL); /* or the child would write the parent's buffered output again */
    pid_t pid = fork();
    if (pid < 0) {
        snprintf(why, cap, "fork: %s", strerror(errno));
        return HN_ERR_IO;
    }
    if (pid == 0) {
        fn(arg);
        _exit(0); /* no atexit handlers, no leak report: only the verdict counts */
    }
    int ws;
    while (waitpid(pid, &ws, 0) < 0)
        if (errno != EINTR) {
            snprintf(why, cap, "waitpid: %s", strerror(errno));
            return HN_ERR_IO;
        }
    if (WIFEXITED(ws) && WEXITSTATUS(ws) == 0)
        return 0;
    snprintf(why, cap, "%s %d", WIFSIGNALED(ws) ? "signal" : "exit",
             WIFSIGNALED(ws) ? WTERMSIG(ws) : WEXITSTATUS(ws));
    return HN_ERR_FORMAT;
}
