/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Userspace shim: <linux/ctype.h> from libc's <ctype.h>, in the C locale,
 * where it agrees with the kernel's table for ASCII (the parser refuses
 * every other byte before it asks), and skip_spaces() (lib/string.c).
 */
#ifndef FUZZ_SHIM_LINUX_CTYPE_H
#define FUZZ_SHIM_LINUX_CTYPE_H

#include <ctype.h>	/* isascii() too, as glibc has it */

static inline char *skip_spaces(const char *str)
{
	while (isspace((unsigned char)*str))
		++str;
	return (char *)str;
}

#endif
