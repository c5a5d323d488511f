/* bench_child.h: a benchmark's run in a child process (so that its peak RSS is its own), its
   fixed-size result sent back through a pipe. Its includer defines _DEFAULT_SOURCE (wait4). */
#ifndef IMPACT_BENCH_CHILD_H
#define IMPACT_BENCH_CHILD_H

#include <stddef.h>
#include <stdio.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <unistd.h>

/* run(ctx, out) fills the size bytes at out */
typedef void (*bench_child_run)(const void *ctx, void *out);

/* run(ctx, out) in a child. Returns 1 when the child sent a whole result (in out), -1 when it
   did not (out zeroed), 0 when no child could be made (no pipe or fork; out untouched: the
   caller may run it here instead). ru (NULL: not wanted) gets the child's resource usage. */
static inline int bench_in_child(bench_child_run run, const void *ctx, void *out, size_t size,
                                 struct rusage *ru)
{
    int fd[2];
    if (pipe(fd) != 0) {
        return 0;
    }
    fflush(stdout);
    pid_t pid = fork();
    if (pid < 0) {
        close(fd[0]), close(fd[1]);
        return 0;
    }
    if (pid == 0) {
        close(fd[0]);
        run(ctx, out);
        ssize_t wr = write(fd[1], out, size);
        close(fd[1]);
        _exit(wr == (ssize_t)size ? 0 : 1);
    }
    close(fd[1]);
    size_t got = 0;
    while (got < size) {
        ssize_t k = read(fd[0], (char *)out + got, size - got);
        if (k <= 0) {
            break;
        }
        got += (size_t)k;
    }
    close(fd[0]);
    int status = 0;
    struct rusage usage;
    memset(&usage, 0, sizeof usage);
    wait4(pid, &status, 0, &usage);
    if (ru != NULL) {
        *ru = usage;
    }
    if (got != size) {
        memset(out, 0, size);
        return -1;
    }
    return 1;
}

#endif
