/* SPDX-License-Identifier: GPL-2.0 */
/* Userspace shim: what efi_parser.c needs from <linux/module.h>. */
#ifndef FUZZ_SHIM_LINUX_MODULE_H
#define FUZZ_SHIM_LINUX_MODULE_H

#include <stddef.h>
#include <stdint.h>
#include <string.h>

typedef uint8_t u8;
typedef uint16_t u16;
typedef uint32_t u32;
typedef uint64_t u64;

#define __init
#define __initdata

#endif
