# Near-duplicate detector: one Makefile for the library, the stages, the
# tests and the benchmarks.  `make help` lists the targets.
#
#   make                      build every stage into $(BUILD)/bin
#   make test                 build and run every test (-Werror)
#   make check-asan           the tests under AddressSanitizer + UBSan
#   make CC=clang test        the same with clang
#   make SAN=thread test      any sanitizer list; objects go to build-$(SAN)/
#                             (thread with CC=clang: gcc's libgomp hides the
#                             start of a parallel region from TSan)
#   make V=1                  show the commands
#   make fuzz FUZZ_SECONDS=N  build the libFuzzer targets (clang) and run each N s
#   make fuzz-campaign-build  the same without ASan, for long campaigns (docs/FUZZING.md)
#   make MPI=1                also build ndd-mpi, the MPI program (docs/MPI.md)

CC      ?= cc
PREFIX  ?= /usr/local
SAN     ?=
OPENMP  ?= -fopenmp
# x86-64-v2 (2009 on: POPCNT, SSE4.2): the join's popcount is one instruction
# instead of a libgcc call.  ARCH=-march=native for this machine's best, or
# ARCH= for a CPU older than that.
ifneq ($(filter x86_64%,$(shell $(CC) -dumpmachine)),)
ARCH    ?= -march=x86-64-v2
endif

ifeq ($(FUZZ),campaign)
# The long-campaign libFuzzer build (make fuzz-campaign-build): UBSan, no ASan
# and no comparison tracing, three times the executions per CPU second of
# the make fuzz build (docs/FUZZING.md); make fuzz and CI keep both.
BUILD   ?= build-fuzz-campaign
OPT     ?= -O1
SANFLAGS = -fsanitize=fuzzer-no-link,undefined -fno-sanitize-recover=all \
           -fno-omit-frame-pointer -fno-sanitize-coverage=trace-cmp
else ifneq ($(FUZZ),)
# The libFuzzer build (make fuzz): clang, coverage for the fuzzer, ASan and
# UBSan, assertions on, no OpenMP (one input at a time).
BUILD   ?= build-fuzz
OPT     ?= -O1
SANFLAGS = -fsanitize=fuzzer-no-link,address,undefined -fno-sanitize-recover=all \
           -fno-omit-frame-pointer
else ifeq ($(SAN),)
BUILD   ?= build
# Assertions check the codec's and the hashers' internal invariants once per
# key or feature (a quarter of ndd-compress's CPU); inputs are validated by
# the readers, not by asserts.  The sanitizer builds keep them on, so
# `make check-asan` runs every test with them.
OPT     ?= -O2 -DNDEBUG
SANFLAGS =
else
BUILD   ?= build-$(subst $(comma),-,$(SAN))
OPT     ?= -O1
SANFLAGS = -fsanitize=$(SAN) -fno-sanitize-recover=all -fno-omit-frame-pointer
endif
comma := ,

WARN    = -Wall -Wextra -Werror -Wshadow -Wstrict-prototypes -Wmissing-prototypes \
          -Wundef -Wvla -Wformat=2 -Wpointer-arith -Wwrite-strings
CFLAGS  ?= $(OPT) -g
# Without OpenMP (make OPENMP=) the pragmas are ignored and code runs serially.
ifeq ($(OPENMP),)
WARN   += -Wno-unknown-pragmas
endif
ALL_CFLAGS = -std=c11 -D_GNU_SOURCE $(WARN) $(CFLAGS) $(ARCH) $(OPENMP) $(SANFLAGS) -MMD -MP -Icommon
LDLIBS  = -lbrotlidec -luchardet -larchive -lxxhash -ldeflate -lutf8proc -lz -lm
ALL_LDFLAGS = $(LDFLAGS) $(OPENMP) $(SANFLAGS)

ifeq ($(V),1)
Q =
else
Q = @
endif

COMMON_SRC = $(sort $(wildcard common/*/*.c))
COMMON_OBJ = $(COMMON_SRC:%.c=$(BUILD)/%.o)
STAGE_SRC  = $(sort $(wildcard stages/*.c))
STAGE_BIN  = $(patsubst stages/%.c,$(BUILD)/bin/ndd-%,$(subst _,-,$(STAGE_SRC)))
TEST_SRC   = $(sort $(wildcard tests/test_*.c))
TEST_BIN   = $(TEST_SRC:tests/%.c=$(BUILD)/tests/%)
FUZZ_SRC   = $(sort $(wildcard tests/fuzz/fuzz_*.c))
FUZZ_BIN   = $(FUZZ_SRC:tests/fuzz/%.c=$(BUILD)/fuzz/%)
BENCH_SRC  = $(sort $(wildcard bench/*.c))
BENCH_BIN  = $(BENCH_SRC:bench/%.c=$(BUILD)/bench/%)
LIB        = $(BUILD)/libcommon.a

## all: build every stage (default)
all: $(STAGE_BIN)

$(BUILD)/%.o: %.c $(BUILD)/.flags
	@mkdir -p $(dir $@)
	@$(if $(Q),echo "  CC      $<")
	$(Q)$(CC) $(ALL_CFLAGS) -c $< -o $@

# Changing compiler or flags rebuilds everything in this build directory.
$(BUILD)/.flags: FORCE
	@mkdir -p $(BUILD)
	@echo '$(CC) $(ALL_CFLAGS) $(ALL_LDFLAGS)' | cmp -s - $@ || echo '$(CC) $(ALL_CFLAGS) $(ALL_LDFLAGS)' > $@

# The archive is rebuilt when a module is removed or moved too, which no
# object's time shows: the list of objects is a prerequisite of its own.
$(BUILD)/.objs: FORCE
	@mkdir -p $(BUILD)
	@echo '$(COMMON_OBJ)' | cmp -s - $@ || echo '$(COMMON_OBJ)' > $@

$(LIB): $(COMMON_OBJ) $(BUILD)/.objs
	$(Q)rm -f $@
	$(Q)ar rcs $@ $(COMMON_OBJ)

# stages/permute_sort.c -> ndd-permute-sort
.SECONDEXPANSION:
$(BUILD)/bin/ndd-%: $(BUILD)/stages/$$(subst -,_,$$*).o $(LIB)
	@mkdir -p $(dir $@)
	@$(if $(Q),echo "  LD      $@")
	$(Q)$(CC) $(ALL_LDFLAGS) $^ $(LDLIBS) -o $@

$(BUILD)/tests/%: $(BUILD)/tests/%.o $(LIB)
	$(Q)$(CC) $(ALL_LDFLAGS) $^ $(LDLIBS) -o $@

# the brotli test compresses its bodies
$(BUILD)/tests/test_http: LDLIBS += -lbrotlienc

$(BUILD)/fuzz/%: $(BUILD)/tests/fuzz/%.o $(LIB)
	@mkdir -p $(dir $@)
	$(Q)$(CC) $(ALL_LDFLAGS) -fsanitize=fuzzer $^ $(LDLIBS) -o $@

$(BUILD)/bench/%: $(BUILD)/bench/%.o $(LIB)
	$(Q)$(CC) $(ALL_LDFLAGS) $^ $(LDLIBS) -o $@

# MPI=1 also builds $(BUILD)/bin/ndd-mpi (docs/MPI.md) with the MPI
# compiler wrapper MPI_CC around $(CC) (Open MPI's or MPICH's mpicc); the
# other programs never link MPI.  It runs ndd-extract's and
# ndd-fingerprint's main() in-process: those stages are compiled again
# with main renamed.  MPIRUN is the launcher the tests use.  Another MPI
# in its own build directory, e.g. MPICH beside Open MPI:
#   make test MPI=1 BUILD=build-mpich MPI_CC=mpicc.mpich MPIRUN=mpirun.mpich
MPIRUN     ?= mpirun
ifeq ($(MPI),1)
MPI_CC     ?= $(or $(MPICC),mpicc)
MPI_WRAP    = OMPI_CC=$(CC) MPICH_CC=$(CC) $(MPI_CC)
MPI_SRC     = $(sort $(wildcard stages/mpi/*.c))
MPI_STAGES  = extract fingerprint
MPI_OBJ     = $(MPI_SRC:%.c=$(BUILD)/%.o) $(MPI_STAGES:%=$(BUILD)/mpi-stages/%.o)
MPI_BIN     = $(BUILD)/bin/ndd-mpi
all: $(MPI_BIN)

$(BUILD)/stages/mpi/%.o: stages/mpi/%.c $(BUILD)/.flags
	@mkdir -p $(dir $@)
	@$(if $(Q),echo "  MPICC   $<")
	$(Q)$(MPI_WRAP) $(ALL_CFLAGS) -c $< -o $@

$(BUILD)/mpi-stages/%.o: stages/%.c $(BUILD)/.flags
	@mkdir -p $(dir $@)
	@$(if $(Q),echo "  CC      $< (main renamed)")
	$(Q)$(CC) $(ALL_CFLAGS) -Dmain=ndd_$*_main -include stages/mpi/rank.h \
		$(shell $(MPI_WRAP) --showme:compile 2>/dev/null || $(MPI_WRAP) -compile-info 2>/dev/null | sed 's/^[^ ]* //; s/ -c / /') \
		-c $< -o $@

$(MPI_BIN): $(MPI_OBJ) $(LIB)
	@mkdir -p $(dir $@)
	@$(if $(Q),echo "  LD      $@")
	$(Q)$(MPI_WRAP) $(ALL_LDFLAGS) $^ $(LDLIBS) -o $@
endif

## test: build and run every test: unit tests, golden CLI tests, end to end
test: $(STAGE_BIN) $(MPI_BIN) $(TEST_BIN) $(BENCH_BIN)
	$(Q)BUILD=$(BUILD) NDD_MPI_BUILT=$(if $(filter 1,$(MPI)),1,0) MPIRUN="$(MPIRUN)" sh tests/run_all.sh $(TEST_BIN)

check: test

## check-asan: run the tests under AddressSanitizer and UndefinedBehaviorSanitizer
check-asan:
	$(MAKE) SAN=address,undefined test

## fuzz: build the libFuzzer targets with clang and run each FUZZ_SECONDS (default 60)
FUZZ_SECONDS ?= 60
fuzz:
	$(MAKE) CC=clang OPENMP= FUZZ=1 fuzz-build
	sh tests/fuzz/run.sh build-fuzz $(FUZZ_SECONDS)

# fuzz-build on its own means the make fuzz build (clang, FUZZ=1): the
# targets link with -fsanitize=fuzzer, which gcc does not have
ifeq ($(FUZZ),)
fuzz-build:
	$(MAKE) CC=clang OPENMP= FUZZ=1 fuzz-build
else
fuzz-build: $(FUZZ_BIN)
endif

## fuzz-campaign-build: the libFuzzer targets with UBSan but no ASan, for long campaigns
fuzz-campaign-build:
	$(MAKE) CC=clang OPENMP= FUZZ=campaign fuzz-build

## bench: build and run the benchmarks (slow; not part of the tests; BENCH_REALCRAWL=1 adds bench/realcrawl.sh)
BENCH_REALCRAWL ?= 0
bench: $(STAGE_BIN) $(BENCH_BIN)
	$(Q)BUILD=$(BUILD) BENCH_REALCRAWL=$(BENCH_REALCRAWL) sh bench/run.sh

## bench-realcrawl: the real-HTML crawl of distinct pages alone (installs nothing: it prints the packages it needs; the crawl takes minutes once)
bench-realcrawl: $(STAGE_BIN) $(BENCH_BIN)
	$(Q)BUILD=$(BUILD) BENCH_ONLY=realcrawl BENCH_REALCRAWL=1 sh bench/run.sh

## bench-long: the table benchmark with 100M fingerprints too (k = 3 and 6; ~8 GB in BENCH_DIR, minutes of CPU)
bench-long: $(STAGE_BIN) $(BENCH_BIN)
	$(Q)BUILD=$(BUILD) BENCH_ONLY=tables BENCH_LONG=1 sh bench/run.sh

## conformance: the HTML tokenizer against html5lib on 20,000 generated pages and the realpages kit (RP=/tmp/rp)
RP ?= /tmp/rp
conformance: $(BUILD)/tests/test_html_visible
	$(Q)for p in python3 /usr/bin/python3; do $$p -c 'import html5lib' 2>/dev/null && exec $$p tests/html_diff.py \
		$(BUILD)/tests/test_html_visible --generated 20000 --seed 2 $(if $(wildcard $(RP)/pages.warc.gz),--real $(RP)/pages.warc.gz); \
	done; echo "no python3 with html5lib"; exit 1

## entities: regenerate the HTML named-reference table from Python's copy of the WHATWG list
entities:
	python3 common/html/gen_entities.py > common/html/html_entities_table.h.tmp
	mv common/html/html_entities_table.h.tmp common/html/html_entities_table.h

## demo: install what is missing, build, run the pipeline on corpus-samples/
demo:
	sh .ci/install-deps.sh
	$(MAKE) all
	./run_pipeline.sh -o ndd-out corpus-samples/; test $$? -le 1

## deps: install the Debian packages the build needs (root)
deps:
	sh .ci/install-deps.sh

## install: install the stages and run_pipeline.sh under PREFIX (default /usr/local)
install: $(STAGE_BIN)
	install -d $(DESTDIR)$(PREFIX)/bin $(DESTDIR)$(PREFIX)/libexec/ndd
	install -m 755 $(STAGE_BIN) $(DESTDIR)$(PREFIX)/bin/
	install -m 755 run_pipeline.sh $(DESTDIR)$(PREFIX)/bin/ndd-run-pipeline

## clean: remove every build directory
clean:
	rm -rf build build-*

## help: list the targets
help:
	@sed -n 's/^## //p' Makefile

FORCE:
.PHONY: all test check check-asan fuzz fuzz-build fuzz-campaign-build bench bench-long bench-realcrawl conformance entities demo deps install clean help FORCE
.SECONDARY:

-include $(COMMON_OBJ:.o=.d) $(STAGE_SRC:%.c=$(BUILD)/%.d) $(TEST_SRC:%.c=$(BUILD)/%.d) \
	$(BENCH_SRC:%.c=$(BUILD)/%.d) $(MPI_OBJ:.o=.d) $(FUZZ_SRC:%.c=$(BUILD)/%.d)
