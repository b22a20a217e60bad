# file: tools/demo.c
# expect: -d takes an argument \(getopt\) but its usage line shows none$
# the usage line of -d, which takes an argument, shows none
s/^"                 -d seconds      #/"                 -d              #/
