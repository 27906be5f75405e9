# shape_tree.mk - the Makefile of an installed PREFIX/share/hwsched (make install copies it
# there as Makefile): builds one engine shape from the installed RTL and harness into a
# cache outside the installed tree, the way the repository's `make shape` does.
#
#   make -C PREFIX/share/hwsched shape SHAPE=<key> SHAPES_DIR=<cache> [SHAPE_TRACE=1] [JOBS=N]
#
# hwsched and libhws run this themselves when a command needs a shape that is not in the
# per-user cache ${XDG_CACHE_HOME:-$HOME/.cache}/hwsched/shapes (docs/shapes.md). The
# Verilator runtime is compiled once into SHAPES_DIR/.runtime/. The flags are the
# repository Makefile's (VL_CXXFLAGS, SHAPE_SRCS): keep the two alike.
SHELL := /bin/bash
.DEFAULT_GOAL := help
JOBS ?= 2
SHAPE_TRACE ?= 0

VL_ROOT := /usr/share/verilator/include
VL_DEFS := -DVM_COVERAGE=0 -DVM_SC=0 -DVM_TRACE=1 -DVM_TRACE_FST=1 -DVM_TRACE_VCD=0
VL_CXXFLAGS := -std=gnu++17 -O2 $(VL_DEFS) -I$(VL_ROOT) -I$(VL_ROOT)/vltstd -Wno-unused-parameter

SHAPE_SRCS := $(sort $(wildcard rtl/*.v)) $(sort $(wildcard rtl/*.vh)) sim/harness/hws_shape_so.cpp \
	sim/harness/hws_vsim_impl.h sim/harness/axi_master.h sim/harness/hws_vsim.h \
	sim/harness/hws_shape.h tools/build_shape.sh include/hws/axil_pins.h include/hws/units.h lib/hws_port_master.c \
	lib/hws_port_master.h include/hws/params_list.h

.PHONY: help shape
help:
	@sed -n '2,/^[^#]/s/^# \{0,1\}//p' Makefile

ifneq ($(filter shape,$(MAKECMDGOALS)),)
ifeq ($(SHAPES_DIR),)
$(error shape: give SHAPES_DIR=<cache> (the installed tree is not written to))
endif
ifeq ($(SHAPE),)
$(error shape: give SHAPE=<key>, e.g. SHAPE=8x256x16g16 (docs/shapes.md))
endif
endif

RT_DIR := $(SHAPES_DIR)/.runtime
SHAPE_RT := $(RT_DIR)/libvlrt.a
SHAPE_RT_OBJS := $(addprefix $(RT_DIR)/,verilated.o verilated_threads.o verilated_fst_c.o)
$(RT_DIR)/%.o: $(VL_ROOT)/%.cpp
	@mkdir -p $(dir $@)
	$(CXX) $(VL_CXXFLAGS) -fPIC -fvisibility=hidden -fvisibility-inlines-hidden -c -o $@.tmp.o $< && mv $@.tmp.o $@
$(SHAPE_RT): $(SHAPE_RT_OBJS)
	rm -f $@.tmp && ar rcs $@.tmp $^ && mv $@.tmp $@

# The shape key's parser and printer (lib/hws_params.c, generated from regmap/params.def),
# which tools/build_shape.sh asks for the -G flags and -D defines: compiled once into the
# cache, like the runtime.
SHAPE_KEY := $(RT_DIR)/hws_shape_key
SHAPE_KEY_SRCS := tools/hws_shape_key.c lib/hws_params.c lib/hws_params.h lib/hws_params_table.h \
	include/hws/params_list.h include/hws/hws.h include/hws/regs.h include/hws/transport.h
$(SHAPE_KEY): $(SHAPE_KEY_SRCS)
	@mkdir -p $(dir $@)
	$(CC) -std=c11 -O2 -D_POSIX_C_SOURCE=200809L -Iinclude -I. -o $@.tmp tools/hws_shape_key.c \
		lib/hws_params.c && mv $@.tmp $@

SO := $(SHAPES_DIR)/$(SHAPE)/libhws_shape$(if $(filter 1,$(SHAPE_TRACE)),_trace).so
shape: $(SO)
$(SO): $(SHAPE_SRCS) $(SHAPE_RT) $(SHAPE_KEY)
	HWS_SHAPE_KEY=$(SHAPE_KEY) tools/build_shape.sh $(SHAPE) $(SHAPES_DIR) $(SHAPE_TRACE) $(SHAPE_RT) \
		$(JOBS) $(SHAPE_SRCS)
