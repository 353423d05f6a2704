// SPDX-License-Identifier: GPL-2.0
/*
 * libFuzzer target for the kernel's EFI signature list parser
 * (security/integrity/platform_certs/efi_parser.c, compiled unchanged
 * against the shim headers next to this file).
 *
 * The input is the variable's contents, handed over in a buffer of exactly
 * its size, so AddressSanitizer catches any read past it.  Every element the
 * parser passes on is checked to lie inside the input and is read in full.
 */
#include <errno.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <linux/efi.h>

static const uint8_t *in_start, *in_end;
static int verbose;
static volatile uint8_t sink;

void fuzz_printk(const char *fmt, ...)
{
	char buf[512];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(buf, sizeof(buf), fmt, ap);
	va_end(ap);
	if (verbose)
		fputs(buf, stderr);
}

static void handle(const char *source, const void *data, size_t len)
{
	const uint8_t *p = data;
	uint8_t x = 0;
	size_t i;

	if (p < in_start || p > in_end || len > (size_t)(in_end - p)) {
		fprintf(stderr, "element %p+%zu outside input %p+%zu\n",
			data, len, (const void *)in_start,
			(size_t)(in_end - in_start));
		abort();
	}
	for (i = 0; i < len; i++)
		x ^= p[i];
	sink = x;
}

/* Handle the types the kernel handles, and one that looks arbitrary. */
static efi_element_handler_t get_handler(const efi_guid_t *type)
{
	static const uint8_t x509[16] = {
		0xa1, 0x59, 0xc0, 0xa5, 0xe4, 0x94, 0xa7, 0x4a,
		0x87, 0xb5, 0xab, 0x15, 0x5c, 0x2b, 0xf0, 0x72 };
	static const uint8_t sha256[16] = {
		0x26, 0x16, 0xc4, 0xc1, 0x4c, 0x50, 0x92, 0x40,
		0xac, 0xa9, 0x41, 0xf9, 0x36, 0x93, 0x43, 0x28 };

	if (!memcmp(type->b, x509, 16) || !memcmp(type->b, sha256, 16))
		return handle;
	if (type->b[0] & 1)
		return handle;
	return NULL;
}

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
	verbose = getenv("FUZZ_VERBOSE") != NULL;
	return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	int ret;

	in_start = data;
	in_end = data + size;
	ret = parse_efi_signature_list("fuzz", data, size, get_handler);
	if (ret != 0 && ret != -EBADMSG)
		abort();
	return 0;
}
