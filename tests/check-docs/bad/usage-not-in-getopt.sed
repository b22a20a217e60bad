# file: tools/demo.c
# expect: the usage text shows -x, which the getopt string does not accept$
# getopt does not accept -x, which the usage text lists
s/":d:hx"/":d:h"/
