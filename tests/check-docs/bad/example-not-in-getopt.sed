# file: tools/demo.c
# expect: the usage text shows -v, which the getopt string does not accept$
# the example in the usage text uses -v, an option getopt does not accept
s/^"       demo -x -d 1              #/"       demo -xv -d 1             #/
