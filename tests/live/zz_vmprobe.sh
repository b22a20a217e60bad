# throwaway: checks what the vm guest offers
t_tracefs() { [ -e /sys/kernel/tracing/trace ] || fail "no tracefs"; }
t_nullblk() { modprobe null_blk && [ -b /dev/nullb0 ] || fail "no nullb0"; }
t_veth() { modprobe veth && ip link add ftv0 type veth peer name ftv1 && ip link show ftv1 >/dev/null && ip link del ftv0 || fail "no veth"; }
t_function() {
	echo function > $T/current_tracer || { fail "function tracer"; return 1; }
	sleep 0.2; n=$(grep -c . $T/trace)
	echo nop > $T/current_tracer; echo > $T/trace
	[ "$n" -gt 20 ] || fail "function trace empty ($n)"
}
t_graph() {
	echo function_graph > $T/current_tracer || { fail "graph"; return 1; }
	sleep 0.2; n=$(grep -c . $T/trace)
	echo nop > $T/current_tracer; echo > $T/trace
	[ "$n" -gt 20 ] || fail "graph trace empty ($n)"
}
t_kprobe() {
	echo 'p:ftvm do_sys_openat2' >> $T/kprobe_events || { fail "kprobe add"; return 1; }
	echo 1 > $T/events/kprobes/ftvm/enable
	cat /etc/passwd >/dev/null
	hits=$(awk '$1=="ftvm"{print $2}' $T/kprobe_profile)
	echo 0 > $T/events/kprobes/ftvm/enable
	echo '-:ftvm' >> $T/kprobe_events; echo > $T/trace
	[ "${hits:-0}" -gt 0 ] || fail "kprobe no hits"
}
t_busybox() {
	date +%s | grep -Eq '^[0-9]+$' && [ "$(id -u)" = 0 ] && echo abc | grep -E -o -q b &&
	grep -l root /etc/passwd >/dev/null && printf 'b\na\n' | sort | head -c 1 | grep -q a &&
	[ "$(seq 3 | wc -l)" -eq 3 ] && mktemp -d >/dev/null && command -v diff cmp awk sed >/dev/null || fail "busybox applet missing"
}
t_skipme() { skip "just a skip"; }
