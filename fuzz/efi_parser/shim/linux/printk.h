/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Userspace shim for <linux/printk.h>.  Messages are formatted (so that the
 * sanitizers see every argument read) into a buffer, and only written out
 * when the harness asks for it.  pr_devel() is compiled out, as in a kernel
 * built without DEBUG.
 */
#ifndef FUZZ_SHIM_LINUX_PRINTK_H
#define FUZZ_SHIM_LINUX_PRINTK_H

#include <stdio.h>

#ifndef pr_fmt
#define pr_fmt(fmt) fmt
#endif

void fuzz_printk(const char *fmt, ...)
	__attribute__((format(printf, 1, 2)));

#define pr_err(fmt, ...)	fuzz_printk(pr_fmt(fmt), ##__VA_ARGS__)
#define pr_info(fmt, ...)	fuzz_printk(pr_fmt(fmt), ##__VA_ARGS__)
#define pr_warn(fmt, ...)	fuzz_printk(pr_fmt(fmt), ##__VA_ARGS__)
#define pr_devel(fmt, ...)	do { } while (0)

#endif
