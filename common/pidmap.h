/* SPDX-License-Identifier: GPL-2.0-only */
/* pidmap.h - small per-PID (or per-TID) state tables */
#ifndef FTT_PIDMAP_H
#define FTT_PIDMAP_H

struct pidmap;

/* pidmap_new - an empty table; values are released with free_fn (NULL: not freed) */
struct pidmap *pidmap_new(void (*free_fn)(void *));
/* pidmap_get - the value stored for pid, or NULL */
void *pidmap_get(struct pidmap *m, int pid);
/* pidmap_put - store val for pid, releasing the value it replaces */
void pidmap_put(struct pidmap *m, int pid, void *val);
/* pidmap_take - remove pid's value and return it (the caller owns it), or NULL */
void *pidmap_take(struct pidmap *m, int pid);

/* pidmap_sweep - remove and release every entry for which drop(pid, val, arg)
 * is true */
void pidmap_sweep(struct pidmap *m, int (*drop)(int pid, void *val, void *arg), void *arg);

/* pidmap_clear - remove and release every entry (events were lost: what the
 * table waited for may have happened among them) */
void pidmap_clear(struct pidmap *m);

/* pidmap_free - release the table and its values (NULL: nothing) */
void pidmap_free(struct pidmap *m);

#endif
