// SPDX-License-Identifier: GPL-2.0
/* What the scenarios' children do to memory. */
#define _GNU_SOURCE
#include <fcntl.h>
#include <unistd.h>
#include <sys/mman.h>

#include "mglru.h"

/* A shared read-only mapping of @size bytes of @path, or NULL. */
char *mglru_map_file(const char *path, size_t size)
{
	char *map;
	int fd;

	fd = open(path, O_RDONLY);
	if (fd < 0)
		return NULL;
	map = mmap(NULL, size, PROT_READ, MAP_SHARED, fd, 0);
	close(fd);
	return map == MAP_FAILED ? NULL : map;
}

/* Load (or store to) one byte every @stride bytes of @p. */
void mglru_touch(char *p, size_t size, size_t stride, bool write)
{
	size_t off;

	for (off = 0; off < size; off += stride) {
		if (write)
			__atomic_store_n(&p[off], (char)off, __ATOMIC_RELAXED);
		else
			__atomic_load_n(&p[off], __ATOMIC_RELAXED);
	}
}
