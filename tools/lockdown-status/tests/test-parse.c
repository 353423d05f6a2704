// SPDX-License-Identifier: GPL-2.0
/*
 * Unit test of lockdown-status's parsers against the fixture files in
 * tests/fixtures/ (the directory is the only argument), and of its JSON
 * escaper. Prints KTAP.
 */

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "json.h"
#include "parse.h"
#include "sha256.h"

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
	   "denials: the 28 reasons of 6.1 and 6.12, 20 at integrity, all zero");
	ok(known == n, "denials: every 6.1 and 6.12 reason has plain words");
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
	/*
	 * Reasons are read by their text, never by position: a tree whose
	 * list lacks reasons (device tree, RTAS, Xen) and has one inserted
	 * before raw MSR access still gives MSR its count and its words, and
	 * the reason the tool does not know keeps its text.
	 */
	n = denials_of("denials-reordered.txt", d);
	for (i = 0, known = 0; i < n; i++)
		known += !!ld_reason_plain(d[i].reason);
	ok(n == 26 && known == 25, "denials: another tree's list, one unknown");
	for (i = 0; i < n && strcmp(d[i].reason, "raw MSR access"); i++)
		;
	ok(i == 8 && d[i].count == 7 && d[i].level == LD_INTEGRITY &&
	   !strcmp(ld_reason_plain(d[i].reason),
		   "writes to /dev/cpu/*/msr (wrmsr)"),
	   "denials: raw MSR access found by its text at another position");
	ok(!strcmp(d[7].reason, "a reason a later stable update inserted") &&
	   !ld_reason_plain(d[7].reason) && d[18].count == 2 &&
	   d[18].level == LD_CONFIDENTIALITY,
	   "denials: an inserted reason keeps its text, the rest their counts");
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

/* Parse one /proc/keys line given as a string. */
static int key_line(const char *line, struct ld_key_line *k)
{
	return ld_parse_key_line(line, strlen(line), k);
}

static bool is(const char *s, size_t len, const char *want)
{
	return s && len == strlen(want) && !memcmp(s, want, len);
}

static void test_proc_keys(void)
{
	char *buf = slurp("proc-keys.txt", NULL), *s;
	unsigned int serials[8];
	struct ld_key_line k;
	int n = 0, bad = 0, asym = 0;
	enum ld_ring r;

	for (s = buf; *s; ) {
		size_t len = strcspn(s, "\n");

		if (ld_parse_key_line(s, len, &k))
			bad++;
		else
			asym += !strcmp(k.type, "asymmetric");
		n++;
		s += len + !!s[len];
	}
	free(buf);
	ok(n == 18 && !bad && asym == 7,
	   "keys: every line of a machine's /proc/keys parses");

	ok(!key_line("11c3e5a7 I------     1 perm 1f010000     0     0 asymmetri Lockdown Test db: 9a8b: X509.rsa 3e2f1a0b []", &k) &&
	   k.serial == 0x11c3e5a7 && k.instantiated && !k.in_quota &&
	   !strcmp(k.type, "asymmetric") &&
	   is(k.desc, k.desc_len, "Lockdown Test db: 9a8b") &&
	   is(k.detail, k.detail_len, "X509.rsa 3e2f1a0b"),
	   "keys: asymmetric key, type cut to 9 characters, name with ': '");
	ok(!key_line("23d4f6b8 I------     1 perm 1f0b0000     0     0 keyring   .machine: 2", &k) &&
	   !strcmp(k.type, "keyring") && is(k.desc, k.desc_len, ".machine") &&
	   is(k.detail, k.detail_len, "2") &&
	   !ld_ring_from_name(k.desc, k.desc_len, &r) && r == LD_RING_MACHINE,
	   "keys: keyring with a member count");
	ok(!key_line("23d4f6b8 I------     1 perm 1f0b0000     0     0 keyring   .machine: empty", &k) &&
	   is(k.desc, k.desc_len, ".machine") &&
	   is(k.detail, k.detail_len, "empty"), "keys: empty keyring");
	ok(!key_line("0d2f4b6a I------     1 perm 0f0b0000     0     0 keyring   odd: name: 12", &k) &&
	   is(k.desc, k.desc_len, "odd: name"),
	   "keys: a keyring's name may hold ': '");
	ok(!key_line("4a1b2c3f I------     1 perm 09090000     0     0 blacklist tbs:c3a9", &k) &&
	   !strcmp(k.type, "blacklist") && is(k.desc, k.desc_len, "tbs:c3a9") &&
	   !k.detail, "keys: blacklist hash");
	ok(!key_line("032766eb I--Q---     1 perm 1f3f0000     0 65534 keyring   _uid_ses.0: 1", &k) &&
	   k.in_quota && k.uid == 0, "keys: a user's keyring is in quota");
	ok(!key_line("032766eb -R-----     1 perm 1f3f0000  1000  1000 user      x", &k) &&
	   !k.instantiated && k.revoked && k.uid == 1000,
	   "keys: uninstantiated, revoked");
	ok(key_line("zz2766eb I------     1 perm 1f3f0000     0     0 user      x", &k) == -EINVAL,
	   "keys: a bad serial is refused");
	ok(key_line("032766eb I------     1 perm 1f3f0000     0     0 user      ", &k) == -EINVAL,
	   "keys: a missing description is refused");
	ok(key_line("032766eb I----     1 perm 1f3f0000     0     0 user      x", &k) == -EINVAL,
	   "keys: short flags are refused");
	ok(key_line("", &k) == -EINVAL, "keys: an empty line is refused");

	buf = slurp("keyring-members.txt", NULL);
	ok(ld_parse_serials(buf, serials, 8) == 3 && serials[0] == 0x0f3a2c11 &&
	   serials[2] == 0x1a, "keyring members: hex serials, blank lines");
	ok(ld_parse_serials(buf, serials, 2) == -E2BIG,
	   "keyring members: too many");
	free(buf);
	ok(ld_parse_serials("0f3a2c11 x\n", serials, 8) == -EINVAL &&
	   ld_parse_serials("123456789\n", serials, 8) == -EINVAL &&
	   ld_parse_serials("", serials, 8) == 0,
	   "keyring members: junk and overlong serials are refused");
}

static void test_kmsg(void)
{
	const char *rec = "5,241,902400,-;integrity: Loaded X.509 cert 'x'";
	char out[64];
	struct ld_kmsg r;

	ok(!ld_parse_kmsg(rec, strlen(rec), &r) && r.facility == 0 &&
	   r.level == 5 && r.seq == 241 && r.usec == 902400 &&
	   is(r.msg, r.len, "integrity: Loaded X.509 cert 'x'"),
	   "kmsg: a kernel record");
	rec = "13,900,1,-;integrity: forged";
	ok(!ld_parse_kmsg(rec, strlen(rec), &r) && r.facility == 1 &&
	   r.level == 5, "kmsg: a program's record has facility user");
	rec = "6,1,2,-,caller=T1;a;b";
	ok(!ld_parse_kmsg(rec, strlen(rec), &r) && is(r.msg, r.len, "a;b"),
	   "kmsg: more header fields, ';' in the message");
	ok(ld_parse_kmsg(" SUBSYSTEM=x", 12, &r) == -EINVAL &&
	   ld_parse_kmsg("6,1,2,-", 7, &r) == -EINVAL &&
	   ld_parse_kmsg("a,1,2,-;x", 9, &r) == -EINVAL,
	   "kmsg: continuation and junk are no records");

	ld_kmsg_unescape("Zo\\xc3\\xab \\x5c \\x1b", 20, out, sizeof(out));
	ok(!strcmp(out, "Zo\xc3\xab \\ \x1b"), "kmsg: \\xNN unescaped");
	ld_kmsg_unescape("a\\x00b\\x4\\xzz\\", 15, out, sizeof(out));
	ok(!strcmp(out, "a\\x00b\\x4\\xzz\\"),
	   "kmsg: \\x00 and broken escapes kept");
	ok(ld_kmsg_unescape("abcdef", 6, out, 4) == 3 && !strcmp(out, "abc"),
	   "kmsg: truncated to fit");
}

static enum ld_log_kind log_of(const char *msg, struct ld_log *l)
{
	return ld_parse_log(msg, l);
}

static void test_log(void)
{
	struct ld_log l;

	ok(log_of("integrity: Loading X.509 certificate: UEFI:MokListRT (MOKvar table)", &l) == LD_LOG_LOADING &&
	   is(l.subject, l.subject_len, "UEFI:MokListRT (MOKvar table)"),
	   "log: loading from a list");
	ok(log_of("integrity: Loaded X.509 cert 'Lockdown Test mok: 4d2a'", &l) == LD_LOG_LOADED &&
	   is(l.subject, l.subject_len, "Lockdown Test mok: 4d2a"),
	   "log: certificate loaded");
	ok(log_of("integrity: Loaded X.509 cert 'unterminated", &l) == LD_LOG_OTHER &&
	   log_of("Loaded X.509 cert 'Build time autogenerated kernel key: 8f'", &l) == LD_LOG_OTHER,
	   "log: unterminated name, built-in key: not from a UEFI list");
	ok(log_of("integrity: Problem loading X.509 certificate -129", &l) == LD_LOG_LOAD_FAILED,
	   "log: certificate not loaded");
	ok(log_of("integrity: Ignoring UEFI:MokListRT variable (attributes 0x7): shim handed over no MOKvar table, and the OS could have written the variable", &l) == LD_LOG_IGNORED &&
	   is(l.subject, l.subject_len, "UEFI:MokListRT variable (attributes 0x7)") &&
	   is(l.detail, l.detail_len, "shim handed over no MOKvar table, and the OS could have written the variable"),
	   "log: forged MokListRT ignored");
	ok(log_of("integrity: Ignoring UEFI:MokListRT variable (attributes 0x7): non-volatile, so not shim's mirror; using the MOKvar table", &l) == LD_LOG_IGNORED &&
	   is(l.detail, l.detail_len, "non-volatile, so not shim's mirror; using the MOKvar table"),
	   "log: non-volatile MokListRT ignored");
	ok(log_of("EFI: UEFI:db: bad signature list at offset 0x4c: list holds no signature (list 0x1c, header 0x0, signature 0x10, 44 bytes left)", &l) == LD_LOG_BAD_LIST &&
	   is(l.subject, l.subject_len, "UEFI:db") &&
	   is(l.detail, l.detail_len, "bad signature list at offset 0x4c: list holds no signature (list 0x1c, header 0x0, signature 0x10, 44 bytes left)"),
	   "log: malformed list");
	ok(log_of("integrity: UEFI:dbx: X.509 SHA-256 entry of 20 bytes ignored", &l) == LD_LOG_BAD_ENTRY &&
	   is(l.subject, l.subject_len, "UEFI:dbx") &&
	   is(l.detail, l.detail_len, "X.509 SHA-256 entry of 20 bytes ignored"),
	   "log: malformed entry");
	ok(log_of("module: signature of lktest_dbx rejected: certificate 'Lockdown Test dbx: 7e6d' is revoked by UEFI:dbx", &l) == LD_LOG_REVOKED &&
	   is(l.subject, l.subject_len, "lktest_dbx") &&
	   is(l.detail, l.detail_len, "certificate 'Lockdown Test dbx: 7e6d'") &&
	   is(l.by, l.by_len, "UEFI:dbx"), "log: module signature revoked");
	ok(log_of("module: signature of (unnamed module) rejected: binary hash 5f4d is revoked by UEFI:MokListXRT", &l) == LD_LOG_REVOKED &&
	   is(l.subject, l.subject_len, "(unnamed module)") &&
	   is(l.by, l.by_len, "UEFI:MokListXRT"),
	   "log: unnamed module, binary hash");
	ok(log_of("Module hash 5f4dcc3b is blacklisted", &l) == LD_LOG_HASH_BLACKLISTED &&
	   is(l.subject, l.subject_len, "5f4dcc3b"), "log: module hash");
	ok(log_of("integrity: Loading", &l) == LD_LOG_OTHER &&
	   log_of("", &l) == LD_LOG_OTHER, "log: other lines");
}

static void test_sources(void)
{
	ok(ld_source_of(LD_RING_BUILTIN, NULL) == LD_SRC_BUILTIN &&
	   ld_source_of(LD_RING_SECONDARY, NULL) == LD_SRC_SECONDARY,
	   "source: built in, secondary");
	ok(ld_source_of(LD_RING_MACHINE, "UEFI:MokListRT (MOKvar table)") == LD_SRC_MACHINE &&
	   ld_source_of(LD_RING_MACHINE, NULL) == LD_SRC_MACHINE,
	   "source: machine keyring is MOK from shim");
	ok(ld_source_of(LD_RING_PLATFORM, NULL) == LD_SRC_DB &&
	   ld_source_of(LD_RING_PLATFORM, "UEFI:db") == LD_SRC_DB,
	   "source: platform keyring is db");
	ok(ld_source_of(LD_RING_PLATFORM, "UEFI:MokListRT (MOKvar table)") == LD_SRC_PLATFORM_MOK,
	   "source: MOK in the platform keyring, by the log");
	ok(ld_source_of(LD_RING_PLATFORM, "UEFI:MokListRT") == LD_SRC_MOK_VARIABLE &&
	   ld_source_of(LD_RING_MACHINE, "UEFI:MokListRT") == LD_SRC_MOK_VARIABLE,
	   "source: MOK from the variable, not shim's table");
	ok(ld_ring_trusts_all(LD_RING_MACHINE) &&
	   !ld_ring_trusts_all(LD_RING_PLATFORM) &&
	   ld_ring_trust(LD_RING_PLATFORM) && !ld_ring_trust(LD_RING_BLACKLIST) &&
	   !strcmp(ld_source_id(LD_SRC_PLATFORM_MOK), "platform-mok"),
	   "source: what each keyring is trusted for");
}

static int policy_of(const char *name, struct ld_policy *p)
{
	char *buf = slurp(name, NULL);
	int ret = ld_parse_policy_status(buf, p);

	free(buf);
	return ret;
}

#define PK "beb75675c9b5d683a0b389bd1e727e2a57d153c50f9949d65646a9e0adb8a456"
#define SHA "9b1e4f6a7c8d9e0f1a2b3c4d5e6f708192a3b4c5d6e7f8091a2b3c4d5e6f7081"
#define HEAD "serial 11\npk-sha256 " PK "\nsha256 " SHA \
	     "\nsigner unknown\nloaded-ns 412803117000\n"

static void test_policy(void)
{
	static struct ld_policy p;	/* 256 rules: not on the stack */
	const struct ld_policy_rule *r = p.rules;
	char *buf, *cut;

	ok(!policy_of("policy-loaded.txt", &p) && p.serial == 11 &&
	   !strcmp(p.pk_sha256, PK) && !strcmp(p.sha256, SHA) &&
	   !strcmp(p.signer, "unknown") && p.loaded_ns == 412803117000ULL &&
	   p.nrules == 4 && !p.nother, "policy: a loaded policy");
	ok(r[0].line == 5 && r[0].kind == LD_RULE_MSR &&
	   r[0].msr == 0xc0000103 && r[0].mask == ~0ULL && r[0].uses == 2 &&
	   r[0].unsafe, "policy: msr rule, unsafe");
	ok(r[1].line == 6 && r[1].kind == LD_RULE_PCI && !r[1].domain &&
	   !r[1].bus && !r[1].dev && !r[1].fn && r[1].start == 0x3c &&
	   r[1].end == 0x3c && r[1].uses == 4 && !r[1].unsafe,
	   "policy: pci rule");
	ok(r[2].line == 7 && r[2].kind == LD_RULE_IOPORT &&
	   r[2].start == 0x70 && r[2].end == 0x71 && r[2].uses == 1,
	   "policy: ioport rule");
	ok(r[3].line == 9 && r[3].msr == 0x1a0 && r[3].mask == 0x400000 &&
	   !r[3].uses, "policy: msr rule with a mask, never used");

	ok(!policy_of("policy-none.txt", &p) && !p.serial && !p.nrules &&
	   !p.pk_sha256[0] && !p.signer[0], "policy: serial 0, none loaded");
	ok(ld_parse_policy_status("serial 0\npk-sha256 " PK "\n", &p) ==
	   -EINVAL && ld_parse_policy_status("serial 0\nserial 0\n", &p) ==
	   -EINVAL, "policy: nothing may follow serial 0");
	ok(!ld_parse_policy_status(HEAD, &p) && p.serial == 11 &&
	   !p.nrules, "policy: a policy without rules");
	ok(!p.counter && !ld_parse_policy_status(HEAD "counter 0x01800001\n"
	   "rule 2 ioport 0x0070-0x0071 uses 1\n", &p) &&
	   p.counter == 0x01800001 && p.nrules == 1,
	   "policy: the TPM counter, and none before the kernel kept one");
	ok(ld_parse_policy_status(HEAD "counter 0x0\n", &p) == -EINVAL &&
	   ld_parse_policy_status(HEAD "counter 0x1018000011\n", &p) ==
	   -EINVAL &&
	   ld_parse_policy_status(HEAD "counter 0x01800001\ncounter 0x01800001\n",
				  &p) == -EINVAL &&
	   ld_parse_policy_status(HEAD "rule 2 ioport 0x0070-0x0071 uses 1\n"
				  "counter 0x01800001\n", &p) == -EINVAL,
	   "policy: a zero, overlong, repeated or late counter is refused");

	ok(!policy_of("policy-unknown-key.txt", &p) && p.serial == 11 &&
	   !strcmp(p.signer, "Lockdown Test PK: 4d2a") && p.nrules == 4 &&
	   p.nother == 1 && p.rules[3].line == 9,
	   "policy: unknown keys skipped, an unknown rule kind counted");

	ok(policy_of("policy-truncated.txt", &p) == -EINVAL,
	   "policy: a file cut mid-line is refused");
	ok(policy_of("policy-garbled.txt", &p) == -EINVAL,
	   "policy: a bad hex digit is refused");
	ok(policy_of("policy-bad-uses.txt", &p) == -EINVAL,
	   "policy: an overlong count is refused");
	ok(!policy_of("policy-overlong.txt", &p) &&
	   strlen(p.signer) == LD_SIGNER_MAX - 1 &&
	   !strncmp(p.signer, "Owner key Owner key ", 20) && p.nrules == 4,
	   "policy: an overlong signer is cut, an overlong unknown line skipped");

	buf = slurp("policy-257-rules.txt", NULL);
	ok(ld_parse_policy_status(buf, &p) == -E2BIG,
	   "policy: 257 rules are refused");
	cut = strstr(buf, "rule 257 ");
	if (cut)
		*cut = '\0';
	ok(cut && !ld_parse_policy_status(buf, &p) &&
	   p.nrules == LD_POLICY_MAX_RULES &&
	   p.rules[255].line == 256 && p.rules[255].start == 0x1fe &&
	   p.rules[255].end == 0x1ff && p.rules[255].uses == 255,
	   "policy: 256 rules are taken");
	free(buf);

	ok(ld_parse_policy_status("", &p) == -EINVAL &&
	   ld_parse_policy_status("serial 11", &p) == -EINVAL &&
	   ld_parse_policy_status("serial\n", &p) == -EINVAL &&
	   ld_parse_policy_status("serial 1x\n", &p) == -EINVAL &&
	   ld_parse_policy_status("sha256 " SHA "\nserial 11\n", &p) == -EINVAL,
	   "policy: empty, unterminated, bad and misplaced serial lines");
	ok(ld_parse_policy_status("serial 11\npk-sha256 " PK "\n", &p) ==
	   -EINVAL &&
	   ld_parse_policy_status("serial 11\npk-sha256 " PK "\nsha256 " SHA
				  "\nsigner x\nrule 1 ioport 0x0070-0x0071 uses 1\n",
				  &p) == -EINVAL,
	   "policy: missing header lines are refused");
	ok(ld_parse_policy_status(HEAD "sha256 " SHA "\n", &p) == -EINVAL &&
	   ld_parse_policy_status(HEAD "rule 2 ioport 0x0070-0x0071 uses 1\n"
				  "signer x\n", &p) == -EINVAL,
	   "policy: repeated or late header lines are refused");
	ok(ld_parse_policy_status("serial 11\npk-sha256 " PK "0\n", &p) ==
	   -EINVAL && ld_parse_policy_status("serial 11\npk-sha256 BEB75675"
	   "C9B5D683A0B389BD1E727E2A57D153C50F9949D65646A9E0ADB8A456\n", &p) ==
	   -EINVAL, "policy: a digest of 65 digits, or upper case, is refused");
	ok(ld_parse_policy_status(HEAD "rule 2 msr 0xc0000103 mask 0xffffffffffffffff uses 1 x\n", &p) == -EINVAL &&
	   ld_parse_policy_status(HEAD "rule 2 ioport 0x0070-0x0071 unsafe unsafe uses 1\n", &p) == -EINVAL &&
	   ld_parse_policy_status(HEAD "rule 2 ioport 0x0070-0x0071 uses 1 unsafe\n", &p) == -EINVAL &&
	   ld_parse_policy_status(HEAD "rule 2 msr 0xc0000103 uses 1\n", &p) == -EINVAL &&
	   ld_parse_policy_status(HEAD "rule 2 msr 0xc0000103 mask 0x0000000000000000 uses 1\n", &p) == -EINVAL &&
	   ld_parse_policy_status(HEAD "rule 2 msr 0x1a0 mask 0xffffffffffffffff uses 1\n", &p) == -EINVAL,
	   "policy: extra fields, no mask, mask 0, short address are refused");
	ok(ld_parse_policy_status(HEAD "rule 2 pci 0000:00:20.0 0x03c-0x03c uses 1\n", &p) == -EINVAL &&
	   ld_parse_policy_status(HEAD "rule 2 pci 0000:00:00.8 0x03c-0x03c uses 1\n", &p) == -EINVAL &&
	   ld_parse_policy_status(HEAD "rule 2 pci 0000:00:00 0x03c-0x03c uses 1\n", &p) == -EINVAL &&
	   ld_parse_policy_status(HEAD "rule 2 pci 0000:00:00.0 0x03d-0x03c uses 1\n", &p) == -EINVAL &&
	   ld_parse_policy_status(HEAD "rule 2 ioport 0x0070 uses 1\n", &p) == -EINVAL &&
	   ld_parse_policy_status(HEAD "rule 2 ioport 0x0070-0x0071 uses -1\n", &p) == -EINVAL,
	   "policy: bad PCI functions, ranges and counts are refused");
	ok(ld_parse_policy_status(HEAD "rule 0 ioport 0x0070-0x0071 uses 1\n", &p) == -EINVAL &&
	   ld_parse_policy_status(HEAD "rule 3 ioport 0x0070-0x0071 uses 1\n"
				  "rule 3 ioport 0x0080-0x0081 uses 1\n", &p) == -EINVAL &&
	   ld_parse_policy_status(HEAD "rule 3\n", &p) == -EINVAL &&
	   ld_parse_policy_status(HEAD "rule\n", &p) == -EINVAL,
	   "policy: rule lines out of order or empty are refused");
	ok(!ld_parse_policy_status(HEAD "rule 2 ioport 0x0070-0x0071 uses 9223372036854775807\n", &p) &&
	   p.rules[0].uses == 9223372036854775807ULL &&
	   ld_parse_policy_status(HEAD "rule 2 ioport 0x0070-0x0071 uses 9223372036854775808\n", &p) == -EINVAL,
	   "policy: counts up to the kernel's s64");
}

/* Whether json_escape() writes @in (@len bytes) as @want. */
static bool escapes(const char *in, size_t len, const char *want)
{
	char *buf = NULL;
	size_t size = 0;
	bool same;
	FILE *f = open_memstream(&buf, &size);

	if (!f)
		return false;
	json_escape(f, in, len);
	fclose(f);
	same = !strcmp(buf, want);
	if (!same)
		printf("# got %s, want %s\n", buf, want);
	free(buf);
	return same;
}

#define ESC(in, want) escapes(in, sizeof(in) - 1, want)

static void test_json(void)
{
	char *buf = NULL;
	size_t size = 0;
	struct json j;
	FILE *f;

	ok(ESC("plain", "\"plain\"") && ESC("", "\"\""), "json: plain text");
	ok(ESC("a\"b\\c/d", "\"a\\\"b\\\\c/d\""),
	   "json: quotes and backslashes");
	ok(ESC("\n\t\r\b\f", "\"\\n\\t\\r\\b\\f\""),
	   "json: short escapes");
	ok(ESC("\x01\x1b[2J\x1f\x7f", "\"\\u0001\\u001b[2J\\u001f\\u007f\""),
	   "json: control characters and DEL");
	ok(ESC("a\0b", "\"a\\u0000b\""), "json: a NUL byte");
	ok(ESC("Zo\xc3\xab \xe2\x82\xac \xf0\x9d\x84\x9e",
	       "\"Zo\xc3\xab \xe2\x82\xac \xf0\x9d\x84\x9e\""),
	   "json: UTF-8 of 2, 3 and 4 bytes kept");
	ok(ESC("Caf\xe9", "\"Caf\\u00e9\"") && ESC("\xff\x80", "\"\\u00ff\\u0080\""),
	   "json: bytes that are not UTF-8 as \\u00XX");
	ok(ESC("\xc3", "\"\\u00c3\"") && ESC("\xe2\x82x", "\"\\u00e2\\u0082x\""),
	   "json: cut UTF-8 sequences");
	ok(ESC("\xc0\xaf", "\"\\u00c0\\u00af\"") &&
	   ESC("\xe0\x80\xaf", "\"\\u00e0\\u0080\\u00af\""),
	   "json: overlong forms");
	ok(ESC("\xed\xa0\x80", "\"\\u00ed\\u00a0\\u0080\"") &&
	   ESC("\xf4\x90\x80\x80", "\"\\u00f4\\u0090\\u0080\\u0080\""),
	   "json: surrogates and code points above U+10FFFF");

	f = open_memstream(&buf, &size);
	if (!f) {
		ok(0, "json: writer");
		return;
	}
	json_init(&j, f);
	json_object_begin(&j, NULL);
	json_int(&j, "n", -1);
	json_string(&j, "s", NULL);
	json_array_begin(&j, "empty");
	json_array_end(&j);
	json_array_begin(&j, "a");
	json_bool(&j, NULL, true);
	json_object_begin(&j, NULL);
	json_object_end(&j);
	json_number(&j, NULL, "0.500000");
	json_array_end(&j);
	json_object_end(&j);
	fclose(f);
	ok(!strcmp(buf, "{\n  \"n\": -1,\n  \"s\": null,\n  \"empty\": [],\n"
			"  \"a\": [\n    true,\n    {},\n    0.500000\n  ]\n}\n"),
	   "json: writer, commas, nesting, empty containers");
	free(buf);
}

/* FIPS 180-4 examples, and the lengths around a block's padding. */
static void test_sha256(void)
{
	static const struct {
		size_t len;
		const char *hex;
	} v[] = {
		{ 0, "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855" },
		{ 3, "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad" },
		{ 55, "9f4390f8d30c2dd92ec9f095b65e2b9ae9b0a925a5258e241c9f1e910f734318" },
		{ 56, "b35439a4ac6f0948b6d6f9e3c6af0f5f590ce20f1bde7090ef7970686ec6738a" },
		{ 64, "ffe054fe7ae0cb6dc65c3af9b61d5209f439851db43d0ba5997337df154668eb" },
	};
	unsigned char out[LD_SHA256_SIZE], msg[64];
	char hex[2 * LD_SHA256_SIZE + 1], what[64];
	size_t i, j;

	for (i = 0; i < ARRAY_SIZE(v); i++) {
		/* "abc" for 3 bytes, else that many 'a's */
		memset(msg, 'a', sizeof(msg));
		if (v[i].len == 3)
			memcpy(msg, "abc", 3);
		ld_sha256(msg, v[i].len, out);
		for (j = 0; j < LD_SHA256_SIZE; j++)
			sprintf(hex + 2 * j, "%02x", out[j]);
		snprintf(what, sizeof(what), "sha256 of %zu bytes", v[i].len);
		ok(!strcmp(hex, v[i].hex), what);
	}
}

static int access_of(const char *s, struct ld_access *a)
{
	return ld_parse_access(s, strlen(s), a);
}

static void test_refusals(void)
{
	static struct ld_refusals rs;	/* 64 refusals: not on the stack */
	static const char * const bad[] = {
		"",
		"dropped\n",
		"dropped 1",				/* cut short */
		"dropped 0\nrefused 1 pid 2 times 0 reason \"r\" comm c\n",
		"dropped 0\nrefused 1 pid 2 times 1 reason \"r comm c\n",
		"dropped 0\nrefused 1 pid 2 times 1 reason \"r\" comm\n",
		"dropped 0\nrefused 1 pid 2 times 1 reason \"r\" access \"x\"\n",
		"dropped 0\nrefused 1 pid 2 times 1 reason \"r\" comm c",
	};
	struct ld_access a;
	char buf[8192];
	size_t i, n;

	ok(!ld_parse_refusals("dropped 5\n", &rs) && rs.dropped == 5 && !rs.n,
	   "refusals: none, 5 dropped");
	ok(!ld_parse_refusals("dropped 0\nrefused 12 pid 3 times 4 reason \"raw io port access\" access \"ioport 0x2e+2\" comm is a dump\n",
			      &rs) && rs.n == 1 && rs.r[0].ns == 12 &&
	   rs.r[0].pid == 3 && rs.r[0].times == 4 &&
	   !strcmp(rs.r[0].reason, "raw io port access") &&
	   rs.r[0].access.kind == LD_ACCESS_IOPORT &&
	   rs.r[0].access.start == 0x2e && rs.r[0].access.end == 0x2f &&
	   !strcmp(rs.r[0].comm, "is a dump"), "refusals: an ioport refusal");
	for (i = 0; i < ARRAY_SIZE(bad); i++) {
		snprintf(buf, sizeof(buf), "refusals: malformed %zu refused", i);
		ok(ld_parse_refusals(bad[i], &rs) == -EINVAL, buf);
	}
	/* More than the tool keeps: the oldest count as dropped. */
	n = snprintf(buf, sizeof(buf), "dropped 1\n");
	for (i = 0; i < LD_MAX_REFUSALS + 2; i++)
		n += snprintf(buf + n, sizeof(buf) - n,
			      "refused %zu pid 1 times 1 reason \"r\" comm c\n", i);
	ok(!ld_parse_refusals(buf, &rs) && rs.n == LD_MAX_REFUSALS &&
	   rs.dropped == 3 && rs.r[0].ns == 2, "refusals: the newest kept");

	ok(!access_of("wrmsr 0xc0000103 value 0xffffffffffffffff cpu 7", &a) &&
	   a.kind == LD_ACCESS_MSR && a.msr == 0xc0000103 && a.value == ~0ULL &&
	   a.cpu == 7, "access: wrmsr");
	ok(!access_of("pci write 0000:00:1f.7 0xffc+4", &a) &&
	   a.kind == LD_ACCESS_PCI && a.dev == 0x1f && a.fn == 7 &&
	   a.start == 0xffc && a.end == 0xfff, "access: pci write at the end");
	ok(!access_of("pci write 10000:01:00.0 0x10+4", &a) &&
	   a.domain == 0x10000 && a.bus == 1, "access: pci domain of 5 digits");
	ok(access_of("pci write 0000:00:00.0 0xffe+4", &a) == -EINVAL,
	   "access: pci past 0xfff refused");
	ok(!access_of("pci write 0000:00:02.0 outside config space", &a) &&
	   a.kind == LD_ACCESS_PCI_OUTSIDE, "access: pci outside config space");
	ok(!access_of("ioport 0xffff+1", &a) && a.start == 0xffff &&
	   a.end == 0xffff, "access: the last port");
	ok(access_of("ioport 0xffff+2", &a) == -EINVAL &&
	   access_of("ioport 0x10+0", &a) == -EINVAL &&
	   access_of("ioport 0x10", &a) == -EINVAL &&
	   access_of("wrmsr 0x10 value 0x1 cpu 0 more", &a) == -EINVAL,
	   "access: malformed refused");
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
	test_proc_keys();
	test_kmsg();
	test_log();
	test_sources();
	test_policy();
	test_refusals();
	test_sha256();
	test_json();
	printf("1..%d\n", tests);
	printf("# %d passed, %d failed\n", tests - failures, failures);
	return failures ? 1 : 0;
}
