// SPDX-License-Identifier: GPL-2.0
/*
 * What every other part of the library uses and that uses none of it: the
 * kernel's files read or written whole (a knob, a /proc counter, the boot
 * id) and the monotonic clock.
 */
#define _GNU_SOURCE
#include <ctype.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "cgroup_util.h"
#include "mglru.h"

#define BOOT_ID		"/proc/sys/kernel/random/boot_id"

int mglru_write_str(const char *path, const char *val)
{
	ssize_t len = strlen(val);
	int fd, ret;

	fd = open(path, O_WRONLY | O_NOFOLLOW | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	ret = write(fd, val, len) == len ? 0 : -errno;
	close(fd);
	return ret;
}

/* read_text() from cgroup_util, with the trailing newline dropped */
int mglru_read_str(const char *path, char *buf, size_t len)
{
	ssize_t n = read_text(path, buf, len);

	if (n < 0)
		return n;
	while (n > 0 && isspace((unsigned char)buf[n - 1]))
		buf[--n] = '\0';
	return 0;
}

int mglru_write(const char *path, const char *val)
{
	int ret = mglru_write_str(path, val);

	if (ret)
		ksft_print_msg("write %s to %s: %s\n", val, path,
			       strerror(-ret));
	return ret ? -1 : 0;
}

long mglru_vmstat(const char *key)
{
	char line[256];
	size_t klen = strlen(key);
	long val = -1;
	FILE *f;

	f = fopen("/proc/vmstat", "r");
	if (!f)
		return -1;
	while (fgets(line, sizeof(line), f)) {
		if (!strncmp(line, key, klen) && line[klen] == ' ') {
			val = atol(line + klen + 1);
			break;
		}
	}
	fclose(f);
	return val;
}

/* This boot's id, or "unknown": journals of another boot differ. */
void mglru_boot_id(char *buf, size_t len)
{
	if (mglru_read_str(BOOT_ID, buf, len))
		snprintf(buf, len, "unknown");
}

double mglru_now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

void mglru_sleep_ms(unsigned int ms)
{
	struct timespec ts = {
		.tv_sec = ms / 1000,
		.tv_nsec = (ms % 1000) * 1000000L,
	};

	while (nanosleep(&ts, &ts) && errno == EINTR)
		;
}
