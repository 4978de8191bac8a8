# lore-am - build, test and install.
#   make                 build ./lore-am
#   make check           run the test suite (TAP, through prove; TEST_JOBS
#                        test files at a time, default one per CPU)
#   make SANITIZE=1 check  the same, built with AddressSanitizer and UBSan;
#                        fails when any sanitizer report was written
#   make valgrind-check  the test suite with lore-am and the unit tests run
#                        under valgrind memcheck (no errors, no definite leaks)
#   make fuzz            build the libFuzzer harnesses (clang) and run each
#                        for FUZZ_TIME seconds (default 30); see fuzz/README.md
#                        (make clean keeps fuzz/out/, the corpus grows run
#                        after run; rm -rf fuzz/out to start over)
#   make fuzz-coverage   line coverage of filter/ reached by that corpus
#   make format-check    clang-format --dry-run --Werror over the C sources
#   make layout-check    each folder of filter/ includes only the headers
#                        filter/LAYOUT lets it use
#   make size-check      the files of filter/ over 600 lines, the functions
#                        over 120 (in CI)
#   make bench-index     time -m with its index on a 100 000-message maildir
#   make bench-tree      --apply, --range-diff, --check against b4 and plain git
#                        in a generated kernel-sized tree (BENCH_TREE_ARGS)
#   make install         install under $(PREFIX) (default /usr/local), honours DESTDIR
#   make install-notmuch-hook  install the notmuch post-new hook where notmuch
#                        says its hooks go (after make install)
#   make deps            install the Debian packages the build and tests need
#                        (as root, or with sudo)
#   make example         run lore-am on the bundled example thread
#   make SANITIZE=1 ...  build with AddressSanitizer and UBSan
#   make NO_NOTMUCH=1    build without libnotmuch (-N then says so)

VERSION   = 0.1
PREFIX   ?= /usr/local
BINDIR   ?= $(PREFIX)/bin
MANDIR   ?= $(PREFIX)/share/man
SHAREDIR ?= $(PREFIX)/share/lore-am
DOCDIR   ?= $(PREFIX)/share/doc/lore-am
CC       ?= cc
# No GModule: filter/core/dynlib.c calls dlopen itself (GModule cannot
# ask for RTLD_DEEPBIND), and nothing links -Wl,--export-dynamic, which
# would put all of the binary's functions in its dynamic symbol table,
# where a library loaded later could bind to them.
PKGS      = gmime-3.0 libcurl zlib sqlite3
CFLAGS   ?= -O2 -g
WARN      = -Wall -Wextra -Wno-unused-parameter -Wshadow -Wformat=2
ALL_CFLAGS = $(CFLAGS) $(WARN) -std=gnu11 -D_GNU_SOURCE -DLORE_VERSION='"$(VERSION)"' \
	     $(INCLUDES) $(shell pkg-config --cflags $(PKGS))
ALL_LDFLAGS = $(LDFLAGS)
# libcurl and GMime are not linked: filter/core/dynlib.c loads libcurl
# when a fetch needs it (filter/source/curllib.h), GMime when a mail needs
# more than lore-am's own reading (filter/mail/gmimelib.h); GLib and
# GObject, which GMime's objects share with the program, are. SQLite is
# linked from its static library (libsqlite3-dev ships it): loading
# libsqlite3.so, built with BIND_NOW, was most of what the queue cost a
# mail (filter/core/sqlitelib.h)
SQLITE_A := $(shell pkg-config --variable=libdir sqlite3 2>/dev/null)/libsqlite3.a
LIBS      = $(SQLITE_A) -lm $(shell pkg-config --libs gobject-2.0 zlib)
# the unit tests and fuzz harnesses call GMime themselves as well
TEST_LIBS = $(LIBS) $(shell pkg-config --libs gmime-3.0)
# glibc's DNS message parser (ns_parserr) for the DKIM keys; libopendkim
# itself is loaded when a signed patch is checked (filter/attest/dkimv.c), and
# libsodium and GPGME (headers from libsodium-dev, libgpgme-dev) when a
# developer signature is (filter/attest/edv.c, filter/attest/pgpv.c)
LIBS     += -lresolv

# A missing libsqlite3.a stops the build with the package to install.
# libnotmuch ships no .pc file: look for its header. A missing header
# stops the build rather than quietly leaving -N out (which turned every
# notmuch test into a skip); NO_NOTMUCH=1 builds without it on purpose.
# make deps (which installs both), clean and the format, layout and size
# checks do not need them.
NO_BUILD_GOALS = deps clean format-check layout-check size-check
ifneq ($(filter-out $(NO_BUILD_GOALS),$(or $(MAKECMDGOALS),all)),)
ifeq ($(wildcard $(SQLITE_A)),)
$(error libsqlite3.a not found: install libsqlite3-dev)
endif
endif
ifndef NO_NOTMUCH
ifneq ($(filter-out $(NO_BUILD_GOALS),$(or $(MAKECMDGOALS),all)),)
HAVE_NOTMUCH := $(shell printf '\043include <notmuch.h>\n' | \
	$(CC) $(CPPFLAGS) -E -x c - >/dev/null 2>&1 && echo yes)
ifneq ($(HAVE_NOTMUCH),yes)
$(error notmuch.h not found: install libnotmuch-dev, or build with NO_NOTMUCH=1)
endif
endif
endif
# libnotmuch is not linked either: filter/source/nmlib.c loads it when -N
# needs it
ifdef NO_NOTMUCH
ALL_CFLAGS += -DLORE_NO_NOTMUCH
endif

ifdef DEVELOPER
WARN += -Werror
endif
# Any finding is fatal (no recovery), so a test can never pass over one.
SAN_FLAGS = -fsanitize=address,undefined -fno-sanitize-recover=all \
	    -fno-omit-frame-pointer
ifdef SANITIZE
ALL_CFLAGS += $(SAN_FLAGS)
ALL_LDFLAGS += $(SAN_FLAGS)
endif

# filter/ holds one folder per stage, in the order data flows through
# them (filter/README.md); filter/LAYOUT says which folders each may use.
# The library is every folder's objects but cli/main.c's.
LIB_OBJS = $(patsubst %.c,%.o, \
	   $(filter-out filter/cli/main.c,$(sort $(wildcard filter/*/*.c))))
HEADERS = $(wildcard filter/*/*.h)
# an #include names the header's folder: "series/series.h"
INCLUDES = -Ifilter
SNIPPETS = mutt/lore-am.muttrc hooks/aerc-binds.conf hooks/procmailrc \
	   hooks/maildrop notmuch/lore-am.el
UNIT_TESTS = $(patsubst %.c,%,$(wildcard tests/unit/test-*.c))
TESTS = tests/unit/run-units.t $(sort $(wildcard tests/t*.t))

# Rebuild everything when the compiler or its flags change (a SANITIZE=1
# build must never be mixed with a plain one).
BUILD_FLAGS = filter/.build-flags
TRACK = $(subst ','\'',$(CC) $(ALL_CFLAGS) $(ALL_LDFLAGS) $(LIBS))

all: lore-am

$(BUILD_FLAGS): FORCE
	@echo '$(TRACK)' | cmp -s - $@ || echo '$(TRACK)' > $@

lore-am: filter/cli/main.o filter/liblore.a
	$(CC) $(ALL_LDFLAGS) -o $@ filter/cli/main.o filter/liblore.a $(LIBS)

filter/liblore.a: $(LIB_OBJS)
	rm -f $@ && ar rcs $@ $(LIB_OBJS)

filter/%.o: filter/%.c $(HEADERS) $(BUILD_FLAGS)
	$(CC) $(ALL_CFLAGS) -c -o $@ $<

tests/unit/test-%: tests/unit/test-%.c tests/unit/tap.h filter/liblore.a
	$(CC) $(ALL_CFLAGS) $(ALL_LDFLAGS) -o $@ $< filter/liblore.a $(TEST_LIBS)

# The fuzz harnesses built with $(CC) and a plain main() (fuzz/standalone.c):
# `make check` replays the saved crash inputs and the seeds through them.
FUZZ_NAMES = message thread subject trailer mboxrd gzip dnstxt appendlog \
	pullreq gate tyjson prereq url maintainers pullsig mergemsg sshkey \
	indexline gitalt
FUZZ_REPLAY = $(patsubst %,fuzz/replay-%,$(FUZZ_NAMES))

fuzz/replay-%: fuzz/fuzz-%.c fuzz/standalone.c fuzz/fuzz.h filter/liblore.a
	$(CC) $(ALL_CFLAGS) $(ALL_LDFLAGS) -o $@ $< fuzz/standalone.c \
		filter/liblore.a $(TEST_LIBS)

units: $(UNIT_TESTS) $(FUZZ_REPLAY)

# Sanitizer reports go to files (and the exit status 86, which no test
# expects), so that one in a test that does not look at stderr is caught.
TOOL_LOGS = $(CURDIR)/tests/.tool-logs
# each test file has its own scratch folder, servers on free ports and its
# own tmux socket, so files run side by side
TEST_JOBS ?= $(shell nproc 2>/dev/null || echo 2)
# intercept_tls_get_addr=0: the runtime's reading of the thread-local
# blocks of a library loaded with dlopen (GMime's GIO, libselinux...) takes
# a glibc of 2.25 or later for an older one now and then, and LeakSanitizer
# then crashes at exit scanning a range that is not memory
# (google/sanitizers#1322); those blocks hold no heap pointers of ours
ifdef SANITIZE
TEST_ENV = LORE_AM_TOOL=sanitize \
	ASAN_OPTIONS=exitcode=86:detect_leaks=1:strict_string_checks=1:detect_stack_use_after_return=1:check_initialization_order=1:intercept_tls_get_addr=0:log_path=$(TOOL_LOGS)/asan \
	UBSAN_OPTIONS=halt_on_error=1:print_stacktrace=1:exitcode=86:log_path=$(TOOL_LOGS)/ubsan
endif

check: lore-am units
	@rm -rf $(TOOL_LOGS) && mkdir -p $(TOOL_LOGS)
	$(TEST_ENV) prove -j$(TEST_JOBS) -f $(TESTS)
	@tests/tool-report $(TOOL_LOGS)

# The whole suite under valgrind takes about 20 minutes on two cores.
VALGRIND_TESTS ?= $(TESTS)
# CI's share of it (about a fifth of the time): the unit tests and one
# file for each stage and source, so every module runs under valgrind.
# The whole suite still runs with ASan and UBSan (make SANITIZE=1 check).
VALGRIND_CI_TESTS = tests/unit/run-units.t tests/t0100-b4-conformance.t \
	tests/t0500-fuzz-replay.t \
	tests/t1000-basic.t tests/t1010-revisions.t tests/t1015-inner-patch.t \
	tests/t1040-bodies.t tests/t1050-input.t tests/t3000-lore-fetch.t \
	tests/t4000-notmuch.t tests/t5000-passthrough.t \
	tests/t7030-index-faults.t \
	tests/t7100-attest-dkim.t tests/t7130-attest-big-key.t tests/t9120-check.t

valgrind-check: lore-am units
ifdef SANITIZE
	$(error valgrind-check needs a build without SANITIZE)
endif
	@rm -rf $(TOOL_LOGS) && mkdir -p $(TOOL_LOGS)
	LORE_AM_TOOL=valgrind LORE_TOOL_LOGS=$(TOOL_LOGS) \
	LORE_AM_REAL=$(CURDIR)/lore-am LORE_AM=$(CURDIR)/tests/valgrind-lore-am \
	LORE_UNIT_WRAP=$(CURDIR)/tests/valgrind-run \
		prove -j$(TEST_JOBS) -f $(VALGRIND_TESTS)
	@tests/tool-report $(TOOL_LOGS)

valgrind-ci: VALGRIND_TESTS = $(VALGRIND_CI_TESTS)
valgrind-ci: valgrind-check

# libFuzzer builds: the library again with clang, coverage feedback and
# ASan+UBSan, in fuzz/out/ (never mixed with the objects above).
FUZZ_CC = clang
FUZZ_TIME ?= 30
FUZZ_FLAGS = -O1 -g $(WARN) -std=gnu11 -D_GNU_SOURCE \
	     $(shell pkg-config --cflags $(PKGS)) $(INCLUDES) \
	     -fsanitize=address,undefined -fno-sanitize-recover=all \
	     -fno-omit-frame-pointer
FUZZ_OBJS = $(patsubst filter/%.o,fuzz/out/obj/%.o,$(LIB_OBJS))
FUZZERS = $(patsubst %,fuzz/out/fuzz-%,$(FUZZ_NAMES))

fuzz/out/obj/%.o: filter/%.c $(HEADERS)
	@mkdir -p $(@D)
	$(FUZZ_CC) $(FUZZ_FLAGS) -fsanitize=fuzzer-no-link -c -o $@ $<

fuzz/out/fuzz-%: fuzz/fuzz-%.c fuzz/fuzz.h $(FUZZ_OBJS)
	$(FUZZ_CC) $(FUZZ_FLAGS) -fsanitize=fuzzer -o $@ $< $(FUZZ_OBJS) $(TEST_LIBS)

# the gzip stream path with a 61-byte inflate chunk: cuts fall everywhere
fuzz/out/obj/source/fetch-chunk.o: filter/source/fetch.c $(HEADERS)
	@mkdir -p $(@D)
	$(FUZZ_CC) $(FUZZ_FLAGS) -fsanitize=fuzzer-no-link \
		-DLORE_INFLATE_CHUNK=61 -c -o $@ $<

fuzz/out/fuzz-gzip: fuzz/fuzz-gzip.c fuzz/fuzz.h $(FUZZ_OBJS) \
		    fuzz/out/obj/source/fetch-chunk.o
	$(FUZZ_CC) $(FUZZ_FLAGS) -fsanitize=fuzzer -o $@ $< \
		$(filter-out fuzz/out/obj/source/fetch.o,$(FUZZ_OBJS)) \
		fuzz/out/obj/source/fetch-chunk.o $(TEST_LIBS)

fuzzers: $(FUZZERS)

fuzz: fuzzers
	fuzz/run-fuzzers $(FUZZ_TIME) $(FUZZ_NAMES)

# Which lines of filter/ the corpora reach: clang's source-based coverage
# over fuzz/out/corpus/ (grown by make fuzz), reported by llvm-cov.
COV_FLAGS = -O0 -g -std=gnu11 -D_GNU_SOURCE $(shell pkg-config --cflags $(PKGS)) \
	    $(INCLUDES) -fprofile-instr-generate -fcoverage-mapping
COV_BINS = $(patsubst %,fuzz/out/cov-%,$(FUZZ_NAMES))

fuzz/out/cov-%: fuzz/fuzz-%.c fuzz/standalone.c fuzz/fuzz.h $(LIB_OBJS:.o=.c) $(HEADERS)
	@mkdir -p fuzz/out
	$(FUZZ_CC) $(COV_FLAGS) -o $@ $< fuzz/standalone.c $(LIB_OBJS:.o=.c) $(TEST_LIBS)

fuzz-coverage: $(COV_BINS)
	fuzz/coverage $(FUZZ_NAMES)

# The C sources against .clang-format, changing nothing: shows each place
# clang-format would change and fails if there is one.
FORMAT_FILES = $(LIB_OBJS:.o=.c) filter/cli/main.c $(HEADERS) \
	       $(wildcard tests/unit/*.c fuzz/*.c)

format-check:
	clang-format --dry-run --Werror $(FORMAT_FILES)

# Data flows one way through the stage folders: each folder of filter/
# includes only the headers of the folders filter/LAYOUT lets it use, and
# the known exceptions listed there. One line for each include that
# crosses another edge.
layout-check:
	filter/layout-check filter

# STYLE's measures: a file past 600 lines has a second job, a function
# past 120 does not fit a screen. Each one over is a line; CI runs it
# once none is left.
size-check:
	filter/size-check filter

# the build's own lines go to stderr: stdout carries the mbox alone
example:
	@$(MAKE) -s lore-am >&2
	@./lore-am -c lore-am.queue=false -m examples/thread.mbox < examples/patch.eml

bench: lore-am
	bench/run-bench.sh $(BENCH_ARGS)

# The installed wrappers, recipes, hooks and key files call the installed
# programs by their full path: procmail, maildrop and notmuch run hooks with
# a PATH of their own, which need not hold $(BINDIR).
INSTALLED_PATHS = sed -e 's|:-lore-am}|:-$(BINDIR)/lore-am}|' \
	-e 's|^\([[:space:]]*LORE_AM=\)"lore-am"|\1"$(BINDIR)/lore-am"|' \
	-e 's|>lore-am-pipe |>$(BINDIR)/lore-am-pipe |g' \
	-e 's|-m lore-am-pipe |-m $(BINDIR)/lore-am-pipe |g' \
	-e 's|/usr/local/share/lore-am|$(SHAREDIR)|g' \
	-e 's|^lore-am-pipe |$(BINDIR)/lore-am-pipe |' \
	-e 's|"lore-am-pipe"|"$(BINDIR)/lore-am-pipe"|' \
	-e 's|"notmuch-lore-thread"|"$(BINDIR)/notmuch-lore-thread"|'
# the -m index on a generated 100 000-message maildir (bench/RESULTS.md)
bench-index: lore-am
	bench/run-index-bench.sh $(BENCH_INDEX_ARGS)

# the git steps in a generated 80 000-file tree, against b4 and the same
# work by hand (bench/RESULTS.md); the tree is kept in bench/out/tree
bench-tree: lore-am
	bench/tree-bench.sh $(BENCH_TREE_ARGS)

install: lore-am
	install -d $(DESTDIR)$(BINDIR) $(DESTDIR)$(MANDIR)/man1 \
		$(DESTDIR)$(SHAREDIR) $(DESTDIR)$(DOCDIR)
	install -m 755 lore-am $(DESTDIR)$(BINDIR)/
	for f in hooks/lore-am-pipe notmuch/notmuch-lore-thread; do \
		$(INSTALLED_PATHS) $$f > $(DESTDIR)$(BINDIR)/$${f##*/}.tmp && \
		chmod 755 $(DESTDIR)$(BINDIR)/$${f##*/}.tmp && \
		mv -f $(DESTDIR)$(BINDIR)/$${f##*/}.tmp \
			$(DESTDIR)$(BINDIR)/$${f##*/} || exit 1; \
	done
	install -m 644 doc/lore-am.1 $(DESTDIR)$(MANDIR)/man1/lore-am.1
	for f in $(SNIPPETS); do \
		$(INSTALLED_PATHS) $$f > $(DESTDIR)$(SHAREDIR)/$${f##*/}.tmp && \
		chmod 644 $(DESTDIR)$(SHAREDIR)/$${f##*/}.tmp && \
		mv -f $(DESTDIR)$(SHAREDIR)/$${f##*/}.tmp \
			$(DESTDIR)$(SHAREDIR)/$${f##*/} || exit 1; \
	done
	$(INSTALLED_PATHS) notmuch/post-new \
		> $(DESTDIR)$(SHAREDIR)/notmuch-post-new.tmp
	chmod 755 $(DESTDIR)$(SHAREDIR)/notmuch-post-new.tmp
	mv -f $(DESTDIR)$(SHAREDIR)/notmuch-post-new.tmp \
		$(DESTDIR)$(SHAREDIR)/notmuch-post-new
	install -m 644 doc/*.md $(DESTDIR)$(DOCDIR)/

# notmuch knows where its hooks go (database.hook_dir); before the first
# `notmuch new` it may print nothing, and "/post-new" is no place for it.
install-notmuch-hook:
	@dir=$$(notmuch config get database.hook_dir 2>/dev/null); \
	hook=$(DESTDIR)$(SHAREDIR)/notmuch-post-new; \
	if [ -z "$$dir" ]; then \
		echo "install-notmuch-hook: notmuch names no hook folder (database.hook_dir is empty): run notmuch new once, or set it with notmuch config set database.hook_dir DIR" >&2; \
		exit 1; \
	fi; \
	if [ ! -f "$$hook" ]; then \
		echo "install-notmuch-hook: $$hook is missing: run make install first (with the same PREFIX)" >&2; \
		exit 1; \
	fi; \
	if [ -e "$$dir/post-new" ] && ! cmp -s "$$hook" "$$dir/post-new"; then \
		echo "install-notmuch-hook: $$dir/post-new exists and is not lore-am's: call $(SHAREDIR)/notmuch-post-new from it" >&2; \
		exit 1; \
	fi; \
	mkdir -p "$$dir" && cp "$$hook" "$$dir/post-new.tmp" && \
	chmod 755 "$$dir/post-new.tmp" && \
	mv -f "$$dir/post-new.tmp" "$$dir/post-new" && \
	echo "installed $$dir/post-new"

deps:
	.ci/install-deps

clean:
	rm -f lore-am filter/*.o filter/*/*.o filter/liblore.a $(BUILD_FLAGS) \
		$(UNIT_TESTS)
	rm -f $(FUZZ_REPLAY)
	rm -rf $(TOOL_LOGS)

.PHONY: all check valgrind-check valgrind-ci units fuzz fuzzers fuzz-coverage example \
	bench bench-index bench-tree install install-notmuch-hook deps format-check \
	layout-check size-check \
	clean FORCE
