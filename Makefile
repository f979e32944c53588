# classad-tools: the ClassAd library, its HTCondor layer and the programs.
#   make            build libclassad.a (the core), libcondor.a and the programs
#                   in bin/ (needs only the build dependencies)
#   make core       the core alone, with its own unit tests
#   make check      unit tests, bats suites, conformance, then all of it again
#                   under AddressSanitizer + UndefinedBehaviorSanitizer
#   make demo       a simulated day of the example pool in share/pool/sim (about a
#                   second), with a picture of it (build/demo.svg), then the week
#                   of share/replay under two policies (pool-replay)
#   make bench      throughput figures (never part of check); its week of a
#                   10,000-core pool takes a core 5 to 8 minutes
#                   (`bench replay` runs it alone): BENCH_REPLAY_CORES,
#                   _JOBS and _DAYS make it smaller
#   make install    PREFIX=/usr/local DESTDIR=
#   READLINE=readline|libedit|none picks the REPL's line editor (default: readline)

PREFIX     ?= /usr/local
BINDIR     ?= $(PREFIX)/bin
LIBDIR     ?= $(PREFIX)/lib
INCLUDEDIR ?= $(PREFIX)/include
MANDIR     ?= $(PREFIX)/share/man
DATADIR    ?= $(PREFIX)/share/classad-tools

CC       ?= cc
CFLAGS   ?= -O3 -g
VERSION   = 0.1.0
WARN      = -std=c11 -Wall -Wextra -Wshadow -Wstrict-prototypes -Wmissing-prototypes \
            -Wno-missing-field-initializers \
            -Wno-unused-parameter
CPPFLAGS += -D_GNU_SOURCE
READLINE ?= readline

PKG_CONFIG ?= pkg-config
ZLIB_CFLAGS  := $(shell $(PKG_CONFIG) --cflags zlib 2>/dev/null)
ZLIB_LIBS    := $(shell $(PKG_CONFIG) --libs zlib 2>/dev/null || echo -lz)
PCRE2_CFLAGS := $(shell $(PKG_CONFIG) --cflags libpcre2-8 2>/dev/null)
PCRE2_LIBS   := $(shell $(PKG_CONFIG) --libs libpcre2-8 2>/dev/null || echo -lpcre2-8)
ifeq ($(READLINE),readline)
RL_CFLAGS := -DCA_USE_READLINE
RL_LIBS   := $(shell $(PKG_CONFIG) --libs readline 2>/dev/null || echo -lreadline)
else ifeq ($(READLINE),libedit)
RL_CFLAGS := -DCA_USE_LIBEDIT $(shell $(PKG_CONFIG) --cflags libedit 2>/dev/null)
RL_LIBS   := $(shell $(PKG_CONFIG) --libs libedit 2>/dev/null || echo -ledit)
else
RL_CFLAGS :=
RL_LIBS   :=
endif

# VARIANT selects where objects go; the sanitizer build uses its own tree.
VARIANT ?= release
B        = build/$(VARIANT)
OUT     ?= bin
ALL_CFLAGS = $(WARN) $(CFLAGS) $(CPPFLAGS) $(ZLIB_CFLAGS) $(PCRE2_CFLAGS)
LIBS       = $(ZLIB_LIBS) $(PCRE2_LIBS) -lm

# Two layers, two libraries: the ClassAd core (lib/classad/, libclassad.a)
# builds with its own headers only; the HTCondor layer (lib/condor/,
# libcondor.a) sees the core through classad.h. Programs link both.
CORE_SRC   := $(sort $(wildcard lib/classad/*.c))
CONDOR_SRC := $(sort $(wildcard lib/condor/*.c))
CORE_A      = $(B)/libclassad.a
CONDOR_A    = $(B)/libcondor.a
LIBA        = $(CONDOR_A) $(CORE_A)
CORE_INC    = -Ilib/classad
ALL_INC     = -Ilib/classad -Ilib/condor -Ibin -Itests/unit
# bin/ holds one source file per program, and the code programs share
# (option tables and diagnostics, pictures) in libcli.a
CLI_SRC  := bin/cli.c bin/par.c bin/plot.c
CLI_A     = $(B)/bin/libcli.a
PROG_SRC := $(sort $(filter-out $(CLI_SRC),$(wildcard bin/*.c)))
PROGS    := $(PROG_SRC:bin/%.c=$(OUT)/%)
UNIT_CORE   = $(B)/tests/unit/unit-core
UNIT_CONDOR = $(B)/tests/unit/unit-condor
PUBLIC_H   := lib/classad/classad.h $(addprefix lib/classad/,$(shell sed -n 's/^\#include "\(.*\)"/\1/p' lib/classad/classad.h)) \
              lib/condor/condor.h $(addprefix lib/condor/,$(filter-out classad.h,$(shell sed -n 's/^\#include "\(.*\)"/\1/p' lib/condor/condor.h)))

V ?= 0
ifeq ($(V),0)
Q = @
else
Q =
endif

.SECONDARY:
.PHONY: all deps check check-release check-editors check-sanitize check-fuzz unit bats conformance demo bench \
        install uninstall clean lint fuzz core deps-build deps-test
all: deps-build-ok $(PROGS) $(B)/classad.pc

# Plain make only checks the build dependencies (and says how to install
# them); make demo and make check install what is missing when run as root.
deps-build-ok:
	@READLINE=$(READLINE) sh tests/deps.sh build
deps-build:
	@READLINE=$(READLINE) sh tests/deps.sh build --install
deps-test:
	@READLINE=$(READLINE) sh tests/deps.sh test --install
.PHONY: deps-build-ok

$(B)/lib/classad/%.o: lib/classad/%.c
	@mkdir -p $(dir $@)
	@echo "  CC $<"
	$(Q)$(CC) $(ALL_CFLAGS) $(CORE_INC) -MMD -MP -c -o $@ $<

$(B)/%.o: %.c
	@mkdir -p $(dir $@)
	@echo "  CC $<"
	$(Q)$(CC) $(ALL_CFLAGS) $(ALL_INC) $(RL_CFLAGS) -MMD -MP -c -o $@ $<

$(CORE_A): $(CORE_SRC:%.c=$(B)/%.o)
	$(Q)rm -f $@ && ar rcs $@ $^
$(CONDOR_A): $(CONDOR_SRC:%.c=$(B)/%.o)
	$(Q)rm -f $@ && ar rcs $@ $^

# the core alone: its library and its unit tests, nothing of lib/condor/
core: $(CORE_A) $(UNIT_CORE)

$(CLI_A): $(CLI_SRC:%.c=$(B)/%.o)
	$(Q)rm -f $@ && ar rcs $@ $^

$(OUT)/%: $(B)/bin/%.o $(CLI_A) $(LIBA)
	@mkdir -p $(dir $@)
	@echo "  LD $@"
	$(Q)$(CC) $(WARN) $(CFLAGS) $(LDFLAGS) -o $@ $< $(CLI_A) $(LIBA) $(LIBS) \
	    $(if $(filter classad-eval,$(notdir $@)),$(RL_LIBS))

UNIT_CORE_SRC   := tests/unit/unit.c $(sort $(wildcard tests/unit/core/*.c))
UNIT_CONDOR_SRC := tests/unit/unit.c $(sort $(wildcard tests/unit/condor/*.c))
$(UNIT_CORE): $(UNIT_CORE_SRC:%.c=$(B)/%.o) $(CORE_A)
	@mkdir -p $(dir $@)
	$(Q)$(CC) $(WARN) $(CFLAGS) $(LDFLAGS) -o $@ $^ $(LIBS)
$(UNIT_CONDOR): $(UNIT_CONDOR_SRC:%.c=$(B)/%.o) $(LIBA)
	@mkdir -p $(dir $@)
	$(Q)$(CC) $(WARN) $(CFLAGS) $(LDFLAGS) -o $@ $^ $(LIBS)

unit: $(UNIT_CORE) $(UNIT_CONDOR)
	$(UNIT_CORE)
	$(UNIT_CONDOR)

$(B)/classad.pc: lib/classad.pc.in
	@mkdir -p $(dir $@)
	$(Q)sed -e 's|@PREFIX@|$(PREFIX)|; s|@LIBDIR@|$(LIBDIR)|; s|@INCLUDEDIR@|$(INCLUDEDIR)|; s|@VERSION@|$(VERSION)|' \
	    lib/classad.pc.in >$@

VALCMP = $(B)/tests/valcmp
$(VALCMP): tests/valcmp.c
	@mkdir -p $(dir $@)
	$(Q)$(CC) $(WARN) $(CFLAGS) $(LDFLAGS) -o $@ $< -lm

# The bats suites find the programs through CA_BIN.
bats: $(PROGS) $(VALCMP)
	CA_BIN=$(abspath $(OUT)) CA_VALCMP=$(abspath $(VALCMP)) TZ=UTC LC_ALL=C \
	    sh tests/run-bats.sh "bats ($(VARIANT))" tests/*.bats

conformance: $(PROGS) $(VALCMP)
	CA_BIN=$(abspath $(OUT)) CA_VALCMP=$(abspath $(VALCMP)) TZ=UTC LC_ALL=C \
	    sh tests/run-bats.sh conformance tests/conformance.bats

check-release: deps-test all unit bats

SAN = -fsanitize=address,undefined -fno-omit-frame-pointer -fno-sanitize-recover=all
check-sanitize:
	CA_ASAN=1 ASAN_OPTIONS=detect_leaks=1 UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1 \
	$(MAKE) --no-print-directory VARIANT=asan OUT=build/asan/bin \
	    CFLAGS="-O1 -g $(SAN) -DCA_SELFCHECK" LDFLAGS="$(SAN)" all unit bats

# The REPL with each line editor (READLINE=readline is the default build).
check-editors:
	$(MAKE) --no-print-directory VARIANT=libedit OUT=build/libedit/bin READLINE=libedit all
	CA_BIN=$(abspath build/libedit/bin) sh tests/run-bats.sh "repl (libedit)" tests/classad-eval-repl.bats
	$(MAKE) --no-print-directory VARIANT=noedit OUT=build/noedit/bin READLINE=none all
	CA_BIN=$(abspath build/noedit/bin) sh tests/run-bats.sh "repl (no editor)" tests/classad-eval-repl.bats

# libFuzzer harnesses in tests/fuzz/ (clang; without libFuzzer each replays
# its seed corpus once through tests/fuzz/driver.c); FUZZ=NAME... picks some
FUZZ_SECONDS ?= 60
fuzz:
	MAKE=$(MAKE) sh tests/fuzz/run.sh $(FUZZ_SECONDS) $(FUZZ)

# every harness for 6 s from its seed corpus (about a minute and a half in all)
check-fuzz:
	MAKE=$(MAKE) sh tests/fuzz/run.sh 6

check: check-release check-editors check-sanitize check-fuzz lint
	@echo "make check: all suites passed"

lint:
	@sh -n share/demo.sh
	@sh tests/layers.sh
	@if command -v mandoc >/dev/null 2>&1; then \
	    mandoc -Tlint -Wwarning man/*.[157] && echo "  man pages: mandoc -Tlint clean"; \
	else echo "  (mandoc not installed: man pages not linted)"; fi

demo: deps-build all
	@CA_BIN=$(abspath $(OUT)) SVG=$(abspath $(B))/demo.svg sh share/demo.sh

bench: all $(B)/tests/bench $(B)/tests/poolgen
	@$(B)/tests/bench

# realistic pool data (condor_status -long, condor_q -long, history files)
$(B)/tests/poolgen: tests/poolgen.c
	@mkdir -p $(dir $@)
	$(Q)$(CC) $(WARN) $(CFLAGS) $(LDFLAGS) -o $@ $<

BENCH_SRC := $(sort $(wildcard tests/bench*.c))
$(B)/tests/bench: $(BENCH_SRC:%.c=$(B)/%.o) $(LIBA)
	$(Q)$(CC) $(WARN) $(CFLAGS) $(LDFLAGS) -o $@ $^ $(LIBS)

install: all
	mkdir -p $(DESTDIR)$(BINDIR) $(DESTDIR)$(LIBDIR) $(DESTDIR)$(INCLUDEDIR)/classad \
	    $(DESTDIR)$(MANDIR)/man1 $(DESTDIR)$(MANDIR)/man5 $(DESTDIR)$(MANDIR)/man7 $(DESTDIR)$(DATADIR)
	install -m 755 $(PROGS) $(DESTDIR)$(BINDIR)/
	install -m 644 $(CORE_A) $(CONDOR_A) $(DESTDIR)$(LIBDIR)/
	install -m 644 $(PUBLIC_H) $(DESTDIR)$(INCLUDEDIR)/classad/
	mkdir -p $(DESTDIR)$(LIBDIR)/pkgconfig
	install -m 644 $(B)/classad.pc $(DESTDIR)$(LIBDIR)/pkgconfig/
	install -m 644 man/*.1 $(DESTDIR)$(MANDIR)/man1/
	for f in man/*.5 man/*.7; do [ -e "$$f" ] || continue; \
	    install -m 644 $$f $(DESTDIR)$(MANDIR)/man$${f##*.}/; done
	cp -R share/. $(DESTDIR)$(DATADIR)/

uninstall:
	rm -f $(PROGS:$(OUT)/%=$(DESTDIR)$(BINDIR)/%) $(DESTDIR)$(LIBDIR)/libclassad.a \
	    $(DESTDIR)$(LIBDIR)/libcondor.a $(DESTDIR)$(LIBDIR)/pkgconfig/classad.pc
	rm -rf $(DESTDIR)$(INCLUDEDIR)/classad $(DESTDIR)$(DATADIR)

clean:
	rm -rf build $(PROGS)

-include $(shell find build -name '*.d' 2>/dev/null)
