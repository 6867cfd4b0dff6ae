// SPDX-License-Identifier: GPL-2.0
/*
 * The records of one trace event for a few tasks, through perf_event_open():
 * an event on each CPU, filtered on the tasks' pids, each with a ring
 * buffer of raw samples. Nothing of tracefs is written, so a tracing setup
 * someone else is using stays as it is, and nothing outlives the run: the
 * events go with their file descriptors, however the run ends.
 *
 * Per-CPU events, not one bound to the task: a task-bound perf event turns
 * on the scheduler's perf hooks, and live patching of such hot code has
 * crashed QEMU TCG guests (an INT3 seen after its patch was done), while
 * the event's own call site runs only when the task is traced.
 *
 * tracefs is only read, for the event's id and format (mglru_tracefs(): the
 * system's, else the run's own).
 */
#define _GNU_SOURCE
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <linux/perf_event.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/syscall.h>

#include "mglru.h"

#define MAX_CPUS	1024
#define RING_PAGES	16	/* drained every 0.1 s: room for seconds */

static struct {
	char dir[MGLRU_PATH_LEN];	/* tracefs events/<system>/<name> */
	int nr, fd[MAX_CPUS];
	struct perf_event_mmap_page *ring[MAX_CPUS];
	size_t page;
} tp;

/* the offset of the field @name in the event's raw record, or -1 */
int mglru_trace_field(const char *name)
{
	char path[MGLRU_PATH_LEN + 8], line[256], key[64];
	int off = -1;
	FILE *f;

	snprintf(path, sizeof(path), "%s/format", tp.dir);
	snprintf(key, sizeof(key), " %s;", name);
	f = fopen(path, "re");
	while (f && off < 0 && fgets(line, sizeof(line), f))
		if (strstr(line, "field:") && strstr(line, key))
			sscanf(strstr(line, "offset:"), "offset:%d", &off);
	if (f)
		fclose(f);
	return off;
}

/*
 * Sample every @event ("<system>/<name>") of the @nr tasks @pids from now
 * on: 0, -1, or KSFT_SKIP where the kernel has no perf events, no tracefs
 * or no such event. On -1 the events opened so far stay open until
 * mglru_trace_close(), which the caller calls once its tasks are gone.
 */
int mglru_trace_open(const char *event, const pid_t *pids, int nr)
{
	struct perf_event_attr attr = {
		.type = PERF_TYPE_TRACEPOINT, .size = sizeof(attr),
		.sample_period = 1, .sample_type = PERF_SAMPLE_RAW,
		.disabled = 1,
	};
	const char *fs = mglru_tracefs();
	char path[MGLRU_PATH_LEN + 8], id[32], filter[128] = "";
	int i, cpu, fd, cpus = sysconf(_SC_NPROCESSORS_CONF);
	size_t len = 0;

	if (access("/proc/sys/kernel/perf_event_paranoid", F_OK))
		return mglru_skip("perf events not available (CONFIG_PERF_EVENTS=n?)");
	if (!fs)
		return mglru_skip("tracefs not available (CONFIG_FTRACE=n?)");
	snprintf(tp.dir, sizeof(tp.dir), "%s/events/%s", fs, event);
	snprintf(path, sizeof(path), "%s/id", tp.dir);
	if (mglru_read_str(path, id, sizeof(id)))
		return mglru_skip("trace event %s not available (CONFIG_EVENT_TRACING=n?)",
				  event);
	attr.config = strtoull(id, NULL, 10);
	for (i = 0; i < nr && len < sizeof(filter); i++)
		len += snprintf(filter + len, sizeof(filter) - len,
				"%scommon_pid == %d", i ? " || " : "", pids[i]);
	if (!nr || len >= sizeof(filter)) {
		ksft_print_msg("perf event %s: %d tasks, too many for a filter\n",
			       event, nr);
		return -1;
	}
	tp.page = sysconf(_SC_PAGESIZE);
	for (cpu = 0; cpu < cpus && cpu < MAX_CPUS; cpu++) {
		fd = syscall(__NR_perf_event_open, &attr, -1, cpu, -1,
			     PERF_FLAG_FD_CLOEXEC);
		if (fd < 0 && errno == ENODEV)	/* an offline CPU */
			continue;
		if (fd < 0 && !tp.nr && errno == ENOENT)
			return mglru_skip("perf events on trace event %s not available",
					  event);
		tp.fd[tp.nr] = fd;
		tp.ring[tp.nr] = fd < 0 ? MAP_FAILED :
				 mmap(NULL, (RING_PAGES + 1) * tp.page,
				      PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
		if (fd < 0 || tp.ring[tp.nr] == MAP_FAILED ||
		    ioctl(fd, PERF_EVENT_IOC_SET_FILTER, filter) ||
		    ioctl(fd, PERF_EVENT_IOC_ENABLE, 0)) {
			ksft_print_msg("perf event %s on CPU %d: %s\n", event,
				       cpu, strerror(errno));
			if (tp.ring[tp.nr] != MAP_FAILED)
				munmap(tp.ring[tp.nr], (RING_PAGES + 1) * tp.page);
			if (fd >= 0)
				close(fd);
			return -1;
		}
		tp.nr++;
	}
	return 0;
}

/*
 * Call @fn on the raw record of each sample taken since the last call; the
 * number of samples lost to a full ring buffer.
 */
long mglru_trace_read(void (*fn)(const char *raw, void *arg), void *arg)
{
	size_t size = RING_PAGES * tp.page;
	struct perf_event_header hdr;
	char rec[4096];
	__u64 head, tail;
	long lost = 0;
	int i, n;

	for (i = 0; i < tp.nr; i++) {
		char *data = (char *)tp.ring[i] + tp.page;

		head = __atomic_load_n(&tp.ring[i]->data_head, __ATOMIC_ACQUIRE);
		for (tail = tp.ring[i]->data_tail; tail < head; tail += hdr.size) {
			memcpy(&hdr, data + tail % size, sizeof(hdr));
			if (hdr.size < sizeof(hdr) || hdr.size > sizeof(rec))
				break;
			for (n = 0; n < hdr.size; n++)	/* it may wrap */
				rec[n] = data[(tail + n) % size];
			if (hdr.type == PERF_RECORD_SAMPLE)	/* u32 size, raw */
				fn(rec + sizeof(hdr) + sizeof(__u32), arg);
			else if (hdr.type == PERF_RECORD_LOST)	/* u64 id, lost */
				lost += *(__u64 *)(rec + sizeof(hdr) + 8);
		}
		__atomic_store_n(&tp.ring[i]->data_tail, head, __ATOMIC_RELEASE);
	}
	return lost;
}

void mglru_trace_close(void)
{
	while (tp.nr--) {
		munmap(tp.ring[tp.nr], (RING_PAGES + 1) * tp.page);
		close(tp.fd[tp.nr]);
	}
	tp.nr = 0;
}
