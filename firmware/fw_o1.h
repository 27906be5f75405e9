/*
 * fw_o1.h - the Linux 2.6 O(1) policy (fw_o1.c) behind the scheduler interface: as
 * sched_hw_ops on the engine and sched_o1_ops on software run queues (hws/sched.h). Its
 * priority and slice rules are exported for tests and for anyone who wants the numbers.
 */
#ifndef HWS_FW_O1_H
#define HWS_FW_O1_H

#include <stdint.h>

#include "hws/sched.h"

#ifdef __cplusplus
extern "C" {
#endif

/**
 * fw_task_timeslice - task_timeslice() of 2.6.12-2.6.22: the slice of a static priority
 * @static_prio: 100..139
 *
 * Return: ns; 4 x DEF_TIMESLICE scaled below nice 0, DEF_TIMESLICE scaled at and above,
 * at least MIN_TIMESLICE.
 */
int64_t fw_task_timeslice(int static_prio);

/**
 * fw_effective_prio - effective_prio(): the static priority less the sleep bonus
 * @t: the task (rt_prio, static_prio, sleep_avg)
 *
 * Return: its rt_prio for a real-time task; else static_prio - (bonus - 5), kept in
 * MAX_RT_PRIO..NR_PRIO-1.
 */
int fw_effective_prio(const struct sched_task *t);

/**
 * fw_task_interactive - TASK_INTERACTIVE(): its priority at least DELTA above static
 * @t: the task
 *
 * Return: 1 when interactive, else 0.
 */
int fw_task_interactive(const struct sched_task *t);

/**
 * fw_o1_error - the first run-queue failure of a scheduler made by sched_hw_ops or
 * sched_o1_ops (what struct sched_ops.error returns)
 * @s: the scheduler
 *
 * Return: a message naming the failed primitive and the errno, or NULL.
 */
const char *fw_o1_error(const struct sched *s);

/**
 * fw_o1_engine_stats - engine traffic so far (struct sched_ops.engine_stats)
 * @s: the scheduler
 * @commands: receives the command words written
 * @cycles: receives the clock edges of every access
 * @mmio: receives the register accesses; all 0 on software run queues
 */
void fw_o1_engine_stats(const struct sched *s, uint64_t *commands, uint64_t *cycles,
			uint64_t *mmio);

#ifdef __cplusplus
}
#endif

#endif /* HWS_FW_O1_H */
