# file: tools/demo.c
# expect: -h has 2 lines in the usage text$
# -h has a second line in the usage text
/^"                 -h              # this usage message/a\
"                 -h              # help\\n"
