/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Kernel lockdown: what hibernate.c and hibernate_tpm.c share.
 */
#ifndef _SECURITY_LOCKDOWN_HIBERNATE_H
#define _SECURITY_LOCKDOWN_HIBERNATE_H

#include <linux/types.h>

#include "lockdown.h"

/*
 * The locality the kernel unseals at: user space sends at 0 only, and
 * 3 and 4 belong to the firmware and the hardware on a TIS TPM.
 */
#define LOCKDOWN_HIB_LOCALITY	2
#define LOCKDOWN_HIB_COUNTER	CONFIG_SECURITY_LOCKDOWN_HIBERNATION_COUNTER
#define LOCKDOWN_HIB_BLOB_MAX	948

/**
 * struct lockdown_hib_blob - a key sealed by the TPM
 * @priv_len: length of the TPM2B_PRIVATE at the start of @data
 * @pub_len: length of the TPM2B_PUBLIC after it
 * @data: both, as TPM2_Create returned them and TPM2_Load takes them
 */
struct lockdown_hib_blob {
	u16 priv_len;
	u16 pub_len;
	u8 data[LOCKDOWN_HIB_BLOB_MAX];
};

int lockdown_hib_tpm_seal(const u8 *key, size_t keylen,
			  struct lockdown_hib_blob *blob, u64 *counter);
int lockdown_hib_tpm_unseal(const struct lockdown_hib_blob *blob, u8 *key,
			    size_t keylen);
int lockdown_hib_tpm_consume(u64 counter);
int lockdown_hib_tpm_probe(void);

#endif /* _SECURITY_LOCKDOWN_HIBERNATE_H */
