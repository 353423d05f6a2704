/* SPDX-License-Identifier: GPL-2.0 */
/*
 * lockdown-status: read the TPM 2.0 NV counter an owner policy names.
 */
#ifndef LOCKDOWN_STATUS_TPM_H
#define LOCKDOWN_STATUS_TPM_H

int ld_tpm_counter(unsigned int index, unsigned long long *value);

#endif /* LOCKDOWN_STATUS_TPM_H */
