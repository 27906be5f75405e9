/*
 * install_prog.c - a program of a user of the installed library (tests/tools/install_test.sh
 * builds it with `pkg-config --cflags --libs hwsched` against a temporary prefix).
 *
 * usage: install_prog BACKEND CPUS TASKS TASK:PRIO...
 * Opens the engine on BACKEND at CPUS x TASKS, enqueues each TASK at PRIO on CPU 1 (CPU 0
 * when CPUS is 1), then picks until the run queue is empty and prints "picked TASK PRIO"
 * per pick and "empty" at the end. Exit 0, or 1 with the driver's message.
 */
#include <stdio.h>
#include <stdlib.h>

#include <hws/hws.h>

int main(int argc, char **argv)
{
	struct hws_config c;
	struct hws_dev *d;
	struct hws_pick p;
	char msg[512];
	unsigned cpu;
	int n = 0;

	if (argc < 5) {
		fprintf(stderr, "usage: install_prog BACKEND CPUS TASKS TASK:PRIO...\n");
		return 2;
	}
	hws_config_default(&c);
	c.backend = argv[1];
	c.nr_cpus = (unsigned)atoi(argv[2]);
	c.nr_tasks = (unsigned)atoi(argv[3]);
	cpu = c.nr_cpus > 1 ? 1 : 0;
	if (hws_open(&d, &c, msg, sizeof(msg))) {
		fprintf(stderr, "install_prog: hws_open %s: %s\n", argv[1], msg);
		return 1;
	}
	for (int i = 4; i < argc; i++) {
		unsigned task, prio;

		if (sscanf(argv[i], "%u:%u", &task, &prio) != 2) {
			fprintf(stderr, "install_prog: '%s' is not TASK:PRIO\n", argv[i]);
			return 2;
		}
		if (hws_enqueue(d, task, cpu, prio, 0, 0)) {
			fprintf(stderr, "install_prog: enqueue %u: %s\n", task, hws_errmsg(d));
			return 1;
		}
	}
	for (;;) {
		if (hws_pick_next(d, cpu, &p)) {
			fprintf(stderr, "install_prog: pick_next: %s\n", hws_errmsg(d));
			return 1;
		}
		if (!p.found)
			break;
		printf("picked %u %u\n", p.task, p.prio);	/* PICK_NEXT takes it off the queue */
		if (++n > argc) {
			fprintf(stderr, "install_prog: more picks than tasks\n");
			return 1;
		}
	}
	printf("empty\n");
	hws_close(d);
	return 0;
}
