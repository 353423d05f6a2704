// SPDX-License-Identifier: GPL-2.0
/*
 * Kernel lockdown: the TPM 2.0 NV counter that keeps the owner policy's
 * serial across reboots.
 *
 * A policy names a counter index ("counter 0x01800001", owner_parse.c).
 * It loads only when its serial is at least the counter's value, and
 * loading it raises the counter to its serial: once the owner's policy
 * with serial 11 has loaded, the one with serial 10 never loads again on
 * that machine, whatever root deletes or reboots.
 *
 * Root can delete the index and define it again, or clear the TPM
 * (TPM2_Clear with the lockout authorization most machines leave empty).
 * A counter index (TPM_NT_COUNTER) cannot go down: a counter defined
 * afresh starts from the highest value any counter of that TPM has held
 * (TPM 2.0 Part 1, "NV Counters").  Root can instead define the handle as
 * an ordinary or bit-field index, whose value it writes: so the index's
 * public area is read first, and anything but a counter that the kernel
 * can read and increment with its own, empty authorization (AUTHREAD and
 * AUTHWRITE) is refused.  Root can always raise the counter (it can
 * increment it as well as the kernel) and so make the owner's latest
 * policy stale: that denies a service root can deny anyway by not
 * loading the policy, and hands nothing over.
 *
 * Commands go to the default TPM chip, with a password session and an
 * empty password, as security/keys/trusted-keys/trusted_tpm2.c does.
 */

#define pr_fmt(fmt) "lockdown: " fmt

#include <linux/bitfield.h>
#include <linux/device.h>
#include <linux/errno.h>
#include <linux/string.h>
#include <linux/tpm.h>

#include "lockdown.h"

/* TPM 2.0 Part 2: command codes, and the bits of TPMA_NV. */
#define LOCKDOWN_TPM_CC_NV_INCREMENT	0x0134
#define LOCKDOWN_TPM_CC_NV_READ		0x014e
#define LOCKDOWN_TPM_CC_NV_READ_PUBLIC	0x0169
#define LOCKDOWN_TPMA_NV_AUTHWRITE	BIT(2)
#define LOCKDOWN_TPMA_NV_TYPE		GENMASK(7, 4)
#define LOCKDOWN_TPM_NT_COUNTER		1
#define LOCKDOWN_TPMA_NV_AUTHREAD	BIT(18)
#define LOCKDOWN_TPMA_NV_WRITTEN	BIT(29)

/* An index that does not exist: TPM_RC_HANDLE, in any handle position. */
static bool lockdown_tpm_rc_handle(int rc)
{
	return (rc & 0x80) && (rc & 0x3f) == 0x0b;
}

/*
 * Start command @cc on NV index @index, authorized by the index itself
 * with a password session and an empty password.
 */
static int lockdown_tpm_nv_begin(struct tpm_buf *buf, u32 cc, u32 index)
{
	int rc;

	rc = tpm_buf_init(buf, TPM2_ST_SESSIONS, cc);
	if (rc)
		return rc;
	tpm_buf_append_u32(buf, index);	/* authHandle: the index */
	tpm_buf_append_u32(buf, index);
	tpm_buf_append_u32(buf, 9);	/* authorization size */
	tpm_buf_append_u32(buf, TPM2_RS_PW);
	tpm_buf_append_u16(buf, 0);	/* nonce */
	tpm_buf_append_u8(buf, 0);	/* session attributes */
	tpm_buf_append_u16(buf, 0);	/* password */
	return 0;
}

/*
 * TPM2_NV_ReadPublic: the attributes and data size of @index.  -ENOENT
 * when no such index is defined, -EIO on any other TPM error or a
 * response that does not describe @index.
 */
static int lockdown_tpm_read_public(struct tpm_chip *chip, u32 index,
				    u32 *attrs, u16 *size)
{
	struct tpm_buf buf;
	const u8 *p, *end;
	u16 pubsize, policysize;
	int rc;

	rc = tpm_buf_init(&buf, TPM2_ST_NO_SESSIONS,
			  LOCKDOWN_TPM_CC_NV_READ_PUBLIC);
	if (rc)
		return rc;
	tpm_buf_append_u32(&buf, index);
	rc = tpm_transmit_cmd(chip, &buf, 2, "reading the lockdown counter's public area");
	if (rc > 0)
		rc = lockdown_tpm_rc_handle(rc) ? -ENOENT : -EIO;
	if (rc)
		goto out;

	/* TPM2B_NV_PUBLIC: size, nvIndex, nameAlg, attributes, authPolicy, dataSize */
	p = &buf.data[TPM_HEADER_SIZE];
	end = buf.data + tpm_buf_length(&buf);
	rc = -EIO;
	if (end - p < 2 + 4 + 2 + 4 + 2)
		goto out;
	pubsize = lockdown_be16(p);
	if (lockdown_be32(p + 2) != index || pubsize > end - p - 2)
		goto out;
	*attrs = lockdown_be32(p + 8);
	policysize = lockdown_be16(p + 12);
	if (pubsize != 4 + 2 + 4 + 2 + policysize + 2)
		goto out;
	*size = lockdown_be16(p + 14 + policysize);
	rc = 0;
out:
	tpm_buf_destroy(&buf);
	return rc;
}

/* TPM2_NV_Read of the counter's eight bytes. */
static int lockdown_tpm_read(struct tpm_chip *chip, u32 index, u64 *value)
{
	struct tpm_buf buf;
	const u8 *p;
	int rc;

	rc = lockdown_tpm_nv_begin(&buf, LOCKDOWN_TPM_CC_NV_READ, index);
	if (rc)
		return rc;
	tpm_buf_append_u16(&buf, sizeof(*value));
	tpm_buf_append_u16(&buf, 0);		/* offset */
	/* parameterSize, then TPM2B_MAX_NV_BUFFER */
	rc = tpm_transmit_cmd(chip, &buf, 4 + 2 + sizeof(*value),
			      "reading the lockdown counter");
	if (rc > 0)
		rc = -EIO;
	if (rc)
		goto out;
	p = &buf.data[TPM_HEADER_SIZE + 4];
	if (lockdown_be16(p) != sizeof(*value)) {
		rc = -EIO;
		goto out;
	}
	*value = lockdown_be64(p + 2);
out:
	tpm_buf_destroy(&buf);
	return rc;
}

/* TPM2_NV_Increment. */
static int lockdown_tpm_increment(struct tpm_chip *chip, u32 index)
{
	struct tpm_buf buf;
	int rc;

	rc = lockdown_tpm_nv_begin(&buf, LOCKDOWN_TPM_CC_NV_INCREMENT, index);
	if (rc)
		return rc;
	rc = tpm_transmit_cmd(chip, &buf, 0, "incrementing the lockdown counter");
	tpm_buf_destroy(&buf);
	return rc > 0 ? -EIO : rc;
}

/*
 * The counter's value, after checking what the index is.  -ENOTTY when
 * it is not a counter the kernel can read and increment with an empty
 * authorization.
 */
static int lockdown_tpm_counter(struct tpm_chip *chip, u32 index, u64 *value)
{
	u32 attrs;
	u16 size;
	int rc;

	rc = lockdown_tpm_read_public(chip, index, &attrs, &size);
	if (rc)
		return rc;
	if (FIELD_GET(LOCKDOWN_TPMA_NV_TYPE, attrs) != LOCKDOWN_TPM_NT_COUNTER ||
	    !(attrs & LOCKDOWN_TPMA_NV_AUTHREAD) ||
	    !(attrs & LOCKDOWN_TPMA_NV_AUTHWRITE) || size != sizeof(*value))
		return -ENOTTY;
	/* A counter never incremented has no value yet: none is below it. */
	if (!(attrs & LOCKDOWN_TPMA_NV_WRITTEN)) {
		*value = 0;
		return 0;
	}
	return lockdown_tpm_read(chip, index, value);
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

	chip = tpm_default_chip();
	if (!chip)
		return -ENODEV;
	rc = tpm_try_get_ops(chip);
	if (rc)
		goto out_put;
	if (!(chip->flags & TPM_CHIP_FLAG_TPM2)) {
		rc = -ENODEV;
		goto out_ops;
	}
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
		rc = lockdown_tpm_increment(chip, index);
		if (!rc)
			rc = lockdown_tpm_read(chip, index, value);
	}
	if (!rc && *value > serial)
		rc = -ESTALE;
out_ops:
	tpm_put_ops(chip);
out_put:
	put_device(&chip->dev);
	return rc;
}
