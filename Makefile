# ftlkit - one non-recursive Makefile.
#   make            build bin/*
#   make check      install dependencies (make deps), build, run all tests
#   make bench      reader and model benchmarks
#   make SAN=1 ...  build with AddressSanitizer + UndefinedBehaviorSanitizer
#   make deps       install the Debian packages ftlkit needs (as root)
#   make install [PREFIX=/usr/local] [DESTDIR=]   programs, man pages,
#                   gnuplot scripts, bash completion; make uninstall

.DELETE_ON_ERROR:
.SUFFIXES:
# Objects, archives and generated files are kept, not deleted as the
# intermediates of the pattern rules: a second make after a clean build
# has nothing to do.
.SECONDARY:

CC ?= cc
MODEL_INC := $(addprefix -Imodels/,core registry device host ftlsim wamodel)
PKGS := jansson zlib libzstd liblzma
OPT ?= -O2
WARN := -Wall -Wextra -Wshadow -Wno-unused-parameter $(if $(WERROR),-Werror)
CFLAGS_ALL := -std=c11 -D_GNU_SOURCE -g $(OPT) $(WARN) -Ilib -Ianalyzers $(MODEL_INC) \
	$(shell pkg-config --cflags $(PKGS) 2>/dev/null) $(CFLAGS)
LDLIBS_ALL := $(shell pkg-config --libs $(PKGS) 2>/dev/null || echo -ljansson -lz -lzstd -llzma) \
	-lcsv -lbz2 -lm -pthread $(LDLIBS)
# Under the sanitizers, line tables only (-g1): their reports still name
# the file and line, and the build takes 15% less time.
ifeq ($(SAN),1)
CFLAGS_ALL += -g1 -fsanitize=address,undefined -fno-omit-frame-pointer -fno-sanitize-recover=undefined
# The sanitizers' run-times linked in: a program starts in 20 ms, not 26
# (the sanitizer pass starts some 3,400).
LDFLAGS += -fsanitize=address,undefined -static-libasan -static-libubsan
endif

B := build
# Rebuild everything when the compiler or flags change (e.g. SAN=1).
FLAGS_ID := $(CC) $(CFLAGS_ALL) $(LDFLAGS)
$(shell mkdir -p $(B) bin; echo '$(FLAGS_ID)' | cmp -s - $(B)/flags || echo '$(FLAGS_ID)' > $(B)/flags)

LIB_SRC := $(wildcard lib/*.c) analyzers/readers.c analyzers/trace.c analyzers/btset.c analyzers/cli_trace.c analyzers/csvrec.c analyzers/writers.c $(wildcard analyzers/rd_*.c)
# models/ in rooms (models/README.md): the core, the victim policies, the
# placements, the class selectors, the registry of them, the device and
# host layers and the closed forms go into the library; the programs'
# rooms (ftlsim, and wamodel's main) do not.
MODEL_ROOMS := core victim place select registry device host wamodel
MODEL_SRC := $(filter-out models/wamodel/wamodel.c,$(wildcard $(MODEL_ROOMS:%=models/%/*.c)))
LIB_OBJ := $(LIB_SRC:%.c=$(B)/%.o)
MODEL_OBJ := $(MODEL_SRC:%.c=$(B)/%.o)

PROGS := $(patsubst analyzers/%.c,bin/%,$(wildcard analyzers/tracecat.c analyzers/tracestat.c)) \
	bin/ftlsim bin/wamodel \
	$(patsubst traces/%.c,bin/%,$(wildcard traces/tracegen.c))
UNIT_SRC := $(wildcard tests/unit/test_*.c)
UNIT_BIN := $(UNIT_SRC:tests/unit/%.c=$(B)/tests/%)

all: $(PROGS)

$(B)/%.o: %.c $(B)/flags
	@mkdir -p $(@D)
	$(CC) $(CFLAGS_ALL) -MMD -MP -c $< -o $@

$(B)/libftlkit.a: $(LIB_OBJ) $(MODEL_OBJ)
	rm -f $@
	ar rcs $@ $^

bin/%: $(B)/analyzers/%.o $(B)/libftlkit.a
	$(CC) $(LDFLAGS) -o $@ $< $(B)/libftlkit.a $(LDLIBS_ALL)
bin/wamodel: $(B)/models/wamodel/wamodel.o $(B)/libftlkit.a
	$(CC) $(LDFLAGS) -o $@ $< $(B)/libftlkit.a $(LDLIBS_ALL)
bin/%: $(B)/traces/%.o $(B)/libftlkit.a
	$(CC) $(LDFLAGS) -o $@ $< $(B)/libftlkit.a $(LDLIBS_ALL)

# ftlsim's parts (ftlsim.h): main and the replay, the command line, the
# input passes, the reports.
FTLSIM_OBJ := $(patsubst %.c,$(B)/%.o,$(wildcard models/ftlsim/ftlsim_*.c))
# the replay's worker threads (ftlsim_replay.c)
bin/ftlsim: LDFLAGS += -pthread
bin/ftlsim: $(B)/models/ftlsim/ftlsim.o $(FTLSIM_OBJ) $(B)/libftlkit.a
	$(CC) $(LDFLAGS) -o $@ $(B)/models/ftlsim/ftlsim.o $(FTLSIM_OBJ) $(B)/libftlkit.a $(LDLIBS_ALL)

$(B)/tests/%: $(B)/tests/unit/%.o $(B)/libftlkit.a
	@mkdir -p $(@D)
	$(CC) $(LDFLAGS) -o $@ $< $(B)/libftlkit.a $(LDLIBS_ALL)

# The model's speed benchmark (tests/bench_model.sh).
$(B)/bench_model: $(B)/tests/bench_model.o $(B)/libftlkit.a
	$(CC) $(LDFLAGS) -o $@ $< $(B)/libftlkit.a $(LDLIBS_ALL)

-include $(shell find $(B) -name '*.d' 2>/dev/null)

# Debian packages. To build and run (make demo: make deps-run):
RUN_DEBS := build-essential pkg-config libcsv-dev libjansson-dev zlib1g-dev libbz2-dev \
	libzstd-dev liblzma-dev blktrace gnuplot-nox bzip2 xz-utils zstd gawk jq
# To test as well (make check: make deps):
DEBS := $(RUN_DEBS) bc python3 time clang
# Sweeps and clusters: GNU parallel, a one-node Slurm started by the tests.
DEBS += parallel slurm-wlm munge
# Trace writers checked against a real fio.
DEBS += fio
# The paper's PDF; man pages rendered and checked.
DEBS += pandoc groff man-db
# The tests' own JSON queries (tests/lib.sh): gojq starts in a seventh of
# jq 1.6's time.
DEBS += gojq
deps:
	@sh tests/deps.sh $(DEBS)
deps-run:
	@sh tests/deps.sh $(RUN_DEBS)

# The build on every core; the tests TEST_JOBS at a time (tests/run.sh).
NPROC := $(shell nproc 2>/dev/null || echo 1)
check: deps
	$(MAKE) -j$(NPROC) all tests-build
	sh tests/run.sh

tests-build: $(PROGS) $(UNIT_BIN)

# The run's record goes to bench-data/ (ignored by git); the one the
# docs quote is replaced with make bench BENCH_RECORD=docs/BENCH.txt
# (then tests/bench_tables.sh gives the README's tables; t0740).
BENCH_RECORD ?= bench-data/BENCH.txt
bench: all
	BENCH_RECORD='$(BENCH_RECORD)' sh tests/bench.sh
	sh tests/bench_place.sh

clean:
	rm -rf $(B) bin/*

.PHONY: all deps deps-run check tests-build bench clean

# libFuzzer over every reader: make fuzz FUZZ_SECONDS=600
fuzz: all
	FUZZ_SECONDS=$(or $(FUZZ_SECONDS),60) sh tests/fuzz/run.sh
.PHONY: fuzz

# --- Figures and the paper (docs/PAPER.md) ---------------------------------
#   make paper [QUICK=1] [PAPER_OUT=DIR]   every figure, tables, paper/out/README.md
#   make figures FORMAT=png|svg|pdf        the figures only, in one format
#   make paper-check                       the measured checks; fails on a FAIL
#   PAPER_ONLY="NN-name ..."                 plan and run those figures only
# Parameters live in paper/NN-*.params; paper/plan.sh turns them into one
# rule per experiment (PO/rules.mk), so make -j runs them in parallel.
FORMAT ?= png
PO := $(or $(PAPER_OUT),paper/out$(if $(filter 1,$(QUICK)),/quick))
PAPER_GOALS := paper figures paper-check
ifneq ($(filter $(PAPER_GOALS),$(MAKECMDGOALS)),)
PAPER_PLAN := $(shell mkdir -p $(PO) && PAPER_ONLY='$(PAPER_ONLY)' sh paper/plan.sh $(PO) $(if $(filter 1,$(QUICK)),1,0) >&2 || echo failed)
ifneq ($(PAPER_PLAN),)
$(error paper/plan.sh failed)
endif
include $(PO)/rules.mk
endif

# One experiment: PO/runs/HASH.args -> HASH.json (+ CSV files beside it).
$(PO)/runs/%.json: $(PO)/runs/%.args paper/run.sh bin/ftlsim bin/tracegen | paper-t0
	sh paper/run.sh $< $@

# When this make started on the paper (the report gives the time it took).
paper-t0:
	@mkdir -p $(PO) && date +%s >$(PO)/t0

figures: $(addsuffix .$(FORMAT),$(PAPER_IMAGES))

$(PO)/README.md: $(PAPER_DONE) $(addsuffix .png,$(PAPER_IMAGES)) paper/report.sh paper/intro.md | paper-t0
	sh paper/report.sh $(PO)

paper: $(PO)/README.md

paper-check: $(PAPER_DONE)
	@cat $(patsubst %/done,%/checks.txt,$(PAPER_DONE))
	@! cat $(patsubst %/done,%/checks.txt,$(PAPER_DONE)) | grep -q "^FAIL"

paper-clean:
	rm -rf $(PO)

# tracecapture: a shell program, versioned like ftlplot.
all: bin/tracecapture
bin/tracecapture: traces/tracecapture.sh lib/ftlkit.h
	sed 's/@VERSION@/$(shell sed -n 's/.*FTLKIT_VERSION "\(.*\)".*/\1/p' lib/ftlkit.h)/' traces/tracecapture.sh >$@.tmp && chmod +x $@.tmp && mv $@.tmp $@

all: bin/ftlplot
bin/ftlplot: plots/ftlplot lib/ftlkit.h
	sed 's/@VERSION@/$(shell sed -n 's/.*FTLKIT_VERSION "\(.*\)".*/\1/p' lib/ftlkit.h)/' plots/ftlplot >$@.tmp && chmod +x $@.tmp && mv $@.tmp $@

.PHONY: paper figures paper-check paper-clean paper-t0

# The main job on a bundled real trace (README).
demo: deps-run
	$(MAKE) all
	sh traces/demo.sh
.PHONY: demo

# Full-size runs of the model against the published values (a few minutes).
validate: all
	sh tests/validate_model.sh
.PHONY: validate

# A 64 GiB synthetic trace streamed through tracecat | ftlsim (SCALE_GIB=N).
bench-scale: all
	sh tests/bench_scale.sh
.PHONY: bench-scale

# --- Install ----------------------------------------------------------------
#   make install PREFIX=/usr/local DESTDIR=    make uninstall (same variables)
# Programs in bin/, the gnuplot scripts in share/ftlkit (an installed
# ftlplot or ftlsweep looks there), man pages in share/man/manN, bash completion in
# share/bash-completion/completions (one file per program).
PREFIX ?= /usr/local
BINDIR ?= $(PREFIX)/bin
DATADIR ?= $(PREFIX)/share/ftlkit
MANDIR ?= $(PREFIX)/share/man
BASHCOMPDIR ?= $(PREFIX)/share/bash-completion/completions
INSTALL_PROGS = $(PROGS) bin/ftlplot bin/tracecapture
INSTALL_DATA := $(wildcard plots/*.gp) plots/labels.sh
MAN_PAGES := $(wildcard man/*.[157])

# Bash completion, made from the programs' option tables.
all: $(B)/ftlkit.bash
$(B)/ftlkit.bash: man/bash-completion.sh $(INSTALL_PROGS)
	sh man/bash-completion.sh $(INSTALL_PROGS) >$@.tmp && mv $@.tmp $@

install: all $(B)/ftlkit.bash
	install -d $(DESTDIR)$(BINDIR) $(DESTDIR)$(DATADIR) $(DESTDIR)$(BASHCOMPDIR) \
		$(DESTDIR)$(MANDIR)/man1 $(DESTDIR)$(MANDIR)/man5 $(DESTDIR)$(MANDIR)/man7
	install -m 755 $(filter-out bin/ftlplot bin/ftlsweep,$(INSTALL_PROGS)) $(DESTDIR)$(BINDIR)
	for p in ftlplot ftlsweep; do \
		sed 's|@DATADIR@|$(DATADIR)|' bin/$$p >$(DESTDIR)$(BINDIR)/$$p.tmp && \
		chmod 755 $(DESTDIR)$(BINDIR)/$$p.tmp && mv $(DESTDIR)$(BINDIR)/$$p.tmp $(DESTDIR)$(BINDIR)/$$p || exit 1; \
	done
	install -m 644 $(INSTALL_DATA) $(DESTDIR)$(DATADIR)
	for m in $(MAN_PAGES); do install -m 644 $$m $(DESTDIR)$(MANDIR)/man$${m##*.} || exit 1; done
	for p in $(notdir $(INSTALL_PROGS)); do install -m 644 $(B)/ftlkit.bash $(DESTDIR)$(BASHCOMPDIR)/$$p || exit 1; done

uninstall:
	rm -f $(addprefix $(DESTDIR)$(BINDIR)/,$(notdir $(INSTALL_PROGS))) \
		$(addprefix $(DESTDIR)$(DATADIR)/,$(notdir $(INSTALL_DATA))) \
		$(addprefix $(DESTDIR)$(BASHCOMPDIR)/,$(notdir $(INSTALL_PROGS))) \
		$(foreach m,$(MAN_PAGES),$(DESTDIR)$(MANDIR)/man$(subst .,,$(suffix $(m)))/$(notdir $(m)))
	rmdir $(DESTDIR)$(DATADIR) 2>/dev/null || true

.PHONY: install uninstall
# Sweeps of ftlsim runs as jobs (docs/SWEEP.md): a POSIX sh script.
all: bin/ftlsweep
bin/ftlsweep: sweep/ftlsweep lib/ftlkit.h
	sed 's/@VERSION@/$(shell sed -n 's/.*FTLKIT_VERSION "\(.*\)".*/\1/p' lib/ftlkit.h)/' sweep/ftlsweep >$@.tmp && chmod +x $@.tmp && mv $@.tmp $@
INSTALL_PROGS += bin/ftlsweep
$(B)/ftlkit.bash: bin/ftlsweep

# --- Fault injection (tests/t0870-faults.sh) --------------------------------
# The programs' own objects linked once more with tests/fault/fault.c,
# whose __wrap_ functions count allocations, reads and writes and fail
# the Nth (FTLKIT_FAULT=alloc:N, read:N, write:N). Only tests-build
# makes them; bin/ has no hook.
FAULT_WRAP := malloc calloc realloc aligned_alloc strdup strndup read \
	fwrite fputs fputc putc putchar puts printf fprintf vfprintf fflush fclose json_dumpf
FAULT_LDFLAGS := $(foreach f,$(FAULT_WRAP),-Wl,--wrap=$(f))
FAULT_PROGS := $(PROGS:bin/%=$(B)/fault/%)
$(B)/fault/%: $(B)/analyzers/%.o $(B)/tests/fault/fault.o $(B)/libftlkit.a
	@mkdir -p $(@D)
	$(CC) $(LDFLAGS) $(FAULT_LDFLAGS) -o $@ $< $(B)/tests/fault/fault.o $(B)/libftlkit.a $(LDLIBS_ALL)
$(B)/fault/wamodel: $(B)/models/wamodel/wamodel.o $(B)/tests/fault/fault.o $(B)/libftlkit.a
	@mkdir -p $(@D)
	$(CC) $(LDFLAGS) $(FAULT_LDFLAGS) -o $@ $< $(B)/tests/fault/fault.o $(B)/libftlkit.a $(LDLIBS_ALL)
$(B)/fault/%: $(B)/traces/%.o $(B)/tests/fault/fault.o $(B)/libftlkit.a
	@mkdir -p $(@D)
	$(CC) $(LDFLAGS) $(FAULT_LDFLAGS) -o $@ $< $(B)/tests/fault/fault.o $(B)/libftlkit.a $(LDLIBS_ALL)
$(B)/fault/ftlsim: $(B)/models/ftlsim/ftlsim.o $(FTLSIM_OBJ) $(B)/tests/fault/fault.o $(B)/libftlkit.a
	@mkdir -p $(@D)
	$(CC) $(LDFLAGS) $(FAULT_LDFLAGS) -o $@ $(B)/models/ftlsim/ftlsim.o $(FTLSIM_OBJ) $(B)/tests/fault/fault.o \
		$(B)/libftlkit.a $(LDLIBS_ALL)
tests-build: $(FAULT_PROGS)
