/* SPDX-License-Identifier: GPL-2.0-only */
/* rp_tcpretrans - tcpretrans's handler (the tool file, built in with its main
 * renamed) over replayed tcp_retransmit_skb records */
#define main tcpretrans_main
#include "../../tools/tcpretrans.c"
#undef main

#include "replay.h"

static struct src retrans = { .mark = "R" };

/* prepare - the handler on tcp:tcp_retransmit_skb, as main sets it */
static void prepare(void)
{
	sess = rp_session();
	stream_on(rp_event("tcp:tcp_retransmit_skb"), on_event, &retrans);
}

/* two_retransmits - IPv4 on CPU 0, IPv6 on CPU 1 read a drain later, a gap before it */
static void two_retransmits(void)
{
	prepare();
	rp_rec(0, 1000, "tcp:tcp_retransmit_skb", "common_pid=4000003 family=2 "
	       "saddr=x:7f000001 daddr=x:7f000001 sport=40000 dport=8080 state=2");
	rp_page(1, 1, 7);
	rp_rec(1, 2000, "tcp:tcp_retransmit_skb", "common_pid=4000004 family=10 "
	       "saddr_v6=x:00000000000000000000000000000001 "
	       "daddr_v6=x:fe800000000000000000000000000002 sport=40001 dport=443 state=1");
	rp_run();
	stream_report_lost(sess);
}

int main(void)
{
	char *out = rp_case(two_retransmits);

	rp_check("tcpretrans/fields_by_name",
		 rp_lines(out, "4000003 127.0.0.1:40000      R> 127.0.0.1:8080       SYN_SENT") == 1 &&
		 rp_lines(out, "4000004 [::1]:40001          R> [fe80::2]:443        ESTABLISHED") == 1 &&
		 rp_lines(out, "WARNING: 7 events lost") == 1, out);
	free(out);
	return rp_done("replay tcpretrans");
}
