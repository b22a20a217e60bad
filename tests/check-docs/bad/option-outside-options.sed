# file: man/man8/demo.8
# expect: option -x missing from the OPTIONS of man/man8/demo.8$
# the -x entry moves from OPTIONS to the top of EXAMPLES, where it is set
# just as an OPTIONS entry is: -x is in the page, but not in OPTIONS
/^Print the usage message and exit\.$/,/^Failures for a second:$/c\
Print the usage message and exit.\
.SH EXAMPLES\
.TP\
\\fB\\-x\\fR\
Only show failures:
s/^\.B demo \\-x \\-d 1$/.B demo \\-x/
