/* SPDX-License-Identifier: GPL-2.0-only */
/* tcpretrans - trace TCP retransmits, with addresses, ports and state
 *
 * Prints one line per TCP retransmit from the tcp:tcp_retransmit_skb
 * tracepoint (Linux 4.15+), which carries the socket's addresses, ports and
 * state, so nothing is read from /proc/net/tcp. IPv4 and IPv6. With -l, TCP
 * tail loss probes too: from a tcp:tcp_send_loss_probe tracepoint where the
 * kernel has one, else from a kprobe on tcp_send_loss_probe() reading the
 * socket's struct sock_common. With -s, the kernel stack of each event.
 *
 * Overhead is relative to the retransmit rate, which is normally low: only
 * retransmits are traced, not every packet. Each event is copied to user
 * space and printed.
 */
#include <arpa/inet.h>
#include <netinet/in.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>

#include "clock.h"
#include "decode.h"
#include "errlog.h"
#include "filter.h"
#include "format.h"
#include "kernel.h"
#include "kstack.h"
#include "line.h"
#include "msg.h"
#include "options.h"
#include "output.h"
#include "probes.h"
#include "session.h"
#include "signals.h"
#include "stream.h"

static const char usage_text[] =
"USAGE: tcpretrans [-hjls]\n"
"                  -h      # help message\n"
"                  -j      # JSON Lines, one object per event (also --json)\n"
"                  -l      # trace TCP tail loss probes (also --tlp)\n"
"                  -s      # print stack traces (also --stacks)\n"
"   eg,\n"
"       tcpretrans         # trace TCP retransmits\n"
"       tcpretrans -l      # also trace TCP tail loss probes\n"
"\n";

/*
 * The kprobe for -l reads struct sock_common at the offsets x86_64 kernels
 * have had since 3.x: daddr 0, rcv_saddr 4, dport 12 (network order), num 14,
 * family 16, state 18, v6_daddr 56, v6_rcv_saddr 72. Field names match the
 * tracepoint's so one decoder serves both. They are proven at startup on a
 * connection of our own (tlp_prove), through PROOF_FUNC, which takes the
 * socket first as TLP_FUNC does, within PROOF_S seconds.
 */
#define TLP_FUNC "tcp_send_loss_probe"
#define PROOF_FUNC "tcp_sendmsg"
#define PROOF_S 1.5
#define TLP_ARGS(a) \
	"daddr=+0(" a "):u8[4] saddr=+4(" a "):u8[4] dport_be=+12(" a "):u16 " \
	"sport=+14(" a "):u16 family=+16(" a "):u16 state=+18(" a "):u8 " \
	"daddr_v6=+56(" a "):u8[16] saddr_v6=+72(" a "):u8[16]"

/* TCP states as include/net/tcp_states.h numbers them */
static const char *const tcp_states[] = {
	"NULL", "ESTABLISHED", "SYN_SENT", "SYN_RECV", "FIN_WAIT1", "FIN_WAIT2",
	"TIME_WAIT", "CLOSE", "CLOSE_WAIT", "LAST_ACK", "LISTEN", "CLOSING",
	"NEW_SYN_RECV", "BOUND_INACTIVE",
};

struct opts {
	int tlp, stacks;	/* -s: each row waits for its stack (kstack_hold) */
};

static struct opts o;

/* parse - options (also --tlp, --stacks); no arguments */
static void parse(int argc, char **argv)
{
	static const struct option longs[] = {
		{ "tlp", no_argument, NULL, 'l' },
		{ "stacks", no_argument, NULL, 's' },
		{ NULL, 0, NULL, 0 },
	};
	int c;

	while ((c = opt_next(argc, argv, "hjls", longs, usage_text)) != -1) {
		switch (c) {
		case 'l': o.tlp = 1; break;
		case 's': o.stacks = 1; break;
		}
	}
	if (optind < argc)
		opt_usage("unexpected argument '%.40s'", argv[optind]);
	if (out_json && o.stacks)
		opt_usage("-s prints text stacks: not with -j");
}

static struct session *sess;
static int mono;		/* timestamps on the mono clock */

/* one traced event (the handlers' ctx): its row marker ("R" or "L") */
struct src {
	const char *mark;
	int v6_unproven;	/* its IPv6 addresses not proven: shown as "-" */
};

/* fmt_state - TCP state name without TCP_, "-" if the kernel does not say */
static const char *fmt_state(struct tep_event *ev, struct tep_record *rec, char *buf,
			     size_t len)
{
	unsigned long long st;

	if (!decode_has(ev, "state"))
		return "-";
	st = decode_u64(ev, rec, "state");
	if (st < sizeof(tcp_states) / sizeof(tcp_states[0]))
		return tcp_states[st];
	snprintf(buf, len, "%llu", st);
	return buf;
}

/* endpoint - "ADDR:PORT" as one column; JSON: SIDEaddr (null for "-") and SIDEport */
static void endpoint(struct line *l, const char *side, const char *text, unsigned int port)
{
	const char *c = strrchr(text, ':');
	char key[8], addr[64];
	size_t n = c ? (size_t)(c - text) : strlen(text);

	if (!out_json) {
		line_str(l, text, ALIGN_LEFT, 20, -1);
		return;
	}
	if (text[0] == '[' && n >= 2)	/* IPv6: [ADDR] */
		text++, n -= 2;
	snprintf(addr, sizeof(addr), "%.*s", (int)n, text);
	snprintf(key, sizeof(key), "%saddr", side);
	col_str(l, key, strcmp(addr, "-") ? addr : NULL, ALIGN_LEFT, 0, -1);
	snprintf(key, sizeof(key), "%sport", side);
	col_dec(l, key, port, ALIGN_LEFT, 0);
}

/* rec_inet_v4 - is a tcp event's socket IPv4: the family field, else a
 * v4-mapped (or empty) saddr_v6 */
static int rec_inet_v4(struct tep_event *ev, struct tep_record *rec)
{
	static const unsigned char mapped[12] = { [10] = 0xff, [11] = 0xff };
	static const unsigned char zero[16];
	const unsigned char *p;
	int len = 0;

	if (decode_has(ev, "family"))
		return decode_u64(ev, rec, "family") == AF_INET;
	p = decode_raw(ev, rec, "saddr_v6", &len);
	if (!p || len != 16)
		return 1;
	return !memcmp(p, mapped, 12) || !memcmp(p, zero, 16);
}

/* rec_endpoint - "ADDR:PORT" (IPv6 "[ADDR]:PORT", "-" for an address the
 * record does not hold) from the field f4 (v4) or f6 into buf */
static const char *rec_endpoint(struct tep_event *ev, struct tep_record *rec, int v4,
				const char *f4, const char *f6, unsigned int port,
				char *buf, size_t len)
{
	char addr[INET6_ADDRSTRLEN] = "-";
	const void *p;
	int n = 0;

	p = decode_raw(ev, rec, v4 ? f4 : f6, &n);
	if (p && n == (v4 ? 4 : 16))
		inet_ntop(v4 ? AF_INET : AF_INET6, p, addr, sizeof(addr));
	snprintf(buf, len, v4 ? "%s:%u" : "[%s]:%u", addr, port);
	return buf;
}

/* what a row shows of an event's socket */
struct row {
	unsigned int sport, dport;
	char laddr[64], raddr[64], st[24];
	const char *state;
};

/* row_fields - the ports, "ADDR:PORT" endpoints and state of an event's socket */
static void row_fields(struct tep_event *ev, struct tep_record *rec, struct row *r)
{
	int v4 = rec_inet_v4(ev, rec);

	r->sport = decode_u64(ev, rec, "sport");
	if (decode_has(ev, "dport_be"))
		r->dport = ntohs((uint16_t)decode_u64(ev, rec, "dport_be"));
	else
		r->dport = decode_u64(ev, rec, "dport");
	rec_endpoint(ev, rec, v4, "saddr", "saddr_v6", r->sport, r->laddr, sizeof(r->laddr));
	rec_endpoint(ev, rec, v4, "daddr", "daddr_v6", r->dport, r->raddr, sizeof(r->raddr));
	r->state = fmt_state(ev, rec, r->st, sizeof(r->st));
}

/* on_event - one row: TIME PID LADDR:LPORT R> RADDR:RPORT STATE */
static void on_event(const struct stream_rec *r)
{
	static struct line line;
	const struct src *src = r->ctx;
	struct row row;
	char now[16];
	time_t t = time(NULL);

	strftime(now, sizeof(now), "%H:%M:%S", localtime(&t));
	row_fields(r->ev, r->rec, &row);
	if (src->v6_unproven && !rec_inet_v4(r->ev, r->rec)) {
		snprintf(row.laddr, sizeof(row.laddr), "[-]:%u", row.sport);
		snprintf(row.raddr, sizeof(row.raddr), "[-]:%u", row.dport);
	}
	line_begin(&line, mono ? r->rec->ts : LINE_NO_TIME);
	line_str(&line, now, ALIGN_LEFT, 8, -1);	/* text only: when read; JSON: the event's time */
	line_add(&line, " ");
	col_dec(&line, "pid", decode_pid(r->ev, r->rec), ALIGN_LEFT, 6);
	line_add(&line, " ");
	endpoint(&line, "l", row.laddr, row.sport);
	line_add(&line, " ");
	col_str(&line, "type", src->mark, ALIGN_LEFT, 0, -1);
	line_add(&line, "> ");
	endpoint(&line, "r", row.raddr, row.dport);
	line_add(&line, " ");
	col_str(&line, "state", strcmp(row.state, "-") ? row.state : NULL, ALIGN_LEFT, 12, -1);
	line_add(&line, "\n");
	if (!o.stacks) {
		line_put(&line);
		return;
	}
	kstack_hold(r->cpu, line.buf, line.n);
	line.n = 0;
}

/* on_stack - the kernel stack recorded right after an event on its CPU (-s) */
static void on_stack(const struct stream_rec *r)
{
	kstack_under(sess, r->ev, r->rec, r->cpu);
}

/* on_gap - events were lost on rec's CPU, before rec: the row held there may
 * have lost its stack */
static void on_gap(const struct tep_record *rec, void *arg)
{
	(void)arg;
	kstack_release(rec->cpu);
}

/* proof - a loopback connection of our own and what the check read for it */
struct proof {
	int family;
	char laddr[64], raddr[64];	/* as a row shows them */
	int res;			/* 1: read right; -1: wrong (got); 2: no loopback */
	char got[160];
};

/* sock_text - "ADDR:PORT" (IPv6 "[ADDR]:PORT") of a, as a row shows it */
static void sock_text(const struct sockaddr_storage *a, char *buf, size_t len)
{
	const struct sockaddr_in *v4 = (const struct sockaddr_in *)a;
	const struct sockaddr_in6 *v6 = (const struct sockaddr_in6 *)a;
	char addr[INET6_ADDRSTRLEN];

	if (a->ss_family == AF_INET) {
		inet_ntop(AF_INET, &v4->sin_addr, addr, sizeof(addr));
		snprintf(buf, len, "%s:%u", addr, ntohs(v4->sin_port));
	} else {
		inet_ntop(AF_INET6, &v6->sin6_addr, addr, sizeof(addr));
		snprintf(buf, len, "[%s]:%u", addr, ntohs(v6->sin6_port));
	}
}

/* proof_conn - connect to a listener of our own on loopback (fd[0], fd[1]);
 * the endpoints a row must show in p; -1 if the family has no loopback. IPv4
 * from 127.0.0.2 to 127.0.0.1; IPv6 has one loopback address, ::1 */
static int proof_conn(struct proof *p, int fd[2])
{
	struct sockaddr_storage a = { 0 }, b = { 0 };
	socklen_t n = p->family == AF_INET ? sizeof(struct sockaddr_in) : sizeof(struct sockaddr_in6);
	socklen_t nb = n;

	a.ss_family = b.ss_family = p->family;
	if (p->family == AF_INET) {	/* two addresses, so that a swap shows */
		((struct sockaddr_in *)&a)->sin_addr.s_addr = htonl(INADDR_LOOPBACK);
		((struct sockaddr_in *)&b)->sin_addr.s_addr = htonl(INADDR_LOOPBACK + 1);
	} else {
		((struct sockaddr_in6 *)&a)->sin6_addr = in6addr_loopback;
		((struct sockaddr_in6 *)&b)->sin6_addr = in6addr_loopback;
	}
	fd[0] = socket(p->family, SOCK_STREAM | SOCK_CLOEXEC, 0);
	fd[1] = socket(p->family, SOCK_STREAM | SOCK_CLOEXEC, 0);
	if (fd[0] < 0 || fd[1] < 0 || bind(fd[0], (struct sockaddr *)&a, n) < 0 ||
	    listen(fd[0], 1) < 0 || getsockname(fd[0], (struct sockaddr *)&a, &n) < 0 ||
	    bind(fd[1], (struct sockaddr *)&b, nb) < 0 ||
	    connect(fd[1], (struct sockaddr *)&a, n) < 0 ||
	    getsockname(fd[1], (struct sockaddr *)&b, &nb) < 0)
		return -1;
	sock_text(&b, p->laddr, sizeof(p->laddr));
	sock_text(&a, p->raddr, sizeof(p->raddr));
	return 0;
}

/* proof_record - a record of the check's kprobe: what it read against what is known */
static int proof_record(struct tep_event *ev, struct tep_record *rec, int cpu, void *data)
{
	struct proof *p = data;
	struct row r;

	(void)cpu;
	if (p->res || strcmp(ev->name, "tlp_proof") || decode_pid(ev, rec) != (int)getpid())
		return 0;
	row_fields(ev, rec, &r);
	p->res = !strcmp(r.laddr, p->laddr) && !strcmp(r.raddr, p->raddr) &&
		 !strcmp(r.state, "ESTABLISHED") ? 1 : -1;
	snprintf(p->got, sizeof(p->got), "%s -> %s %s", r.laddr, r.raddr, r.state);
	return 0;
}

/*
 * tlp_prove - the kprobe's reads of struct sock_common, checked before they
 * are trusted: the same fetchargs on tcp_sendmsg(), whose first argument is
 * the socket as tcp_send_loss_probe()'s is, must read the addresses, ports
 * and state of a loopback connection of our own that sends a byte (IPv4, and
 * IPv6 where there is a loopback for it). Dies with one line if they do
 * not; 1 if IPv6 could not be checked (its addresses are then not shown).
 */
static int tlp_prove(struct session *s, const char *args)
{
	struct proof p[2] = { { .family = AF_INET }, { .family = AF_INET6 } };
	char filter[48];
	int fd[2], k;
	double t0;

	if (probe_add(s, "tlp_proof", 0, PROOF_FUNC, args) < 0)
		msg_die(EXIT_ERR, "-l: cannot check how kprobes read a socket here: a kprobe on "
			PROOF_FUNC "() was refused");
	format_load(s, (const char *const[]){ s->group, NULL });
	if (!format_event(s, s->group, "tlp_proof"))
		msg_die(EXIT_ERR, "-l: cannot parse the format of the socket check's kprobe");
	snprintf(filter, sizeof(filter), "common_pid == %d", (int)getpid());
	session_filter(s, s->group, "tlp_proof", filter, NULL);
	if (tracefs_event_enable(s->inst, s->group, "tlp_proof") < 0)
		msg_die(EXIT_ERR, "-l: cannot enable the socket check's kprobe:");
	session_start(s);
	for (k = 0; k < 2; k++) {
		fd[0] = fd[1] = -1;
		if (proof_conn(&p[k], fd) < 0) {
			if (k == 0)
				msg_die(EXIT_ERR, "-l: cannot make a loopback connection to check "
					"how kprobes read a socket:");
			p[k].res = 2;	/* no IPv6 loopback to check with */
		} else if (send(fd[1], "x", 1, MSG_DONTWAIT | MSG_NOSIGNAL) != 1) {
			msg_die(EXIT_ERR, "-l: cannot send on the check's loopback connection:");
		}
		for (t0 = clock_s(); !p[k].res && clock_s() - t0 < PROOF_S; usleep(2000))
			tracefs_iterate_raw_events(s->tep, s->inst, NULL, 0, proof_record, &p[k]);
		if (fd[0] >= 0)
			close(fd[0]);
		if (fd[1] >= 0)
			close(fd[1]);
		if (p[k].res <= 0)
			msg_die(EXIT_ERR, "-l: refused: for a known %s connection %s -> %s, a kprobe "
				"reading struct sock_common gave %s; the offsets -l uses do not "
				"hold on this kernel", k ? "IPv6" : "IPv4", p[k].laddr, p[k].raddr,
				p[k].res ? p[k].got : "no event");
	}
	tracefs_event_disable(s->inst, s->group, "tlp_proof");
	return p[1].res == 2;
}

/* tlp_kprobe - define the tail loss probe kprobe, its reads proven; die with
 * the reason if impossible; 1 if its IPv6 addresses could not be proven */
static int tlp_kprobe(struct session *s)
{
	const char *args = NULL;
	int v6_unproven;

	if (!kernel_has(KF_KPROBES))
		msg_die(EXIT_ERR, "-l needs kprobes (no tcp:tcp_send_loss_probe tracepoint "
			"and no kprobe_events in this kernel)");
	if (kernel_has(KF_ARGN))
		args = TLP_ARGS("$arg1");
#ifdef __x86_64__
	else
		args = TLP_ARGS("%di");
#endif
	if (!args)
		msg_die(EXIT_ERR, "-l: this kernel's kprobes cannot fetch function arguments ($argN)");
	v6_unproven = tlp_prove(s, args);
	if (probe_add(s, "tcp_send_loss_probe", 0, TLP_FUNC, args) < 0) {
		errlog_warn(NULL, "-l: cannot create a kprobe on %s()", TLP_FUNC);
		exit(EXIT_ERR);
	}
	return v6_unproven;
}

int main(int argc, char **argv)
{
	struct src retrans = { "R", 0 }, tlp = { "L", 0 };
	const char *systems[4] = { "tcp", NULL, NULL, NULL };
	const char *tlp_sys = "tcp";
	struct tep_event *stack_ev;
	char *self;
	int n = 1;

	msg_init("tcpretrans");
	sig_init();
	parse(argc, argv);
	session_tracefs();
	if (!session_event_exists("tcp", "tcp_retransmit_skb"))
		msg_die(EXIT_ERR, "tracepoint tcp:tcp_retransmit_skb not found (needs Linux 4.15+)");
	if (o.tlp && !session_event_exists("tcp", "tcp_send_loss_probe") && !kernel_has(KF_KPROBES))
		msg_die(EXIT_ERR, "-l needs kprobes (no tcp:tcp_send_loss_probe tracepoint "
			"and no kprobe_events in this kernel)");

	sess = session_open("tcpretrans");
	if (o.tlp && !session_event_exists("tcp", "tcp_send_loss_probe")) {
		tlp.v6_unproven = tlp_kprobe(sess);
		tlp_sys = sess->group;
		systems[n++] = sess->group;
	}
	if (o.stacks)
		systems[n++] = "ftrace";
	format_load(sess, systems);
	self = filter_build(0, NULL, NULL);
	if (!stream_follow(sess, "tcp", "tcp_retransmit_skb", self, on_event, &retrans))
		msg_die(EXIT_ERR, "cannot parse the format of tcp:tcp_retransmit_skb");
	if (o.tlp && !stream_follow(sess, tlp_sys, "tcp_send_loss_probe", self, on_event, &tlp))
		msg_die(EXIT_ERR, "cannot parse the format of %s:tcp_send_loss_probe", tlp_sys);
	free(self);
	if (o.stacks) {
		stack_ev = kstack_enable(sess);
		if (!stack_ev)
			msg_die(EXIT_ERR, "kernel stack traces (-s) are not available on this kernel");
		stream_on(stack_ev, on_stack, NULL);
		stream_on_gap(on_gap, NULL);
		stream_on_drained(kstack_drained);
	}

	mono = session_clock(sess, "mono") == 0;	/* JSON's time: the event's own */
	stream_begin(sess, 0);
	out_banner("Tracing TCP retransmits%s. Ctrl-C to end.\n",
		   o.tlp ? " and tail loss probes" : "");
	if (!out_json)
		printf("%-8s %-6s %-20s -- %-20s %-12s\n", "TIME", "PID", "LADDR:LPORT",
		       "RADDR:RPORT", "STATE");
	fflush(stdout);

	stream_run(sess, 0, 0, NULL, NULL);

	stream_end(sess);
	return EXIT_OK;
}
