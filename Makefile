# impact: build, test and install. `make help` lists the targets.
#
# The physics core (src/<layer>/*.c except src/lua) builds into build/libimpact.a with no Lua
# in it; the Lua binding (src/lua/*.c) links it into the Lua C module build/impact/core.so.
# Each layer's files see only the include paths of the layers below it (INC_<layer>), so an
# upward include fails to compile; ARCHITECTURE.md draws the layers.
# C unit tests are test/c/test_*.c (one binary each), benchmarks bench/bench_*.c and bench/*.lua.

LUA         ?= lua5.4
LUA_VERSION  = 5.4
LUA_INCDIR  ?= /usr/include/lua$(LUA_VERSION)
GSL_CFLAGS  ?=
GSL_LIBS    ?= -lgsl -lgslcblas -lm
CAIRO_CFLAGS ?= -I/usr/include/cairo
CAIRO_LIBS  ?= -lcairo
CFLAGS      ?= -O2 -g
WARN         = -std=c11 -Wall -Wextra -Wpedantic -Werror -Wshadow -Wstrict-prototypes \
               -Wmissing-prototypes -ffp-contract=off
LIBFLAG     ?= -shared
BUILD       ?= build
PREFIX      ?= /usr/local
# LIBDIR and LUADIR: LuaRocks' make build type overrides these.
LIBDIR      ?= $(DESTDIR)$(PREFIX)/lib/lua/$(LUA_VERSION)
LUADIR      ?= $(DESTDIR)$(PREFIX)/share/lua/$(LUA_VERSION)
INCDIR      ?= $(DESTDIR)$(PREFIX)/include
CLIBDIR     ?= $(DESTDIR)$(PREFIX)/lib
BINDIR      ?= $(DESTDIR)$(PREFIX)/bin
SAN          = -fsanitize=address,undefined -fno-omit-frame-pointer -fno-sanitize-recover=undefined

CORE_SRC  := $(filter-out src/lua/%.c src/mpi/%.c,$(wildcard src/*/*.c))
BIND_SRC  := $(wildcard src/lua/*.c)
# the layers, bottom up: each lists the include paths its files may use (their own folder is
# found by the compiler for "" includes)
# include/: the public headers (impact/*.h), seen by every layer
INC_base       = -Iinclude
INC_shape      = $(INC_base) -Isrc/base
INC_geom2d     = $(INC_shape) -Isrc/shape
INC_geom3d     = $(INC_shape) -Isrc/shape
INC_broadphase = $(INC_base) -Isrc/base
INC_lcp        = $(INC_base) -Isrc/base
INC_polyhedra  = $(INC_geom3d) -Isrc/geom3d
INC_viz        = $(INC_shape) -Isrc/shape -Isrc/geom2d -Isrc/geom3d
INC_proximity  = $(INC_shape) -Isrc/shape -Isrc/geom2d -Isrc/geom3d
INC_core       = $(INC_shape) -Isrc/shape
INC_engine2d   = $(INC_core) -Isrc/core -Isrc/geom2d -Isrc/broadphase -Isrc/lcp
INC_compliant  = $(INC_core) -Isrc/core -Isrc/proximity -Isrc/broadphase -Isrc/geom2d -Isrc/geom3d
INC_dem        = $(INC_core) -Isrc/core -Isrc/broadphase -Isrc/geom3d
INC_engine3d   = $(INC_core) -Isrc/core -Isrc/geom3d -Isrc/broadphase -Isrc/lcp -Isrc/polyhedra
INC_query      = $(INC_core) -Isrc/core -Isrc/geom2d -Isrc/geom3d
INC_ALL        = $(INC_base) $(addprefix -I,$(filter-out src/lua src/mpi,$(wildcard src/*)))
INC_lua        = $(INC_ALL)
CORE_OBJ  := $(CORE_SRC:src/%.c=$(BUILD)/obj/%.o)
BIND_OBJ  := $(BIND_SRC:src/%.c=$(BUILD)/obj/%.o)
LIB       := $(BUILD)/libimpact.a
SO        := $(BUILD)/impact/core.so
CTESTS    := $(patsubst test/c/%.c,$(BUILD)/test/%,$(wildcard test/c/test_*.c))
CBENCHES  := $(patsubst bench/%.c,$(BUILD)/bench/%,$(wildcard bench/bench_*.c))
# OpenMP: the dem strategy's interaction loop and integrator (results identical with any
# number of threads; OPENMP= builds without it). The module is then never unloaded
# (-z nodelete): OpenMP's worker threads outlive lua_close's dlclose.
OPENMP     ?= -fopenmp
SO_KEEP     = $(if $(OPENMP),-Wl$(comma)-z$(comma)nodelete)
comma      := ,
CFLAGS_ALL = $(CFLAGS) $(WARN) $(OPENMP) -fPIC -MMD -MP
# the builds that test, sanitize, fuzz, valgrind and bench start run one compiler per core
JOBS      ?= $(shell nproc 2>/dev/null || echo 1)
LUA_ENV    = LUA_PATH_5_4="./lua/?.lua;./lua/?/init.lua;;" LUA_CPATH_5_4="./$(BUILD)/?.so;;"

.PHONY: docs all deps test check-all sanitize fuzz valgrind lint bench bench3d bench-dem-large hashes demo run install install-c \
        check-install-c clean help ctests benches
.DEFAULT_GOAL := all

all: $(SO) $(LIB)

help:
	@echo "make deps       install the Debian packages impact needs (as root), or say which"
	@echo "make            build $(SO) and $(LIB)"
	@echo "make test       deps + build + the installed C API check + C unit tests + busted specs (fast suite)"
	@echo "make check-all  the same with the slow physics studies"
	@echo "make sanitize   the whole suite under ASan+UBSan"
	@echo "make fuzz       the seeded fuzzer of the Lua API under ASan+UBSan (FUZZ_SEED, FUZZ_CALLS=$(FUZZ_CALLS))"
	@echo "make valgrind   the whole suite under valgrind"
	@echo "make lint       luacheck and cppcheck (when installed)"
	@echo "make bench      benchmarks with figures, then the 3D table of make bench3d"
	@echo "make bench-dem-large  the dem deposition at N = 1e4, 1e5 (and 1e6) beside LIGGGHTS (also in make bench)"
	@echo "make bench3d    the 3D contact scenes beside Bullet, ODE and Box3D (tools/bench3d_peers.sh; QUICK=1, MAXWALL=S, ROUNDS=N, PIN=C)"
	@echo "make hashes     the state hash of a short run of every strategy and mode (restructurings keep them)"
	@echo "make demo       run the showcase example"
	@echo "make run SCRIPT=examples/figure_eight.lua   run any scene script"
	@echo "make docs       the API reference (LDoc) as HTML in doc/ (installs lua-ldoc, lua-markdown when missing)"
	@echo "make install    install the Lua module (LIBDIR, LUADIR) and bin/impact (BINDIR)"
	@echo "make install-c  install the C API: include/impact/*.h into INCDIR/impact and libimpact.a into CLIBDIR"
	@echo "make check-install-c   install-c into a temporary prefix, build and run test/c/test_public_api.c against it"

deps:
	@sh tools/deps.sh

# core: no Lua headers on its include path; each layer its own include paths
$(BUILD)/obj/%.o: src/%.c
	@mkdir -p $(@D)
	$(CC) $(CFLAGS_ALL) $(INC_$(firstword $(subst /, ,$*))) $(GSL_CFLAGS) -c $< -o $@

# binding: the only objects that see Lua
$(BUILD)/obj/lua/%.o: src/lua/%.c
	@mkdir -p $(@D)
	$(CC) $(CFLAGS_ALL) $(INC_lua) -I$(LUA_INCDIR) $(GSL_CFLAGS) $(CAIRO_CFLAGS) -c $< -o $@

$(LIB): $(CORE_OBJ)
	@mkdir -p $(@D)
	rm -f $@
	$(AR) rcs $@ $^

$(SO): $(BIND_OBJ) $(LIB)
	@mkdir -p $(@D)
	$(CC) $(CFLAGS) $(OPENMP) $(SO_KEEP) $(LIBFLAG) -o $@ $(BIND_OBJ) $(LIB) $(GSL_LIBS) $(CAIRO_LIBS) $(LDFLAGS)

# impact.mpi (src/mpi/): the optional Lua binding to the system MPI for impact.batch's sweeps,
# built only when mpicc is installed with MPI's headers (apt-get install openmpi-bin
# libopenmpi-dev; openmpi-bin alone, which liggghts or yade pull in, has mpicc but no mpi.h)
MPICC      ?= $(shell command -v mpicc 2>/dev/null)
MPI_OK     := $(if $(MPICC),$(shell printf '\043include <mpi.h>\n' | $(MPICC) -E -x c - >/dev/null 2>&1 && echo yes))
MPI_SO     := $(if $(MPI_OK),$(BUILD)/impact/mpi.so)
all: $(MPI_SO)
# (dem_comm.c: the dem strategy's message layer over ranks; it sees src/dem/dem_comm.h only)
$(BUILD)/impact/mpi.so: $(wildcard src/mpi/*.c) src/dem/dem_comm.h
	@mkdir -p $(@D)
	$(CC) $(CFLAGS) $(WARN) -fPIC -I$(LUA_INCDIR) -Isrc/dem $$($(MPICC) -showme:compile) -Wl,-z,nodelete \
	  $(LIBFLAG) -o $@ $(filter %.c,$^) $$($(MPICC) -showme:link) $(LDFLAGS)

$(BUILD)/test/%: test/c/%.c $(LIB)
	@mkdir -p $(@D)
	$(CC) $(CFLAGS_ALL) $(INC_ALL) -Itest/c $(GSL_CFLAGS) $< -o $@ $(LIB) $(GSL_LIBS) $(CAIRO_LIBS) $(LDFLAGS)

$(BUILD)/bench/%: bench/%.c $(LIB)
	@mkdir -p $(@D)
	$(CC) $(CFLAGS_ALL) $(INC_ALL) -Ibench $(GSL_CFLAGS) $< -o $@ $(LIB) $(GSL_LIBS) $(LDFLAGS)

ctests: $(CTESTS)
benches: $(CBENCHES)

test: deps
	@$(MAKE) -s --no-print-directory -j$(JOBS) all ctests
	@$(MAKE) -s --no-print-directory check-install-c
	@BUILD=$(BUILD) LUA=$(LUA) bash tools/run_tests.sh fast

check-all: deps
	@$(MAKE) -s --no-print-directory -j$(JOBS) all ctests
	@BUILD=$(BUILD) LUA=$(LUA) bash tools/run_tests.sh all
	@$(MAKE) -s --no-print-directory fuzz FUZZ_CALLS=1000000

sanitize: deps
	@$(MAKE) -s --no-print-directory -j$(JOBS) BUILD=build-san CFLAGS="-O1 -g $(SAN)" LDFLAGS="$(SAN)" all ctests
	@BUILD=build-san LUA=$(LUA) ASAN_OPTIONS=detect_leaks=1:abort_on_error=0 \
	  LSAN_OPTIONS=suppressions=$(CURDIR)/test/lsan.supp:print_suppressions=0 \
	  UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1 \
	  LUA_PRELOAD="$$($(CC) -print-file-name=libasan.so) $$($(CC) -print-file-name=libubsan.so) $(CURDIR)/build-san/impact/core.so" \
	  bash tools/run_tests.sh fast

# the fuzzer (tools/fuzz/): FUZZ_CALLS calls of the whole Lua API in worker processes under the
# sanitizer build; FUZZ_SEED, FUZZ_JOBS, FUZZ_HANG, FUZZ_MIN_TIME: see tools/fuzz/fuzz.lua
FUZZ_CALLS ?= 100000
fuzz: deps
	@$(MAKE) -s --no-print-directory -j$(JOBS) BUILD=build-san CFLAGS="-O1 -g $(SAN)" LDFLAGS="$(SAN)" all
	@FUZZ_CALLS=$(FUZZ_CALLS) FUZZ_BUILD=build-san LUA=$(LUA) \
	  FUZZ_PRELOAD="$$($(CC) -print-file-name=libasan.so) $$($(CC) -print-file-name=libubsan.so) $(CURDIR)/build-san/impact/core.so" \
	  $(LUA) tools/fuzz/fuzz.lua

valgrind: deps
	@$(MAKE) -s --no-print-directory -j$(JOBS) BUILD=build-vg CFLAGS="-O1 -g" all ctests
	@BUILD=build-vg LUA=$(LUA) RUNNER="valgrind -q --suppressions=$(CURDIR)/test/valgrind.supp --leak-check=full --show-leak-kinds=definite,indirect --errors-for-leak-kinds=definite,indirect --error-exitcode=99" \
	  bash tools/run_tests.sh fast

lint:
	@if command -v luacheck >/dev/null 2>&1; then luacheck --no-color .; \
	 else echo "luacheck not installed (apt-get install lua-check); skipped"; fi
	@if command -v cppcheck >/dev/null 2>&1; then \
	   cppcheck --enable=warning,style,performance,portability --std=c11 --error-exitcode=1 \
	     --inline-suppr --quiet --suppress=missingIncludeSystem src/; \
	 else echo "cppcheck not installed; skipped"; fi

bench: deps
	@$(MAKE) -s --no-print-directory -j$(JOBS) all benches
	@BUILD=$(BUILD) LUA=$(LUA) bash tools/run_bench.sh
	@echo
	@BUILD=$(BUILD) bash tools/bench3d_peers.sh

# the dem deposition beside LIGGGHTS (OpenMP and one core): N = 10,000 whole (20,000 steps) and
# 100,000 falling (1000 steps); make bench runs it too (with every bench_*); 100,000 whole with
# DEM_LARGE_STEPS=20000, 1,000,000 only with DEM_LARGE_SIZES=100000,1000000 (some 10 minutes);
# DEM_LARGE_STEPS_10K, DEM_LARGE_STEPS_1M, DEM_LARGE_ROUNDS, DEM_LARGE_LIGGGHTS_G, DEM_LARGE_LAW
# (viscous: impact with LIGGGHTS' physics, the like-for-like ratio; both): bench/bench_dem_large.c
bench-dem-large: deps
	@$(MAKE) -s --no-print-directory -j$(JOBS) all $(BUILD)/bench/bench_dem_large
	@$(BUILD)/bench/bench_dem_large

# the 3D engine beside Bullet 3.24, ODE 0.16 and Box3D on the peers' scenes, one table
bench3d: deps
	@$(MAKE) -s --no-print-directory -j$(JOBS) all $(BUILD)/bench/bench_engine3d
	@BUILD=$(BUILD) bash tools/bench3d_peers.sh

# the API reference as HTML in doc/ (config.ld: lua/impact/*.lua, doc/api/*.luadoc, the
# chapters of doc/manual/); LDoc and its Markdown come from the Debian packages
docs:
	@sh tools/deps.sh lua-ldoc lua-markdown
	@mkdir -p $(BUILD) && ldoc . >$(BUILD)/ldoc.log 2>&1 || { cat $(BUILD)/ldoc.log; exit 1; }
	@grep -i 'warning\|error' $(BUILD)/ldoc.log || true
	@echo "docs: open doc/index.html"

hashes: all
	@$(LUA_ENV) $(LUA) tools/state_hashes.lua

demo: deps
	@$(MAKE) -s --no-print-directory -j$(JOBS) all
	@$(LUA_ENV) $(LUA) examples/tennis_racket.lua

run: deps
	@$(MAKE) -s --no-print-directory -j$(JOBS) all
	@test -n "$(SCRIPT)" || { echo "usage: make run SCRIPT=examples/figure_eight.lua (or any scene script)"; exit 2; }
	@$(LUA_ENV) $(LUA) $(SCRIPT)

install: all
	install -d $(LIBDIR)/impact $(LUADIR)/impact
	install -m 0755 $(SO) $(LIBDIR)/impact/core.so
	$(if $(MPI_SO),install -m 0755 $(MPI_SO) $(LIBDIR)/impact/mpi.so)
	install -m 0644 lua/impact/*.lua lua/impact/*.html $(LUADIR)/impact/
	install -d $(BINDIR)
	install -m 0755 bin/impact $(BINDIR)/impact

# the C API: the public headers include/impact/*.h (as $(INCDIR)/impact/) and the library; the
# internal headers under src/ are not installed
install-c: $(LIB)
	install -d $(INCDIR)/impact $(CLIBDIR)
	install -m 0644 include/impact/*.h $(INCDIR)/impact/
	install -m 0644 $(LIB) $(CLIBDIR)/libimpact.a

# installs the C API into a temporary prefix and builds test/c/test_public_api.c against the
# installed headers and library alone (no -Isrc), then runs it (part of make test)
check-install-c: $(LIB)
	@tmp=$$(mktemp -d) && trap 'rm -rf "$$tmp"' EXIT && \
	 $(MAKE) -s --no-print-directory install-c PREFIX="$$tmp" >/dev/null && \
	 $(CC) $(CFLAGS) $(WARN) $(OPENMP) -I"$$tmp/include" test/c/test_public_api.c \
	   -o "$$tmp/test_public_api" "$$tmp/lib/libimpact.a" $(GSL_LIBS) $(LDFLAGS) && \
	 "$$tmp/test_public_api" > "$$tmp/out" 2>&1; rc=$$?; \
	 sed 's/^public_api:/install-c: public_api (installed headers):/' "$$tmp/out"; exit $$rc

clean:
	rm -rf build build-san build-vg

-include $(CORE_OBJ:.o=.d) $(BIND_OBJ:.o=.d)
