/* SPDX-License-Identifier: GPL-2.0-only */
/* leftover.h - what dead runs of this suite left in tracefs, removed and named */
#ifndef FTT_LEFTOVER_H
#define FTT_LEFTOVER_H

#include "active.h"

/*
 * leftover_reap - reaper_reap(), and fn once for each instance, probe group and
 * journal of a run that was gone before it and is gone after (removed)
 */
void leftover_reap(active_fn fn, void *arg);

#endif
