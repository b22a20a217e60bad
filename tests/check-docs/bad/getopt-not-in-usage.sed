# file: tools/demo.c
# expect: -z is in the getopt string but has no line in the usage text$
# getopt accepts -z, which the usage text does not list
s/":d:hx"/":d:hxz"/
