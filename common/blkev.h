/* SPDX-License-Identifier: GPL-2.0-only */
/* blkev.h - the block tools' options, kernel filter and events, read into blkio's pairing */
#ifndef FTT_BLKEV_H
#define FTT_BLKEV_H

#include "blkio.h"

struct session;

/* blkev_option - the block options both tools share: -d device, -i rwbs glob, -Q */
void blkev_option(struct blkio_opts *o, int c, const char *arg);
/* blkev_filter - the in-kernel filter for -d/-i ("" for none); caller frees */
char *blkev_filter(const struct blkio_opts *o);
/* blkev_setup - load formats, set filters, enable the block events, hand finished I/O to fn */
void blkev_setup(struct session *s, const struct blkio_opts *o, blkio_fn fn, void *ctx);

#endif
