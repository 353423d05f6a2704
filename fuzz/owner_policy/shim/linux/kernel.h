/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Userspace shim: the limits, ARRAY_SIZE() and the hex helpers of
 * <linux/kernel.h>, with the kernel's contracts (lib/hexdump.c):
 * hex_to_bin() gives -1 for a character that is no hex digit, hex2bin()
 * reads exactly 2 * count characters and fails with -EINVAL on the first
 * bad one; and kstrtou64() (lib/kstrtox.c): an optional '+', for base 16
 * an optional "0x" or "0X", at least one digit, an optional '\n', then
 * the end; -ERANGE when the value does not fit, -EINVAL otherwise.
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

static inline int kstrtou64(const char *s, unsigned int base, u64 *res)
{
	u64 v = 0;
	int d, n = 0;

	if (*s == '+')
		s++;
	if (base == 16 && s[0] == '0' && (s[1] == 'x' || s[1] == 'X'))
		s += 2;
	for (; (d = hex_to_bin(*s)) >= 0 && (unsigned int)d < base; s++, n++) {
		if (v > (U64_MAX - d) / base)
			return -ERANGE;
		v = v * base + d;
	}
	if (!n)
		return -EINVAL;
	if (*s == '\n')
		s++;
	if (*s)
		return -EINVAL;
	*res = v;
	return 0;
}

#endif
