/* blkio.h - block I/O requests followed from submission to completion */
#ifndef FTT_BLKIO_H
#define FTT_BLKIO_H

#include <sys/types.h>

struct session;

/* one finished request, as blkio hands it to the tool */
struct blkio_done {
	unsigned int dev;		/* the kernel's encoding: major << 20 | minor */
	unsigned long long sector;	/* first sector when started */
	unsigned long long bytes;	/* bytes completed */
	char rwbs[16];			/* TYPE: R, W, WS, FF, ... */
	unsigned long long start_ns;	/* issue (or insert with queue) timestamp */
	unsigned long long end_ns;	/* completion timestamp */
	int pid;			/* submitting process (-1: not known) */
	char comm[16];
};

typedef void (*blkio_fn)(const struct blkio_done *io, void *ctx);

struct blkio_opts {
	int queue;		/* start at block_rq_insert (queue time included) */
	int has_dev;		/* only device dev */
	unsigned int dev;
	const char *type;	/* rwbs glob, or NULL */
	pid_t pid;		/* only I/O submitted by this process's tasks (0: all) */
	int who;		/* follow the submitting process (block_getrq) */
};

/* blkio_option - the block options both tools share: -d maj,min, -i rwbs glob, -Q */
void blkio_option(struct blkio_opts *o, int c, const char *arg);
/* blkio_parse_dev - "major,minor" as the kernel's dev_t encoding; usage error otherwise */
unsigned int blkio_parse_dev(const char *s, const char *what);
/* blkio_check_type - an rwbs glob the kernel filter takes safely; usage error otherwise */
void blkio_check_type(const char *s, const char *what);
/* blkio_dev_str - "major,minor" of a kernel dev value */
char *blkio_dev_str(unsigned int dev, char *buf, size_t len);
/* blkio_filter - the in-kernel filter for -d/-i ("" for none); caller frees */
char *blkio_filter(const struct blkio_opts *o);
/* blkio_start_event - "block_rq_issue", or "block_rq_insert" with queue */
const char *blkio_start_event(const struct blkio_opts *o);
/* blkio_setup - load formats, set filters, enable the block events, hand finished I/O to fn */
void blkio_setup(struct session *s, const struct blkio_opts *o, blkio_fn fn, void *ctx);
/* blkio_unmatched - completions dropped because their start was not traced */
unsigned long long blkio_unmatched(void);
/* blkio_report - say on stderr how many completions were ignored for want of a traced start */
void blkio_report(void);

#endif
