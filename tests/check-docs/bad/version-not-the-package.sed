# file: debian/changelog
# expect: VERSION says '0.0-demo', debian/changelog '0.0-other'$
# the package's version is not the VERSION file's
1s/(0.0-demo)/(0.0-other)/
