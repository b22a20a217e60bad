/* decode.c - event fields by name, on every kernel's layout
 *
 * Fields are found in the format the kernel publishes for each event, so a field
 * added or moved by a newer kernel (block ioprio, 6.x) never shifts a value.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "decode.h"
#include "session.h"

/* decode_has - does the event have a field of this name */
int decode_has(struct tep_event *ev, const char *field)
{
	return tep_find_any_field(ev, field) != NULL;
}

/* decode_u64 - unsigned field value; 0 if the field is missing */
unsigned long long decode_u64(struct tep_event *ev, struct tep_record *rec, const char *field)
{
	unsigned long long v = 0;

	if (tep_get_any_field_val(NULL, ev, field, rec, &v, 0) < 0)
		return 0;
	return v;
}

/* decode_s64 - signed field value, sign-extended from the field's size */
long long decode_s64(struct tep_event *ev, struct tep_record *rec, const char *field)
{
	struct tep_format_field *f = tep_find_any_field(ev, field);
	unsigned long long v;

	if (!f || tep_read_number_field(f, rec->data, &v) < 0)
		return 0;
	switch (f->size) {
	case 1: return (signed char)v;
	case 2: return (short)v;
	case 4: return (int)v;
	default: return (long long)v;
	}
}

/* decode_str - a char array or __data_loc string field, NUL-terminated into buf */
const char *decode_str(struct tep_event *ev, struct tep_record *rec, const char *field,
		       char *buf, size_t len)
{
	int n = 0;
	const char *p;

	buf[0] = '\0';
	p = tep_get_field_raw(NULL, ev, field, rec, &n, 0);
	if (!p || n <= 0)
		return buf;
	if ((size_t)n >= len)
		n = len - 1;
	memcpy(buf, p, n);
	buf[n] = '\0';
	return buf;
}

/* decode_pid - the common_pid of a record */
int decode_pid(struct tep_event *ev, struct tep_record *rec)
{
	return tep_data_pid(ev->tep, rec);
}

/* proc_comm - read /proc/PID/comm into buf; 0 on success */
static int proc_comm(int pid, char *buf, size_t len)
{
	char path[64];
	FILE *f;
	int ok;

	snprintf(path, sizeof(path), "/proc/%d/comm", pid);
	f = fopen(path, "re");
	if (!f)
		return -1;
	ok = fgets(buf, len, f) != NULL;
	fclose(f);
	if (!ok)
		return -1;
	buf[strcspn(buf, "\n")] = '\0';
	return 0;
}

/* decode_comm - process name of PID: trace cmdlines, then /proc, else "<...>" */
const char *decode_comm(struct session *s, int pid)
{
	static double last_load;
	struct timespec ts;
	char comm[64];
	const char *c;
	double now;

	if (pid == 0)
		return "<idle>";
	if (tep_is_pid_registered(s->tep, pid))
		return tep_data_comm_from_pid(s->tep, pid);
	/* reload the kernel's saved cmdlines, at most every 10 ms */
	clock_gettime(CLOCK_MONOTONIC, &ts);
	now = ts.tv_sec + ts.tv_nsec / 1e9;
	if (now - last_load > 0.01) {
		last_load = now;
		tracefs_load_cmdlines(NULL, s->tep);
		if (tep_is_pid_registered(s->tep, pid))
			return tep_data_comm_from_pid(s->tep, pid);
	}
	if (proc_comm(pid, comm, sizeof(comm)) == 0) {
		tep_register_comm(s->tep, comm, pid);
		c = tep_data_comm_from_pid(s->tep, pid);
		return c ? c : "<...>";
	}
	return "<...>";
}

/* load_kallsyms - give libtraceevent the kernel's symbol table (once) */
static void load_kallsyms(struct session *s)
{
	static int loaded;
	char *buf = NULL;
	size_t cap = 0, len = 0, n;
	FILE *f;

	if (loaded)
		return;
	loaded = 1;
	f = fopen("/proc/kallsyms", "re");
	if (!f)
		return;
	do {
		if (cap - len < 65536) {
			char *nb = realloc(buf, cap + 1048576);

			if (!nb)
				break;
			buf = nb;
			cap += 1048576;
		}
		n = fread(buf + len, 1, cap - len - 1, f);
		len += n;
	} while (n > 0);
	fclose(f);
	if (buf) {
		buf[len] = '\0';
		tep_parse_kallsyms(s->tep, buf);
		free(buf);
	}
}

/* decode_ksym - kernel symbol for an address ("sym+0xoff"), loading kallsyms once */
const char *decode_ksym(struct session *s, unsigned long long addr, char *buf, size_t len)
{
	const char *name;
	unsigned long long start;

	load_kallsyms(s);
	name = tep_find_function(s->tep, addr);
	if (!name) {
		snprintf(buf, len, "0x%llx", addr);
		return buf;
	}
	start = tep_find_function_address(s->tep, addr);
	if (addr > start)
		snprintf(buf, len, "%s+0x%llx", name, addr - start);
	else
		snprintf(buf, len, "%s", name);
	return buf;
}
