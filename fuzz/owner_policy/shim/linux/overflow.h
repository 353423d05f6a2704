/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Userspace shim: struct_size() without the kernel's saturation (the
 * parser only asks for at most LOCKDOWN_POLICY_MAX_RULES elements), and
 * check_add_overflow() on the builtin the kernel's uses.
 */
#ifndef FUZZ_SHIM_LINUX_OVERFLOW_H
#define FUZZ_SHIM_LINUX_OVERFLOW_H

#include <stddef.h>

#define struct_size(p, member, count) \
	(sizeof(*(p)) + sizeof(*(p)->member) * (size_t)(count))

#define check_add_overflow(a, b, d) __builtin_add_overflow(a, b, d)

#endif
