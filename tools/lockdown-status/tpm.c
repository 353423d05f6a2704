// SPDX-License-Identifier: GPL-2.0
/*
 * lockdown-status: read the TPM 2.0 NV counter an owner policy names,
 * with the commands the kernel sends (security/lockdown/owner_tpm.c):
 * TPM2_NV_ReadPublic, then TPM2_NV_Read with the index's own, empty
 * authorization.  Through /dev/tpmrm0 (the kernel's resource manager),
 * else /dev/tpm0, under $LOCKDOWN_STATUS_ROOT like every file read.
 */

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdint.h>
#include <string.h>
#include <unistd.h>

#include "tpm.h"
#include "util.h"

#define TPM_ST_NO_SESSIONS	0x8001
#define TPM_ST_SESSIONS		0x8002
#define TPM_CC_NV_READ		0x0000014e
#define TPM_CC_NV_READPUBLIC	0x00000169
#define TPM_RS_PW		0x40000009
#define TPM_NT_COUNTER		1
#define TPMA_NV_AUTHREAD	(1U << 18)
#define TPMA_NV_WRITTEN		(1U << 29)

static void put16(unsigned char *p, unsigned int v)
{
	p[0] = v >> 8;
	p[1] = v;
}

static void put32(unsigned char *p, uint32_t v)
{
	put16(p, v >> 16);
	put16(p + 2, v);
}

static uint32_t get32(const unsigned char *p)
{
	return (uint32_t)p[0] << 24 | (uint32_t)p[1] << 16 | p[2] << 8 | p[3];
}

/* Send the command in @buf (its size in its header); return the reply's size. */
static int transmit(int fd, unsigned char *buf, size_t size)
{
	ssize_t n;

	if (write(fd, buf, get32(buf + 2)) < 0)
		return -errno;
	n = read(fd, buf, size);
	if (n < 0)
		return -errno;
	if (n < 10 || get32(buf + 2) != (uint32_t)n)
		return -EBADMSG;
	return get32(buf + 6) ? -EIO : (int)n;	/* the TPM's response code */
}

/**
 * ld_tpm_counter - read a TPM 2.0 NV counter
 * @index: its NV handle
 * @value: where to store its value
 *
 * Return: 0 with @value set, 1 when the counter was never incremented (it
 * has no value yet), -ENODEV when @index is not a counter readable with
 * its own authorization, or another -errno (-ENOENT: no TPM device).
 */
int ld_tpm_counter(unsigned int index, unsigned long long *value)
{
	unsigned char buf[512];
	char path[PATH_MAX];
	uint32_t attrs;
	int fd, n, i;

	fd = open(ld_path(path, sizeof(path), "/dev/tpmrm0"), O_RDWR | O_CLOEXEC);
	if (fd < 0)
		fd = open(ld_path(path, sizeof(path), "/dev/tpm0"),
			  O_RDWR | O_CLOEXEC);
	if (fd < 0)
		return -errno;

	put16(buf, TPM_ST_NO_SESSIONS);
	put32(buf + 2, 14);
	put32(buf + 6, TPM_CC_NV_READPUBLIC);
	put32(buf + 10, index);
	n = transmit(fd, buf, sizeof(buf));
	if (n == -EIO)
		n = -ENODEV;			/* no such index */
	if (n < 0)
		goto out;
	/* TPM2B_NV_PUBLIC: size, nvIndex, nameAlg, then the attributes. */
	attrs = n >= 22 ? get32(buf + 18) : 0;
	if (n < 22 || (attrs >> 4 & 0xf) != TPM_NT_COUNTER ||
	    !(attrs & TPMA_NV_AUTHREAD)) {
		n = -ENODEV;
		goto out;
	}
	if (!(attrs & TPMA_NV_WRITTEN)) {
		n = 1;
		goto out;
	}

	put16(buf, TPM_ST_SESSIONS);
	put32(buf + 2, 35);
	put32(buf + 6, TPM_CC_NV_READ);
	put32(buf + 10, index);		/* authHandle: the index itself */
	put32(buf + 14, index);
	put32(buf + 18, 9);		/* the password session: */
	put32(buf + 22, TPM_RS_PW);
	put16(buf + 26, 0);		/* no nonce */
	buf[28] = 0;			/* no attributes */
	put16(buf + 29, 0);		/* the empty password */
	put16(buf + 31, 8);		/* size */
	put16(buf + 33, 0);		/* offset */
	n = transmit(fd, buf, sizeof(buf));
	if (n < 0)
		goto out;
	/* parameterSize, then TPM2B_MAX_NV_BUFFER of 8 bytes. */
	if (n < 24 || buf[14] != 0 || buf[15] != 8) {
		n = -EBADMSG;
		goto out;
	}
	*value = 0;
	for (i = 0; i < 8; i++)
		*value = *value << 8 | buf[16 + i];
	n = 0;
out:
	close(fd);
	return n;
}
