/* SPDX-License-Identifier: GPL-2.0 */
/*
 * lockdown-status: SHA-256 (FIPS 180-4), for the PK digest a policy names.
 */
#ifndef LOCKDOWN_STATUS_SHA256_H
#define LOCKDOWN_STATUS_SHA256_H

#include <stddef.h>

#define LD_SHA256_SIZE	32

void ld_sha256(const void *data, size_t len, unsigned char out[LD_SHA256_SIZE]);

#endif /* LOCKDOWN_STATUS_SHA256_H */
