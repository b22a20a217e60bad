# file: man/man8/demo.8
# expect: demo.8: '2.7 us' is not in bench/RESULTS.md$
# an OVERHEAD figure no published run has
s/2\.5 us of CPU/2.7 us of CPU/
