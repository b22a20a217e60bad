/* expect: no-hand-made-tracefs-path - a tracefs path spelled out */
/* SPDX-License-Identifier: GPL-2.0-only */
static const char *trace = "/sys/kernel/tracing/trace";
