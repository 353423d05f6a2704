/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Userspace shim: the limits, ARRAY_SIZE() and the hex helpers of
 * <linux/kernel.h>, with the kernel's contracts (lib/hexdump.c):
 * hex_to_bin() gives -1 for a character that is no hex digit, hex2bin()
 * reads exactly 2 * count characters and fails with -EINVAL on the first
 * bad one.
 */
#ifndef FUZZ_SHIM_LINUX_KERNEL_H
#define FUZZ_SHIM_LINUX_KERNEL_H

#include <errno.h>
#include <linux/types.h>

#define U16_MAX		((u16)~0U)
#define U32_MAX		((u32)~0U)
#define U64_MAX		((u64)~0ULL)

#define ARRAY_SIZE(a)	(sizeof(a) / sizeof((a)[0]))

static inline int hex_to_bin(unsigned char ch)
{
	if (ch >= '0' && ch <= '9')
		return ch - '0';
	if (ch >= 'a' && ch <= 'f')
		return ch - 'a' + 10;
	if (ch >= 'A' && ch <= 'F')
		return ch - 'A' + 10;
	return -1;
}

static inline int hex2bin(u8 *dst, const char *src, size_t count)
{
	while (count--) {
		int hi = hex_to_bin(*src++);
		int lo;

		if (hi < 0)
			return -EINVAL;
		lo = hex_to_bin(*src++);
		if (lo < 0)
			return -EINVAL;
		*dst++ = (hi << 4) | lo;
	}
	return 0;
}

#endif
