/* SPDX-License-Identifier: GPL-2.0-only */
/* synflood - make TCP retransmits on loopback, for the tcpretrans tests
 *
 * usage: synflood [-6] [-d] [-n N] [-t SECS]
 *
 * Listens on 127.0.0.1 (or ::1 with -6) on a free port with backlog 0 and
 * never accepts, then connects N non-blocking sockets to it. The first
 * connection fills the accept queue; the SYNs of the others are dropped by
 * the listener, so those sockets stay in SYN_SENT and the kernel retransmits
 * their SYNs (after about 1 s, then 3 s, 7 s...). Prints, flushed:
 *   listen ADDR PORT
 *   syn_sent PORT        (one per socket still connecting: these retransmit)
 *   other PORT STATE     (one per socket that got further, e.g. established)
 *   ready
 * then keeps every socket open for SECS seconds (default 5) and exits 0.
 *
 * -d: retransmits of data in ESTABLISHED instead (tail loss probe, then RTO).
 * The listener (backlog 1, TCP_DEFER_ACCEPT) keeps two handshakes half done
 * by dropping their bare ACKs; B sends a byte and becomes the one queued
 * child; the backlog is lowered to 0; then A sends a byte, which the listener
 * drops because its accept queue is full. A is ESTABLISHED with unacked data.
 * Prints "listen ADDR PORT", "established PORT" (A), "ready".
 * Brings the loopback interface up first if it is down (minimal guests).
 */
#include <arpa/inet.h>
#include <errno.h>
#include <fcntl.h>
#include <net/if.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>

#define MAX_CONN 64

/* die - print the reason and exit 1 */
static void die(const char *what)
{
	fprintf(stderr, "synflood: %s: %s\n", what, strerror(errno));
	exit(1);
}

/* lo_up - set IFF_UP on "lo" if it is down */
static void lo_up(void)
{
	struct ifreq ifr;
	int fd = socket(AF_INET, SOCK_DGRAM, 0);

	if (fd < 0)
		die("socket");
	memset(&ifr, 0, sizeof(ifr));
	strcpy(ifr.ifr_name, "lo");
	if (ioctl(fd, SIOCGIFFLAGS, &ifr) < 0)
		die("SIOCGIFFLAGS lo");
	if (!(ifr.ifr_flags & IFF_UP)) {
		ifr.ifr_flags |= IFF_UP | IFF_RUNNING;
		if (ioctl(fd, SIOCSIFFLAGS, &ifr) < 0)
			die("SIOCSIFFLAGS lo");
		usleep(200000);	/* let ::1 appear */
	}
	close(fd);
}

/* port_of - the port of a socket's local address */
static int port_of(int fd)
{
	struct sockaddr_storage ss;
	socklen_t len = sizeof(ss);

	if (getsockname(fd, (struct sockaddr *)&ss, &len) < 0)
		die("getsockname");
	if (ss.ss_family == AF_INET6)
		return ntohs(((struct sockaddr_in6 *)&ss)->sin6_port);
	return ntohs(((struct sockaddr_in *)&ss)->sin_port);
}

/* tcp_state - the kernel's TCP state of a socket (TCP_INFO) */
static int tcp_state(int fd)
{
	struct tcp_info ti;
	socklen_t len = sizeof(ti);

	if (getsockopt(fd, IPPROTO_TCP, TCP_INFO, &ti, &len) < 0)
		die("TCP_INFO");
	return ti.tcpi_state;
}

static int secs_defer = 30;

/* connect_nb - a non-blocking socket connecting to ss */
static int connect_nb(const struct sockaddr_storage *ss, socklen_t slen)
{
	int fd = socket(ss->ss_family, SOCK_STREAM, 0);

	if (fd < 0)
		die("socket");
	if (fcntl(fd, F_SETFL, O_NONBLOCK) < 0)
		die("fcntl");
	if (connect(fd, (const struct sockaddr *)ss, slen) < 0 && errno != EINPROGRESS)
		die("connect");
	return fd;
}

/* lose_data - leave socket A established with a byte the listener drops (-d) */
static int lose_data(int lfd, const struct sockaddr_storage *ss, socklen_t slen, int secs)
{
	int a, b;

	a = connect_nb(ss, slen);
	b = connect_nb(ss, slen);
	usleep(100000);
	if (tcp_state(a) != TCP_ESTABLISHED || tcp_state(b) != TCP_ESTABLISHED) {
		fprintf(stderr, "synflood: handshakes did not complete\n");
		return 1;
	}
	if (write(b, "b", 1) != 1)
		die("write b");
	usleep(100000);
	if (listen(lfd, 0) < 0)
		die("listen 0");
	if (write(a, "a", 1) != 1)
		die("write a");
	printf("established %d\n", port_of(a));
	printf("ready\n");
	fflush(stdout);
	sleep(secs);
	return 0;
}

int main(int argc, char **argv)
{
	struct sockaddr_storage ss;
	struct sockaddr_in *s4 = (struct sockaddr_in *)&ss;
	struct sockaddr_in6 *s6 = (struct sockaddr_in6 *)&ss;
	int n = 3, secs = 5, v6 = 0, data = 0, c, lfd, i, fds[MAX_CONN];
	socklen_t slen;

	while ((c = getopt(argc, argv, "6dn:t:")) != -1) {
		switch (c) {
		case '6': v6 = 1; break;
		case 'd': data = 1; break;
		case 'n': n = atoi(optarg); break;
		case 't': secs = atoi(optarg); break;
		default:
			fprintf(stderr, "usage: synflood [-6] [-d] [-n N] [-t SECS]\n");
			return 2;
		}
	}
	if (n < 2 || n > MAX_CONN || secs < 0) {
		fprintf(stderr, "synflood: -n must be 2..%d, -t >= 0\n", MAX_CONN);
		return 2;
	}
	lo_up();

	memset(&ss, 0, sizeof(ss));
	if (v6) {
		s6->sin6_family = AF_INET6;
		s6->sin6_addr = in6addr_loopback;
		slen = sizeof(*s6);
	} else {
		s4->sin_family = AF_INET;
		s4->sin_addr.s_addr = htonl(INADDR_LOOPBACK);
		slen = sizeof(*s4);
	}
	lfd = socket(ss.ss_family, SOCK_STREAM, 0);
	if (lfd < 0)
		die("socket");
	if (bind(lfd, (struct sockaddr *)&ss, slen) < 0)
		die(v6 ? "bind [::1]:0" : "bind 127.0.0.1:0");
	if (data && setsockopt(lfd, IPPROTO_TCP, TCP_DEFER_ACCEPT, &secs_defer, sizeof(int)) < 0)
		die("TCP_DEFER_ACCEPT");
	if (listen(lfd, data ? 1 : 0) < 0)
		die("listen");
	slen = sizeof(ss);
	if (getsockname(lfd, (struct sockaddr *)&ss, &slen) < 0)
		die("getsockname");
	printf("listen %s %d\n", v6 ? "::1" : "127.0.0.1", port_of(lfd));
	if (data)
		return lose_data(lfd, &ss, slen, secs);

	for (i = 0; i < n; i++) {
		fds[i] = connect_nb(&ss, slen);
		usleep(20000);	/* each SYN handled before the next */
	}
	usleep(200000);
	for (i = 0; i < n; i++) {
		int st = tcp_state(fds[i]);

		if (st == TCP_SYN_SENT)
			printf("syn_sent %d\n", port_of(fds[i]));
		else
			printf("other %d %d\n", port_of(fds[i]), st);
	}
	printf("ready\n");
	fflush(stdout);
	sleep(secs);
	return 0;
}
