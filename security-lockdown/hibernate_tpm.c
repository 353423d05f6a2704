// SPDX-License-Identifier: GPL-2.0
/*
 * Kernel lockdown: the TPM 2.0 side of a sealed hibernation image.
 *
 * The image's key is sealed under a primary key of the owner hierarchy
 * whose policy (TPM2_PolicyLocality and TPM2_PolicyPCR) only this kernel,
 * at its own locality, with PCRs 4 and 7 as this boot measured them, can
 * satisfy: loading the sealed key needs that policy for the primary, and
 * unsealing it needs it again.  User space sends at locality 0 only.
 * The TPM NV counter that makes an image good for one resume lives here
 * too.  See hibernate.c.
 */

#define pr_fmt(fmt) "lockdown: " fmt

#include <linux/bitfield.h>
#include <linux/errno.h>
#include <linux/random.h>
#include <linux/string.h>
#include <linux/tpm.h>

#include "hibernate.h"

/* TPM 2.0 Part 2 values include/linux/tpm.h lacks in one tree or both. */
#define HIB_CC_NV_DEFINE_SPACE		0x012a
#define HIB_CC_POLICY_LOCALITY		0x016f
#define HIB_CC_START_AUTH_SESSION	0x0176
#define HIB_CC_POLICY_PCR		0x017f
#define HIB_CC_POLICY_GET_DIGEST	0x0189
#define HIB_RH_OWNER			0x40000001
#define HIB_RH_NULL			0x40000007
#define HIB_ALG_AES			0x0006
#define HIB_ALG_ECC			0x0023
#define HIB_ALG_CFB			0x0043
#define HIB_ECC_NIST_P256		0x0003
#define HIB_SE_POLICY			0x01
#define HIB_SE_TRIAL			0x03
/* TPMA_OBJECT */
#define HIB_OA_FIXED_TPM		BIT(1)
#define HIB_OA_FIXED_PARENT		BIT(4)
#define HIB_OA_SENSITIVE_DATA_ORIGIN	BIT(5)
#define HIB_OA_ADMIN_WITH_POLICY	BIT(7)
#define HIB_OA_NO_DA			BIT(10)
#define HIB_OA_RESTRICTED		BIT(16)
#define HIB_OA_DECRYPT			BIT(17)

/* PCR 4 (boot applications: the kernel image) and PCR 7 (Secure Boot). */
static const u8 hib_pcr_select[3] = { BIT(4) | BIT(7), 0, 0 };

/* A response that does not hold what its header says. */
static int hib_bad_response(const char *what)
{
	pr_err("hibernation: the TPM's response to %s is malformed\n", what);
	return -EIO;
}

/*
 * Send @buf.  A TPM error is named with @what and becomes -EACCES: the
 * TPM refused (a policy, locality or PCR check, a blob sealed under
 * another primary key); -EIO or another error is the driver's.
 */
static int hib_transmit(struct tpm_chip *chip, struct tpm_buf *buf,
			size_t min_len, const char *what)
{
	ssize_t rc;

	rc = tpm_transmit_cmd(chip, buf, min_len, what);
	if (rc <= 0)
		return rc;
	pr_err("hibernation: the TPM refused %s: error 0x%03zx\n", what, rc);
	return -EACCES;
}

/* An empty password authorisation of @handle (the owner hierarchy). */
static void hib_append_pw(struct tpm_buf *buf)
{
	tpm_buf_append_u32(buf, 9);
	tpm_buf_append_u32(buf, TPM2_RS_PW);
	tpm_buf_append_u16(buf, 0);	/* nonce */
	tpm_buf_append_u8(buf, 0);	/* attributes */
	tpm_buf_append_u16(buf, 0);	/* password */
}

/* The authorisation by policy session @session, used up by the command. */
static void hib_append_policy(struct tpm_buf *buf, u32 session)
{
	tpm_buf_append_u32(buf, 4 + 2 + 1 + 2);
	tpm_buf_append_u32(buf, session);
	tpm_buf_append_u16(buf, 0);	/* nonceCaller */
	tpm_buf_append_u8(buf, 0);	/* attributes: not continueSession */
	tpm_buf_append_u16(buf, 0);	/* hmac: none for a policy session */
}

/*
 * A policy (or trial) session, with PolicyLocality(locality of the kernel)
 * and PolicyPCR(4, 7 at their current values) applied.
 */
static int hib_start_policy(struct tpm_chip *chip, u8 type, u32 *session)
{
	struct tpm_buf buf;
	u8 nonce[16];
	int rc;

	rc = tpm_buf_init(&buf, TPM2_ST_NO_SESSIONS, HIB_CC_START_AUTH_SESSION);
	if (rc)
		return rc;
	get_random_bytes(nonce, sizeof(nonce));
	tpm_buf_append_u32(&buf, HIB_RH_NULL);	/* tpmKey: unsalted */
	tpm_buf_append_u32(&buf, HIB_RH_NULL);	/* bind: unbound */
	tpm_buf_append_u16(&buf, sizeof(nonce));
	tpm_buf_append(&buf, nonce, sizeof(nonce));
	tpm_buf_append_u16(&buf, 0);		/* encryptedSalt */
	tpm_buf_append_u8(&buf, type);
	tpm_buf_append_u16(&buf, TPM_ALG_NULL);	/* symmetric */
	tpm_buf_append_u16(&buf, TPM_ALG_SHA256);
	rc = hib_transmit(chip, &buf, 4, "starting a policy session");
	if (rc)
		goto out;
	*session = lockdown_be32(&buf.data[TPM_HEADER_SIZE]);

	tpm_buf_reset(&buf, TPM2_ST_NO_SESSIONS, HIB_CC_POLICY_LOCALITY);
	tpm_buf_append_u32(&buf, *session);
	tpm_buf_append_u8(&buf, BIT(LOCKDOWN_HIB_LOCALITY));
	rc = hib_transmit(chip, &buf, 0, "PolicyLocality");
	if (rc)
		goto out_flush;

	tpm_buf_reset(&buf, TPM2_ST_NO_SESSIONS, HIB_CC_POLICY_PCR);
	tpm_buf_append_u32(&buf, *session);
	tpm_buf_append_u16(&buf, 0);		/* pcrDigest: the current values */
	tpm_buf_append_u32(&buf, 1);		/* one selection: SHA-256 */
	tpm_buf_append_u16(&buf, TPM_ALG_SHA256);
	tpm_buf_append_u8(&buf, sizeof(hib_pcr_select));
	tpm_buf_append(&buf, hib_pcr_select, sizeof(hib_pcr_select));
	rc = hib_transmit(chip, &buf, 0, "PolicyPCR");
	if (!rc)
		goto out;
out_flush:
	tpm2_flush_context(chip, *session);
out:
	tpm_buf_destroy(&buf);
	return rc;
}

/* The digest of the kernel's policy, as a trial session computes it. */
static int hib_policy_digest(struct tpm_chip *chip, u8 digest[32])
{
	struct tpm_buf buf;
	u32 session;
	int rc;

	rc = hib_start_policy(chip, HIB_SE_TRIAL, &session);
	if (rc)
		return rc;
	rc = tpm_buf_init(&buf, TPM2_ST_NO_SESSIONS, HIB_CC_POLICY_GET_DIGEST);
	if (rc)
		goto out_flush;
	tpm_buf_append_u32(&buf, session);
	rc = hib_transmit(chip, &buf, 2 + 32, "PolicyGetDigest");
	if (!rc && lockdown_be16(&buf.data[TPM_HEADER_SIZE]) != 32)
		rc = hib_bad_response("PolicyGetDigest");
	if (!rc)
		memcpy(digest, &buf.data[TPM_HEADER_SIZE + 2], 32);
	tpm_buf_destroy(&buf);
out_flush:
	tpm2_flush_context(chip, session);
	return rc;
}

/*
 * The primary key the image's key is sealed under: an ECC P-256 storage
 * key of the owner hierarchy, usable only through @policy (userWithAuth
 * clear).  The same template gives the same key on every boot; a
 * template with another policy gives another key.
 */
static int hib_create_primary(struct tpm_chip *chip, const u8 policy[32],
			      u32 *handle)
{
	struct tpm_buf buf;
	int rc;

	rc = tpm_buf_init(&buf, TPM2_ST_SESSIONS, TPM2_CC_CREATE_PRIMARY);
	if (rc)
		return rc;
	tpm_buf_append_u32(&buf, HIB_RH_OWNER);
	hib_append_pw(&buf);
	tpm_buf_append_u16(&buf, 4);		/* inSensitive: no auth, no data */
	tpm_buf_append_u16(&buf, 0);
	tpm_buf_append_u16(&buf, 0);
	/* inPublic: TPMT_PUBLIC of 2+2+4+2+32+2+2+2+2+2+2+2 bytes */
	tpm_buf_append_u16(&buf, 58);
	tpm_buf_append_u16(&buf, HIB_ALG_ECC);
	tpm_buf_append_u16(&buf, TPM_ALG_SHA256);
	tpm_buf_append_u32(&buf, HIB_OA_FIXED_TPM | HIB_OA_FIXED_PARENT |
			   HIB_OA_SENSITIVE_DATA_ORIGIN |
			   HIB_OA_ADMIN_WITH_POLICY | HIB_OA_NO_DA |
			   HIB_OA_RESTRICTED | HIB_OA_DECRYPT);
	tpm_buf_append_u16(&buf, 32);
	tpm_buf_append(&buf, policy, 32);
	tpm_buf_append_u16(&buf, HIB_ALG_AES);	/* symmetric: AES-128-CFB */
	tpm_buf_append_u16(&buf, 128);
	tpm_buf_append_u16(&buf, HIB_ALG_CFB);
	tpm_buf_append_u16(&buf, TPM_ALG_NULL);	/* scheme */
	tpm_buf_append_u16(&buf, HIB_ECC_NIST_P256);
	tpm_buf_append_u16(&buf, TPM_ALG_NULL);	/* kdf */
	tpm_buf_append_u16(&buf, 0);		/* unique.x */
	tpm_buf_append_u16(&buf, 0);		/* unique.y */
	tpm_buf_append_u16(&buf, 0);		/* outsideInfo */
	tpm_buf_append_u32(&buf, 0);		/* creationPCR: none */
	rc = hib_transmit(chip, &buf, 4, "creating the hibernation primary key");
	if (!rc)
		*handle = lockdown_be32(&buf.data[TPM_HEADER_SIZE]);
	tpm_buf_destroy(&buf);
	return rc;
}

/* The kernel's policy digest and its primary key, at its locality. */
static int hib_begin(struct tpm_chip *chip, u8 policy[32], u32 *primary)
{
	int rc;

	rc = tpm_chip_set_locality(chip, LOCKDOWN_HIB_LOCALITY);
	if (rc) {
		pr_err("hibernation: the TPM does not grant locality %d (%d)\n",
		       LOCKDOWN_HIB_LOCALITY, rc);
		return -ENXIO;
	}
	rc = hib_policy_digest(chip, policy);
	if (!rc)
		rc = hib_create_primary(chip, policy, primary);
	return rc;
}

/* The TPM2B at @p, within [@p, @end): its whole length, or 0. */
static size_t hib_tpm2b(const u8 *p, const u8 *end)
{
	if (end - p < 2 || lockdown_be16(p) > end - p - 2)
		return 0;
	return 2 + lockdown_be16(p);
}

static int hib_seal_key(struct tpm_chip *chip, u32 primary,
			const u8 policy[32], const u8 *key, size_t keylen,
			struct lockdown_hib_blob *blob)
{
	struct tpm_buf buf;
	const u8 *p, *end;
	size_t priv, pub;
	u32 session;
	int rc;

	rc = tpm_buf_init(&buf, TPM2_ST_SESSIONS, TPM2_CC_CREATE);
	if (rc)
		return rc;
	rc = hib_start_policy(chip, HIB_SE_POLICY, &session);
	if (rc)
		goto out;
	tpm_buf_append_u32(&buf, primary);
	hib_append_policy(&buf, session);
	tpm_buf_append_u16(&buf, 2 + 2 + keylen);	/* inSensitive */
	tpm_buf_append_u16(&buf, 0);			/* userAuth */
	tpm_buf_append_u16(&buf, keylen);
	tpm_buf_append(&buf, key, keylen);
	/* inPublic: a sealed data object under the same policy */
	tpm_buf_append_u16(&buf, 2 + 2 + 4 + 2 + 32 + 2 + 2);
	tpm_buf_append_u16(&buf, TPM_ALG_KEYEDHASH);
	tpm_buf_append_u16(&buf, TPM_ALG_SHA256);
	tpm_buf_append_u32(&buf, HIB_OA_FIXED_TPM | HIB_OA_FIXED_PARENT |
			   HIB_OA_ADMIN_WITH_POLICY | HIB_OA_NO_DA);
	tpm_buf_append_u16(&buf, 32);
	tpm_buf_append(&buf, policy, 32);
	tpm_buf_append_u16(&buf, TPM_ALG_NULL);	/* scheme */
	tpm_buf_append_u16(&buf, 0);		/* unique */
	tpm_buf_append_u16(&buf, 0);		/* outsideInfo */
	tpm_buf_append_u32(&buf, 0);		/* creationPCR */
	rc = hib_transmit(chip, &buf, 4 + 2 + 2, "sealing the image's key");
	if (rc)
		goto out;
	/* parameterSize, then outPrivate and outPublic */
	p = &buf.data[TPM_HEADER_SIZE + 4];
	end = buf.data + tpm_buf_length(&buf);
	priv = hib_tpm2b(p, end);
	pub = priv ? hib_tpm2b(p + priv, end) : 0;
	if (!pub || priv + pub > sizeof(blob->data)) {
		rc = hib_bad_response("Create");
		goto out;
	}
	memcpy(blob->data, p, priv + pub);
	blob->priv_len = priv;
	blob->pub_len = pub;
out:
	/* The command held the key in the clear. */
	memzero_explicit(buf.data, PAGE_SIZE);
	tpm_buf_destroy(&buf);
	return rc;
}

static int hib_unseal_key(struct tpm_chip *chip, u32 primary,
			  const struct lockdown_hib_blob *blob, u8 *key,
			  size_t keylen)
{
	struct tpm_buf buf;
	u32 session, object;
	int rc;

	rc = tpm_buf_init(&buf, TPM2_ST_SESSIONS, TPM2_CC_LOAD);
	if (rc)
		return rc;
	rc = hib_start_policy(chip, HIB_SE_POLICY, &session);
	if (rc)
		goto out;
	tpm_buf_append_u32(&buf, primary);
	hib_append_policy(&buf, session);
	tpm_buf_append(&buf, blob->data, blob->priv_len + blob->pub_len);
	rc = hib_transmit(chip, &buf, 4, "loading the image's sealed key");
	if (rc)
		goto out;
	object = lockdown_be32(&buf.data[TPM_HEADER_SIZE]);

	rc = hib_start_policy(chip, HIB_SE_POLICY, &session);
	if (rc)
		goto out_flush;
	tpm_buf_reset(&buf, TPM2_ST_SESSIONS, TPM2_CC_UNSEAL);
	tpm_buf_append_u32(&buf, object);
	hib_append_policy(&buf, session);
	rc = hib_transmit(chip, &buf, 4 + 2, "unsealing the image's key");
	if (!rc && lockdown_be16(&buf.data[TPM_HEADER_SIZE + 4]) != keylen)
		rc = hib_bad_response("Unseal");
	if (!rc)
		memcpy(key, &buf.data[TPM_HEADER_SIZE + 4 + 2], keylen);
out_flush:
	tpm2_flush_context(chip, object);
out:
	memzero_explicit(buf.data, PAGE_SIZE);
	tpm_buf_destroy(&buf);
	return rc;
}

/* The hibernation counter, if it is one the kernel can use; said if not. */
static int hib_counter_check(struct tpm_chip *chip, bool *written)
{
	u32 attrs;
	int rc;

	rc = lockdown_tpm_counter_check(chip, LOCKDOWN_HIB_COUNTER, &attrs);
	if (rc == -ENOTTY)
		pr_err("hibernation: NV index 0x%08x is not a counter the kernel can use (attributes 0x%08x)\n",
		       LOCKDOWN_HIB_COUNTER, attrs);
	if (!rc)
		*written = attrs & LOCKDOWN_TPMA_NV_WRITTEN;
	return rc;
}

static int hib_counter_define(struct tpm_chip *chip)
{
	struct tpm_buf buf;
	int rc;

	rc = tpm_buf_init(&buf, TPM2_ST_SESSIONS, HIB_CC_NV_DEFINE_SPACE);
	if (rc)
		return rc;
	tpm_buf_append_u32(&buf, HIB_RH_OWNER);
	hib_append_pw(&buf);
	tpm_buf_append_u16(&buf, 0);		/* auth: empty */
	tpm_buf_append_u16(&buf, 4 + 2 + 4 + 2 + 2);
	tpm_buf_append_u32(&buf, LOCKDOWN_HIB_COUNTER);
	tpm_buf_append_u16(&buf, TPM_ALG_SHA256);
	tpm_buf_append_u32(&buf, LOCKDOWN_TPMA_NV_AUTHWRITE |
			   LOCKDOWN_TPMA_NV_AUTHREAD | LOCKDOWN_TPMA_NV_NO_DA |
			   FIELD_PREP(LOCKDOWN_TPMA_NV_TYPE,
				      LOCKDOWN_TPM_NT_COUNTER));
	tpm_buf_append_u16(&buf, 0);		/* authPolicy */
	tpm_buf_append_u16(&buf, 8);		/* dataSize */
	rc = hib_transmit(chip, &buf, 0, "defining the hibernation counter");
	tpm_buf_destroy(&buf);
	return rc;
}

/* Increment the counter, defining it first if need be; its new value. */
static int hib_counter_next(struct tpm_chip *chip, u64 *value)
{
	bool written;
	int rc;

	rc = hib_counter_check(chip, &written);
	if (rc == -ENOENT)
		rc = hib_counter_define(chip);
	if (!rc)
		rc = lockdown_tpm_counter_increment(chip, LOCKDOWN_HIB_COUNTER);
	if (!rc)
		rc = lockdown_tpm_counter_read(chip, LOCKDOWN_HIB_COUNTER, value);
	return rc;
}

/**
 * lockdown_hib_tpm_seal - seal an image's key, and count the image
 * @key: the key
 * @keylen: its length, at most 128 bytes
 * @blob: set to the sealed key (TPM2B_PRIVATE, TPM2B_PUBLIC)
 * @counter: set to the hibernation counter's value for this image
 *
 * Context: Process context, user space frozen; sleeps.
 * Return: 0, -ENODEV without a TPM 2.0, -ENXIO when the TPM does not
 * grant the kernel's locality, -ENOTTY when the counter's index is not a
 * counter, -EACCES or -EIO when the TPM refuses.
 */
int lockdown_hib_tpm_seal(const u8 *key, size_t keylen,
			  struct lockdown_hib_blob *blob, u64 *counter)
{
	struct tpm_chip *chip;
	u8 policy[32];
	u32 primary;
	int rc;

	chip = lockdown_tpm_get();
	if (IS_ERR(chip))
		return PTR_ERR(chip);
	rc = hib_begin(chip, policy, &primary);
	if (rc)
		goto out;
	rc = hib_seal_key(chip, primary, policy, key, keylen, blob);
	tpm2_flush_context(chip, primary);
	if (!rc)
		rc = hib_counter_next(chip, counter);
out:
	lockdown_tpm_put(chip);
	return rc;
}

/**
 * lockdown_hib_tpm_unseal - the key of an image, if this kernel sealed it
 * @blob: the sealed key from the image's header
 * @key: set to the key
 * @keylen: its length
 *
 * Context: Process context, user space frozen; sleeps.
 * Return: 0; -EACCES when the TPM refuses (another kernel, another Secure
 * Boot state, a blob this kernel did not seal); as lockdown_hib_tpm_seal()
 * otherwise.
 */
int lockdown_hib_tpm_unseal(const struct lockdown_hib_blob *blob, u8 *key,
			    size_t keylen)
{
	struct tpm_chip *chip;
	u8 policy[32];
	u32 primary;
	int rc;

	chip = lockdown_tpm_get();
	if (IS_ERR(chip))
		return PTR_ERR(chip);
	rc = hib_begin(chip, policy, &primary);
	if (!rc) {
		rc = hib_unseal_key(chip, primary, blob, key, keylen);
		tpm2_flush_context(chip, primary);
	}
	lockdown_tpm_put(chip);
	return rc;
}

/**
 * lockdown_hib_tpm_consume - check an image's count, and use it up
 * @counter: the count the image's header holds
 *
 * Context: Process context, user space frozen; sleeps.
 * Return: 0 when the counter held @counter and was incremented; -ESTALE
 * when it holds another value (the image was resumed already, or is older
 * than the latest); as lockdown_hib_tpm_seal() otherwise.
 */
int lockdown_hib_tpm_consume(u64 counter)
{
	struct tpm_chip *chip;
	bool written;
	u64 value;
	int rc;

	chip = lockdown_tpm_get();
	if (IS_ERR(chip))
		return PTR_ERR(chip);
	rc = hib_counter_check(chip, &written);
	if (!rc && !written) {
		pr_err("hibernation: the image is number %llu, the TPM counter has no value\n",
		       counter);
		rc = -ESTALE;
	}
	if (!rc)
		rc = lockdown_tpm_counter_read(chip, LOCKDOWN_HIB_COUNTER, &value);
	if (!rc && value != counter) {
		pr_err("hibernation: the image is number %llu, the TPM counter is at %llu\n",
		       counter, value);
		rc = -ESTALE;
	}
	if (!rc)
		rc = lockdown_tpm_counter_increment(chip, LOCKDOWN_HIB_COUNTER);
	lockdown_tpm_put(chip);
	return rc;
}

/**
 * lockdown_hib_tpm_probe - whether the TPM can seal for this kernel
 *
 * Context: Process context; sleeps.
 * Return: 0 when there is a TPM 2.0 that grants the kernel's locality;
 * -ENODEV or -ENXIO otherwise.
 */
int lockdown_hib_tpm_probe(void)
{
	struct tpm_chip *chip;
	int rc;

	chip = lockdown_tpm_get();
	if (IS_ERR(chip))
		return PTR_ERR(chip);
	rc = tpm_chip_set_locality(chip, LOCKDOWN_HIB_LOCALITY) ? -ENXIO : 0;
	lockdown_tpm_put(chip);
	return rc;
}
