// SPDX-License-Identifier: GPL-2.0
/*
 * Kernel lockdown: the TPM 2.0 NV counter that keeps the owner policy's
 * serial across reboots.
 *
 * A policy names a counter index ("counter 0x01800001", owner_parse.c).
 * It loads only when its serial is at least the counter's value, and
 * loading it raises the counter to its serial, so an older policy never
 * loads again on that machine: a counter cannot go down, not even deleted
 * and defined afresh (TPM 2.0 Part 1, "NV Counters"), and tpm_nv.c
 * refuses any other kind of index at its handle.  Root can raise the
 * counter and make the latest policy stale, a service it can deny anyway
 * by not loading the policy.
 */

#include <linux/err.h>
#include <linux/errno.h>

#include "lockdown.h"

/* The counter's value; 0 for a counter never incremented, which has none. */
static int lockdown_tpm_counter(struct tpm_chip *chip, u32 index, u64 *value)
{
	u32 attrs;
	int rc;

	rc = lockdown_tpm_counter_check(chip, index, &attrs);
	if (rc)
		return rc;
	if (!(attrs & LOCKDOWN_TPMA_NV_WRITTEN)) {
		*value = 0;
		return 0;
	}
	return lockdown_tpm_counter_read(chip, index, value);
}

/**
 * lockdown_owner_counter_advance - check a serial against its TPM counter
 * @index: the NV index the policy names
 * @serial: the policy's serial
 * @value: set to the counter's value when the call returns, if it was read
 *
 * The serial must be at least the counter's value; when it is above, the
 * counter is incremented up to it, at most %LOCKDOWN_COUNTER_MAX_STEP
 * times.  A counter incremented for the first time starts from the
 * highest value of any counter of the TPM, which may pass @serial.
 *
 * Context: Process context; sleeps.  Callers serialise.
 * Return: 0 when the counter holds @serial; -ESTALE when it is above
 * @serial; -ERANGE when @serial is more than %LOCKDOWN_COUNTER_MAX_STEP
 * above it; -ENODEV without a TPM 2.0; -ENOENT when @index is not
 * defined; -ENOTTY when it is not a counter the kernel may use; -EIO or
 * another error of the TPM driver.
 */
int lockdown_owner_counter_advance(u32 index, u64 serial, u64 *value)
{
	struct tpm_chip *chip;
	unsigned int steps = 0;
	int rc;

	chip = lockdown_tpm_get();
	if (IS_ERR(chip))
		return PTR_ERR(chip);
	rc = lockdown_tpm_counter(chip, index, value);
	if (!rc && *value < serial &&
	    serial - *value > LOCKDOWN_COUNTER_MAX_STEP)
		rc = -ERANGE;
	while (!rc && *value < serial) {
		/* A TPM whose counter does not move gets no more tries. */
		if (steps++ == LOCKDOWN_COUNTER_MAX_STEP) {
			rc = -EIO;
			break;
		}
		rc = lockdown_tpm_counter_increment(chip, index);
		if (!rc)
			rc = lockdown_tpm_counter_read(chip, index, value);
	}
	if (!rc && *value > serial)
		rc = -ESTALE;
	lockdown_tpm_put(chip);
	return rc;
}
