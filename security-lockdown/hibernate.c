// SPDX-License-Identifier: GPL-2.0
/*
 * Kernel lockdown: hibernation at integrity, in an image sealed to this
 * kernel.
 *
 * kernel/power/swap.c hands each compressed chunk of the image here to be
 * encrypted and authenticated with AES-256-GCM (the chunk's index is its
 * nonce, its length field the associated data) under a key drawn after
 * the snapshot and sealed by the TPM (hibernate_tpm.c).  The swap header
 * carries the sealed key, the TPM counter's value, the chunk count and a
 * digest of the image's first page, under a tag of their own.  The key is
 * in memory only while user space is frozen.
 */

#define pr_fmt(fmt) "lockdown: " fmt

#include <crypto/aead.h>
#include <crypto/sha2.h>
#include <linux/efi.h>
#include <linux/init.h>
#include <linux/lockdown_hibernate.h>
#include <linux/mm.h>
#include <linux/random.h>
#include <linux/scatterlist.h>
#include <linux/slab.h>
#include <linux/vmalloc.h>

#include "hibernate.h"

#define HIB_MAGIC	"LDHIB\0\0\1"
#define HIB_KEY_SIZE	32
#define HIB_SG_MAX	64	/* pages of one chunk, and two more */

/* The seal in the swap header: LOCKDOWN_HIB_HEADER_SIZE bytes. */
struct lockdown_hib_header {
	char magic[8];
	__le64 counter;
	__le64 chunks;
	u8 first_page[SHA256_DIGEST_SIZE];
	__le16 priv_len;
	__le16 pub_len;
	u8 blob[LOCKDOWN_HIB_BLOB_MAX];
	u8 tag[LOCKDOWN_HIB_TAG_SIZE];
} __packed;

static_assert(sizeof(struct lockdown_hib_header) == LOCKDOWN_HIB_HEADER_SIZE);

/*
 * One image at a time (the PM core holds system_transition_mutex): the
 * AEAD is allocated once, at boot; it holds a key only between a begin
 * and lockdown_hib_end().
 */
static struct {
	struct crypto_aead *tfm;
	struct aead_request *req;
	struct scatterlist sg[HIB_SG_MAX];
	struct lockdown_hib_header *hdr;
	u8 key[HIB_KEY_SIZE];
	u64 chunk;
	bool keyed;
} hib;

/* What hibernation at integrity lacks, or NULL: set at late_initcall. */
static const char *hib_missing = "its check at boot, which did not run";

/**
 * lockdown_hib_allowed - whether hibernation may proceed at @level
 * @level: the lockdown level
 *
 * Return: true at integrity when the machine booted under firmware Secure
 * Boot and has a TPM 2.0 that grants the kernel its locality.
 */
bool lockdown_hib_allowed(enum lockdown_reason level)
{
	return level == LOCKDOWN_INTEGRITY_MAX && !READ_ONCE(hib_missing);
}

/**
 * lockdown_hib_missing - what hibernation at @level lacks
 * @level: the lockdown level
 *
 * Return: a phrase naming it, or NULL when nothing is missing.
 */
const char *lockdown_hib_missing(enum lockdown_reason level)
{
	if (level == LOCKDOWN_CONFIDENTIALITY_MAX)
		return "a level below confidentiality";
	return READ_ONCE(hib_missing);
}

/**
 * lockdown_hib_required - whether an image must be sealed
 *
 * Return: true while the kernel is locked down: an image is written
 * sealed, and only a sealed image is resumed.
 */
bool lockdown_hib_required(void)
{
	return READ_ONCE(lockdown_state.level) != LOCKDOWN_NONE;
}

/*
 * @buf (vmalloc() or linear) as a scatterlist of at most HIB_SG_MAX
 * entries.
 */
static int hib_map(void *buf, size_t len)
{
	unsigned int n = 0;
	size_t part;
	u8 *p = buf;

	sg_init_table(hib.sg, HIB_SG_MAX);
	while (len) {
		if (n == HIB_SG_MAX)
			return -E2BIG;
		part = min_t(size_t, len, PAGE_SIZE - offset_in_page(p));
		if (is_vmalloc_addr(p))
			sg_set_page(&hib.sg[n], vmalloc_to_page(p), part,
				    offset_in_page(p));
		else
			sg_set_buf(&hib.sg[n], p, part);
		p += part;
		len -= part;
		n++;
	}
	sg_mark_end(&hib.sg[n - 1]);
	return 0;
}

/*
 * Encrypt or decrypt @len bytes after @aad_len bytes of associated data,
 * in place, with nonce @index; the tag follows the text.
 */
static int hib_crypt(bool enc, void *buf, size_t aad_len, size_t len,
		     u64 index)
{
	DECLARE_CRYPTO_WAIT(wait);
	__be64 nonce = cpu_to_be64(index);
	u8 iv[12] = { 0 };
	int rc;

	if (!hib.keyed)
		return -ENOKEY;
	rc = hib_map(buf, aad_len + len + LOCKDOWN_HIB_TAG_SIZE);
	if (rc)
		return rc;
	memcpy(&iv[4], &nonce, sizeof(nonce));
	aead_request_set_callback(hib.req, CRYPTO_TFM_REQ_MAY_SLEEP,
				  crypto_req_done, &wait);
	aead_request_set_ad(hib.req, aad_len);
	aead_request_set_crypt(hib.req, hib.sg, hib.sg,
			       enc ? len : len + LOCKDOWN_HIB_TAG_SIZE, iv);
	rc = enc ? crypto_aead_encrypt(hib.req) : crypto_aead_decrypt(hib.req);
	return crypto_wait_req(rc, &wait);
}

/*
 * The header's tag: its fields, then @fields of the swap header, as
 * associated data; no text; nonce U64_MAX (never a chunk's).
 */
static int hib_header_tag(bool enc, const void *fields, size_t len)
{
	const size_t own = offsetof(struct lockdown_hib_header, tag);
	u8 *buf;
	int rc;

	buf = kmalloc(own + len + LOCKDOWN_HIB_TAG_SIZE, GFP_NOIO);
	if (!buf)
		return -ENOMEM;
	memcpy(buf, hib.hdr, own);
	memcpy(buf + own, fields, len);
	memcpy(buf + own + len, hib.hdr->tag, LOCKDOWN_HIB_TAG_SIZE);
	rc = hib_crypt(enc, buf, own + len, 0, U64_MAX);
	if (!rc && enc)
		memcpy(hib.hdr->tag, buf + own + len, LOCKDOWN_HIB_TAG_SIZE);
	kfree(buf);
	return rc;
}

static int hib_setkey(void)
{
	int rc;

	rc = crypto_aead_setkey(hib.tfm, hib.key, HIB_KEY_SIZE);
	hib.keyed = !rc;
	hib.chunk = 0;
	return rc;
}

/**
 * lockdown_hib_end - forget the image's key
 *
 * Every begin is followed by this call, whatever happened in between: the
 * key, and the AEAD's schedule of it, are overwritten before user space
 * thaws.
 */
void lockdown_hib_end(void)
{
	memzero_explicit(hib.key, sizeof(hib.key));
	if (hib.keyed) {
		get_random_bytes(hib.key, sizeof(hib.key));
		crypto_aead_setkey(hib.tfm, hib.key, HIB_KEY_SIZE);
		memzero_explicit(hib.key, sizeof(hib.key));
	}
	hib.keyed = false;
	kfree_sensitive(hib.hdr);
	hib.hdr = NULL;
}

/**
 * lockdown_hib_seal_begin - draw and seal the key of a new image
 * @first_page: the image's first page (struct swsusp_info), written as is
 *
 * Context: After the snapshot, user space frozen.
 * Return: 0, or an error the TPM's or the AEAD's; lockdown_hib_end()
 * follows in any case.
 */
int lockdown_hib_seal_begin(const void *first_page)
{
	struct lockdown_hib_blob *blob;
	u64 counter;
	int rc;

	if (!hib.tfm)
		return -ENOKEY;
	hib.hdr = kzalloc(sizeof(*hib.hdr), GFP_NOIO);
	blob = kzalloc(sizeof(*blob), GFP_NOIO);
	if (!hib.hdr || !blob) {
		kfree(blob);
		return -ENOMEM;
	}
	get_random_bytes(hib.key, sizeof(hib.key));
	rc = lockdown_hib_tpm_seal(hib.key, sizeof(hib.key), blob, &counter);
	if (rc) {
		pr_err("hibernation: the image's key could not be sealed (%d)\n",
		       rc);
		goto out;
	}
	memcpy(hib.hdr->magic, HIB_MAGIC, sizeof(hib.hdr->magic));
	hib.hdr->counter = cpu_to_le64(counter);
	sha256(first_page, PAGE_SIZE, hib.hdr->first_page);
	hib.hdr->priv_len = cpu_to_le16(blob->priv_len);
	hib.hdr->pub_len = cpu_to_le16(blob->pub_len);
	memcpy(hib.hdr->blob, blob->data, blob->priv_len + blob->pub_len);
	rc = hib_setkey();
out:
	kfree(blob);
	return rc;
}

/**
 * lockdown_hib_seal_chunk - encrypt the image's next chunk, in place
 * @chunk: its associated data, its text, then room for the tag
 * @aad_len: bytes of associated data
 * @len: bytes of text
 *
 * Return: 0, or the AEAD's error.
 */
int lockdown_hib_seal_chunk(void *chunk, size_t aad_len, size_t len)
{
	return hib_crypt(true, chunk, aad_len, len, hib.chunk++);
}

/**
 * lockdown_hib_seal_end - the seal, for the swap header
 * @header: LOCKDOWN_HIB_HEADER_SIZE bytes of it
 * @fields: the swap header's other fields, which the seal's tag covers
 * @len: their length
 *
 * Return: 0, or the AEAD's error.
 */
int lockdown_hib_seal_end(u8 *header, const void *fields, size_t len)
{
	int rc;

	hib.hdr->chunks = cpu_to_le64(hib.chunk);
	rc = hib_header_tag(true, fields, len);
	if (!rc)
		memcpy(header, hib.hdr, sizeof(*hib.hdr));
	return rc;
}

/**
 * lockdown_hib_open_begin - unseal the key of an image to resume
 * @header: the seal from the swap header
 * @fields: the swap header's other fields, as lockdown_hib_seal_end()
 * @len: their length
 * @first_page: the image's first page, as read
 *
 * Context: User space frozen.
 * Return: 0; -EINVAL for a malformed seal; -EACCES when the TPM does not
 * unseal the key for this kernel; -EBADMSG when the header or the first
 * page was changed; -ENOKEY when this boot cannot open sealed images;
 * lockdown_hib_end() follows in any case.
 */
int lockdown_hib_open_begin(const u8 *header, const void *fields,
			    size_t len, const void *first_page)
{
	struct lockdown_hib_blob *blob;
	u8 digest[SHA256_DIGEST_SIZE];
	int rc;

	if (!hib.tfm) {
		pr_err("hibernation: the image is sealed, and this kernel opens no sealed image without %s\n",
		       READ_ONCE(hib_missing));
		return -ENOKEY;
	}
	hib.hdr = kmemdup(header, sizeof(*hib.hdr), GFP_NOIO);
	blob = kzalloc(sizeof(*blob), GFP_NOIO);
	rc = -ENOMEM;
	if (!hib.hdr || !blob)
		goto out;
	blob->priv_len = le16_to_cpu(hib.hdr->priv_len);
	blob->pub_len = le16_to_cpu(hib.hdr->pub_len);
	rc = -EINVAL;
	if (memcmp(hib.hdr->magic, HIB_MAGIC, sizeof(hib.hdr->magic)) ||
	    blob->priv_len + blob->pub_len > sizeof(blob->data)) {
		pr_err("hibernation: the image's seal is malformed\n");
		goto out;
	}
	memcpy(blob->data, hib.hdr->blob, blob->priv_len + blob->pub_len);
	rc = lockdown_hib_tpm_unseal(blob, hib.key, sizeof(hib.key));
	if (rc) {
		pr_err("hibernation: the TPM does not unseal the image's key for this kernel (%d)\n",
		       rc);
		goto out;
	}
	rc = hib_setkey();
	if (rc)
		goto out;
	rc = hib_header_tag(false, fields, len);
	if (rc) {
		pr_err("hibernation: the image's header fails authentication (%d)\n",
		       rc);
		goto out;
	}
	sha256(first_page, PAGE_SIZE, digest);
	if (memcmp(digest, hib.hdr->first_page, sizeof(digest))) {
		pr_err("hibernation: the image's first page fails authentication\n");
		rc = -EBADMSG;
	}
out:
	kfree(blob);
	return rc;
}

/**
 * lockdown_hib_open_chunk - authenticate and decrypt the next chunk
 * @chunk: its associated data, its text, then its tag
 * @aad_len: bytes of associated data
 * @len: bytes of text
 *
 * Return: 0; -EBADMSG when the chunk is not the image's next one as
 * written; another error of the AEAD.
 */
int lockdown_hib_open_chunk(void *chunk, size_t aad_len, size_t len)
{
	int rc;

	rc = hib_crypt(false, chunk, aad_len, len, hib.chunk);
	if (rc)
		pr_err("hibernation: chunk %llu of the image fails authentication (%d)\n",
		       hib.chunk, rc);
	hib.chunk++;
	return rc;
}

/**
 * lockdown_hib_open_end - check the image is whole, and use it up
 *
 * Return: 0; -EBADMSG when chunks are missing or extra; -ESTALE when the
 * TPM counter says the image was resumed already or is not the latest.
 */
int lockdown_hib_open_end(void)
{
	if (hib.chunk != le64_to_cpu(hib.hdr->chunks)) {
		pr_err("hibernation: the image has %llu chunks, its header says %llu\n",
		       hib.chunk, le64_to_cpu(hib.hdr->chunks));
		return -EBADMSG;
	}
	return lockdown_hib_tpm_consume(le64_to_cpu(hib.hdr->counter));
}

/* After the TPM drivers (device_initcall), before software_resume(). */
static int __init lockdown_hib_init(void)
{
	int rc;

	if (!efi_enabled(EFI_SECURE_BOOT)) {
		hib_missing = "firmware Secure Boot";
		return 0;
	}
	rc = lockdown_hib_tpm_probe();
	if (rc) {
		hib_missing = rc == -ENXIO ?
			"a TPM that grants the kernel locality 2" :
			"a TPM 2.0";
		return 0;
	}
	hib.tfm = crypto_alloc_aead("gcm(aes)", 0, 0);
	if (!IS_ERR(hib.tfm) &&
	    !crypto_aead_setauthsize(hib.tfm, LOCKDOWN_HIB_TAG_SIZE))
		hib.req = aead_request_alloc(hib.tfm, GFP_KERNEL);
	if (IS_ERR(hib.tfm) || !hib.req) {
		if (!IS_ERR(hib.tfm))
			crypto_free_aead(hib.tfm);
		hib.tfm = NULL;
		hib_missing = "AES-GCM";
		return 0;
	}
	pr_info("hibernation at integrity: images sealed by the TPM at locality %d, counter 0x%08x\n",
		LOCKDOWN_HIB_LOCALITY, LOCKDOWN_HIB_COUNTER);
	WRITE_ONCE(hib_missing, NULL);
	return 0;
}
late_initcall(lockdown_hib_init);
