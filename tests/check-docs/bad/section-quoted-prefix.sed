# file: man/man8/demo.8
# expect: man page lacks EXIT STATUS$
# EXIT STATUS is there only as the start of a longer quoted section name
s/^\.SH "EXIT STATUS"$/.SH "EXIT STATUSES"/
