// SPDX-License-Identifier: GPL-2.0
/*
 * Trace events of one task, in a tracefs instance of the run's own: the
 * global buffer, its events, filters, set_event_pid, tracing_on and every
 * other instance are never written, so a tracing setup someone else is
 * using stays as it is. The instance's name, MGLRU_NAME and a random
 * suffix, goes to the state file before the instance is made: the undo of
 * a killed run removes what the run made and nothing of the same fixed
 * name. Where tracefs is not mounted, it is mounted in the scratch
 * directory for the run alone (the storage's teardown unmounts it).
 */
#define _GNU_SOURCE
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/mount.h>
#include <sys/random.h>
#include <sys/stat.h>

#include "mglru.h"

#define NAME_LEN	(sizeof(MGLRU_NAME) + 17)

static char instance[MGLRU_PATH_LEN];	/* the run's, once made */

/* the system's tracefs, or one mounted in the scratch directory */
static const char *tracefs_mount(void)
{
	const char *fs = mglru_tracefs();

	if (fs || mglru_scratch_refusal() ||
	    (mkdir(MGLRU_TRACEFS, 0700) && errno != EEXIST) ||
	    mount("tracefs", MGLRU_TRACEFS, "tracefs",
		  MS_NOSUID | MS_NODEV | MS_NOEXEC, NULL))
		return fs;
	return MGLRU_TRACEFS;
}

static int instance_write(const char *file, const char *val)
{
	char path[MGLRU_PATH_LEN * 2];

	snprintf(path, sizeof(path), "%s/%s", instance, file);
	if (!mglru_write(path, val))
		return 0;
	ksft_print_msg("write %s to %s: %s\n", val, path, strerror(errno));
	return -1;
}

/*
 * The run's instance, with the event @event ("<system>/<name>") ready to be
 * enabled for one task (mglru_trace_pid()): 0, -1, or KSFT_SKIP where the
 * kernel has no tracefs or no such event.
 */
int mglru_trace_open(const char *event)
{
	char name[NAME_LEN], path[MGLRU_PATH_LEN];
	const char *fs = tracefs_mount();
	unsigned long long rnd;

	if (!fs)
		return mglru_skip("tracefs not available (CONFIG_FTRACE=n?)");
	snprintf(path, sizeof(path), "%s/events/%s/enable", fs, event);
	if (access(path, F_OK))
		return mglru_skip("trace event %s not available (CONFIG_EVENT_TRACING=n?)",
				  event);
	if (getrandom(&rnd, sizeof(rnd), 0) != sizeof(rnd)) {
		ksft_print_msg("getrandom: %s\n", strerror(errno));
		return -1;
	}
	snprintf(name, sizeof(name), "%s-%016llx", MGLRU_NAME, rnd);
	snprintf(path, sizeof(path), "%s/instances/%s", fs, name);
	if (mglru_state_trace(name))
		return -1;
	if (mkdir(path, 0700)) {
		ksft_print_msg("tracefs instance %s: %s\n", path, strerror(errno));
		return -1;
	}
	snprintf(instance, sizeof(instance), "%s", path);
	return 0;
}

/* Trace @event, from now on, for the task @pid alone. */
int mglru_trace_pid(const char *event, pid_t pid)
{
	char file[MGLRU_PATH_LEN], val[32];

	snprintf(val, sizeof(val), "%d", pid);
	snprintf(file, sizeof(file), "events/%s/enable", event);
	return instance_write("set_event_pid", val) ?:
	       instance_write(file, "1");
}

/*
 * Call @fn on each event line of the instance's buffer; the number of
 * events lost to a full buffer, or -1.
 */
long mglru_trace_read(void (*fn)(const char *line, void *arg), void *arg)
{
	unsigned long in_buf = 0, written = 0;
	char path[MGLRU_PATH_LEN * 2], *line = NULL;
	size_t len = 0;
	FILE *f;

	snprintf(path, sizeof(path), "%s/trace", instance);
	f = fopen(path, "re");
	if (!f) {
		ksft_print_msg("%s: %s\n", path, strerror(errno));
		return -1;
	}
	while (getline(&line, &len, f) > 0) {
		if (line[0] != '#')
			fn(line, arg);
		else
			sscanf(line, "# entries-in-buffer/entries-written: %lu/%lu",
			       &in_buf, &written);
	}
	free(line);
	fclose(f);
	return written > in_buf ? written - in_buf : 0;
}
