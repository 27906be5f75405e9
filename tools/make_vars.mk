# make_vars.mk - the checks of the variables a user gives make (included by the Makefile).
#
# Every variable a goal takes from the command line or the environment is checked here, once,
# before any rule runs: a value of the wrong kind is an error naming the variable, never
# quietly taken as something else (STRICT=yes is not lax), and nothing a user types is
# spliced into a shell command unless it is made of safe characters only.
#
#   whole numbers  RUN_SEED SEEDS JOBS RESULTS_JOBS FUZZ_TIME FUZZ_RUNS FUZZ_REGRESS_RUNS
#                  BOARD_BENCH_COMMANDS SOAK_JOBS SOAK_COMMANDS SOAK_BIG_COMMANDS SOAK_CHUNK
#                  SOAK_BIG_CHUNK SOAK_SEED PORTS BOARD_FAST_BAUD
#   0 or 1         STRICT LONG UPDATE_DOC FORCE SHAPE_TRACE (empty: 0)
#   one of a list  REPLAY_SCHED (a scheduler), PROFILE (a machine profile), FUZZ_TARGETS
#                  (empty in the environment: not given)
#   safe words     RUN_WORKLOAD RUN_TOPOLOGY RUN_COMMANDS SHAPE BOARD_SHAPE HOSTS TRACES_OUT
#                  SYNTH_CONFIGS SOAK_RESETS: letters, digits and , . : = / _ + - only

hws_nodigits = $(subst 9,,$(subst 8,,$(subst 7,,$(subst 6,,$(subst 5,,$(subst 4,,$(subst \
	3,,$(subst 2,,$(subst 1,,$(subst 0,,$(1)))))))))))
# Characters that are not safe in a shell word (a space shows as a second word).
hws_unsafe_chars := ; & | $$ ` ' " \ < > ( ) { } [ ] * ? ! ~ \# % ^ @
hws_unsafe = $(or $(word 2,$(1)),$(strip $(foreach c,$(hws_unsafe_chars),$(findstring $(c),$(1)))))
# given: set by the user (command line or environment), not by this Makefile
hws_given = $(filter command line environment environment override,$(origin $(1)))

hws_check_uint = $(if $(call hws_given,$(1)),$(if $(strip $($(1))),$(if $(or $(word 2,$($(1))),$(call \
	hws_nodigits,$(strip $($(1))))),$(error $(1)='$($(1))': expected a whole number (decimal \
	digits only)))))
hws_check_bool = $(if $(call hws_given,$(1)),$(if $(filter-out 0 1,$(strip $($(1)))),$(error \
	$(1)='$($(1))': expected 0 or 1)))
# (an empty value from the environment is no value: a script that exports its unset
# PROFILE runs make for an engine shape with PROFILE='')
hws_check_oneof = $(if $(call hws_given,$(1)),$(if $(and $(filter environment,$(origin \
	$(1))),$(if $(strip $($(1))),,1)),,$(if $(or $(filter-out $(2),$($(1))),$(if \
	$(strip $($(1))),,empty)),$(error $(1)='$($(1))': expected one of $(2)))))
hws_check_safe = $(if $(call hws_given,$(1)),$(if $(call hws_unsafe,$($(1))),$(error \
	$(1)='$($(1))': only letters, digits and , . : = / _ + - are taken here)))

$(foreach v,RUN_SEED SEEDS JOBS RESULTS_JOBS FUZZ_TIME FUZZ_RUNS FUZZ_REGRESS_RUNS BOARD_BENCH_COMMANDS \
	SOAK_JOBS SOAK_COMMANDS SOAK_BIG_COMMANDS SOAK_CHUNK SOAK_BIG_CHUNK SOAK_SEED PORTS BOARD_FAST_BAUD,\
	$(call hws_check_uint,$(v)))
$(foreach v,STRICT LONG UPDATE_DOC FORCE SHAPE_TRACE,$(call hws_check_bool,$(v)))
$(call hws_check_oneof,REPLAY_SCHED,hw o1 linux24 cfs eevdf)
$(call hws_check_oneof,PROFILE,p3xeon4 p3xeon8 numaq16 modern)
$(if $(call hws_given,FUZZ_TARGETS),$(if $(strip $(FUZZ_TARGETS)),$(if $(filter-out trace parse \
	regs,$(FUZZ_TARGETS)),$(error FUZZ_TARGETS='$(FUZZ_TARGETS)': expected some of trace parse \
	regs)),$(error FUZZ_TARGETS is empty: expected some of trace parse regs)))
$(foreach v,RUN_WORKLOAD RUN_TOPOLOGY RUN_COMMANDS SHAPE BOARD_SHAPE HOSTS TRACES_OUT \
	SYNTH_CONFIGS SOAK_RESETS,$(call hws_check_safe,$(v)))
