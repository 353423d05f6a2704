/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Userspace shim: the allocator, on malloc(), so that AddressSanitizer sees
 * every object at its exact size.
 */
#ifndef FUZZ_SHIM_LINUX_SLAB_H
#define FUZZ_SHIM_LINUX_SLAB_H

#include <stdlib.h>
#include <string.h>

#define GFP_KERNEL	0

static inline void *kzalloc(size_t size, int gfp)
{
	return calloc(1, size);
}

static inline void *kmemdup(const void *src, size_t len, int gfp)
{
	void *p = malloc(len);

	if (p)
		memcpy(p, src, len);
	return p;
}

static inline void kfree(const void *p)
{
	free((void *)p);
}

#endif
