# file: man/man8/demo.8
# expect: man page lacks OVERHEAD$
# OVERHEAD is there only as the start of a longer section name
s/^\.SH OVERHEAD$/.SH OVERHEADX/
