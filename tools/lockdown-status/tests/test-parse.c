// SPDX-License-Identifier: GPL-2.0
/*
 * Unit test of lockdown-status's parsers against the fixture files in
 * tests/fixtures/ (the directory is the only argument). Prints KTAP.
 */

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "parse.h"

#define ARRAY_SIZE(a) (sizeof(a) / sizeof((a)[0]))

static const char *fixtures;
static int tests, failures;

static void ok(int cond, const char *what)
{
	tests++;
	if (!cond)
		failures++;
	printf("%sok %d %s\n", cond ? "" : "not ", tests, what);
}

/* Read fixture @name into a NUL-terminated buffer; exit if missing. */
static char *slurp(const char *name, size_t *len)
{
	char path[4096];
	size_t size = 0, n = 0, r;
	char *buf = NULL;
	FILE *f;

	snprintf(path, sizeof(path), "%s/%s", fixtures, name);
	f = fopen(path, "r");
	if (!f) {
		printf("Bail out! cannot open %s\n", path);
		exit(2);
	}
	do {
		if (n + 1 >= size) {
			size = size ? size * 2 : 4096;
			buf = realloc(buf, size);
			if (!buf) {
				printf("Bail out! out of memory\n");
				exit(2);
			}
		}
		r = fread(buf + n, 1, size - n - 1, f);
		n += r;
	} while (r);
	fclose(f);
	buf[n] = '\0';
	if (len)
		*len = n;
	return buf;
}

/* Decode a fixture of hex bytes ("06 00 00 00 01") into @out. */
static size_t slurp_hex(const char *name, unsigned char *out, size_t max)
{
	char *buf = slurp(name, NULL), *p = buf, *end;
	size_t n = 0;

	for (;;) {
		unsigned long v = strtoul(p, &end, 16);

		if (end == p || n == max)
			break;
		out[n++] = (unsigned char)v;
		p = end;
	}
	free(buf);
	return n;
}

static int level_of(const char *name, enum ld_level *level)
{
	char *buf = slurp(name, NULL);
	int ret = ld_parse_level(buf, level);

	free(buf);
	return ret;
}

static void test_level(void)
{
	static const char * const bad[] = {
		"lockdown-bad-nobracket.txt", "lockdown-bad-twobrackets.txt",
		"lockdown-bad-unclosed.txt", "lockdown-bad-extra.txt",
		"lockdown-bad-order.txt",
	};
	enum ld_level l = LD_CONFIDENTIALITY;
	char what[128];
	size_t i;

	ok(!level_of("lockdown-none.txt", &l) && l == LD_NONE,
	   "level: [none]");
	ok(!level_of("lockdown-integrity.txt", &l) && l == LD_INTEGRITY,
	   "level: [integrity]");
	ok(!level_of("lockdown-confidentiality.txt", &l) &&
	   l == LD_CONFIDENTIALITY, "level: [confidentiality]");
	for (i = 0; i < ARRAY_SIZE(bad); i++) {
		snprintf(what, sizeof(what), "level: %s is refused", bad[i]);
		ok(level_of(bad[i], &l) == -EINVAL, what);
	}
	ok(ld_parse_level("", &l) == -EINVAL, "level: empty is refused");
	ok(ld_parse_level("none [integrity] confidentiality", &l) == 0 &&
	   l == LD_INTEGRITY, "level: no trailing newline is accepted");
	ok(ld_parse_level("none [integrity] confidentiality\n\n", &l) ==
	   -EINVAL, "level: a second line is refused");
	ok(!strcmp(ld_level_name(LD_CONFIDENTIALITY), "confidentiality") &&
	   !strcmp(ld_level_name(7), "?"), "level: names");
}

static int origins_of(const char *name, struct ld_origin *o)
{
	char *buf = slurp(name, NULL);
	int ret = ld_parse_origins(buf, o, LD_NR_LEVELS);

	free(buf);
	return ret;
}

static void test_origins(void)
{
	struct ld_origin o[LD_NR_LEVELS];

	ok(origins_of("origin-empty.txt", o) == 0, "origin: empty file");
	ok(origins_of("origin-firmware.txt", o) == 1 &&
	   o[0].level == LD_INTEGRITY && o[0].sec == 0 && o[0].usec == 0 &&
	   !strcmp(o[0].where, "EFI Secure Boot"),
	   "origin: EFI Secure Boot, with spaces in the origin");
	ok(origins_of("origin-runtime.txt", o) == 2 &&
	   o[0].level == LD_INTEGRITY && o[0].sec == 12 &&
	   o[0].usec == 345678 && !strcmp(o[0].where, "securityfs") &&
	   o[1].level == LD_CONFIDENTIALITY && o[1].sec == 60 &&
	   o[1].usec == 500000, "origin: two raises");
	ok(origins_of("origin-bad-time.txt", o) == -EINVAL,
	   "origin: time without six decimals is refused");
	ok(origins_of("origin-bad-none.txt", o) == -EINVAL,
	   "origin: level none is refused");
	ok(origins_of("origin-bad-nowhere.txt", o) == -EINVAL,
	   "origin: missing origin is refused");
	ok(ld_parse_origins("integrity 0.000000 a\nintegrity 0.000000 b\n",
			    o, 1) == -EINVAL, "origin: too many lines");
	ok(ld_origin_plain("EFI Secure Boot") &&
	   ld_origin_plain("secureboot_enable=1") &&
	   ld_origin_plain("command line") && ld_origin_plain("securityfs") &&
	   ld_origin_plain("Kernel configuration") &&
	   !ld_origin_plain("elsewhere"), "origin: every origin has words");
}

static int denials_of(const char *name, struct ld_denial *d)
{
	char *buf = slurp(name, NULL);
	int ret = ld_parse_denials(buf, d, LD_MAX_REASONS);

	free(buf);
	return ret;
}

static void test_denials(void)
{
	struct ld_denial d[LD_MAX_REASONS];
	int n, i, nint = 0, known = 0;
	unsigned long total = 0;

	n = denials_of("denials-zero.txt", d);
	for (i = 0; i < n; i++) {
		total += d[i].count;
		nint += d[i].level == LD_INTEGRITY;
		known += !!ld_reason_plain(d[i].reason);
	}
	ok(n == 28 && nint == 20 && total == 0,
	   "denials: the 28 reasons of 6.1, 20 at integrity, all zero");
	ok(known == n, "denials: every 6.1 reason has plain words");
	ok(n > 1 && !strcmp(d[1].reason, "/dev/mem,kmem,port") &&
	   d[n - 1].level == LD_CONFIDENTIALITY &&
	   !strcmp(d[n - 1].reason, "xfrm SA secret"),
	   "denials: reasons with spaces and commas");

	n = denials_of("denials-some.txt", d);
	for (i = 0, total = 0; i < n; i++)
		total += d[i].count;
	ok(n == 28 && total == 12, "denials: counts add up");
	ok(!strcmp(ld_reason_plain("raw MSR access"),
		   "writes to /dev/cpu/*/msr (wrmsr)"),
	   "denials: raw MSR access in plain words");
	ok(!ld_reason_plain("something new"), "denials: unknown reason");
	ok(denials_of("denials-bad-count.txt", d) == -EINVAL,
	   "denials: a non-numeric count is refused");
	ok(denials_of("denials-bad-level.txt", d) == -EINVAL,
	   "denials: an unknown level is refused");
	ok(ld_parse_denials("99999999999999999999999 integrity x\n", d, 4) ==
	   -EINVAL, "denials: an overflowing count is refused");
}

static void test_efivar(void)
{
	unsigned char buf[16], v = 0xff;
	unsigned int attr = 0;
	size_t n;

	n = slurp_hex("efivar-secureboot-on.hex", buf, sizeof(buf));
	ok(!ld_parse_efivar(buf, n, &attr, &v) && attr == 6 && v == 1,
	   "efivar: SecureBoot=1, attributes BS|RT");
	n = slurp_hex("efivar-setupmode-off.hex", buf, sizeof(buf));
	ok(!ld_parse_efivar(buf, n, &attr, &v) && v == 0,
	   "efivar: SetupMode=0");
	n = slurp_hex("efivar-bad-short.hex", buf, sizeof(buf));
	ok(ld_parse_efivar(buf, n, &attr, &v) == -EINVAL,
	   "efivar: attributes without a value are refused");
}

static void test_misc(void)
{
	unsigned long long mask = 0;
	unsigned int u = 0;
	bool b = false;
	char *buf;

	buf = slurp("sig_enforce-Y.txt", NULL);
	ok(!ld_parse_bool(buf, &b) && b, "sig_enforce: Y");
	free(buf);
	buf = slurp("sig_enforce-N.txt", NULL);
	ok(!ld_parse_bool(buf, &b) && !b, "sig_enforce: N");
	free(buf);
	buf = slurp("sig_enforce-bad.txt", NULL);
	ok(ld_parse_bool(buf, &b) == -EINVAL, "sig_enforce: garbage");
	free(buf);

	buf = slurp("status-capbnd-full.txt", NULL);
	ok(!ld_parse_capbnd(buf, &mask) && mask == 0x3ffffffffffULL &&
	   (mask >> LD_CAP_COMPROMISE_KERNEL & 1),
	   "CapBnd: CAP_COMPROMISE_KERNEL held");
	free(buf);
	buf = slurp("status-capbnd-no41.txt", NULL);
	ok(!ld_parse_capbnd(buf, &mask) &&
	   !(mask >> LD_CAP_COMPROMISE_KERNEL & 1),
	   "CapBnd: CAP_COMPROMISE_KERNEL removed");
	free(buf);
	buf = slurp("status-bad-nocapbnd.txt", NULL);
	ok(ld_parse_capbnd(buf, &mask) == -EINVAL, "CapBnd: missing line");
	free(buf);

	buf = slurp("cap_last_cap.txt", NULL);
	ok(!ld_parse_uint(buf, &u) && u == 41, "cap_last_cap: 41");
	free(buf);

	buf = slurp("mounts.txt", NULL);
	ok(ld_mounted(buf, "/sys/kernel/security", "securityfs") &&
	   ld_mounted(buf, "/sys/firmware/efi/efivars", "efivarfs") &&
	   !ld_mounted(buf, "/sys/kernel", "securityfs") &&
	   !ld_mounted(buf, "/sys/kernel/security", "securityf"),
	   "mounts: securityfs and efivarfs");
	free(buf);
}

int main(int argc, char **argv)
{
	if (argc != 2) {
		fprintf(stderr, "usage: %s FIXTURES_DIR\n", argv[0]);
		return 2;
	}
	fixtures = argv[1];

	printf("TAP version 13\n");
	test_level();
	test_origins();
	test_denials();
	test_efivar();
	test_misc();
	printf("1..%d\n", tests);
	printf("# %d passed, %d failed\n", tests - failures, failures);
	return failures ? 1 : 0;
}
