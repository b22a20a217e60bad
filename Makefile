# Makefile - build the ftrace tool suite
#
# make            build bin/<tool> for every tools/<tool>.c
# make static     fully static executables in bin/static/
# make check      unit, live (root) and qemu tests
# make install    PREFIX=/usr/local DESTDIR=

TOOLS    := $(patsubst tools/%.c,%,$(wildcard tools/*.c))
COMMON   := $(wildcard common/*.c)
PREFIX   ?= /usr/local
B        ?= build
BINDIR   ?= bin
CC       ?= cc
PKG      ?= pkg-config
CFLAGS   ?= -O2 -g
WARN     := -Wall -Wextra -Wno-unused-parameter
LIBS_CFLAGS := $(shell $(PKG) --cflags libtracefs libtraceevent)
LIBS     := $(shell $(PKG) --libs libtracefs libtraceevent)
CPPFLAGS += -Icommon -D_GNU_SOURCE $(LIBS_CFLAGS)
ALL_CFLAGS = $(WARN) $(CFLAGS) -MMD -MP

ifeq ($(V),1)
Q :=
msg = @true
else
Q := @
msg = @printf '  %-7s %s\n' $(1) $(2)
endif

.DELETE_ON_ERROR:
.SECONDARY:
.PHONY: all helpers static check check-build check-unit check-live check-vm install clean bench

all: $(addprefix $(BINDIR)/,$(TOOLS)) helpers

$(B)/%.o: %.c
	$(call msg,CC,$<)
	@mkdir -p $(dir $@)
	$(Q)$(CC) $(CPPFLAGS) $(ALL_CFLAGS) -c -o $@ $<

$(B)/libcommon.a: $(patsubst %.c,$(B)/%.o,$(COMMON))
	$(call msg,AR,$@)
	$(Q)$(AR) rcs $@ $^

$(BINDIR)/%: $(B)/tools/%.o $(B)/libcommon.a
	$(call msg,LINK,$@)
	@mkdir -p $(BINDIR)
	$(Q)$(CC) $(ALL_CFLAGS) $(LDFLAGS) -o $@ $^ $(LIBS) -lm

# static: one self-contained executable per tool (glibc static)
STATIC_LIBS = $(shell $(PKG) --static --libs libtracefs libtraceevent)
static: $(addprefix $(BINDIR)/static/,$(TOOLS))

$(BINDIR)/static/%: $(B)/tools/%.o $(B)/libcommon.a
	$(call msg,STATIC,$@)
	@mkdir -p $(BINDIR)/static
	$(Q)$(CC) -static -s $(ALL_CFLAGS) $(LDFLAGS) -o $@ $^ $(STATIC_LIBS) -ldl -lm 2>&1 | grep -v "dlopen\|load_plugin" >&2 || true
	@test -x $@

# unit tests: no root needed
$(B)/tests/unit/%: tests/unit/%.c $(B)/libcommon.a
	$(call msg,CC,$<)
	@mkdir -p $(dir $@)
	$(Q)$(CC) $(CPPFLAGS) $(ALL_CFLAGS) -o $@ $^ $(LIBS) -lm

UNIT := $(patsubst tests/unit/%.c,$(B)/tests/unit/%,$(wildcard tests/unit/*.c))

# helpers: small static workload programs the live tests run (also inside qemu)
HELPERS := $(patsubst tests/helpers/%.c,tests/bin/%,$(wildcard tests/helpers/*.c))
helpers: $(HELPERS)

tests/bin/%: tests/helpers/%.c
	$(call msg,HELPER,$@)
	@mkdir -p tests/bin
	$(Q)$(CC) -static -O2 -Wall -Wextra -o $@ $<

check-unit: $(UNIT)
	@sh tests/run-unit.sh $(UNIT)

check-live: all
	@sh tests/live/run.sh $(BINDIR)

check-vm: all
	@sh tests/vm/run.sh

check: check-build check-unit check-live check-vm

# check-build: the tree builds warning-free with gcc and clang, and compiles with musl
check-build:
	@$(MAKE) -s B=$(B)/gcc BINDIR=$(B)/gcc/bin CC=gcc CFLAGS="-O2 -Werror" all > /dev/null && \
		echo "PASS build/gcc: -Wall -Wextra -Werror"
	@$(MAKE) -s B=$(B)/clang BINDIR=$(B)/clang/bin CC=clang CFLAGS="-O2 -Werror" all > /dev/null && \
		echo "PASS build/clang: -Wall -Wextra -Werror"
	@sh tests/musl-check.sh

bench: all
	@sh bench/run.sh

install: all
	install -d $(DESTDIR)$(PREFIX)/sbin $(DESTDIR)$(PREFIX)/share/man/man8
	install -m 0755 $(addprefix $(BINDIR)/,$(TOOLS)) $(DESTDIR)$(PREFIX)/sbin/
	install -m 0644 $(wildcard man/man8/*.8) $(DESTDIR)$(PREFIX)/share/man/man8/

clean:
	rm -rf $(B) $(BINDIR) tests/bin

-include $(shell find $(B) -name '*.d' 2>/dev/null)
