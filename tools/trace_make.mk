# tools/trace_make.mk - the make -jN build recorded as a trace (traces/README.md): every C
# file of lib/ and firmware/ compiled to an object under OUT, as the project's build does.
#   make -jN -f tools/trace_make.mk SRC=<repository> OUT=<empty directory>
SRC ?= .
OUT ?= /tmp/trace_make
SRCS := $(wildcard $(SRC)/lib/*.c $(SRC)/firmware/*.c)
OBJS := $(patsubst $(SRC)/%.c,$(OUT)/%.o,$(SRCS))
all: $(OBJS)
$(OUT)/%.o: $(SRC)/%.c
	@mkdir -p $(dir $@)
	cc -std=c11 -O2 -g -D_POSIX_C_SOURCE=200809L -I$(SRC)/include -I$(SRC) -c -o $@ $<
