# hwsched top-level Makefile.
#
#   make run     the main job: a lockstep session of the engine (model vs Verilated RTL)
#   make test    every test: generated files, RTL lint (Verilator, Icarus, Yosys), an iCE40
#                synthesis smoke test, GoogleTest (directed, lockstep 1e6, sweeps), CLI
#   make vp      the SystemC virtual platform, build/hwsched_vp (hwsched vp; docs/vp.md)
#   make vp-study  the break-even study of docs/co-design.md (results/co_design.sh), both
#                  bus interfaces; make vp-study-new: the new interface only;
#                  make vp-study-lean: the lean BALANCE beside the fast one, 8 CPUs
#   make bench   figures into build/bench/engine.json
#   make deps    check (and, as root, install) the Debian packages of GOALS="..." (tools/deps.sh)
#   make install PREFIX=/usr/local [DESTDIR=]   hwsched, libhws, the RTL, the man page;
#                make uninstall removes them (docs/usage.md)
#   make help    every goal, one line each, with the package group it needs
#   make gen     regenerate rtl/hws_regs.vh, rtl/hws_weight_fn.vh, rtl/hws_regs_decode.vh,
#                include/hws/regs.h, docs/regmap.md from regmap/regmap.def, and the engine
#                parameters' files (PARAMS_GEN_FILES, docs/accelerator.md section 1) from
#                regmap/params.def
#   make clean   remove build/
#
# Build products go under build/ only.

SHELL := /bin/bash
.DEFAULT_GOAL := all
BUILD := build
JOBS ?= 2
# The variables a user gives make are checked before anything runs (tools/make_vars.mk).
include tools/make_vars.mk

# ---- Debian packages -------------------------------------------------------------------
# tools/deps.sh names the Debian 12 packages of each group of goals (tools/deps.sh --table;
# README.md): make run / make all need only the run group, make test the test group, a goal
# deps.sh does not know every group. They are checked (one dpkg-query, ~50 ms) whenever
# make reads this file for a goal that needs packages; when some are missing, the included
# $(BUILD)/.deps.mk is remade by installing them (as root; otherwise, or with HWS_NO_APT=1,
# tools/deps.sh prints the apt-get line and make stops). Remaking an included makefile
# restarts make, so no rule is considered before the packages exist: GNU make caches
# directory listings, and a prerequisite under a directory that apt-get creates in the
# same run (/usr/share/verilator/include) would otherwise be "not found".
NO_DEPS_GOALS := clean help deps deps-list uninstall figures fn-length
DEPS_GOALS := $(filter-out $(NO_DEPS_GOALS),$(if $(MAKECMDGOALS),$(MAKECMDGOALS),all))
ifneq ($(DEPS_GOALS),)
DEPS_MISSING := $(shell tools/deps.sh --missing $(DEPS_GOALS))
ifneq ($(DEPS_MISSING),)
ifneq ($(MAKE_RESTARTS),)
$(error deps: still missing after installing: $(DEPS_MISSING))
endif
include $(BUILD)/.deps.mk
$(BUILD)/.deps.mk: FORCE
	@tools/deps.sh $(DEPS_GOALS)
	@mkdir -p $(BUILD) && echo '# written by tools/deps.sh via the Makefile; restarts make' > $@
endif
endif

# make deps [GOALS="run test"]: check (and, as root, install) the packages of those goals
# (default: every group); make deps-list: the same packages, listed.
.PHONY: deps deps-list
deps:
	@tools/deps.sh $(GOALS) && echo "deps: every package of '$(or $(GOALS),every goal)' installed"
deps-list:
	@tools/deps.sh --list $(GOALS)

# The package tables and this block (tests/tools/deps_test.sh; make test runs it).
.PHONY: test-deps
test-deps:
	@tests/tools/deps_test.sh
test: test-deps

# ---- Generated register map and engine parameters ---------------------------------------
GEN_FILES := rtl/hws_regs.vh include/hws/regs.h docs/regmap.md rtl/hws_weight_fn.vh \
	rtl/hws_regs_decode.vh
# regmap/params.def (with regmap.def's constants and FEATURES fields): the parameters'
# one home; the table of docs/accelerator.md section 1 is rewritten between its markers.
PARAMS_GEN_FILES := include/hws/params_list.h lib/hws_params_table.h rtl/hws_params.vh \
	rtl/hws_params_check.vh cli/cli_param_opts.h
PARAMS_DOC := docs/accelerator.md

$(BUILD)/regmap_gen: regmap/regmap_gen.c
	@mkdir -p $(BUILD)
	$(CC) $(CWARN) -O2 -o $@ $<
$(BUILD)/params_gen: regmap/params_gen.c
	@mkdir -p $(BUILD)
	$(CC) $(CWARN) -O2 -o $@ $<

.PHONY: gen gen-check
gen: $(BUILD)/regmap_gen $(BUILD)/params_gen
	$(BUILD)/regmap_gen regmap/regmap.def $(GEN_FILES)
	$(BUILD)/params_gen regmap/regmap.def regmap/params.def $(PARAMS_GEN_FILES) $(PARAMS_DOC) $(PARAMS_DOC)

$(GEN_FILES) &: regmap/regmap.def $(BUILD)/regmap_gen
	$(BUILD)/regmap_gen regmap/regmap.def $(GEN_FILES)
# params_gen leaves a file whose text is the same alone (the shapes built from it stay
# built), so the definitions' time is kept in a stamp; a changed generator is gen-check's.
$(BUILD)/params.stamp: regmap/params.def regmap/regmap.def | $(BUILD)/params_gen
	$(BUILD)/params_gen regmap/regmap.def regmap/params.def $(PARAMS_GEN_FILES) $(PARAMS_DOC) $(PARAMS_DOC)
	@touch $@
$(PARAMS_GEN_FILES): $(BUILD)/params.stamp ;

# The committed generated files must be what the generators make of the definitions.
gen-check: $(BUILD)/regmap_gen $(BUILD)/params_gen
	@mkdir -p $(BUILD)/gen-check
	@$(BUILD)/regmap_gen regmap/regmap.def $(addprefix $(BUILD)/gen-check/,$(notdir $(GEN_FILES)))
	@$(BUILD)/params_gen regmap/regmap.def regmap/params.def \
		$(addprefix $(BUILD)/gen-check/,$(notdir $(PARAMS_GEN_FILES))) $(PARAMS_DOC) \
		$(BUILD)/gen-check/$(notdir $(PARAMS_DOC))
	@for f in $(GEN_FILES) $(PARAMS_GEN_FILES) $(PARAMS_DOC); do \
		cmp -s $$f $(BUILD)/gen-check/$$(basename $$f) \
			|| { echo "gen-check: $$f is stale: run make gen" >&2; exit 1; }; \
	done; echo "gen-check: generated files are current"

# ---- C and C++ flags -------------------------------------------------------------------
# -Wmissing-prototypes: every exported C function is declared in a header first (so a
# changed signature breaks the build); -Wmissing-declarations is C++'s.
CWARN := -std=c11 -Wall -Wextra -Werror -Wshadow -Wstrict-prototypes -Wmissing-prototypes
CFLAGS_HWS := $(CWARN) -O2 -g -D_POSIX_C_SOURCE=200809L
CXXFLAGS_HWS := -std=gnu++17 -O2 -g -Wall -Wextra -Wmissing-declarations
# Includes name their layer: "hws/regs.h" (include/hws), "lib/hws_balance.h", ...
INC := -Iinclude -I. -I$(BUILD)/gen

VL_ROOT := /usr/share/verilator/include
# Verilated code: the runtime's own defines, as verilated.mk sets them.
VL_DEFS := -DVM_COVERAGE=0 -DVM_SC=0 -DVM_TRACE=1 -DVM_TRACE_FST=1 -DVM_TRACE_VCD=0
VL_INC := -I$(VL_ROOT) -I$(VL_ROOT)/vltstd
VL_CXXFLAGS := -std=gnu++17 -O2 $(VL_DEFS) $(VL_INC) -Wno-unused-parameter

# ---- RTL sources -----------------------------------------------------------------------
RTL_SRCS := $(sort $(wildcard rtl/*.v))
SYNTH_TOPS := synth/hws_synth_top.v synth/board_top.v
RTL_INC := rtl/hws_regs.vh rtl/hws_weight_fn.vh rtl/hws_regs_decode.vh rtl/hws_ffs16.vh \
	rtl/hws_eng_ctl.vh rtl/hws_formal_env.vh rtl/hws_params.vh rtl/hws_params_check.vh
HARNESS_HDRS := $(wildcard sim/harness/*.h)

# ---- Engine shapes (docs/shapes.md) ---------------------------------------------------
# Verilator fixes parameters at build time: each shape is its own Verilated model, built on
# demand into its own shared object, $(SHAPES_DIR)/<key>/libhws_shape.so, by
# tools/build_shape.sh (`make shape SHAPE=<key>`; hwsched runs that itself when a command
# needs a shape that is not built). Key: <cpus>x<tasks>x<cmd_depth>[r<res_depth>]g<groups>
# [nb][ne][ni][p<ports>]: nb without the BALANCE query (LCU_BALANCE=0), ne without the per-code
# error counters (ERR_COUNTERS=0), ni without the preemption interrupt (IRQ=0). hwsched
# links none of them (sim/harness/hws_vsim.c loads them).
# Task groups of the load-comparison unit, the same in every shape the tests use.
RTL_GROUPS := $(shell awk '$$1 == "const" && $$2 == "DEF_GROUPS" { print $$3 }' regmap/regmap.def)
SHAPES_DIR ?= $(BUILD)/shapes
DEFAULT_SHAPE := 8x256x16g$(RTL_GROUPS)
SHAPE ?= $(DEFAULT_SHAPE)
SHAPE_TRACE ?= 0
# What a shape is built from: a shape older than one of these is rebuilt (by make, and by
# hwsched from the list the build writes beside the shape).
SHAPE_SRCS := $(RTL_SRCS) $(RTL_INC) sim/harness/hws_shape_so.cpp sim/harness/hws_vsim_impl.h \
	sim/harness/axi_master.h sim/harness/hws_vsim.h sim/harness/hws_shape.h tools/build_shape.sh \
	include/hws/axil_pins.h include/hws/units.h lib/hws_port_master.c lib/hws_port_master.h include/hws/params_list.h
# The Verilator runtime, compiled once, position-independent with hidden symbols, and
# linked into every shape (each shared object is self-contained).
SHAPE_RT_OBJS := $(addprefix $(BUILD)/obj/shape-rt/,verilated.o verilated_threads.o verilated_fst_c.o)
SHAPE_RT := $(BUILD)/obj/shape-rt/libvlrt.a
$(BUILD)/obj/shape-rt/%.o: $(VL_ROOT)/%.cpp
	@mkdir -p $(dir $@)
	$(CXX) $(VL_CXXFLAGS) -fPIC -fvisibility=hidden -fvisibility-inlines-hidden -c -o $@ $<
$(SHAPE_RT): $(SHAPE_RT_OBJS)
	rm -f $@.tmp && ar rcs $@.tmp $^ && mv $@.tmp $@
shape_so = $(SHAPES_DIR)/$(1)/libhws_shape$(if $(filter 1,$(2)),_trace).so
# build/hws_shape_key: the key's parser and printer (lib/hws_params.c, regmap/params.def)
# for the scripts: tools/build_shape.sh and synth/ ask it for the -G flags, the -D defines
# and the canonical key instead of parsing a key themselves.
SHAPE_KEY := $(BUILD)/hws_shape_key
$(SHAPE_KEY): tools/hws_shape_key.c lib/hws_params.c lib/hws_params.h lib/hws_params_table.h \
		include/hws/params_list.h include/hws/transport.h include/hws/regs.h
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS_HWS) $(INC) -o $@.tmp tools/hws_shape_key.c lib/hws_params.c && mv $@.tmp $@
$(SHAPES_DIR)/%/libhws_shape.so: $(SHAPE_SRCS) $(SHAPE_RT) $(SHAPE_KEY)
	HWS_SHAPE_KEY=$(SHAPE_KEY) tools/build_shape.sh $* $(SHAPES_DIR) 0 $(SHAPE_RT) $(JOBS) $(SHAPE_SRCS)
$(SHAPES_DIR)/%/libhws_shape_trace.so: $(SHAPE_SRCS) $(SHAPE_RT) $(SHAPE_KEY)
	HWS_SHAPE_KEY=$(SHAPE_KEY) tools/build_shape.sh $* $(SHAPES_DIR) 1 $(SHAPE_RT) $(JOBS) $(SHAPE_SRCS)
.PRECIOUS: $(SHAPES_DIR)/%/libhws_shape.so $(SHAPES_DIR)/%/libhws_shape_trace.so

.PHONY: shape
shape: $(call shape_so,$(SHAPE),$(SHAPE_TRACE))

# Verilator flags of the board's simulator (the shapes' are tools/build_shape.sh's):
VL_FLAGS := --cc
VL_FLAGS += -Wall                 # every warning is an error here
VL_FLAGS += -O3                   # Verilator's own optimisations
VL_FLAGS += --assert              # run the RTL's simulation assertions
VL_FLAGS += --top-module hws_top
VL_FLAGS += -Irtl
VL_FLAGS += --x-assign fast --x-initial fast

# ---- C libraries -----------------------------------------------------------------------
# The layers, bottom up (docs/layout.md, The folders): lib, models, driver and firmware need no Verilator.
CORE_SRCS := $(sort $(wildcard lib/*.c)) $(sort $(wildcard models/*.c)) $(sort $(wildcard driver/*.c)) \
	$(sort $(wildcard firmware/*.c))
SIM_C_SRCS := sim/stim/hws_randcmd.c $(sort $(wildcard sim/machine/*.c)) $(sort $(wildcard sim/trace/*.c))
C_SRCS := $(CORE_SRCS) $(SIM_C_SRCS)
C_HDRS := $(wildcard include/hws/*.h lib/*.h models/*.h driver/*.h firmware/*.h sim/*/*.h cli/*.h)
C_OBJS := $(patsubst %.c,$(BUILD)/obj/%.o,$(C_SRCS))

$(BUILD)/obj/%.o: %.c $(C_HDRS)
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS_HWS) $(INC) -c -o $@ $<

# The version (lib/hws_version.h): tools/gen_version.sh runs at every make (git describe,
# some ms) and touches the header only when the version changed, so only hws_version.o
# is rebuilt, and only then.
VERSION_H := $(BUILD)/gen/hws_version_gen.h
$(VERSION_H): FORCE
	@tools/gen_version.sh $@
$(BUILD)/obj/lib/hws_version.o $(BUILD)/san/lib/hws_version.o: $(VERSION_H)

# Sanitizer build of the same C code (ASan + UBSan) for the test run.
SAN := -fsanitize=address,undefined -fno-omit-frame-pointer -fno-sanitize-recover=all
$(BUILD)/san/%.o: %.c $(C_HDRS)
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS_HWS) $(INC) $(SAN) -c -o $@ $<

# The Verilator harness's loader of shapes and its C ABI, the "rtl" transport backend over it.
SIM_OBJS := $(BUILD)/obj/sim/harness/hws_vsim.o $(BUILD)/obj/sim/harness/rtl_transport.o
LINK_LIBS := -ldl -lz -lm -pthread

# ---- The executable ------------------------------------------------------------------
HWSCHED := $(BUILD)/hwsched
# The command line: cli/*.c but the benches.
CLI_OBJS := $(patsubst %.c,$(BUILD)/obj/%.o,$(filter-out cli/hws_bench.c cli/hws_balance_bench.c,\
	$(sort $(wildcard cli/*.c))))
$(HWSCHED): $(CLI_OBJS) $(BUILD)/obj/sim/vp/hws_vp_stub.o $(C_OBJS) $(SIM_OBJS)
	$(CXX) -o $@ $(CLI_OBJS) $(BUILD)/obj/sim/vp/hws_vp_stub.o $(C_OBJS) $(SIM_OBJS) $(LINK_LIBS)

# make / make run: hwsched, the default shape (8 CPUs x 256 tasks) and the virtual platform
# (build/hwsched_vp, added below where it is defined: about 9 s); other shapes on demand.
.PHONY: all
all: $(HWSCHED) $(SHAPE_KEY) $(call shape_so,$(DEFAULT_SHAPE))

# ---- make run: the main job -------------------------------------------------------------
# hackbench on an 8-CPU SMT machine (2 packages x 2 cores x 2 threads), scheduled by the
# firmware on the Verilated engine with the C model in lockstep (every engine read
# compared), and the report. RUN_LOCKSTEP_COMMANDS: the random-command check of old.
RUN_SEED ?= 1
RUN_WORKLOAD ?= hackbench:groups=4,loops=10
RUN_TOPOLOGY ?= pkg=2,core=2,smt=2
.PHONY: run run-lockstep
run: all
	$(HWSCHED) run --workload '$(RUN_WORKLOAD)' --topology '$(RUN_TOPOLOGY)' --sched hw \
		--backend lockstep --seed '$(RUN_SEED)'
RUN_COMMANDS ?= 100000
run-lockstep: all
	$(HWSCHED) lockstep --seed '$(RUN_SEED)' --commands '$(RUN_COMMANDS)'

# ---- RTL checks ----------------------------------------------------------------------
.PHONY: lint lint-verilator lint-iverilog lint-yosys synth-smoke units-elab
lint: lint-verilator lint-iverilog lint-yosys units-elab

# A unit the configuration leaves out is not in Verilator's netlist (BALANCE, IRQ, the
# error counters, the ports; tools/check_units_elab.sh).
units-elab: $(RTL_SRCS) $(RTL_INC) $(SHAPE_KEY)
	HWS_SHAPE_KEY=$(SHAPE_KEY) tools/check_units_elab.sh

# Verilator -Wall over the default and the extreme parameter sets.
lint-verilator: $(RTL_SRCS) $(RTL_INC)
	@for g in "" "-GNR_CPUS=1 -GNR_TASKS=16 -GNR_GROUPS=1" \
		  "-GNR_CPUS=64 -GNR_TASKS=4096 -GNR_GROUPS=64" \
		  "-GNR_CPUS=2 -GNR_TASKS=16 -GCMD_DEPTH=4 -GRES_DEPTH=4" \
		  "-GLCU_BALANCE=0" "-GNR_CPUS=1 -GNR_TASKS=16 -GNR_GROUPS=1 -GLCU_BALANCE=0" \
		  "-GERR_COUNTERS=0" "-GLCU_BALANCE=0 -GERR_COUNTERS=0" \
		  "-GIRQ=0" "-GLCU_BALANCE=0 -GERR_COUNTERS=0 -GIRQ=0" "-GIRQ=0 -GNR_PORTS=4" \
		  "-GIRQ=0 -GNR_CPUS=64 -GNR_TASKS=4096 -GNR_GROUPS=64" \
		  "-GNR_PORTS=2" "-GNR_PORTS=3 -GNR_CPUS=2 -GNR_TASKS=16" "-GNR_PORTS=4" \
		  "-GBAL_LANES=1" "-GBAL_LANES=3" "-GNR_CPUS=64 -GNR_TASKS=4096 -GBAL_LANES=1" \
		  "-GNR_CPUS=4 -GBAL_LANES=2" "-GPIPE=1" "-GPIPE=1 -GNR_PORTS=4" \
		  "-GPIPE=1 -GNR_CPUS=1 -GNR_TASKS=16 -GNR_GROUPS=1" \
		  "-GPIPE=1 -GNR_CPUS=64 -GNR_TASKS=4096 -GNR_GROUPS=64" \
		  "-GPIPE=1 -GLCU_BALANCE=0 -GERR_COUNTERS=0 -GIRQ=0"; do \
		verilator --lint-only -Wall -Irtl --top-module hws_top $$g $(RTL_SRCS) \
			|| { echo "lint-verilator: failed with '$$g'" >&2; exit 1; }; \
	done; echo "lint-verilator: clean"
	@for f in $(RTL_SRCS); do \
		verilator --lint-only -Wall -Irtl $$f \
			|| { echo "lint-verilator: $$f alone is not clean" >&2; exit 1; }; \
	done; echo "lint-verilator: every file clean on its own"
	@for t in hws_synth_top board_top; do \
		verilator --lint-only -Wall -Irtl --top-module $$t $(RTL_SRCS) $(SYNTH_TOPS) \
			|| { echo "lint-verilator: synth/ top $$t is not clean" >&2; exit 1; }; \
	done; echo "lint-verilator: the synthesis tops (synth/) clean"

lint-iverilog: $(RTL_SRCS) $(RTL_INC)
	@mkdir -p $(BUILD)/iverilog
	iverilog -g2012 -Irtl -s hws_top -o $(BUILD)/iverilog/hws_top.vvp $(RTL_SRCS)
	iverilog -g2012 -DSYNTHESIS -Irtl -s hws_top -o $(BUILD)/iverilog/hws_top_syn.vvp $(RTL_SRCS)
	iverilog -g2012 -Irtl -s hws_top -P hws_top.LCU_BALANCE=0 -o $(BUILD)/iverilog/hws_top_nb.vvp $(RTL_SRCS)
	iverilog -g2012 -Irtl -s hws_top -P hws_top.LCU_BALANCE=0 -P hws_top.ERR_COUNTERS=0 -o $(BUILD)/iverilog/hws_top_nbne.vvp $(RTL_SRCS)
	iverilog -g2012 -Irtl -s hws_top -P hws_top.NR_PORTS=4 -o $(BUILD)/iverilog/hws_top_p4.vvp $(RTL_SRCS)
	iverilog -g2012 -Irtl -s hws_top -P hws_top.BAL_LANES=3 -o $(BUILD)/iverilog/hws_top_bl3.vvp $(RTL_SRCS)
	iverilog -g2012 -Irtl -s hws_top -P hws_top.LCU_BALANCE=0 -P hws_top.ERR_COUNTERS=0 -P hws_top.IRQ=0 -o $(BUILD)/iverilog/hws_top_nbneni.vvp $(RTL_SRCS)
	iverilog -g2012 -Irtl -s hws_top -P hws_top.IRQ=0 -P hws_top.NR_PORTS=4 -o $(BUILD)/iverilog/hws_top_nip4.vvp $(RTL_SRCS)
	iverilog -g2012 -Irtl -s hws_top -P hws_top.PIPE=1 -o $(BUILD)/iverilog/hws_top_pi.vvp $(RTL_SRCS)
	iverilog -g2012 -DSYNTHESIS -Irtl -s hws_top -P hws_top.PIPE=1 -P hws_top.NR_PORTS=2 -o $(BUILD)/iverilog/hws_top_p2pi_syn.vvp $(RTL_SRCS)
	iverilog -g2012 -DSYNTHESIS -Irtl -s hws_synth_top -s board_top -o $(BUILD)/iverilog/synth_tops.vvp $(RTL_SRCS) $(SYNTH_TOPS)
	@echo "lint-iverilog: compiles"

lint-yosys: $(RTL_SRCS) $(RTL_INC)
	@mkdir -p $(BUILD)/yosys
	yosys -q -l $(BUILD)/yosys/read.log -p 'read_verilog -sv -Irtl $(RTL_SRCS); hierarchy -check -top hws_top' 
	yosys -q -l $(BUILD)/yosys/read_nb.log -p 'read_verilog -sv -Irtl $(RTL_SRCS); chparam -set LCU_BALANCE 0 hws_top; hierarchy -check -top hws_top'
	yosys -q -l $(BUILD)/yosys/read_ne.log -p 'read_verilog -sv -Irtl $(RTL_SRCS); chparam -set ERR_COUNTERS 0 hws_top; hierarchy -check -top hws_top'
	yosys -q -l $(BUILD)/yosys/read_ni.log -p 'read_verilog -sv -Irtl $(RTL_SRCS); chparam -set IRQ 0 hws_top; hierarchy -check -top hws_top'
	yosys -q -l $(BUILD)/yosys/read_nbneni.log -p 'read_verilog -sv -Irtl $(RTL_SRCS) $(SYNTH_TOPS); chparam -set LCU_BALANCE 0 -set ERR_COUNTERS 0 -set IRQ 0 hws_synth_top; hierarchy -check -top hws_synth_top'
	yosys -q -l $(BUILD)/yosys/read_p4.log -p 'read_verilog -sv -Irtl $(RTL_SRCS); chparam -set NR_PORTS 4 hws_top; hierarchy -check -top hws_top'
	yosys -q -l $(BUILD)/yosys/read_bl1.log -p 'read_verilog -sv -Irtl $(RTL_SRCS); chparam -set BAL_LANES 1 hws_top; hierarchy -check -top hws_top'
	yosys -q -l $(BUILD)/yosys/read_pi.log -p 'read_verilog -sv -Irtl $(RTL_SRCS); chparam -set PIPE 1 -set NR_PORTS 2 hws_top; hierarchy -check -top hws_top'
	yosys -q -l $(BUILD)/yosys/read_synth.log -p 'read_verilog -sv -Irtl $(RTL_SRCS) $(SYNTH_TOPS); hierarchy -check -top board_top'
	@echo "lint-yosys: reads"

# synth_ice40 on the default configuration: no latches, no multiple drivers, lists in
# block RAM (SB_RAM40_4K), not in logic: every memory of SMOKE_BRAMS (the lists, the task
# table, the bitmaps, the group state, the FIFOs of port 0, g_port[0]: "." matches the
# brackets in the pattern) must be mapped to SB_RAM40_4K, and
# hws_ram's words straight to it, without logic that emulates read-before-write.
SMOKE_BRAMS := u_engine.u_lists.u_ht u_engine.u_lists.u_tt u_engine.u_lists.u_nx u_engine.u_lists.u_pv u_engine.u_loads.u_wt \
	u_engine.u_bitmap.u_bm u_engine.u_loads.u_grp u_engine.u_loads.u_gl u_engine.u_loads.u_gt \
	g_port.0..u_fe.u_cmd_fifo g_port.0..u_fe.u_res_fifo
synth-smoke: $(RTL_SRCS) $(RTL_INC)
	@mkdir -p $(BUILD)/yosys
	yosys -l $(BUILD)/yosys/synth_ice40.log -p 'read_verilog -sv -DSYNTHESIS -Irtl $(RTL_SRCS); synth_ice40 -top hws_top; check -assert; tee -o $(BUILD)/yosys/ice40_stat.txt stat' >/dev/null
	@! grep -qi 'latch' $(BUILD)/yosys/ice40_stat.txt || { echo "synth-smoke: latches inferred" >&2; exit 1; }
	@grep -q 'SB_RAM40_4K' $(BUILD)/yosys/ice40_stat.txt || { echo "synth-smoke: no block RAM inferred" >&2; exit 1; }
	@for m in $(SMOKE_BRAMS); do \
		grep -q "^mapping memory hws_top\.$$m\.mem_q via \$$__ICE40_RAM4K_" $(BUILD)/yosys/synth_ice40.log \
			|| { echo "synth-smoke: memory $$m is not in block RAM (see $(BUILD)/yosys/synth_ice40.log)" >&2; exit 1; }; \
	done; echo "synth-smoke: $(words $(SMOKE_BRAMS)) memories in block RAM: $(SMOKE_BRAMS)"
	@! grep -q 'emulate_read_first' $(BUILD)/yosys/synth_ice40.log \
		|| { echo "synth-smoke: Yosys emulates read-before-write around a block RAM (hws_ram's memory lost its no_rw_check attribute?), see $(BUILD)/yosys/synth_ice40.log" >&2; exit 1; }
	@echo "synth-smoke: iCE40 synthesis ok:"; grep -E 'SB_LUT4|SB_DFF|SB_RAM40_4K|SB_CARRY' $(BUILD)/yosys/ice40_stat.txt | sort | uniq | sed 's/^/  /'

# ---- Tests ---------------------------------------------------------------------------
# tests/ mirrors the layers. Four binaries:
#   hws_core_tests  lib, models, driver (over the model backend) and firmware: links only
#                   those layers, no Verilator (the driver and firmware build without it)
#   hws_san_tests   the core tests and the random command streams under ASan + UBSan
#   hws_tests       everything that needs the simulator: RTL backends, machine, trace, CLI,
#                   the board; under ASan + UBSan: every C unit of every layer and the test
#                   code are instrumented, and its CLI tests run build/san/hwsched, the
#                   command line built the same way. Not instrumented: the Verilated
#                   engines and the Verilator runtime (generated and third-party C++, the
#                   harness's C++ wrapper around them) and build/board/board_sim (a
#                   separate Verilator program).
#   hws_vp_tests    the SystemC platform, not under the sanitizers: SystemC runs its
#                   processes as coroutines on stacks it switches itself (QuickThreads),
#                   which ASan cannot follow (false stack-overflow and use-after-return
#                   reports, aborts at the first switch) unless SystemC itself is built for
#                   it; Debian's libsystemc is not. Its C units (machine, firmware, driver)
#                   are covered by hws_tests and hws_san_tests.
GTEST_LIBS := -lgtest -lgtest_main -pthread
CORE_TEST_SRCS := $(sort $(wildcard tests/lib/*_test.cc tests/models/*_test.cc \
	tests/firmware/*_test.cc)) tests/driver/driver_test.cc tests/driver/uart_test.cc
TEST_SRCS := $(sort $(filter-out tests/sim/vp/% $(CORE_TEST_SRCS),$(wildcard tests/*/*_test.cc)))
CORE_TEST_OBJS := $(patsubst %.cc,$(BUILD)/obj/%.o,$(CORE_TEST_SRCS))
TEST_OBJS := $(patsubst %.cc,$(BUILD)/obj/%.o,$(TEST_SRCS))
CORE_OBJS := $(patsubst %.c,$(BUILD)/obj/%.o,$(CORE_SRCS))
CORE_TEST_BIN := $(BUILD)/tests/hws_core_tests
TEST_BIN := $(BUILD)/tests/hws_tests
SAN_TEST_BIN := $(BUILD)/tests/hws_san_tests

$(BUILD)/obj/tests/%.o: tests/%.cc $(C_HDRS) tests/test_util.h
	@mkdir -p $(dir $@)
	$(CXX) $(CXXFLAGS_HWS) $(INC) -DHWSCHED_BIN='"$(abspath $(HWSCHED))"' -c -o $@ $<

$(CORE_TEST_BIN): $(CORE_TEST_OBJS) $(CORE_OBJS)
	@mkdir -p $(dir $@)
	$(CXX) -o $@ $(CORE_TEST_OBJS) $(CORE_OBJS) -lm $(GTEST_LIBS)

# hws_tests under ASan + UBSan (above): the tests, every C unit and the command line.
SAN_TEST_SIM_OBJS := $(patsubst %.cc,$(BUILD)/san/%.o,$(TEST_SRCS))
SAN_C_OBJS := $(patsubst %.c,$(BUILD)/san/%.o,$(C_SRCS))
# The shapes are shared objects the harness loads (docs/shapes.md), not linked in; they
# are not instrumented, the harness's loader and the transport over it are.
SAN_SIM_OBJS := $(BUILD)/san/sim/harness/hws_vsim.o $(BUILD)/san/sim/harness/rtl_transport.o
SAN_HWSCHED := $(BUILD)/san/hwsched
$(BUILD)/san/tests/%.o: tests/%.cc $(C_HDRS) tests/test_util.h
	@mkdir -p $(dir $@)
	$(CXX) $(CXXFLAGS_HWS) $(SAN) $(INC) -DHWSCHED_BIN='"$(abspath $(SAN_HWSCHED))"' -c -o $@ $<
# build/san/hwsched runs build/hwsched_vp for 'vp' from beside itself: a link to it.
$(SAN_HWSCHED): $(patsubst $(BUILD)/obj/%,$(BUILD)/san/%,$(CLI_OBJS)) \
		$(BUILD)/san/sim/vp/hws_vp_stub.o $(SAN_C_OBJS) $(SAN_SIM_OBJS)
	@mkdir -p $(dir $@)
	$(CXX) $(SAN) -o $@ $(filter %.o,$^) $(LINK_LIBS)
	ln -sf ../hwsched_vp $(BUILD)/san/hwsched_vp

$(TEST_BIN): $(SAN_TEST_SIM_OBJS) $(SAN_C_OBJS) $(SAN_SIM_OBJS) $(SAN_HWSCHED)
	@mkdir -p $(dir $@)
	$(CXX) $(SAN) -o $@ $(SAN_TEST_SIM_OBJS) $(SAN_C_OBJS) $(SAN_SIM_OBJS) $(LINK_LIBS) \
		$(GTEST_LIBS)

# The core tests and the random streams again, with the C code under ASan + UBSan.
SAN_TEST_OBJS := $(CORE_TEST_OBJS) $(BUILD)/obj/tests/sim/stim_test.o
SAN_C_SRCS := $(CORE_SRCS) sim/stim/hws_randcmd.c
$(SAN_TEST_BIN): $(SAN_TEST_OBJS) $(patsubst %.c,$(BUILD)/san/%.o,$(SAN_C_SRCS))
	@mkdir -p $(dir $@)
	$(CXX) $(SAN) -o $@ $^ -lm $(GTEST_LIBS)

# Every include points down the layers (tools/check_layers.sh; its self-test first shows
# that a bad include is caught).
.PHONY: layers
layers:
	@tools/check_layers.sh --self-test
	@tools/check_layers.sh

# No function over 80 lines in models/, lib/, driver/, firmware/ (tools/check_fn_length.sh;
# its self-test first shows that an 81-line function fails).
.PHONY: fn-length
fn-length:
	@tools/check_fn_length.sh --self-test
	@tools/check_fn_length.sh models lib driver firmware

# The docs, comments and --help state rules: no commit hash, tracker reference or dead
# path (tools/check_docs.sh; its self-test first shows that each is caught); every table
# of figures is what the committed records give (tools/figures.sh --check).
.PHONY: docs-check
docs-check:
	@tools/check_docs.sh --self-test
	@tools/check_docs.sh
	@tools/figures.sh --check
test: docs-check

# The shapes the tests' sweeps use, built before they run (hwsched would build them on
# first use, one at a time; make builds them with the rest), and the default shape with
# waveform support (the --wave tests); the 2- and 4-port shapes of tests/sim/ports_test.cc
# (make bench builds 8x256x16g16p2 on use); the BALANCE-lane shapes of
# tests/driver/bal_lanes_test.cc (bl<N>) and its lean-BALANCE shapes (ln); the overlapped-issue shapes (pi) of the lockstep
# sweep and the ports tests. tests/sim/shapes_test.cc builds one more
# (3x100x16g16, in a cache of its own), on demand.
TEST_SHAPES := $(addsuffix g$(RTL_GROUPS),8x256x16 1x16x16 2x16x4 2x256x16 8x16x16 64x256x16 \
	64x4096x16) $(addprefix 8x256x16g$(RTL_GROUPS),nb nbne nbneni) \
	$(addprefix 2x16x4g$(RTL_GROUPS),p2 p4 nip2) 8x256x16g$(RTL_GROUPS)p4 \
	$(addprefix 8x16x16g$(RTL_GROUPS),bl1 bl2 bl3 ln) $(addprefix 4x16x16g$(RTL_GROUPS),bl1 bl2 ln) \
	3x16x16g$(RTL_GROUPS)ln \
	4x16x16g$(RTL_GROUPS) $(addprefix 2x16x4g$(RTL_GROUPS),pi p2pi) \
	$(addprefix 8x256x16g$(RTL_GROUPS),pi p4pi) 4x64x8g$(RTL_GROUPS)p2pi \
	$(addprefix 4x16x4g$(RTL_GROUPS),pi p2pi)
TEST_SHAPE_SOS := $(foreach k,$(TEST_SHAPES),$(call shape_so,$(k))) $(call shape_so,$(DEFAULT_SHAPE),1)
# tests/lib/params_test.cc: every key of TEST_SHAPES round-trips through lib/hws_params.c.
$(BUILD)/obj/tests/lib/params_test.o $(BUILD)/san/tests/lib/params_test.o: \
	CXXFLAGS_HWS += -DHWS_TEST_SHAPES='"$(TEST_SHAPES)"'
.PHONY: test-shapes
test-shapes: $(TEST_SHAPE_SOS)

.PHONY: test unit-test san-test
test: gen-check layers fn-length lint synth-smoke $(HWSCHED) $(TEST_SHAPE_SOS) $(CORE_TEST_BIN) $(TEST_BIN) \
		$(SAN_TEST_BIN)
	tests/run_all.sh $(BUILD)/test-reports $(CORE_TEST_BIN) $(SAN_TEST_BIN) $(TEST_BIN) \
		$(VP_TEST_BIN)

# ---- The virtual platform (docs/vp.md) -------------------------------------------------
# sim/vp wraps the harness's engine (the shape's shared object, loaded by
# sim/harness/hws_vsim.c like the rtl backend's) as a TLM-2.0 target behind an interconnect
# and one initiator per simulated CPU: no SystemC Verilation, any shape on demand.
# build/hwsched_vp is hwsched with the platform linked in (build/hwsched vp runs it).
SC_DEFS := -DSC_INCLUDE_DYNAMIC_PROCESSES
SC_CXXFLAGS := -std=gnu++17 -O2 -g $(SC_DEFS) -Wall -Wextra -Wno-unused-parameter \
	-Wmissing-declarations
SC_LIBS := -lsystemc

VP_HDRS := $(wildcard sim/vp/*.h) $(C_HDRS)
$(BUILD)/obj/vp/%.o: sim/vp/%.cpp $(VP_HDRS)
	@mkdir -p $(BUILD)/obj/vp
	$(CXX) $(SC_CXXFLAGS) $(INC) -Isim/vp -c -o $@ $<
# The harness's loader, not its "rtl" backend: the driver opens the platform's bus ("tlm").
VP_CORE_OBJS := $(BUILD)/obj/vp/vp.o $(BUILD)/obj/sim/harness/hws_vsim.o
VP_LINK_LIBS := $(SC_LIBS) -ldl -lz -lm -pthread
VP_BIN := $(BUILD)/hwsched_vp
# hwsched vp runs it: make builds it, so vp works on any topology after make alone.
all: $(VP_BIN)
.PHONY: FORCE
FORCE:
$(VP_BIN): $(CLI_OBJS) $(BUILD)/obj/vp/hws_vp.o $(C_OBJS) $(VP_CORE_OBJS)
	$(CXX) -o $@ $(CLI_OBJS) $(BUILD)/obj/vp/hws_vp.o $(C_OBJS) $(VP_CORE_OBJS) $(VP_LINK_LIBS)

.PHONY: vp vp-study
vp: all $(VP_BIN)

# The TLM-level tests: their own binary (SystemC elaborates once per process).
VP_TEST_SRCS := $(sort $(wildcard tests/sim/vp/*_test.cc))
VP_TEST_OBJS := $(patsubst %.cc,$(BUILD)/obj/%.o,$(VP_TEST_SRCS))
VP_TEST_BIN := $(BUILD)/tests/hws_vp_tests
$(BUILD)/obj/tests/sim/vp/%.o: tests/sim/vp/%.cc $(VP_HDRS) tests/test_util.h
	@mkdir -p $(dir $@)
	$(CXX) $(SC_CXXFLAGS) $(INC) -Isim/vp -c -o $@ $<
$(VP_TEST_BIN): $(VP_TEST_OBJS) $(C_OBJS) $(VP_CORE_OBJS)
	@mkdir -p $(dir $@)
	$(CXX) -o $@ $(VP_TEST_OBJS) $(C_OBJS) $(VP_CORE_OBJS) $(VP_LINK_LIBS) -lgtest -pthread

# make test needs both (the VP's variables are defined here, after the test rule).
test: $(VP_BIN) $(VP_TEST_BIN)

# The break-even study (docs/co-design.md): the VP builds the study's shapes as it needs them.
# vp-study: both bus interfaces (old: writes not posted, one port; new: posted writes, 4
# ports), each without and with the modern profile. vp-study-new: the new interface only
# (rerun after a firmware or RTL change; the old tables stay).
.PHONY: vp-study-new
vp-study: all $(VP_BIN)
	IFACE=old VP_RECORD_COMMAND='make vp-study' results/co_design.sh
	IFACE=old PROFILE=modern VP_RECORD_COMMAND='make vp-study' results/co_design.sh
	IFACE=new VP_RECORD_COMMAND='make vp-study' results/co_design.sh
	IFACE=new PROFILE=modern VP_RECORD_COMMAND='make vp-study' results/co_design.sh
vp-study-new: all $(VP_BIN)
	IFACE=new VP_RECORD_COMMAND='make vp-study-new' results/co_design.sh
	IFACE=new PROFILE=modern VP_RECORD_COMMAND='make vp-study-new' results/co_design.sh
# vp-study-lean: the new interface with the area-lean BALANCE (LEAN=1: --bal-lean,
# docs/accelerator.md 8.2.1) and, in the same runs, the fast one, on 8 CPUs, without and
# with the modern profile (build/co_design_new_lean[_modern]/record.json; make figures
# renders them in docs/co-design.md).
.PHONY: vp-study-lean
vp-study-lean: all $(VP_BIN)
	IFACE=new LEAN=1 VP_RECORD_COMMAND='make vp-study-lean' results/co_design.sh
	IFACE=new LEAN=1 PROFILE=modern VP_RECORD_COMMAND='make vp-study-lean' results/co_design.sh

# ---- Benchmarks ----------------------------------------------------------------------
BENCH_BIN := $(BUILD)/hws_bench
$(BENCH_BIN): $(BUILD)/obj/cli/hws_bench.o $(C_OBJS) $(SIM_OBJS)
	$(CXX) -o $@ $(BUILD)/obj/cli/hws_bench.o $(C_OBJS) $(SIM_OBJS) $(LINK_LIBS)

.PHONY: bench bench-balance
bench: $(BENCH_BIN) $(HWSCHED) $(call shape_so,$(DEFAULT_SHAPE)) $(call shape_so,$(DEFAULT_SHAPE)p2) \
		$(call shape_so,$(DEFAULT_SHAPE)p4) $(foreach p,pi p2pi p4pi,$(call shape_so,8x4096x16g16$(p))) \
		bench-balance
	@mkdir -p $(BUILD)/bench
	$(BENCH_BIN) --json $(BUILD)/bench/engine.json --commit "$$(. tools/record.sh && record_commit)" \
		--command '$(call record_cmd,bench,)'
	tools/bench_run.sh $(BUILD)/bench/engine.json $(HWSCHED)
	@tools/bench_compare.sh $(BUILD)/bench/engine.json $(BUILD)/bench/history

# make profile: where a lockstep run's time goes, by part (the RTL's evaluation, the model,
# the harness, the stream), from perf's samples: the record build/bench/profile.json
# (tools/profile_lockstep.sh; make figures renders it in docs/accelerator.md, "Simulation speed").
.PHONY: profile
profile: $(HWSCHED) $(call shape_so,$(DEFAULT_SHAPE))
	PROFILE_RECORD_COMMAND='$(call record_cmd,profile,)' tools/profile_lockstep.sh $(BUILD)/bench/profile.json

# make profile-rtl: what one clock edge of the RTL costs, by module and by always block:
# callgrind's instructions per edge of `hwsched lockstep --backend rtl` on a profiling build
# of the default shape (Verilator --prof-cfuncs; build/prof/shapes), into
# build/prof/rtl.json (tools/profile_rtl.sh; docs/accelerator.md, "Simulation speed").
PROF_SHAPES := $(BUILD)/prof/shapes
$(PROF_SHAPES)/%/libhws_shape.so: $(SHAPE_SRCS) $(SHAPE_RT) $(SHAPE_KEY)
	HWS_SHAPE_KEY=$(SHAPE_KEY) HWS_SHAPE_PROF=1 tools/build_shape.sh $* $(PROF_SHAPES) 0 $(SHAPE_RT) $(JOBS) $(SHAPE_SRCS)
.PRECIOUS: $(PROF_SHAPES)/%/libhws_shape.so
.PHONY: profile-rtl
profile-rtl: $(HWSCHED) $(PROF_SHAPES)/$(DEFAULT_SHAPE)/libhws_shape.so
	HWS_SHAPES=$(PROF_SHAPES) tools/profile_rtl.sh --command '$(call record_cmd,profile-rtl,)' $(BUILD)/prof/rtl.json

# make bench's report against the last record of the same machine, on fixture records
# (tests/tools/bench_compare_test.sh).
.PHONY: test-bench-compare
test-bench-compare:
	@tests/tools/bench_compare_test.sh
test: test-bench-compare

# make vp-study's script with a stand-in hwsched: a failed VP run stops it with no table
# (tests/tools/co_design_test.sh).
.PHONY: test-co-design
test-co-design:
	@tests/tools/co_design_test.sh
test: test-co-design

# Instructions of one software BALANCE (find_busiest_group + find_busiest_queue), counted
# by callgrind (repeatable, unlike seconds), at 4, 16 and 64 CPUs.
BALANCE_BENCH := $(BUILD)/hws_balance_bench
BALANCE_CALLS := 1000
$(BALANCE_BENCH): $(BUILD)/obj/cli/hws_balance_bench.o $(BUILD)/obj/lib/hws_balance.o \
		$(BUILD)/obj/lib/hws_version.o $(BUILD)/obj/lib/hws_out.o
	$(CC) -o $@ $^

# make test compiles the benches (they are not run), so a change that breaks them fails CI.
test: $(BENCH_BIN) $(BALANCE_BENCH)

bench-balance: $(BALANCE_BENCH)
	@mkdir -p $(BUILD)/bench
	@echo "software BALANCE, instructions per call (callgrind):"
	@sep=""; json="{$$($(BALANCE_BENCH) --json-head), "; for n in 4 16 64; do \
		valgrind --tool=callgrind --toggle-collect=hws_find_busiest \
			--callgrind-out-file=$(BUILD)/bench/callgrind.balance.$$n \
			$(BALANCE_BENCH) $$n $(BALANCE_CALLS) >/dev/null 2>&1 \
			|| { echo "bench-balance: callgrind failed" >&2; exit 1; }; \
		ir=$$(grep -E '^(summary|totals):' $(BUILD)/bench/callgrind.balance.$$n | head -1 | awk '{print $$2}'); \
		per=$$((ir / $(BALANCE_CALLS))); \
		echo "  $$n CPUs: $$per instructions"; \
		json="$$json$$sep\"$$n\": $$per"; sep=", "; \
	done; echo "$$json}" > $(BUILD)/bench/balance_sw.json; echo "wrote $(BUILD)/bench/balance_sw.json"

# ---- replay fidelity (docs/trace.md, "Fidelity goals") ----------------------------------
# make replay-check [REPLAY_SCHED=eevdf] [STRICT=1] [UPDATE_DOC=1]: every trace of traces/
# (or $HWS_TRACE_DIR) replayed, one table trace x figure (Linux, replay, error, verdict
# against the fidelity goals), build/replay-check/summary.json (the record; make figures
# puts its table into docs/trace.md) and table.md; UPDATE_DOC=1 runs make figures after
# it (tools/replay_check.sh; docs/trace.md, "Fidelity goals").
REPLAY_SCHED ?= eevdf
.PHONY: replay-check
replay-check: $(HWSCHED)
	SCHED='$(REPLAY_SCHED)' STRICT='$(STRICT)' REPLAY_CHECK_COMMAND='$(call record_cmd,replay-check,REPLAY_SCHED STRICT)' \
		tools/replay_check.sh$(if $(filter 1,$(UPDATE_DOC)), --update-doc)

# ---- The traces (traces/README.md) ------------------------------------------------------
# traces/ holds the real traces the tests and make replay-check read, each with its sidecar
# (tools/record_trace.sh). build/trace_load: the workloads of known shape that no standard
# tool offers (tools/trace_load.c); make test builds it so that a change breaking it fails.
# make traces-record [TRACES_OUT=DIR] [FORCE=1]   re-records the nine traces recorded with
#   the recipe (perf as root; minutes on a quiet machine) into TRACES_OUT, by default
#   build/traces-record/, never traces/ unless told: the committed ones were recorded on a
#   quiet machine, and a busy one records the other work too. Each line is the command of
#   that trace's sidecar; make_j6 builds into a fresh build/trace_make/.
TRACE_LOAD := $(BUILD)/trace_load
$(TRACE_LOAD): tools/trace_load.c
	@mkdir -p $(BUILD)
	$(CC) -std=c11 -Wall -Wextra -Werror -O2 -pthread -o $@ $<
test: $(TRACE_LOAD)

TRACES_OUT ?= $(BUILD)/traces-record
REC = tools/record_trace.sh --dir '$(TRACES_OUT)'$(if $(filter 1,$(FORCE)), --force)
.PHONY: traces-record
traces-record: $(HWSCHED) $(TRACE_LOAD)
	@mkdir -p $(TRACES_OUT)
	$(REC) pipe_pingpong -- perf bench sched pipe -l 3000
	$(REC) pipe_pairs -- sh -c 'perf bench sched pipe -l 1000 & perf bench sched pipe -l 1000 & perf bench sched pipe -l 1000 & wait'
	$(REC) pipe_hogs -- sh -c '$(TRACE_LOAD) hogs 0.3 0,0 100000:10 & perf bench sched pipe -l 1500; wait'
	$(REC) messaging_threads -- perf bench sched messaging -t -g 2 -l 40
	rm -rf $(BUILD)/trace_make && mkdir -p $(BUILD)/trace_make
	$(REC) make_j6 -- make -j6 -f tools/trace_make.mk SRC=. OUT=$(BUILD)/trace_make
	$(REC) nice_hogs -- $(TRACE_LOAD) hogs 0.5 0,0,10,10 4000:300
	$(REC) fork_exec -- sh -c 'for i in $$(seq 100); do /bin/echo $$i | /bin/cat >/dev/null; done'
	$(REC) sleepy_threads -- $(TRACE_LOAD) threads 0.5 6 300 200
	$(REC) pipeline_gzip -- sh -c 'head -c 6000000 /dev/urandom | gzip -1 | gunzip | sha256sum'

# ---- results: the five published results, reproduced (docs/results.md) ----------------
# make results [SEEDS=N] [LONG=1] [HOSTS=a,b] [JOBS=N]: runs results/exp1..5_*.sh (each a
# matrix of scheduler x parameter x seed, as independent GNU parallel jobs; HOSTS is passed
# as parallel --sshlogin, the hosts must see this worktree at the same path), then
# results/report.sh: build/results/expN.tsv summaries, build/results/tables.md, and the
# plots docs/results/expN.svg. docs/results.md.
RESULTS_EXPS := exp1_tbench exp2_volano exp3_domains exp4_groups exp5_wakebal
.PHONY: results $(addprefix results-,$(RESULTS_EXPS)) results-report
results: $(HWSCHED)
	@t0=$$(date +%s); \
	for e in $(RESULTS_EXPS); do \
		SEEDS='$(SEEDS)' LONG='$(LONG)' HOSTS='$(HOSTS)' JOBS='$(RESULTS_JOBS)' results/$$e.sh || exit 1; \
	done; \
	RESULTS_COMMAND='$(call record_cmd,results,SEEDS LONG HOSTS RESULTS_JOBS)' results/report.sh; \
	echo "results: all five experiments in $$(( $$(date +%s) - t0 )) s"
$(addprefix results-,$(RESULTS_EXPS)): results-%: $(HWSCHED)
	SEEDS='$(SEEDS)' LONG='$(LONG)' HOSTS='$(HOSTS)' JOBS='$(RESULTS_JOBS)' results/$*.sh
results-report:
	results/report.sh
SEEDS ?= 3
LONG ?= 0
HOSTS ?=
RESULTS_JOBS ?=
# ---- end of results --------------------------------------------------------------------

# ---- make install / make uninstall -----------------------------------------------------
# make install [PREFIX=/usr/local] [DESTDIR=]   bin/hwsched and bin/hwsched_vp; libhws (lib,
#   models, driver and the rtl backend's shape loader, position-independent) as
#   PREFIX/lib/libhws.a and .so with include/hws/*.h and PREFIX/lib/pkgconfig/hwsched.pc; the
#   RTL under share/hwsched/rtl/ with hwsched.f and the FuseSoC core hwsched.core; what
#   builds an engine shape from it (into ${XDG_CACHE_HOME:-$HOME/.cache}/hwsched/shapes on
#   first use: docs/shapes.md); the man page hwsched(1), from --help (tools/man_page.sh).
#   tools/install.sh writes the files and share/hwsched/install-manifest.
# make uninstall [PREFIX=...] [DESTDIR=]   removes what the manifest lists, nothing else.
PREFIX ?= /usr/local
DESTDIR ?=
LIBHWS_SRCS := $(sort $(wildcard lib/*.c)) $(sort $(wildcard models/*.c)) \
	$(sort $(wildcard driver/*.c)) sim/harness/hws_vsim.c sim/harness/rtl_transport.c
LIBHWS_OBJS := $(patsubst %.c,$(BUILD)/pic/%.o,$(LIBHWS_SRCS))
LIBHWS_LIBS := -ldl -lm -pthread
$(BUILD)/pic/%.o: %.c $(C_HDRS)
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS_HWS) -fPIC $(INC) -c -o $@ $<
$(BUILD)/lib/libhws.a: $(LIBHWS_OBJS)
	@mkdir -p $(dir $@)
	rm -f $@.tmp && ar rcs $@.tmp $^ && mv $@.tmp $@
# -z defs: every symbol the library uses is in it or in LIBHWS_LIBS.
$(BUILD)/lib/libhws.so: $(LIBHWS_OBJS)
	@mkdir -p $(dir $@)
	$(CC) -shared -Wl,-soname,libhws.so -Wl,-z,defs -o $@.tmp $^ $(LIBHWS_LIBS) && mv $@.tmp $@
$(BUILD)/man/hwsched.1: $(HWSCHED) tools/man_page.sh
	tools/man_page.sh $(HWSCHED) $@

.PHONY: install uninstall lib
lib: $(BUILD)/lib/libhws.a $(BUILD)/lib/libhws.so
install: $(HWSCHED) $(VP_BIN) lib $(BUILD)/man/hwsched.1
	HWS_LIBS_PRIVATE='$(LIBHWS_LIBS)' tools/install.sh install $(BUILD) $(PREFIX) $(DESTDIR)
uninstall:
	tools/install.sh uninstall $(PREFIX) $(DESTDIR)

# make test: install into temporary prefixes, a program built against it with pkg-config
# on the model and rtl backends, uninstall (tests/tools/install_test.sh; about a minute,
# most of it the rtl backend's shape, built from the installed RTL into a fresh cache).
.PHONY: test-install
test-install: $(HWSCHED) $(VP_BIN) lib $(BUILD)/man/hwsched.1
	@tests/tools/install_test.sh
test: test-install

# ---- make help: every goal, one line each, with its package group (tools/deps.sh) --------
define HELP_GOALS
run            hackbench on a simulated 8-CPU SMT machine: firmware on the engine, model in lockstep
test           every test (lint, synthesis smoke, formal, fuzz inputs, GoogleTest, install, README)
all            build hwsched, the default engine shape and the virtual platform (make's default)
vp             the SystemC virtual platform, build/hwsched_vp (docs/vp.md)
run-lockstep   100,000 random engine commands, model vs RTL
shape          one engine shape: make shape SHAPE=5x333x16g16 (docs/shapes.md)
lint           RTL lint: Verilator -Wall, Icarus, Yosys
synth-smoke    iCE40 synthesis of the default engine, memories in block RAM
rtl-tb         the per-module Icarus testbenches of tests/rtl/
formal         every formal proof and the mutation check (docs/formal.md)
synth          the Yosys/nextpnr sweep over FPGA families and sizes (docs/synthesis.md)
board          the iCEBreaker bitstream (docs/board.md)
board-sim      the Verilated board behind a pseudo-terminal
board-run      hackbench scheduled over the simulated board's UART
bench          engine figures, software BALANCE instructions (build/bench/)
profile        where a lockstep run's time goes, by part, from perf (build/bench/profile.json)
profile-rtl    instructions per RTL clock edge, by module and block (build/prof/rtl.json)
fuzz           the libFuzzer targets, FUZZ_TIME=S each (docs/fuzz.md)
coverage       RTL line and toggle, C line coverage against the goals (docs/coverage.md)
soak           lockstep for 100 M random commands (docs/fuzz.md)
results        the five published results rerun (docs/results.md)
vp-study       the break-even study of docs/co-design.md
vp-study-lean  the same with the lean BALANCE beside the fast one, 8 CPUs
replay-check   every trace replayed, judged against Linux (docs/trace.md)
traces-record  record the recipe's traces again, as root (traces/README.md)
gen            regenerate the register map and parameter files (regmap/*.def)
layers         the layering check (tools/check_layers.sh)
fn-length      no function over 80 lines in models, lib, driver, firmware (tools/check_fn_length.sh)
lib            build/lib/libhws.a and libhws.so
install        install into PREFIX (default /usr/local), DESTDIR to stage (docs/usage.md)
uninstall      remove what make install put into PREFIX
figures        the tables of current figures in README.md and docs/, from records/
deps           install the packages of GOALS="..." (default every group)
help           this list
clean          remove build/
endef
export HELP_GOALS
.PHONY: help
help:
	@echo "make GOAL: the goals, and the package group each needs (tools/deps.sh --table):"
	@echo "$$HELP_GOALS" | while read -r g text; do \
		grp=$$(tools/deps.sh --groups $$g); \
		printf '  %-14s %s [%s]\n' "$$g" "$$text" "$${grp:-none}"; \
	done

# make test: README.md's ```sh examples run as written, its goals table checked against make
# help and tools/deps.sh (tests/tools/readme_test.sh).
.PHONY: test-readme
test-readme: $(HWSCHED) $(call shape_so,$(DEFAULT_SHAPE)) $(call shape_so,$(DEFAULT_SHAPE)nbneni)
	@tests/tools/readme_test.sh
test: test-readme

# make figures: every table of current figures in README.md and docs/*.md (each between
# its figures:NAME markers), from the committed records under records/, after copying into
# records/ each record of build/ that is newer (tools/figures.sh; a record not there is a
# "not measured" table). make docs-check runs tools/figures.sh --check (records/ only, no
# build/); make test runs tests/tools/figures_test.sh on fixture records.
# record_cmd GOAL,VARS: "make GOAL" and the VARS given on the command line or in the
# environment: the "command" of a measurement's record (tools/record.sh).
record_cmd = $(strip make $(1) $(foreach v,$(2),$(if $(filter command line environment,$(origin $(v))),$(v)=$(if $(word 2,$($(v))),"$($(v))",$($(v))))))
.PHONY: figures test-figures
figures:
	@tools/figures.sh
test-figures:
	@tests/tools/figures_test.sh
test: test-figures

.PHONY: clean
clean:
	rm -rf $(BUILD)

# ==== synth: FPGA synthesis sweep (docs/synthesis.md) ====================================
# make synth                     every configuration of synth/sweep_list.sh (four families),
#                                one job per family/configuration, run with make -j; then
#                                build/synth/report.{json,md}
# make synth SYNTH_CONFIGS="8x256 2x64" SYNTH_FAMILIES="ice40 xilinx"   a subset
# make synth BOARD=icebreaker    iCE40 UP5K P&R of synth/board_top.v with synth/icebreaker.pcf
# make synth-check               ice40 2x64 only, and check the JSON has every field
# See docs/synthesis.md. Jobs of other runs are not redone: their stamp files stay until
# the RTL or the synth scripts change (or rm -rf build/synth).
# BOARD only changes the iCE40 UP5K run: its results go to their own folder, iCE40 only.
SYNTH_DIR := $(BUILD)/synth$(if $(BOARD),-$(BOARD))
SYNTH_CONFIGS ?=
SYNTH_FAMILIES ?= $(if $(BOARD),ice40,ice40 ecp5 xilinx gowin)
SYNTH_SCRIPTS := synth/synth_one.sh synth/hws_synth_top.v synth/board_top.v
SYNTH_JOBS := $(shell synth/sweep_list.sh $(SYNTH_DIR) "$(SYNTH_CONFIGS)" "$(SYNTH_FAMILIES)" 2>/dev/null | awk '{ print $$1 "_" $$2 "x" $$3 }')
SYNTH_STAMPS := $(addprefix $(SYNTH_DIR)/,$(addsuffix .stamp,$(SYNTH_JOBS)))

.PHONY: synth synth-check
synth: $(SYNTH_STAMPS)
	@test -n "$(SYNTH_JOBS)" || { echo "synth: no jobs for SYNTH_CONFIGS='$(SYNTH_CONFIGS)' SYNTH_FAMILIES='$(SYNTH_FAMILIES)'" >&2; exit 1; }
	SYNTH_RECORD_COMMAND='$(call record_cmd,synth,SYNTH_CONFIGS SYNTH_FAMILIES BOARD)' synth/collect.sh $(SYNTH_DIR) >/dev/null
	@echo "synth: wrote $(SYNTH_DIR)/report.json and $(SYNTH_DIR)/report.md"

# One stamp per family and configuration: <family>_<cpus>x<tasks>.stamp.
$(SYNTH_DIR)/%.stamp: $(RTL_SRCS) $(RTL_INC) $(SYNTH_SCRIPTS)
	@mkdir -p $(SYNTH_DIR)
	@j='$*'; f=$${j%%_*}; c=$${j#*_}; \
	BOARD='$(BOARD)' synth/synth_one.sh $$f $${c%x*} $${c#*x} $(SYNTH_DIR)
	@touch $@

synth-check:
	@mkdir -p $(BUILD)/synth-check
	synth/synth_one.sh ice40 2 64 $(BUILD)/synth-check
	@j=$(BUILD)/synth-check/ice40_2x64.json; \
	for k in family nr_cpus nr_tasks luts ffs brams carries lut_levels yosys_seconds status pnr hx8k up5k fmax_mhz; do \
		grep -q "\"$$k\": " $$j || { echo "synth-check: $$j has no field '$$k'" >&2; exit 1; }; \
	done; \
	grep -q '"status": "\(ok\|too big\)"' $$j || { echo "synth-check: ice40 2x64 status is not ok / too big: $$(grep '"status"' $$j | head -1)" >&2; exit 1; }; \
	for k in luts ffs lut_levels; do \
		grep -q "\"$$k\": [0-9]" $$j || { echo "synth-check: ice40 2x64 '$$k' is not a number" >&2; exit 1; }; \
	done; echo "synth-check: $$j has every field"

# make synth-seeds [SEEDS_CONFIG=8x256nbneni] [SYNTH_SEEDS="1 2 3 4 5"]   the seed study: the
# configuration's HX8K place and route with each nextpnr seed (synth/seeds.sh; Yosys and one
# place and route per seed, tens of minutes each on this machine), the record
# build/synth/seeds.json (make figures renders it: docs/synthesis.md, "The seed study").
SEEDS_CONFIG ?= 8x256nbneni
SYNTH_SEEDS ?= 1 2 3 4 5
.PHONY: synth-seeds
synth-seeds: $(RTL_SRCS) $(RTL_INC) $(SYNTH_SCRIPTS) synth/seeds.sh
	SEEDS_RECORD_COMMAND='$(call record_cmd,synth-seeds,SEEDS_CONFIG SYNTH_SEEDS)' \
		synth/seeds.sh $(BUILD)/synth/seeds.json $(BUILD)/synth/seeds $(SEEDS_CONFIG) $(SYNTH_SEEDS)
# make synth-seeds-lean [LEAN_SEEDS_CONFIG=4x256neniln] [SYNTH_SEEDS=...]   the same study of
# the engine with the area-lean BALANCE (docs/accelerator.md 8.2.1) on the HX8K, nextpnr aimed
# at its goal of 40 MHz (PNR_FREQ), into build/synth/seeds-lean.json (docs/synthesis.md,
# "The lean BALANCE on the HX8K").
LEAN_SEEDS_CONFIG ?= 4x256neniln
LEAN_PNR_FREQ ?= 40
.PHONY: synth-seeds-lean
synth-seeds-lean: $(RTL_SRCS) $(RTL_INC) $(SYNTH_SCRIPTS) synth/seeds.sh
	PNR_FREQ=$(LEAN_PNR_FREQ) SEEDS_FULL_CONFIG=$(LEAN_SEEDS_CONFIG) \
	SEEDS_RECORD_COMMAND='$(call record_cmd,synth-seeds-lean,LEAN_SEEDS_CONFIG SYNTH_SEEDS)' \
		synth/seeds.sh $(BUILD)/synth/seeds-lean.json $(BUILD)/synth/seeds-lean \
		$(LEAN_SEEDS_CONFIG) $(SYNTH_SEEDS)
# ==== end of synth ========================================================================

# ==== board: the engine on an iCEBreaker, and its simulator (docs/board.md) ==============
# make board [BOARD=icebreaker]  the bitstream build/board/icebreaker.bin (synth/synth_one.sh's
#                                iCE40 flow with the board's pins, then icepack) and how to
#                                flash it
# make board-sim                 build/board/board_sim: synth/board_top.v Verilated behind a
#                                pseudo-terminal, bit by bit at the UART's rate; make test
#                                runs lockstep over it (hwsched lockstep --backend
#                                lockstep:uart:PTY; tests/sim/board_test.cc)
# make bench-board               the command rate over the simulated UART, into
#                                build/bench/board.json
# make board-run                 hackbench scheduled through the simulated UART (hwsched
#                                run --backend uart:PTY), compared with the rtl backend;
#                                its command rates into build/bench/board_run.json
# See docs/board.md. BOARD_SHAPE is the engine on the board, a shape key (docs/shapes.md)
# with one port, the serial engine and equal FIFOs; the simulator is built at the same
# shape, and sim/board/board_opts.sh gives what each use needs from it (the key's one
# parser, build/hws_shape_key). 2 CPUs x 64 tasks without BALANCE and the per-code error
# counters fits the UP5K (docs/board.md has the figures).
BOARD_SHAPE ?= 2x64x16g16nbne
# The board's clock and baud rate: board_top's parameter defaults (their one home).
board_param = $(shell sed -n 's/^ *parameter integer $(1) *= *\([0-9]*\).*/\1/p' synth/board_top.v)
BOARD_CLK_HZ := $(call board_param,CLK_HZ)
BOARD_BAUD := $(call board_param,BAUD)
BOARD_DIR := $(BUILD)/board
BOARD_SIM := $(BOARD_DIR)/board_sim
# The fast simulator: the same board_top and frame protocol, its UART at BOARD_FAST_BAUD
# (board_top's BAUD parameter, -G), so a bit lasts CLK_HZ / BOARD_FAST_BAUD = 12 clocks
# instead of 104 and a workload crosses the line 8.7 times sooner in simulated clocks
# (make board-run, tests/sim/board_test.cc). 1,000,000 is a termios rate (B1000000), so
# the host's uart:PTY,baud=1000000 names it, and the fastest such rate with the 10 clocks
# per bit the uart backend asks for (driver/hws_uart.c) at 12 MHz.
BOARD_FAST_BAUD ?= 1000000
# (a whole number: tools/make_vars.mk) at most CLK_HZ / 10, the uart backend's 10 clocks a bit
$(if $(shell [ $(BOARD_FAST_BAUD) -ge 1 ] && [ $$(( $(BOARD_CLK_HZ) / $(BOARD_FAST_BAUD) )) -ge 10 ] \
	|| echo bad),$(error BOARD_FAST_BAUD='$(BOARD_FAST_BAUD)': expected 1..$(shell echo \
	$$(( $(BOARD_CLK_HZ) / 10 ))) (at least 10 clocks a bit at CLK_HZ $(BOARD_CLK_HZ))))
BOARD_SIM_FAST := $(BOARD_DIR)/fast/board_sim
# What a use needs from the key (sim/board/board_opts.sh KEY WHAT, WHAT gflags, defines,
# run, lockstep, synth, name or depth): in a recipe, $$($(BOARD_OPTS) WHAT) stops it when
# the key is refused; $(call board_opt,WHAT) is for messages and compiler flags.
BOARD_OPTS = HWS_SHAPE_KEY=$(SHAPE_KEY) sim/board/board_opts.sh $(BOARD_SHAPE)
board_opt = $(shell $(BOARD_OPTS) $(1))

# The simulator: VL_FLAGS, with board_top as the top and the simulator's main linked in
# (--exe); its own Mdir.
BOARD_VL_FLAGS := $(filter-out --top-module hws_top --trace-fst,$(VL_FLAGS))
BOARD_VL_FLAGS += --top-module board_top
BOARD_VL_FLAGS += --exe --build   # build the executable, not only the model
# $(call board_sim_rule,DIR,BAUD): the simulator in DIR (its Mdir DIR/vl) at that baud rate.
define board_sim_rule
$(1)/board_sim: $(RTL_SRCS) $(RTL_INC) synth/board_top.v sim/board/board_sim.cpp sim/board/board_opts.sh $(SHAPE_KEY)
	@mkdir -p $(1)
	g=$$$$($$(BOARD_OPTS) gflags) && d=$$$$($$(BOARD_OPTS) defines) && \
	verilator $(BOARD_VL_FLAGS) $$$$g -GBAUD=$(2) --Mdir $(1)/vl \
		-j $(JOBS) -CFLAGS "$$$$d -DBOARD_CLK_HZ=$(BOARD_CLK_HZ) -DBOARD_BAUD=$(2)" \
		-LDFLAGS -lutil -MAKEFLAGS OPT_FAST=-O2 -MAKEFLAGS OPT_SLOW=-O1 -o board_sim \
		$(RTL_SRCS) synth/board_top.v $(abspath sim/board/board_sim.cpp) >/dev/null
	cp $(1)/vl/board_sim $(1)/board_sim.tmp && mv $(1)/board_sim.tmp $(1)/board_sim
endef
$(eval $(call board_sim_rule,$(BOARD_DIR),$(BOARD_BAUD)))
$(eval $(call board_sim_rule,$(BOARD_DIR)/fast,$(BOARD_FAST_BAUD)))

.PHONY: board board-sim bench-board board-run
board-sim: $(BOARD_SIM) $(BOARD_SIM_FAST)
	@echo "board-sim: $(BOARD_SIM) (at $(BOARD_BAUD) baud) and $(BOARD_SIM_FAST) (at $(BOARD_FAST_BAUD) baud); start one, then:"
	@echo "board-sim:   $(HWSCHED) lockstep --backend lockstep:uart:PTY $(call board_opt,lockstep) --commands 1000"
	@echo "board-sim:   $(HWSCHED) run --sched hw --backend uart:PTY[,baud=$(BOARD_FAST_BAUD)] $(call board_opt,run) --workload hackbench:groups=1,loops=2"
	@echo "board-sim: or make board-run (both, and the rtl backend at the same shape, compared)"

# The bitstream: synth/synth_one.sh places and routes board_top at BOARD_SHAPE on the
# UP5K sg48 with the board's pins (BOARD=icebreaker; it also synthesises and places the
# engine alone on an HX8K for its figures), nextpnr aiming at the board's clock; the
# UP5K run must have fit and met that clock (nextpnr's and icetime's Fmax), then icepack.
BOARD_MHZ := $(shell awk 'BEGIN { print $(BOARD_CLK_HZ) / 1e6 }')
space := $(subst ,, )
BOARD_SYNTH_DIR := $(BOARD_DIR)/synth
BOARD_UP5K = $(BOARD_SYNTH_DIR)/ice40_$(call board_opt,name)/up5k
BOARD_BIN := $(BOARD_DIR)/icebreaker.bin
ifneq ($(filter board $(BOARD_BIN),$(MAKECMDGOALS)),)
ifneq ($(filter-out icebreaker,$(BOARD)),)
$(error board: BOARD=$(BOARD): the one board supported is icebreaker (synth/icebreaker.pcf))
endif
endif
$(BOARD_BIN): $(RTL_SRCS) $(RTL_INC) synth/board_top.v synth/icebreaker.pcf synth/synth_one.sh \
		sim/board/board_opts.sh $(SHAPE_KEY)
	@mkdir -p $(BOARD_SYNTH_DIR)
	dp=$$($(BOARD_OPTS) depth) && gr=$$($(BOARD_OPTS) groups) && cf=$$($(BOARD_OPTS) synth) && \
	BOARD=icebreaker PNR=yes PNR_FREQ=$(BOARD_MHZ) NR_GROUPS=$$gr \
		CMD_DEPTH=$$dp RES_DEPTH=$$dp synth/synth_one.sh ice40 $$cf $(BOARD_SYNTH_DIR)
	@j=$(BOARD_UP5K)/pnr.json; \
	grep -q '"status": "ok"' $$j || { echo "board: board_top at $(BOARD_SHAPE) did not place and route on the UP5K: $$(sed -n 's/.*"reason": \("[^"]*"\).*/\1/p' $$j) (see $(BOARD_UP5K)/)" >&2; exit 1; }; \
	for k in fmax_mhz icetime_mhz; do \
		f=$$(sed -n "s/.*\"$$k\": \([0-9.]*\).*/\1/p" $$j); \
		awk -v f="$$f" -v c=$(BOARD_MHZ) 'BEGIN { exit !(f != "" && f + 0 >= c) }' || \
			{ echo "board: $$k '$$f' MHz is below the board's $(BOARD_MHZ) MHz clock (see $$j)" >&2; exit 1; }; \
	done
	icepack $(BOARD_UP5K)/out.asc $@.tmp && mv $@.tmp $@

board: $(BOARD_BIN)
	@j=$(BOARD_UP5K)/pnr.json; \
	echo "board: $(BOARD_BIN): board_top with $(BOARD_SHAPE) on the iCE40 UP5K (iCEBreaker): $$(sed -n 's/.*"lc_used": \([0-9]*\), "lc_avail": \([0-9]*\).*/\1 of \2 logic cells/p' $$j), Fmax $$(sed -n 's/.*"fmax_mhz": \([0-9.]*\), "icetime_mhz": \([0-9.]*\).*/\1 MHz (icetime \2)/p' $$j) for a $(BOARD_MHZ) MHz clock"
	@echo "board: flash it with:  iceprog $(BOARD_BIN)"
	@echo "board: then check it:  $(HWSCHED) lockstep --backend lockstep:uart:/dev/ttyUSB1 $(call board_opt,lockstep) --commands 10k"
	@echo "board: (the iCEBreaker's FTDI gives two ports; the UART is usually the second, docs/board.md)"

# make test: the board's tests run the simulator (tests/sim/board_test.cc).
$(BUILD)/obj/tests/sim/board_test.o $(BUILD)/san/tests/sim/board_test.o: \
	CXXFLAGS_HWS += -DBOARD_SIM_BIN='"$(abspath $(BOARD_SIM))"'
$(BUILD)/obj/tests/sim/board_test.o $(BUILD)/san/tests/sim/board_test.o: \
	CXXFLAGS_HWS += -DBOARD_SIM_FAST_BIN='"$(abspath $(BOARD_SIM_FAST))"' -DBOARD_FAST_BAUD=$(BOARD_FAST_BAUD) \
	-DBOARD_RUN_OPTS='"$(call board_opt,run)"'
$(BUILD)/obj/tests/sim/board_test.o $(BUILD)/san/tests/sim/board_test.o: $(SHAPE_KEY) sim/board/board_opts.sh
test: $(BOARD_SIM) $(BOARD_SIM_FAST) $(call shape_so,$(BOARD_SHAPE))

# The command rate over the simulated UART (sim/board/bench_board.sh; docs/board.md).
BOARD_BENCH_COMMANDS ?= 2000
bench-board: $(BOARD_SIM) $(HWSCHED)
	@mkdir -p $(BUILD)/bench
	BENCH_BOARD_RECORD_COMMAND='$(call record_cmd,bench-board,BOARD_BENCH_COMMANDS)' \
		sim/board/bench_board.sh $(BOARD_SIM) $(HWSCHED) $(BUILD)/bench/board.json $(BOARD_BENCH_COMMANDS) 1

# The scheduler over the simulated UART (sim/board/board_run.sh; docs/board.md): hackbench
# on the board's CPUs with the firmware driving the engine through uart:PTY, on the board
# at its real rate and on the fast simulator, each compared with the rtl backend at the
# board's shape; the command rates into build/bench/board_run.json.
BOARD_RUN_LOOPS ?= 2
board-run: $(BOARD_SIM) $(BOARD_SIM_FAST) $(HWSCHED) $(call shape_so,$(BOARD_SHAPE))
	@mkdir -p $(BUILD)/bench
	@$(BOARD_OPTS) run >/dev/null
	BOARD_RUN_RECORD_COMMAND='$(call record_cmd,board-run,BOARD_RUN_LOOPS BOARD_SHAPE BOARD_FAST_BAUD)' \
	sim/board/board_run.sh $(HWSCHED) $(BUILD)/bench/board_run.json $(BOARD_RUN_LOOPS) 1 \
		"$(call board_opt,run)" $(BOARD_SIM) $(BOARD_SIM_FAST)

# ---- Formal proofs and per-module testbenches (docs/formal.md) ---------------------------
# make formal       every proof of formal/proofs.list, a table: property, method, depth, result, time
# make formal-fast  the proofs marked fast, and the mutation check (formal/mutate.sh: each
#                   planted bug must fail with a counterexample); make test runs both
# make rtl-tb       the self-checking, parameter-swept Icarus testbenches of tests/rtl/
.PHONY: formal formal-fast formal-mutate rtl-tb
formal: $(RTL_SRCS) $(RTL_INC)
	FORMAL_RECORD_COMMAND='make formal' formal/run.sh
	formal/mutate.sh
formal-fast: $(RTL_SRCS) $(RTL_INC)
	FORMAL_RECORD_COMMAND='make formal-fast' formal/run.sh --fast
formal-mutate: $(RTL_SRCS) $(RTL_INC)
	formal/mutate.sh --fast
rtl-tb: $(RTL_SRCS) $(RTL_INC)
	tests/rtl/run.sh $(BUILD)/rtl-tb
test: formal-fast formal-mutate rtl-tb

# ==== fuzz: libFuzzer targets (docs/fuzz.md) ==============================================
# make fuzz [FUZZ_TIME=S] [FUZZ_RUNS=N] [FUZZ_TARGETS="trace parse regs"]   each target for S
#   seconds or N executions, whichever ends first
#   (default 180) from its committed seed corpus tests/fuzz/corpus/T/; new inputs go to
#   build/fuzz/corpus/T/, crashes to build/fuzz/artifacts/T/ (copy one to tests/fuzz/regress/T/
#   once fixed: make test replays it). Prints each target's executions and writes the
#   record build/fuzz/summary.json (tools/fuzz_record.sh; make figures renders it). docs/fuzz.md.
# make fuzz-regress   (part of make test) every seed and regression input once, then a short
#   run (FUZZ_REGRESS_RUNS inputs) per target.
#   fuzz_trace  the trace reader (sim/trace), strict and lenient, and Linux's figures
#   fuzz_parse  lib/hws_parse, the topology and workload parsers (sim/machine)
#   fuzz_regs   bus traffic through the lockstep backend (model beside the Verilated RTL)
# Our C is built with clang -fsanitize=fuzzer,address,undefined; the Verilated engines and
# the Verilator runtime are g++'s objects of the ordinary build, linked in uninstrumented.
FUZZ_CC := clang-14
FUZZ_CXX := clang++-14
FUZZ_SAN := -fsanitize=address,undefined -fno-sanitize-recover=all -fno-omit-frame-pointer
FUZZ_CFLAGS := -std=c11 -g -O1 -D_POSIX_C_SOURCE=200809L $(FUZZ_SAN) -fsanitize=fuzzer-no-link
FUZZ_TIME ?= 180
FUZZ_TARGETS ?= trace parse regs
FUZZ_REGRESS_RUNS ?= 2000
FUZZ_DIR := $(BUILD)/fuzz
# Each target's longest input (libFuzzer's -max_len; docs/fuzz.md argues each): fuzz_regs
# reads at most 512 records (4 KB) and is held to 128 (1 KB), fuzz_trace to 4 KB (a gzip
# input still inflates to any length), fuzz_parse as before.
FUZZ_MAX_LEN_trace ?= 4096
FUZZ_MAX_LEN_parse ?= 65536
FUZZ_MAX_LEN_regs ?= 1024
$(FUZZ_DIR)/obj/%.o: %.c $(C_HDRS)
	@mkdir -p $(dir $@)
	$(FUZZ_CC) $(FUZZ_CFLAGS) $(INC) -c -o $@ $<
fuzz_objs = $(patsubst %.c,$(FUZZ_DIR)/obj/%.o,$(1))
$(FUZZ_DIR)/obj/lib/hws_version.o: $(VERSION_H)
FUZZ_TRACE_OBJS := $(call fuzz_objs,tests/fuzz/fuzz_trace.c sim/trace/trace.c)
FUZZ_PARSE_OBJS := $(call fuzz_objs,tests/fuzz/fuzz_parse.c $(CORE_SRCS) \
	$(sort $(wildcard sim/machine/*.c)) sim/trace/trace.c)
FUZZ_REGS_OBJS := $(call fuzz_objs,tests/fuzz/fuzz_regs.c $(CORE_SRCS) sim/harness/rtl_transport.c)
$(FUZZ_DIR)/fuzz_trace: $(FUZZ_TRACE_OBJS)
	$(FUZZ_CC) $(FUZZ_SAN) -fsanitize=fuzzer -o $@ $^ -lz -lm
$(FUZZ_DIR)/fuzz_parse: $(FUZZ_PARSE_OBJS)
	$(FUZZ_CC) $(FUZZ_SAN) -fsanitize=fuzzer -o $@ $^ -lz -lm
$(FUZZ_DIR)/fuzz_regs: $(FUZZ_REGS_OBJS) $(call fuzz_objs,sim/harness/hws_vsim.c) \
		$(call shape_so,$(DEFAULT_SHAPE))
	$(FUZZ_CXX) $(FUZZ_SAN) -fsanitize=fuzzer -o $@ $(filter %.o,$^) $(LINK_LIBS)
FUZZ_BINS := $(addprefix $(FUZZ_DIR)/fuzz_,$(FUZZ_TARGETS))

.PHONY: fuzz fuzz-regress
fuzz: $(FUZZ_BINS)
	@rm -f $(FUZZ_DIR)/runs.tsv; fail=; for t in $(FUZZ_TARGETS); do \
		mkdir -p $(FUZZ_DIR)/corpus/$$t $(FUZZ_DIR)/artifacts/$$t; s0=$$(date +%s); \
		$(FUZZ_DIR)/fuzz_$$t -max_total_time=$(FUZZ_TIME) $(if $(FUZZ_RUNS),-runs=$(FUZZ_RUNS)) \
			-print_final_stats=1 \
			-artifact_prefix=$(FUZZ_DIR)/artifacts/$$t/ -max_len=$$(case $$t in \
			trace) echo $(FUZZ_MAX_LEN_trace);; regs) echo $(FUZZ_MAX_LEN_regs);; \
			*) echo $(FUZZ_MAX_LEN_parse);; esac) \
			$(FUZZ_DIR)/corpus/$$t tests/fuzz/corpus/$$t > $(FUZZ_DIR)/$$t.log 2>&1; \
		rc=$$?; \
		printf '%s\t%s\t%s\n' $$t $$rc $$(($$(date +%s) - s0)) >>$(FUZZ_DIR)/runs.tsv; \
		n=$$(sed -n 's/^stat::number_of_executed_units: *//p' $(FUZZ_DIR)/$$t.log); \
		echo "fuzz: $$t: $${n:-?} executions (at most $(FUZZ_TIME) s$(if $(FUZZ_RUNS), or $(FUZZ_RUNS) runs)), exit $$rc (log $(FUZZ_DIR)/$$t.log)"; \
		[ $$rc = 0 ] || { tail -40 $(FUZZ_DIR)/$$t.log >&2; fail=$$t; break; }; \
	done; \
	FUZZ_RECORD_COMMAND='$(call record_cmd,fuzz,FUZZ_TIME FUZZ_RUNS FUZZ_TARGETS)' \
		tools/fuzz_record.sh $(FUZZ_DIR) $(FUZZ_TIME) '$(FUZZ_RUNS)' || exit 1; \
	[ -z "$$fail" ]

fuzz-regress: $(FUZZ_BINS)
	@for t in $(FUZZ_TARGETS); do \
		in=$$(ls -d tests/fuzz/corpus/$$t/* tests/fuzz/regress/$$t/* 2>/dev/null); \
		$(FUZZ_DIR)/fuzz_$$t -artifact_prefix=$(FUZZ_DIR)/ $$in > $(FUZZ_DIR)/$$t.regress.log 2>&1 \
			|| { tail -40 $(FUZZ_DIR)/$$t.regress.log >&2; echo "fuzz-regress: $$t failed on a saved input" >&2; exit 1; }; \
		mkdir -p $(FUZZ_DIR)/regress-corpus/$$t; \
		$(FUZZ_DIR)/fuzz_$$t -runs=$(FUZZ_REGRESS_RUNS) -seed=1 -artifact_prefix=$(FUZZ_DIR)/ \
			$(FUZZ_DIR)/regress-corpus/$$t \
			tests/fuzz/corpus/$$t > $(FUZZ_DIR)/$$t.short.log 2>&1 \
			|| { tail -40 $(FUZZ_DIR)/$$t.short.log >&2; echo "fuzz-regress: $$t failed in its short run" >&2; exit 1; }; \
		echo "fuzz-regress: $$t: $$(echo $$in | wc -w) saved inputs and $(FUZZ_REGRESS_RUNS) new ones, no finding"; \
	done
test: fuzz-regress
# ==== end of fuzz =========================================================================

# ==== coverage: RTL line and toggle, C line (docs/coverage.md) ============================
# make coverage   the default shape Verilated with --coverage-line --coverage-toggle into a
#                 cache of its own (build/coverage/shapes: same key, same ABI, the harness of
#                 tools/coverage/cov_shape_so.cpp writes each instance's counts), the C of
#                 lib, models, driver and firmware built with gcc --coverage; the engine
#                 tests and hwsched lockstep/run over both (tools/coverage/run.sh), then the
#                 table per RTL module and C folder with the goals (tools/coverage/report.py)
#                 and HTML under build/coverage/html/. Not part of make test (minutes).
COV_DIR := $(BUILD)/coverage
COV_SHAPES := $(COV_DIR)/shapes
COV_SHAPE_SO := $(COV_SHAPES)/$(DEFAULT_SHAPE)/libhws_shape.so
COV_SHAPE_SRCS := $(SHAPE_SRCS) tools/coverage/cov_shape_so.cpp
$(COV_SHAPES)/%/libhws_shape.so: $(COV_SHAPE_SRCS) $(SHAPE_RT) $(SHAPE_KEY)
	HWS_SHAPE_KEY=$(SHAPE_KEY) HWS_SHAPE_COVERAGE=1 tools/build_shape.sh $* $(COV_SHAPES) 0 $(SHAPE_RT) $(JOBS) $(COV_SHAPE_SRCS)
.PRECIOUS: $(COV_SHAPES)/%/libhws_shape.so

# The C under gcov: -O0 so that lines map to code; its own objects and programs. gcc 12's
# format-truncation check reads -O0 code differently (it flags sim/machine/workload.c's
# bounded snprintf, which -O2 does not): a warning here, not an error.
COV_CFLAGS := $(CWARN) -O0 -g -D_POSIX_C_SOURCE=200809L --coverage -Wno-error=format-truncation
$(COV_DIR)/obj/%.o: %.c $(C_HDRS)
	@mkdir -p $(dir $@)
	$(CC) $(COV_CFLAGS) $(INC) -c -o $@ $<
COV_CORE_OBJS := $(patsubst %.c,$(COV_DIR)/obj/%.o,$(CORE_SRCS))
$(COV_DIR)/obj/lib/hws_version.o: $(VERSION_H)
# The sim layers are not measured (the goal is lib, models, driver, firmware), but linked
# from the same build so that one program carries one set of counters per unit.
COV_SIM_OBJS := $(patsubst %.c,$(COV_DIR)/obj/%.o,$(SIM_C_SRCS))
COV_BIN := $(COV_DIR)/bin
# hws_core_tests over the instrumented layers; the engine tests (model, rtl and lockstep
# backends) with the harness; hwsched.
COV_ENGINE_TEST_SRCS := tests/driver/engine_test.cc tests/driver/lockstep_test.cc \
	tests/driver/window_test.cc tests/driver/irq_test.cc tests/sim/axi_order_test.cc \
	tests/sim/ports_test.cc tests/driver/bal_lanes_test.cc
$(COV_BIN)/hws_core_tests: $(CORE_TEST_OBJS) $(COV_CORE_OBJS)
	@mkdir -p $(dir $@)
	$(CXX) --coverage -o $@ $^ -lm $(GTEST_LIBS)
$(COV_BIN)/hws_engine_tests: $(patsubst %.cc,$(BUILD)/obj/%.o,$(COV_ENGINE_TEST_SRCS)) \
		$(COV_CORE_OBJS) $(COV_SIM_OBJS) $(SIM_OBJS)
	@mkdir -p $(dir $@)
	$(CXX) --coverage -o $@ $^ $(LINK_LIBS) $(GTEST_LIBS)
$(COV_BIN)/hwsched: $(CLI_OBJS) $(BUILD)/obj/sim/vp/hws_vp_stub.o $(COV_CORE_OBJS) $(COV_SIM_OBJS) \
		$(SIM_OBJS)
	@mkdir -p $(dir $@)
	$(CXX) --coverage -o $@ $^ $(LINK_LIBS)

.PHONY: coverage coverage-selftest
coverage: $(COV_SHAPE_SO) $(COV_BIN)/hws_core_tests $(COV_BIN)/hws_engine_tests $(COV_BIN)/hwsched
	COV_RECORD_COMMAND='$(call record_cmd,coverage,HWS_SEED COV_COMMANDS)' tools/coverage/run.sh $(COV_DIR) $(DEFAULT_SHAPE)
# The report's arithmetic on a tiny known input (a second, run by make test).
coverage-selftest:
	@tools/coverage/selftest.sh
test: coverage-selftest
# ==== end of coverage ======================================================================

# ==== soak: not part of make test (docs/fuzz.md, "Soak") =================================
# make soak [SOAK_JOBS=N] [SOAK_COMMANDS=N] [SOAK_BIG_COMMANDS=N] [SOAK_CHUNK=N]
#           [SOAK_BIG_CHUNK=N] [SOAK_SEED=S] [SOAK_RESETS=RATE]
#   hwsched lockstep (model beside RTL) for 100 M random commands on the default shape and
#   10 M on 64 x 4096, in parallel jobs (SOAK_JOBS, default the CPUs online) of distinct
#   seeds, bursts cut by the engine's reset with commands in flight (--resets, default
#   0.02); prints each job's seed, commands, mismatches and resets as it ends, then the
#   totals; writes build/soak/summary.json. tools/soak.sh, docs/fuzz.md ("Soak").
.PHONY: soak
soak: $(HWSCHED) $(call shape_so,$(DEFAULT_SHAPE)) $(call shape_so,64x4096x16g16)
	SOAK_RECORD_COMMAND='$(call record_cmd,soak,SOAK_JOBS SOAK_COMMANDS SOAK_BIG_COMMANDS SOAK_CHUNK SOAK_BIG_CHUNK SOAK_SEED SOAK_RESETS)' \
		tools/soak.sh $(HWSCHED) $(BUILD)/soak
