// SPDX-License-Identifier: GPL-2.0
/*
 * Kernel lockdown: the TPM 2.0 NV counters that the owner policy
 * (owner_tpm.c) and hibernation (hibernate_tpm.c) keep across reboots,
 * read and incremented with the index's own, empty authorization.
 *
 * Root can define any index at a counter's handle, so its public area is
 * read first: only a counter (TPM_NT_COUNTER, which never goes back, not
 * even defined afresh) of eight bytes that an empty password can read and
 * increment (AUTHREAD, AUTHWRITE) is used.
 */

#include <linux/bitfield.h>
#include <linux/device.h>
#include <linux/err.h>
#include <linux/errno.h>
#include <linux/tpm.h>

#include "lockdown.h"

/* TPM 2.0 Part 2: command codes include/linux/tpm.h lacks. */
#define LOCKDOWN_TPM_CC_NV_INCREMENT	0x0134
#define LOCKDOWN_TPM_CC_NV_READ		0x014e
#define LOCKDOWN_TPM_CC_NV_READ_PUBLIC	0x0169

/**
 * lockdown_tpm_get - hold the default TPM chip, if it is a TPM 2.0
 *
 * Return: the chip, its operations held; ERR_PTR(-ENODEV) without a
 * TPM 2.0, or the driver's error.  Release it with lockdown_tpm_put().
 */
struct tpm_chip *lockdown_tpm_get(void)
{
	struct tpm_chip *chip = tpm_default_chip();
	int rc;

	if (!chip)
		return ERR_PTR(-ENODEV);
	rc = tpm_try_get_ops(chip);
	if (!rc && !(chip->flags & TPM_CHIP_FLAG_TPM2)) {
		tpm_put_ops(chip);
		rc = -ENODEV;
	}
	if (rc) {
		put_device(&chip->dev);
		return ERR_PTR(rc);
	}
	return chip;
}

void lockdown_tpm_put(struct tpm_chip *chip)
{
	tpm_put_ops(chip);
	put_device(&chip->dev);
}

/* Start NV command @cc on @index, authorized by the index's empty password. */
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

/**
 * lockdown_tpm_counter_check - whether @index is a counter the kernel can use
 * @chip: the TPM, held
 * @index: the NV index
 * @attrs: set to the index's attributes (TPMA_NV) when it is defined
 *
 * Return: 0 for a counter the kernel can use (%LOCKDOWN_TPMA_NV_WRITTEN
 * in @attrs once it was incremented); -ENOENT when @index is not
 * defined; -ENOTTY when it is another kind of index, or a counter the
 * kernel cannot read or increment; -EIO on a TPM error or a response that
 * does not describe @index.
 */
int lockdown_tpm_counter_check(struct tpm_chip *chip, u32 index, u32 *attrs)
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
	rc = tpm_transmit_cmd(chip, &buf, 2, "reading a lockdown counter's public area");
	/* TPM_RC_HANDLE, in any handle position: no such index */
	if (rc > 0)
		rc = (rc & 0x80) && (rc & 0x3f) == 0x0b ? -ENOENT : -EIO;
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
	policysize = lockdown_be16(p + 12);
	if (pubsize != 4 + 2 + 4 + 2 + policysize + 2)
		goto out;
	*attrs = lockdown_be32(p + 8);
	rc = 0;
	if (FIELD_GET(LOCKDOWN_TPMA_NV_TYPE, *attrs) != LOCKDOWN_TPM_NT_COUNTER ||
	    !(*attrs & LOCKDOWN_TPMA_NV_AUTHREAD) ||
	    !(*attrs & LOCKDOWN_TPMA_NV_AUTHWRITE) ||
	    lockdown_be16(p + 14 + policysize) != sizeof(u64))
		rc = -ENOTTY;
out:
	tpm_buf_destroy(&buf);
	return rc;
}

/**
 * lockdown_tpm_counter_read - TPM2_NV_Read of a counter's eight bytes
 * @chip: the TPM, held
 * @index: the counter, checked by lockdown_tpm_counter_check()
 * @value: set to its value
 *
 * Return: 0; -EIO on a TPM error (a counter never incremented has no
 * value) or a malformed response; the driver's error.
 */
int lockdown_tpm_counter_read(struct tpm_chip *chip, u32 index, u64 *value)
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
			      "reading a lockdown counter");
	if (rc > 0)
		rc = -EIO;
	if (rc)
		goto out;
	p = &buf.data[TPM_HEADER_SIZE + 4];
	if (lockdown_be16(p) != sizeof(*value))
		rc = -EIO;
	else
		*value = lockdown_be64(p + 2);
out:
	tpm_buf_destroy(&buf);
	return rc;
}

/**
 * lockdown_tpm_counter_increment - TPM2_NV_Increment
 * @chip: the TPM, held
 * @index: the counter, checked by lockdown_tpm_counter_check()
 *
 * Return: 0; -EIO on a TPM error; the driver's error.
 */
int lockdown_tpm_counter_increment(struct tpm_chip *chip, u32 index)
{
	struct tpm_buf buf;
	int rc;

	rc = lockdown_tpm_nv_begin(&buf, LOCKDOWN_TPM_CC_NV_INCREMENT, index);
	if (rc)
		return rc;
	rc = tpm_transmit_cmd(chip, &buf, 0, "incrementing a lockdown counter");
	tpm_buf_destroy(&buf);
	return rc > 0 ? -EIO : rc;
}
