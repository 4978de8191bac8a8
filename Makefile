# lore-am - build, test and install.
#   make                 build ./lore-am
#   make check           run the test suite (TAP, through prove)
#   make install         install under $(PREFIX) (default /usr/local), honours DESTDIR
#   make deps            install the Debian packages the build and tests need
#   make example         run lore-am on the bundled example thread
#   make SANITIZE=1 ...  build with AddressSanitizer and UBSan
#   make NO_NOTMUCH=1    build without libnotmuch (-N then says so)

VERSION   = 0.1
PREFIX   ?= /usr/local
BINDIR   ?= $(PREFIX)/bin
MANDIR   ?= $(PREFIX)/share/man
SHAREDIR ?= $(PREFIX)/share/lore-am
CC       ?= cc
PKGS      = gmime-3.0 libcurl zlib
CFLAGS   ?= -O2 -g
WARN      = -Wall -Wextra -Wno-unused-parameter -Wshadow -Wformat=2
ALL_CFLAGS = $(CFLAGS) $(WARN) -std=gnu11 -D_GNU_SOURCE -DLORE_VERSION='"$(VERSION)"' \
	     $(shell pkg-config --cflags $(PKGS))
LIBS      = $(shell pkg-config --libs $(PKGS))

# libnotmuch ships no .pc file: look for its header, link -lnotmuch.
ifndef NO_NOTMUCH
HAVE_NOTMUCH := $(shell printf '\043include <notmuch.h>\n' | \
	$(CC) $(CPPFLAGS) -E -x c - >/dev/null 2>&1 && echo yes)
ifneq ($(HAVE_NOTMUCH),yes)
$(warning notmuch.h not found: building without notmuch (install libnotmuch-dev, or set NO_NOTMUCH=1 to silence this))
NO_NOTMUCH = 1
endif
endif
ifdef NO_NOTMUCH
ALL_CFLAGS += -DLORE_NO_NOTMUCH
else
LIBS += -lnotmuch
endif

ifdef DEVELOPER
WARN += -Werror
endif
ifdef SANITIZE
ALL_CFLAGS += -fsanitize=address,undefined -fno-omit-frame-pointer
LDFLAGS += -fsanitize=address,undefined
endif

LIB_OBJS = filter/util.o filter/url.o filter/msgid.o filter/mbox.o filter/message.o \
	   filter/thread.o filter/subject.o filter/trailer.o filter/body.o \
	   filter/patchid.o filter/series.o filter/mailinfo.o filter/am.o \
	   filter/writer.o filter/config.o filter/source.o filter/amjob.o filter/run.o \
	   filter/nm.o filter/sources.o filter/passthrough.o \
	   filter/cache.o filter/fetch.o filter/lore.o filter/newer.o
LIB_OBJS += filter/lock.o filter/deliver.o filter/threadout.o
HEADERS = $(wildcard filter/*.h)
SNIPPETS = mutt/lore-am.muttrc hooks/aerc-binds.conf hooks/procmailrc \
	   hooks/maildrop notmuch/lore-am.el
UNIT_TESTS = $(patsubst %.c,%,$(wildcard tests/unit/test-*.c))

all: lore-am

lore-am: filter/main.o filter/liblore.a
	$(CC) $(LDFLAGS) -o $@ filter/main.o filter/liblore.a $(LIBS)

filter/liblore.a: $(LIB_OBJS)
	rm -f $@ && ar rcs $@ $(LIB_OBJS)

filter/%.o: filter/%.c $(HEADERS)
	$(CC) $(ALL_CFLAGS) -c -o $@ $<

tests/unit/test-%: tests/unit/test-%.c tests/unit/tap.h filter/liblore.a
	$(CC) $(ALL_CFLAGS) -Ifilter $(LDFLAGS) -o $@ $< filter/liblore.a $(LIBS)

units: $(UNIT_TESTS)

check: lore-am units
	prove -f tests/unit/run-units.t tests/t*.t

example: lore-am
	./lore-am -m examples/thread.mbox < examples/patch.eml

install: lore-am
	install -d $(DESTDIR)$(BINDIR) $(DESTDIR)$(MANDIR)/man1 $(DESTDIR)$(SHAREDIR)
	install -m 755 lore-am hooks/lore-am-pipe notmuch/notmuch-lore-thread \
		$(DESTDIR)$(BINDIR)/
	install -m 644 doc/lore-am.1 $(DESTDIR)$(MANDIR)/man1/lore-am.1
	install -m 644 $(SNIPPETS) $(DESTDIR)$(SHAREDIR)/
	install -m 755 notmuch/post-new $(DESTDIR)$(SHAREDIR)/notmuch-post-new

deps:
	.ci/install-deps

clean:
	rm -f lore-am filter/*.o filter/liblore.a $(UNIT_TESTS)

.PHONY: all check units example install deps clean
