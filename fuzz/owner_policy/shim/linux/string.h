/* SPDX-License-Identifier: GPL-2.0 */
/* Userspace shim: memchr(), memcmp(), strlen() from libc. */
#ifndef FUZZ_SHIM_LINUX_STRING_H
#define FUZZ_SHIM_LINUX_STRING_H

#include <string.h>

#endif
