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
 * child_start - start the process that will run file PATH with ARGV (argv[0]
 * the command as typed) and the tool's environment, by execve: no shell,
 * no word splitting. It waits until child_go; if the tool ends before, it
 * ends without running anything. It runs under a keeper process that waits
 * for it and for every process it starts, orphans included: the end of the
 * last of them stops the tool's loops (sig_request_stop), as a stop signal
 * does. Call it before anything else is opened (the processes keep only
 * stdin, stdout and stderr). Returns the command's PID (the PID to trace,
 * with the children it starts); dies if it cannot be started.
 */
pid_t child_start(const char *path, char *const argv[]);
/* child_shell - child_start of /bin/sh -c COMMAND: the text as the user gave it
 * (--exec), run by the shell; messages name it as given */
pid_t child_shell(const char *command);
/* child_go - let the child run its command; dies naming it if the exec fails (a
 * child that ended before, killed, is left to its SIGCHLD); nothing if no
 * command was started */
void child_go(void);
/* child_keeper - the PID of the keeper: the parent of the command's process */
pid_t child_keeper(void);
/* child_ended - the command and every process it started have ended */
int child_ended(void);
/* child_report - a warning on stderr if a command was started and it or a
 * process it started still runs: the run ended first (-d, Ctrl-C) */
void child_report(void);

#endif
