/* SPDX-License-Identifier: GPL-2.0-only */
/* child.h - the command a tool runs and traces: started held, let go once tracing is on */
#ifndef FTT_CHILD_H
#define FTT_CHILD_H

#include <sys/types.h>

/*
 * child_find - the file execve runs for command NAME: NAME itself when it
 * holds a '/', else the first executable regular file NAME in a directory
 * of $PATH (an empty entry is the current directory; no $PATH:
 * /usr/local/bin:/usr/bin:/bin). malloc'd; NULL with errno ENOENT, or
 * EACCES where a file was found that may not be run.
 */
char *child_find(const char *name);
/*
 * child_start - fork the child that will run file PATH with ARGV (argv[0]
 * the command as typed) and the tool's environment, by execve: no shell,
 * no word splitting. The child waits until child_go; if the tool ends
 * before, the child ends without running anything. Its end stops the tool's
 * loops (sig_request_stop), as a stop signal does. Call it before anything
 * else is opened (the child keeps only stdin, stdout and stderr). Returns
 * the child's PID; dies if it cannot be started.
 */
pid_t child_start(const char *path, char *const argv[]);
/* child_go - let the child run its command; dies naming it if the exec fails (a
 * child that ended before, killed, is left to its SIGCHLD) */
void child_go(void);
/* child_ended - the child has ended (and was waited for) */
int child_ended(void);

#endif
