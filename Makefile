# SPDX-License-Identifier: GPL-2.0-only
# Makefile - build the ftrace tool suite
#
# make            build bin/<tool> for every tools/<tool>.c
# make static     fully static executables in bin/static/
# make check      unit, live (root) and qemu tests
# make install    PREFIX=/usr/local DESTDIR= (SBINDIR=: where the tools go;
#                 ALIASDIR=: where TOOL-ftrace, a name no other package
#                 uses, links to each, default SBINDIR)

TOOLS    := $(patsubst tools/%.c,%,$(wildcard tools/*.c))
COMMON   := $(wildcard common/*.c)
PREFIX   ?= /usr/local
B        ?= build
BINDIR   ?= bin
CC       ?= cc
PKG      ?= pkg-config
CFLAGS   ?= -O2 -g
WARN     := -Wall -Wextra
LIBS_CFLAGS := $(shell $(PKG) --cflags libtracefs libtraceevent)
LIBS     := $(shell $(PKG) --libs libtracefs libtraceevent)
CPPFLAGS += -Icommon -D_GNU_SOURCE $(LIBS_CFLAGS)
ALL_CFLAGS = $(WARN) $(CFLAGS) -MMD -MP

# the version the tools print (--version) and the man pages' footer give:
# the VERSION file's number, and in a git tree with commits after the one that
# set it, +N.gHASH (N commits since, HEAD's short hash), then -dirty where the
# tree has uncommitted changes: 0.9.0, 0.9.0+12.g307eba4, 0.9.0+12.g307eba4-dirty
# (make VERSION=... overrides it: the package's build gives its own). Also
# where install puts the examples (-h names them). Only common/options.c uses
# them; it is rebuilt when either changes.
VERSION_BASE := $(shell cat VERSION 2>/dev/null)
ifeq ($(VERSION_BASE),)
$(error no version: no VERSION file)
endif
VERSION  := $(VERSION_BASE)$(shell [ -e .git ] && c=$$(git log -1 --format=%H -- VERSION 2>/dev/null) && \
	[ -n "$$c" ] && n=$$(git rev-list --count "$$c..HEAD") && \
	{ [ "$$n" = 0 ] || printf '+%s.g%s' "$$n" "$$(git rev-parse --short=7 HEAD)"; \
	  git diff --quiet HEAD -- 2>/dev/null || printf -- -dirty; })
DOCDIR   := $(PREFIX)/share/doc/ftrace-tools
SBINDIR  ?= $(PREFIX)/sbin
ALIASDIR ?= $(SBINDIR)
COMPDIR  := $(PREFIX)/share/bash-completion/completions
# the tree built in, where -h finds the man page and example of a tool not
# installed (empty: not named; the package's build leaves it out)
SRCDIR   ?= $(CURDIR)
VERSION_DEFS = -DFTT_VERSION='"$(VERSION)"' -DFTT_DOCDIR='"$(DOCDIR)"' -DFTT_SRCDIR='"$(SRCDIR)"'

ifeq ($(V),1)
Q :=
msg = @true
else
Q := @
msg = @printf '  %-8s %s\n' $(1) $(2)
endif

.DELETE_ON_ERROR:
.SECONDARY:
.PHONY: FORCE all workloads static check check-all check-build check-package check-unit check-live check-vm check-vm-reliability check-asan fuzz fuzz-build install clean bench bench-rungs bench-funcs bench-scope print-version

all: $(addprefix $(BINDIR)/,$(TOOLS)) workloads

$(B)/%.o: %.c
	$(call msg,CC,$<)
	@mkdir -p $(dir $@)
	$(Q)$(CC) $(CPPFLAGS) $(ALL_CFLAGS) -c -o $@ $<

# the version and doc directory options.o was built with: rewritten only when they change
$(B)/version.stamp: FORCE
	@mkdir -p $(B)
	@echo '$(VERSION) $(DOCDIR) $(SRCDIR)' | cmp -s - $@ || echo '$(VERSION) $(DOCDIR) $(SRCDIR)' > $@

$(B)/common/options.o: CPPFLAGS += $(VERSION_DEFS)
$(B)/common/options.o: $(B)/version.stamp

# the x86-64 system call names (names_syscall, common/names.c): the build
# host's <asm/unistd_64.h>, found by the compiler, as "[NR] = "name"," lines.
# A compiler for x86-64 must find it; for another architecture the file is
# empty and the numbers stay numbers. Only common/names.o uses it.
$(B)/gen/sysnames.h:
	$(call msg,GEN,$@)
	@mkdir -p $(dir $@)
	$(Q)printf '#include <asm/unistd_64.h>\n' | $(CC) $(CPPFLAGS) -dM -E -x c - 2>/dev/null | \
		sed -n 's/^#define __NR_\([a-z0-9_]*\) \([0-9][0-9]*\)$$/[\2] = "\1",/p' | sort -u > $@.tmp
	$(Q)if printf '' | $(CC) $(CPPFLAGS) -dM -E -x c - | grep -q '__x86_64__' && \
		[ "$$(wc -l < $@.tmp)" -lt 300 ]; then \
		echo "no <asm/unistd_64.h> with the system call numbers (linux-libc-dev)" >&2; \
		rm -f $@.tmp; exit 1; fi
	$(Q)mv $@.tmp $@

$(B)/common/names.o: CPPFLAGS += -DFTT_SYSNAMES='"$(abspath $(B))/gen/sysnames.h"'
$(B)/common/names.o: $(B)/gen/sysnames.h

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

# unit tests: no root needed. A test may build a common/ file in with
# #include, to reach its static functions; the dependency file then names
# that file as a prerequisite too, so only the test's own source is compiled
$(B)/tests/unit/%: tests/unit/%.c $(B)/libcommon.a
	$(call msg,CC,$<)
	@mkdir -p $(dir $@)
	$(Q)$(CC) $(CPPFLAGS) $(ALL_CFLAGS) -o $@ $< $(B)/libcommon.a $(LIBS) -lm

UNIT := $(patsubst tests/unit/%.c,$(B)/tests/unit/%,$(wildcard tests/unit/*.c))

# workloads: small static programs the live tests run (also inside qemu), from
# tests/workloads/, built into tests/bin/
WORKLOADS := $(patsubst tests/workloads/%.c,tests/bin/%,$(wildcard tests/workloads/*.c))
# preload libraries for fault injection (dynamic builds only)
PRELOADS := $(patsubst tests/preload/%.c,tests/bin/%.so,$(wildcard tests/preload/*.c))
# dynamic copies of the open and exec workloads: their C library calls are
# the ones uprobes on the system's C library see
DYN_WORKLOADS := tests/bin/ftt_open.dyn tests/bin/ftt_exec.dyn tests/bin/ftt_threads.dyn \
	tests/bin/ftt_ucall.dyn
# a 32-bit program, where the compiler makes x86-64 code (the assembler then
# makes i386 code too)
IA32_WORKLOAD := $(if $(findstring x86_64,$(shell $(CC) -dumpmachine)),tests/bin/ftt_ia32)
workloads: $(WORKLOADS) $(PRELOADS) $(DYN_WORKLOADS) $(IA32_WORKLOAD)

tests/bin/ftt_ia32: tests/workloads/ftt_ia32.s
	$(call msg,WORKLOAD,$@)
	@mkdir -p tests/bin
	$(Q)$(CC) -m32 -c -o $@.o $< 2>/dev/null || as --32 -o $@.o $<
	$(Q)ld -m elf_i386 -o $@ $@.o && rm -f $@.o

tests/bin/%.dyn: tests/workloads/%.c
	$(call msg,WORKLOAD,$@)
	@mkdir -p tests/bin
	$(Q)$(CC) -O2 -Wall -Wextra -pthread -o $@ $<

tests/bin/%.so: tests/preload/%.c
	$(call msg,PRELOAD,$@)
	@mkdir -p tests/bin
	$(Q)$(CC) -shared -fPIC -O2 -Wall -Wextra -o $@ $< -ldl

tests/bin/%: tests/workloads/%.c
	$(call msg,WORKLOAD,$@)
	@mkdir -p tests/bin
	$(Q)$(CC) -static -O2 -Wall -Wextra -pthread -o $@ $<

# the replay tier: binary records built from real format files, through the
# real stream and handlers (tests/replay/replay.h); the tracefs calls the stream
# makes are swapped, at link time only, for readers of the prepared pages
comma := ,
REPLAY_WRAP := $(addprefix -Wl$(comma)--wrap=,tracefs_cpu_open tracefs_cpu_close \
	tracefs_cpu_read tracefs_cpu_read_size tracefs_instance_file_read \
	tracefs_instance_file_write tracefs_event_file_read tracefs_event_file_write \
	tracefs_system_events tracefs_error_clear out_batch_end)
# (a case builds a tool file or a common/ file in with #include, which the
# dependency file of a two-source compile does not keep: every one is named)
$(B)/tests/replay/%: tests/replay/%.c tests/replay/replay.c tests/replay/replay.h $(B)/libcommon.a \
		$(wildcard tools/*.c common/*.c common/*.h)
	$(call msg,CC,$<)
	@mkdir -p $(dir $@)
	$(Q)$(CC) $(CPPFLAGS) -Itests/replay -DREPLAY_DIR='"$(abspath tests)"' $(ALL_CFLAGS) -o $@ \
		$< tests/replay/replay.c $(B)/libcommon.a $(REPLAY_WRAP) $(LIBS) -lm

UNIT += $(patsubst tests/replay/%.c,$(B)/tests/replay/%,$(wildcard tests/replay/rp_*.c))

check-unit: $(UNIT)
	@sh tests/run-unit.sh $(UNIT)

# LIVE_TESTS: the test files (tests/live/NAME.sh) that `make check` runs on this
# kernel and in the qemu kernels: "all" (the default), or names, e.g. "tpoint kprobe"
LIVE_TESTS ?= all
LIVE_ALL := $(patsubst tests/live/%.sh,%,$(filter-out tests/live/run.sh,$(wildcard tests/live/*.sh)))
LIVE_SEL = $(if $(filter all,$(LIVE_TESTS)),$(LIVE_ALL),$(LIVE_TESTS))

check-live: all
	@sh tests/live/run.sh $(BINDIR) $(LIVE_SEL)

# in qemu: every tool's tests on 5.10 and 7.3, the kernel-specific ones
# (VM_SPECIFIC in tests/vm/plan.sh) on 6.1 and 6.12, the capture rungs' ones
# (VM_SPECIFIC_PR) on 6.1pr, and the function tools' ones with a few of each
# other tool's (VM_SPECIFIC_PF) on 6.1pf (built here, with the function
# profiler), all less their exit paths (VM_SKIP), which do not change with the kernel version and
# take ten minutes a guest under TCG. In a 6.1 guest of its own, what this host
# cannot run (REL_VM_ONLY): every exit path of the function tools, the
# bad-input rows that need kprobes or function_graph, the user's own session
# with a kprobe, and tools side by side. All of reliability and every exit path
# in a guest (about half an hour under TCG): make check-vm-reliability
REL_VM_ONLY = funccount/exit_* funcgraph/exit_* functrace/exit_* funcslower/exit_* funclatency/exit_* cachestat/exit_* kprobe/exit_* \
	reliability/bad_input_kernel reliability/user_session reliability/side_by_side_*
check-vm: all
	@VM_ONCE=reliability VM_ONCE_ON=6.1 VM_ONCE_ONLY="$(REL_VM_ONLY)" VM_SKIP="*/exit_*" \
		sh tests/vm/run.sh $(LIVE_SEL)

check-vm-reliability: all
	@VM_KERNELS="$${VM_KERNELS:-6.1}" VM_ONCE= VM_ONLY="reliability/* */exit_*" \
		sh tests/vm/run.sh

# check: the host's live tests run once, in check-asan, with the sanitizers
# (the same tests check-live runs on the plain build, which the guests run);
# a second plain pass on this host would add a quarter of an hour and test
# nothing the two do not. The guests (check-vm, niced) run beside check-asan
# and fuzz: two guests leave about a third of two cores idle (a test waiting
# for its tool or its load), and the host's live tests mostly wait too. The
# guests' lines follow the host's, from $(B)/check-vm.log.
check: check-build check-package check-unit
	@mkdir -p $(B); rm -f $(B)/check-vm.log; \
	nice -n 5 $(MAKE) --no-print-directory check-vm LIVE_TESTS="$(LIVE_TESTS)" \
		> $(B)/check-vm.log 2>&1 & vm=$$!; \
	echo "vm: the guests run beside the host's tests; their lines: $(B)/check-vm.log"; \
	$(MAKE) --no-print-directory check-asan LIVE_TESTS="$(LIVE_TESTS)"; a=$$?; \
	$(MAKE) --no-print-directory fuzz; f=$$?; \
	wait $$vm; v=$$?; cat $(B)/check-vm.log; \
	[ $$a -eq 0 ] && [ $$f -eq 0 ] && [ $$v -eq 0 ]

check-all:
	@$(MAKE) --no-print-directory check LIVE_TESTS=all

# check-asan: unit and live tests again with ASan+UBSan (clang); any report fails
ASAN_B    = $(B)/asan
ASAN_LOGS = $(ASAN_B)/reports
ASAN_FLAGS = -O1 -g -fsanitize=address,undefined -fno-sanitize-recover=all -fno-omit-frame-pointer
ASAN_ENV = ASAN_OPTIONS=halt_on_error=1:detect_leaks=1:exitcode=86:log_path=$(abspath $(ASAN_LOGS))/asan \
	UBSAN_OPTIONS=halt_on_error=1:print_stacktrace=1:exitcode=87:log_path=$(abspath $(ASAN_LOGS))/ubsan \
	LSAN_OPTIONS=exitcode=88:suppressions=$(abspath tests/lsan.supp)
check-asan:
	@rm -rf $(ASAN_LOGS) && mkdir -p $(ASAN_LOGS) && chmod 1777 $(ASAN_LOGS)
	@$(MAKE) -s B=$(ASAN_B) BINDIR=$(ASAN_B)/bin CC=clang CFLAGS="$(ASAN_FLAGS)" \
		LDFLAGS="-fsanitize=address,undefined" all $(patsubst $(B)/%,$(ASAN_B)/%,$(UNIT))
	@$(ASAN_ENV) sh tests/run-unit.sh $(patsubst $(B)/%,$(ASAN_B)/%,$(UNIT)) > $(ASAN_B)/unit.log 2>&1; \
		s1=$$?; sed 's/^/asan: /' $(ASAN_B)/unit.log; \
		$(ASAN_ENV) sh tests/live/run.sh $(ASAN_B)/bin $(LIVE_SEL) > $(ASAN_B)/live.log 2>&1; \
		s2=$$?; sed 's/^/asan: /' $(ASAN_B)/live.log; \
		n=$$(grep -lE 'ERROR: |runtime error' $(ASAN_LOGS)/* 2>/dev/null | wc -l); \
		for f in $$(grep -lE 'ERROR: |runtime error' $(ASAN_LOGS)/* 2>/dev/null); do \
			echo "FAIL asan: $$f"; grep -v '^$$' "$$f" | head -30; done; \
		echo "asan: $$n sanitizer reports"; [ $$n -eq 0 ] && [ $$s1 -eq 0 ] && [ $$s2 -eq 0 ]

# fuzz: each libFuzzer harness in tests/fuzz replays its corpus and regression
# inputs, then runs FUZZ_SECONDS (default 30); crashes land in $(FUZZ_B)/crashes
FUZZ_SECONDS ?= 30
FUZZ_B   = $(B)/fuzz
FUZZERS := $(patsubst tests/fuzz/%.c,%,$(wildcard tests/fuzz/fuzz_*.c))
FUZZ_FLAGS = -O1 -g -fsanitize=fuzzer,address,undefined -fno-sanitize-recover=all \
	-fno-omit-frame-pointer -Wl,--wrap=exit
fuzz-build: $(addprefix $(FUZZ_B)/,$(FUZZERS))

# (fuzz_decode builds tools/tcpretrans.c in with #include, as the replay cases do)
$(FUZZ_B)/%: tests/fuzz/%.c tests/fuzz/fuzz.h $(COMMON) $(wildcard common/*.h tools/*.c)
	$(call msg,FUZZ,$@)
	@mkdir -p $(FUZZ_B)
	$(Q)clang $(CPPFLAGS) $(VERSION_DEFS) -DFUZZ_DIR='"$(abspath tests/fuzz)"' -Wall -Wextra \
		$(FUZZ_FLAGS) -o $@ $< $(COMMON) $(LIBS) -lm

fuzz: fuzz-build
	@set -e; for f in $(FUZZERS); do \
		c=$(FUZZ_B)/corpus/$$f; mkdir -p $$c $(FUZZ_B)/crashes; \
		cp tests/fuzz/corpus/$$f/* $$c/ 2>/dev/null || true; \
		if [ -d tests/fuzz/regress/$$f ]; then \
			$(FUZZ_B)/$$f tests/fuzz/regress/$$f/* > $(FUZZ_B)/$$f.regress.log 2>&1 || \
			{ echo "FAIL fuzz/$$f: a regression input crashes"; tail -30 $(FUZZ_B)/$$f.regress.log; exit 1; }; \
		fi; \
		$(FUZZ_B)/$$f -max_total_time=$(FUZZ_SECONDS) -timeout=10 -rss_limit_mb=2048 \
			-artifact_prefix=$(FUZZ_B)/crashes/$$f- $$c > $(FUZZ_B)/$$f.log 2>&1 || \
			{ echo "FAIL fuzz/$$f: crash, see $(FUZZ_B)/$$f.log and $(FUZZ_B)/crashes"; \
			  grep -A20 'ERROR\|runtime error' $(FUZZ_B)/$$f.log | head -40; exit 1; }; \
		runs=$$(sed -n 's/^Done \([0-9]*\) runs in \([0-9]*\) second.*/\1 runs in \2 s/p' $(FUZZ_B)/$$f.log); \
		echo "PASS fuzz/$$f: $$runs, corpus $$(ls $$c | wc -l) inputs, 0 crashes"; \
	done

# check-build: the tree builds warning-free with gcc and clang, and compiles with
# musl; the fuzz harnesses build (they call common/ directly, as the tools do);
# the gcc build's tools pass the command-line checks (no root needed); the
# source and documentation checks fail on known-bad inputs and pass clean ones
check-build:
	@$(MAKE) -s B=$(B)/gcc BINDIR=$(B)/gcc/bin CC=gcc CFLAGS="-O2 -Werror" all > /dev/null && \
		echo "PASS build/gcc: -Wall -Wextra -Werror"
	@sh tests/check-cli.sh $(B)/gcc/bin "$(VERSION)" "$(DOCDIR)" "$(SRCDIR)"
	@sh tests/check-version.sh
	@sh tests/check-completion.sh $(B)/gcc/bin
	@$(MAKE) -s B=$(B)/clang BINDIR=$(B)/clang/bin CC=clang CFLAGS="-O2 -Werror" all > /dev/null && \
		echo "PASS build/clang: -Wall -Wextra -Werror"
	@$(MAKE) -s fuzz-build > /dev/null && echo "PASS build/fuzz: the libFuzzer harnesses build"
	@sh tests/musl-check.sh
	@sh tests/check-selftest.sh

# check-package: the Debian package built out of tree (dpkg-buildpackage),
# lintian-clean, installed, used, removed without a trace, and beside
# libbpf-tools in both orders (root; a host that has ftrace-tools installed
# is left alone)
check-package:
	@sh tests/check-package.sh

# bench: side by side with the bash perf-tools (root); bench/README.md
bench: all
	@BINDIR="$(BINDIR)" B="$(B)" CC="$(CC)" sh bench/run.sh

# bench-rungs: opensnoop's capture rungs against the floor (root); bench/README.md
bench-rungs: all
	@BINDIR="$(BINDIR)" B="$(B)" CC="$(CC)" sh bench/rungs.sh

# bench-scope: opensnoop --cgroup against -p on a busy host (root); bench/README.md
bench-scope: all
	@BINDIR="$(BINDIR)" B="$(B)" CC="$(CC)" sh bench/scope.sh

# bench-funcs: the kernel-function tools per traced call, in a qemu guest (root); bench/README.md
bench-funcs: all
	@BINDIR="$(BINDIR)" B="$(B)" CC="$(CC)" sh bench/funcs.sh

# install: the tools only (the test workloads are not installed)
install: $(addprefix $(BINDIR)/,$(TOOLS))
	install -d $(DESTDIR)$(SBINDIR) $(DESTDIR)$(ALIASDIR) $(DESTDIR)$(PREFIX)/share/man/man8 \
		$(DESTDIR)$(DOCDIR)/examples
	install -m 0755 $(addprefix $(BINDIR)/,$(TOOLS)) $(DESTDIR)$(SBINDIR)/
	for t in $(TOOLS); do \
		ln -sfr $(DESTDIR)$(SBINDIR)/$$t $(DESTDIR)$(ALIASDIR)/$$t-ftrace && \
		ln -sf $$t.8 $(DESTDIR)$(PREFIX)/share/man/man8/$$t-ftrace.8 || exit 1; \
	done
	for m in $(wildcard man/man8/*.8); do \
		sed '1s/"ftrace tools $(VERSION_BASE)"/"ftrace tools $(VERSION)"/' "$$m" \
			> $(DESTDIR)$(PREFIX)/share/man/man8/$${m##*/} && \
		chmod 0644 $(DESTDIR)$(PREFIX)/share/man/man8/$${m##*/} || exit 1; \
	done
	install -m 0644 $(wildcard examples/*_example.txt) $(DESTDIR)$(DOCDIR)/examples/
	install -d $(DESTDIR)$(COMPDIR)
	install -m 0644 completion/ftrace-tools.bash $(DESTDIR)$(COMPDIR)/ftrace-tools
	for t in $(TOOLS); do ln -sf ftrace-tools $(DESTDIR)$(COMPDIR)/$$t; \
		ln -sf ftrace-tools $(DESTDIR)$(COMPDIR)/$$t-ftrace; done

# print-version: the version this tree builds (tests/check-version.sh)
print-version:
	@echo '$(VERSION)'

clean:
	rm -rf $(B) $(BINDIR) tests/bin

-include $(shell find $(B) -name '*.d' 2>/dev/null)
