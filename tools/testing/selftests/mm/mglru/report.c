// SPDX-License-Identifier: GPL-2.0
/*
 * What a scenario reports besides its KTAP result: why it skips, its
 * "# metric" lines and the messages of the checks it fails.
 */
#define _GNU_SOURCE
#include <stdarg.h>
#include <stdio.h>

#include "mglru.h"

char mglru_skip_reason[256];

int mglru_skip(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(mglru_skip_reason, sizeof(mglru_skip_reason), fmt, ap);
	va_end(ap);
	return KSFT_SKIP;
}

void mglru_metric(const struct mglru_ctx *ctx, const char *key,
		  const char *fmt, ...)
{
	va_list ap;

	printf("# metric %s %s=", ctx->test, key);
	va_start(ap, fmt);
	vprintf(fmt, ap);
	va_end(ap);
	printf("\n");
	fflush(stdout);
}

/* @ok, or a "# <test>: <why not>" line and false. */
bool mglru_check(const struct mglru_ctx *ctx, bool ok, const char *fmt, ...)
{
	va_list ap;

	if (ok)
		return true;
	printf("# %s: ", ctx->test);
	va_start(ap, fmt);
	vprintf(fmt, ap);
	va_end(ap);
	printf("\n");
	fflush(stdout);
	return false;
}
