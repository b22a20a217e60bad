/* expect: no-hand-made-tracefs-path - a tracefs path spelled out */
static const char *trace = "/sys/kernel/tracing/trace";
