/* SPDX-License-Identifier: GPL-2.0 */
/* Userspace shim: the types owner_parse.c and owner_policy.h use. */
#ifndef FUZZ_SHIM_LINUX_TYPES_H
#define FUZZ_SHIM_LINUX_TYPES_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

typedef uint8_t u8;
typedef uint16_t u16;
typedef uint32_t u32;
typedef unsigned long long u64;	/* as the kernel has it */

#endif
