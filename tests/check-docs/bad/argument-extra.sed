# file: tools/demo.c
# expect: -x takes no argument \(getopt\) but its usage line shows one$
# the usage line of -x, which takes no argument, shows one
s/^"                 -x              #/"                 -x level        #/
