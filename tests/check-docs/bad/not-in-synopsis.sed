# file: man/man8/demo.8
# expect: option -x missing from the SYNOPSIS of
# the man page's SYNOPSIS leaves out -x, which getopt accepts
s/^\[\\-hx\] /[\\-h] /
