/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Userspace shim: memchr(), memcmp(), strlen(), strcmp() and strsep()
 * from libc, and str_has_prefix() as <linux/string.h> has it.
 */
#ifndef FUZZ_SHIM_LINUX_STRING_H
#define FUZZ_SHIM_LINUX_STRING_H

#include <string.h>

static inline size_t str_has_prefix(const char *str, const char *prefix)
{
	size_t len = strlen(prefix);

	return strncmp(str, prefix, len) == 0 ? len : 0;
}

#endif
