# file: tools/demo.c
# expect: -x is in the getopt string but not in the USAGE lines$
# the USAGE line leaves out -x, which has its own line below it
s/^"USAGE: demo \[-hx\]/"USAGE: demo [-h]/
