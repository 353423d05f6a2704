// SPDX-License-Identifier: GPL-2.0
/*
 * KUnit tests for the owner policy's parser and matchers (owner_parse.c).
 * Every text is handed over in a buffer of exactly its length, with no NUL
 * after it, so that KASAN reports any read past its end.
 */

#include <kunit/test.h>
#include <linux/kernel.h>
#include <linux/pci.h>
#include <linux/slab.h>
#include <linux/string.h>

#include "owner_policy.h"

#define PK "3f5a0c9d2b1e4f6a7c8d9e0f1a2b3c4d5e6f708192a3b4c5d6e7f8091a2b3c4d"
/* The same digest in mixed case, one digit short, and with a bad digit. */
#define PK_UC "3F5A0C9D2B1E4F6A7C8D9E0F1A2B3C4D5e6f708192a3b4c5d6e7f8091a2b3c4d"
#define PK_63 "3f5a0c9d2b1e4f6a7c8d9e0f1a2b3c4d5e6f708192a3b4c5d6e7f8091a2b3c4"
#define PK_XG "3f5a0c9d2b1e4f6a7c8d9e0f1a2b3c4d5e6f708192a3b4c5d6e7f8091a2b3c4g"
/* Four lines: the first rule after it is on line 5. */
#define HEADER "lockdown-policy v1\nmachine pk-sha256:" PK "\nserial 7\n" \
	"counter 0x01800001\n"

static const u8 pk_digest[32] = {
	0x3f, 0x5a, 0x0c, 0x9d, 0x2b, 0x1e, 0x4f, 0x6a,
	0x7c, 0x8d, 0x9e, 0x0f, 0x1a, 0x2b, 0x3c, 0x4d,
	0x5e, 0x6f, 0x70, 0x81, 0x92, 0xa3, 0xb4, 0xc5,
	0xd6, 0xe7, 0xf8, 0x09, 0x1a, 0x2b, 0x3c, 0x4d,
};

/* Parse @len bytes of @text, copied into a buffer of exactly that size. */
static int parse(struct kunit *test, const char *text, size_t len,
		 struct lockdown_owner_policy **p,
		 struct lockdown_policy_error *err)
{
	char *buf = kunit_kmalloc(test, len ? len : 1, GFP_KERNEL);
	int ret;

	KUNIT_ASSERT_NOT_NULL(test, buf);
	memcpy(buf, text, len);
	ret = lockdown_policy_parse(buf, len, p, err);
	kunit_kfree(test, buf);
	return ret;
}

static int parse_str(struct kunit *test, const char *text,
		     struct lockdown_owner_policy **p,
		     struct lockdown_policy_error *err)
{
	return parse(test, text, strlen(text), p, err);
}

/* The example of the format's description, a blank line added. */
static void owner_policy_test_example(struct kunit *test)
{
	static const char text[] =
		"lockdown-policy v1\n"
		"machine pk-sha256:" PK "\n"
		"serial 7\n"
		"counter 0x01800001\n"
		"# comment lines start with '#'; blank lines are ignored\n"
		"\n"
		"msr write 0xc0000103 unsafe\n"
		"msr write 0x1a0 mask 0x0000000000400000 unsafe\n"
		"pci write 0000:00:18.0 0x60-0x6f unsafe\n"
		"pci write 0000:00:02.0 0x3c\n"
		"ioport 0x70-0x71 unsafe\n"
		"ioport 0x80\n";
	struct lockdown_policy_error err = { 99, "unset" };
	struct lockdown_owner_policy *p;
	const struct lockdown_rule *r;

	KUNIT_ASSERT_EQ(test, parse_str(test, text, &p, &err), 0);
	KUNIT_EXPECT_EQ(test, err.line, 0U);
	KUNIT_EXPECT_NULL(test, err.reason);
	KUNIT_EXPECT_EQ(test, p->serial, 7ULL);
	KUNIT_EXPECT_EQ(test, p->counter, 0x01800001U);
	KUNIT_EXPECT_EQ(test, memcmp(p->pk_sha256, pk_digest, 32), 0);
	KUNIT_EXPECT_EQ(test, p->nr_rules, 6U);

	r = &p->rules[0];
	KUNIT_EXPECT_EQ(test, r->kind, LOCKDOWN_RULE_MSR);
	KUNIT_EXPECT_EQ(test, r->line, 7U);
	KUNIT_EXPECT_EQ(test, r->msr.index, 0xc0000103U);
	KUNIT_EXPECT_EQ(test, r->msr.mask, U64_MAX);
	KUNIT_EXPECT_TRUE(test, r->unsafe);

	r = &p->rules[1];
	KUNIT_EXPECT_EQ(test, r->kind, LOCKDOWN_RULE_MSR);
	KUNIT_EXPECT_EQ(test, r->line, 8U);
	KUNIT_EXPECT_EQ(test, r->msr.index, 0x1a0U);
	KUNIT_EXPECT_EQ(test, r->msr.mask, 0x400000ULL);

	r = &p->rules[2];
	KUNIT_EXPECT_EQ(test, r->kind, LOCKDOWN_RULE_PCI);
	KUNIT_EXPECT_EQ(test, r->line, 9U);
	KUNIT_EXPECT_EQ(test, r->pci.domain, 0);
	KUNIT_EXPECT_EQ(test, r->pci.bus, 0);
	KUNIT_EXPECT_EQ(test, r->pci.devfn, PCI_DEVFN(0x18, 0));
	KUNIT_EXPECT_EQ(test, r->pci.start, 0x60);
	KUNIT_EXPECT_EQ(test, r->pci.end, 0x6f);

	r = &p->rules[3];
	KUNIT_EXPECT_EQ(test, r->kind, LOCKDOWN_RULE_PCI);
	KUNIT_EXPECT_EQ(test, r->line, 10U);
	KUNIT_EXPECT_EQ(test, r->pci.devfn, PCI_DEVFN(2, 0));
	KUNIT_EXPECT_EQ(test, r->pci.start, 0x3c);
	KUNIT_EXPECT_EQ(test, r->pci.end, 0x3c);
	KUNIT_EXPECT_FALSE(test, r->unsafe);

	r = &p->rules[4];
	KUNIT_EXPECT_EQ(test, r->kind, LOCKDOWN_RULE_IOPORT);
	KUNIT_EXPECT_EQ(test, r->line, 11U);
	KUNIT_EXPECT_EQ(test, r->io.start, 0x70);
	KUNIT_EXPECT_EQ(test, r->io.end, 0x71);

	r = &p->rules[5];
	KUNIT_EXPECT_EQ(test, r->kind, LOCKDOWN_RULE_IOPORT);
	KUNIT_EXPECT_EQ(test, r->line, 12U);
	KUNIT_EXPECT_EQ(test, r->io.start, 0x80);
	KUNIT_EXPECT_EQ(test, r->io.end, 0x80);
	KUNIT_EXPECT_FALSE(test, r->unsafe);
	kfree(p);
}

/*
 * What the format allows: comments and blank lines before the header,
 * tabs and runs of blanks, trailing blanks, digits in either case, leading
 * zeros in hex, the largest values, rules of other functions or adjacent
 * ranges, and a last line without '\n'.
 */
static void owner_policy_test_syntax(struct kunit *test)
{
	static const char text[] =
		"# owner policy\n"
		" \t\n"
		"\n"
		"lockdown-policy\tv1 \t\n"
		"serial  18446744073709551615\n"
		"machine\tpk-sha256:" PK_UC "\x20\t\x20\n"
		"counter\t0x01FFFFFF\x20\n"
		"msr write 0xFFFFFFFF mask 0x00000000000000000000000000001 unsafe\n"
		"pci write FFFF:fF:1f.7 0x0-0xFFF\tunsafe\n"
		"pci write ffff:ff:1f.6 0x0-0xfff unsafe\x20\n"
		"ioport 0x70-0x71  unsafe\n"
		"ioport\t\t0x72-0xffff unsafe";
	struct lockdown_policy_error err;
	struct lockdown_owner_policy *p;
	const struct lockdown_rule *r;

	KUNIT_ASSERT_EQ(test, parse_str(test, text, &p, &err), 0);
	KUNIT_EXPECT_EQ(test, p->serial, U64_MAX);
	KUNIT_EXPECT_EQ(test, p->counter, 0x01ffffffU);
	KUNIT_EXPECT_EQ(test, memcmp(p->pk_sha256, pk_digest, 32), 0);
	KUNIT_EXPECT_EQ(test, p->nr_rules, 5U);
	r = &p->rules[0];
	KUNIT_EXPECT_EQ(test, r->line, 8U);
	KUNIT_EXPECT_EQ(test, r->msr.index, U32_MAX);
	KUNIT_EXPECT_EQ(test, r->msr.mask, 1ULL);
	r = &p->rules[1];
	KUNIT_EXPECT_EQ(test, r->pci.domain, 0xffff);
	KUNIT_EXPECT_EQ(test, r->pci.bus, 0xff);
	KUNIT_EXPECT_EQ(test, r->pci.devfn, PCI_DEVFN(0x1f, 7));
	KUNIT_EXPECT_EQ(test, r->pci.end, 0xfff);
	KUNIT_EXPECT_EQ(test, p->rules[2].pci.devfn, PCI_DEVFN(0x1f, 6));
	r = &p->rules[4];
	KUNIT_EXPECT_EQ(test, r->line, 12U);
	KUNIT_EXPECT_EQ(test, r->io.start, 0x72);
	KUNIT_EXPECT_EQ(test, r->io.end, 0xffff);
	kfree(p);
}

/*
 * What only the signer's side keeps tidy, the kernel takes as it is meant:
 * blanks before a line (a comment too), zeros before a serial.
 */
static void owner_policy_test_lenient(struct kunit *test)
{
	static const char text[] =
		"lockdown-policy v1\n"
		"  machine pk-sha256:" PK "\n"
		"serial 007\n"
		"counter 0x01800001\n"
		"\t# an indented comment\n"
		" \tioport 0x80\n";
	struct lockdown_policy_error err;
	struct lockdown_owner_policy *p;

	KUNIT_ASSERT_EQ(test, parse_str(test, text, &p, &err), 0);
	KUNIT_EXPECT_EQ(test, p->serial, 7ULL);
	KUNIT_EXPECT_EQ(test, p->nr_rules, 1U);
	KUNIT_EXPECT_EQ(test, p->rules[0].line, 6U);
	KUNIT_EXPECT_EQ(test, p->rules[0].io.start, 0x80);
	kfree(p);
}

/* Header, machine and serial, and no rule: a valid, empty policy. */
static void owner_policy_test_empty(struct kunit *test)
{
	struct lockdown_policy_error err;
	struct lockdown_owner_policy *p;

	KUNIT_ASSERT_EQ(test, parse_str(test, HEADER, &p, &err), 0);
	KUNIT_EXPECT_EQ(test, p->nr_rules, 0U);
	KUNIT_EXPECT_EQ(test, lockdown_policy_match_msr(p, 0x10, 0, 1),
			-ENOENT);
	KUNIT_EXPECT_EQ(test, lockdown_policy_match_ioport(p, 0x80, 1),
			-ENOENT);
	kfree(p);
}

struct bad_policy {
	const char *name;
	const char *text;
	size_t len;
	int err;
	unsigned int line;
	const char *reason;
};

#define BAD(_name, _text, _err, _line, _reason) {			\
	.name = _name, .text = _text, .len = sizeof(_text) - 1,		\
	.err = _err, .line = _line, .reason = _reason }

static const struct bad_policy bad_policies[] = {
	/* Bytes and lines. */
	BAD("nul", HEADER "msr write 0x10\0\n", -EINVAL, 5, "NUL byte"),
	BAD("nul_in_comment", HEADER "#\0\n", -EINVAL, 5, "NUL byte"),
	BAD("non_ascii", HEADER "# caf\xc3\xa9\n", -EINVAL, 5,
	    "non-ASCII byte"),
	BAD("del", HEADER "# \x7f\n", -EINVAL, 5, "control character"),
	BAD("crlf", "lockdown-policy v1\r\n", -EINVAL, 1, "carriage return"),
	BAD("control", HEADER "ioport\v0x80\n", -EINVAL, 5,
	    "control character"),
	/* Directives and tokens. */
	BAD("unknown_directive", HEADER "port 0x80\n", -EINVAL, 5,
	    "unknown directive"),
	BAD("msr_read", HEADER "msr read 0x10\n", -EINVAL, 5,
	    "unknown directive"),
	BAD("upper_case", HEADER "IOPORT 0x80\n", -EINVAL, 5,
	    "unknown directive"),
	BAD("extra_token", HEADER "ioport 0x80 0x81\n", -EINVAL, 5,
	    "extra tokens"),
	BAD("comment_after_rule", HEADER "msr write 0x10 # tsc\n", -EINVAL, 5,
	    "extra tokens"),
	BAD("extra_after_mask", HEADER "msr write 0x10 mask 0x1 0x2\n",
	    -EINVAL, 5, "extra tokens"),
	BAD("serial_extra", "lockdown-policy v1\nserial 7 8\n", -EINVAL, 2,
	    "extra tokens"),
	BAD("missing_argument", HEADER "pci write 0000:00:02.0\n", -EINVAL, 5,
	    "missing argument"),
	BAD("missing_mask", HEADER "msr write 0x10 mask\n", -EINVAL, 5,
	    "missing argument"),
	/* Header, machine and serial. */
	BAD("no_header", "machine pk-sha256:" PK "\nserial 7\n", -EINVAL, 1,
	    "policy does not start with lockdown-policy v1"),
	BAD("empty_text", "", -EINVAL, 0, "no lockdown-policy line"),
	BAD("only_comments", "# nothing\n\n", -EINVAL, 0,
	    "no lockdown-policy line"),
	BAD("version", "lockdown-policy v2\n", -EINVAL, 1,
	    "policy version is not v1"),
	BAD("second_header", HEADER "lockdown-policy v1\n", -EINVAL, 5,
	    "second lockdown-policy line"),
	BAD("no_machine", "lockdown-policy v1\nserial 7\n", -EINVAL, 0,
	    "no machine line"),
	BAD("second_machine", HEADER "machine pk-sha256:" PK "\n", -EINVAL, 5,
	    "second machine line"),
	BAD("no_serial", "lockdown-policy v1\nmachine pk-sha256:" PK "\n",
	    -EINVAL, 0, "no serial line"),
	BAD("second_serial", HEADER "ioport 0x80\nserial 8\n", -EINVAL, 6,
	    "second serial line"),
	BAD("rule_before_serial",
	    "lockdown-policy v1\nmachine pk-sha256:" PK "\nioport 0x80\n"
	    "serial 7\n", -EINVAL, 3,
	    "rule before machine, serial and counter"),
	BAD("rule_before_counter",
	    "lockdown-policy v1\nmachine pk-sha256:" PK "\nserial 7\n"
	    "ioport 0x80\ncounter 0x01800001\n", -EINVAL, 4,
	    "rule before machine, serial and counter"),
	BAD("no_counter", "lockdown-policy v1\nmachine pk-sha256:" PK
	    "\nserial 7\n", -EINVAL, 0, "no counter line"),
	BAD("second_counter", HEADER "counter 0x01800001\n", -EINVAL, 5,
	    "second counter line"),
	BAD("counter_below_nv", "lockdown-policy v1\ncounter 0x00ffffff\n",
	    -EINVAL, 2,
	    "counter is not a TPM NV index (0x01000000-0x01ffffff)"),
	BAD("counter_above_nv", "lockdown-policy v1\ncounter 0x02000000\n",
	    -EINVAL, 2,
	    "counter is not a TPM NV index (0x01000000-0x01ffffff)"),
	BAD("counter_decimal", "lockdown-policy v1\ncounter 25165825\n",
	    -EINVAL, 2, "not a 0x hex number"),
	BAD("counter_overflow", "lockdown-policy v1\ncounter 0x101800001\n",
	    -EINVAL, 2, "number out of range"),
	BAD("counter_missing", "lockdown-policy v1\ncounter\n", -EINVAL, 2,
	    "missing argument"),
	BAD("machine_not_pk", "lockdown-policy v1\nmachine sha256:" PK "\n",
	    -EINVAL, 2, "machine is not pk-sha256:"),
	BAD("machine_short",
	    "lockdown-policy v1\nmachine pk-sha256:" PK_63 "\n",
	    -EINVAL, 2, "PK digest is not 64 hex digits"),
	BAD("machine_long", "lockdown-policy v1\nmachine pk-sha256:" PK "0\n",
	    -EINVAL, 2, "PK digest is not 64 hex digits"),
	BAD("machine_bad_digit",
	    "lockdown-policy v1\nmachine pk-sha256:" PK_XG "\n",
	    -EINVAL, 2, "PK digest is not 64 hex digits"),
	BAD("serial_zero", "lockdown-policy v1\nserial 0\n", -EINVAL, 2,
	    "serial is zero"),
	BAD("serial_zeros", "lockdown-policy v1\nserial 00\n", -EINVAL, 2,
	    "serial is zero"),
	BAD("serial_plus", "lockdown-policy v1\nserial +7\n", -EINVAL, 2,
	    "serial is not a decimal number"),
	BAD("serial_minus", "lockdown-policy v1\nserial -1\n", -EINVAL, 2,
	    "serial is not a decimal number"),
	BAD("serial_hex", "lockdown-policy v1\nserial 0x7\n", -EINVAL, 2,
	    "serial is not a decimal number"),
	BAD("serial_overflow",
	    "lockdown-policy v1\nserial 18446744073709551616\n", -EINVAL, 2,
	    "serial out of range"),
	/* Numbers. */
	BAD("msr_overflow", HEADER "msr write 0x100000000\n", -EINVAL, 5,
	    "number out of range"),
	BAD("mask_overflow", HEADER "msr write 0x10 mask 0x10000000000000000\n",
	    -EINVAL, 5, "number out of range"),
	BAD("no_0x", HEADER "msr write 10\n", -EINVAL, 5,
	    "not a 0x hex number"),
	BAD("upper_case_x", HEADER "ioport 0X80\n", -EINVAL, 5,
	    "not a 0x hex number"),
	BAD("empty_number", HEADER "ioport 0x\n", -EINVAL, 5,
	    "not a 0x hex number"),
	BAD("empty_range_end", HEADER "ioport 0x70-\n", -EINVAL, 5,
	    "not a 0x hex number"),
	BAD("empty_range_start", HEADER "ioport -0x70\n", -EINVAL, 5,
	    "not a 0x hex number"),
	BAD("two_dashes", HEADER "ioport 0x70-0x71-0x72\n", -EINVAL, 5,
	    "not a 0x hex number"),
	BAD("bad_hex_digit", HEADER "ioport 0x8g\n", -EINVAL, 5,
	    "not a 0x hex number"),
	/* "0x", then only what kstrtou64() takes after it: digits. */
	BAD("hex_plus", HEADER "ioport 0x+80\n", -EINVAL, 5,
	    "not a 0x hex number"),
	BAD("hex_0x0x", HEADER "ioport 0x0x80\n", -EINVAL, 5,
	    "not a 0x hex number"),
	BAD("mask_zero", HEADER "msr write 0x10 mask 0x0\n", -EINVAL, 5,
	    "mask is zero"),
	/* Ranges and PCI functions. */
	BAD("pci_backwards", HEADER "pci write 0000:00:18.0 0x6f-0x60\n",
	    -EINVAL, 5, "range ends before it starts"),
	BAD("pci_out_of_bounds", HEADER "pci write 0000:00:18.0 0x100-0x1000\n",
	    -EINVAL, 5, "number out of range"),
	BAD("io_backwards", HEADER "ioport 0x71-0x70\n", -EINVAL, 5,
	    "range ends before it starts"),
	BAD("io_out_of_bounds", HEADER "ioport 0x10000\n", -EINVAL, 5,
	    "number out of range"),
	BAD("pci_device", HEADER "pci write 0000:00:20.0 0x60\n", -EINVAL, 5,
	    "PCI device above 0x1f"),
	BAD("pci_function", HEADER "pci write 0000:00:1f.8 0x60\n", -EINVAL, 5,
	    "PCI function above 7"),
	BAD("pci_short", HEADER "pci write 00:18.0 0x60\n", -EINVAL, 5,
	    "PCI function is not DDDD:BB:DD.F"),
	BAD("pci_0x", HEADER "pci write 0x00:00:18.0 0x60\n", -EINVAL, 5,
	    "PCI function is not DDDD:BB:DD.F"),
	/* Two rules for one access. */
	BAD("msr_twice", HEADER "msr write 0x10 unsafe\n"
	    "msr write 0x10 mask 0x1 unsafe\n",
	    -EINVAL, 6, "second rule for this MSR"),
	BAD("pci_overlap", HEADER "pci write 0000:00:18.0 0x60-0x6f unsafe\n"
	    "pci write 0000:00:18.1 0x60-0x6f unsafe\n"
	    "pci write 0000:00:18.0 0x6f-0x70 unsafe\n",
	    -EINVAL, 7, "range overlaps a rule of this PCI function"),
	BAD("io_overlap", HEADER "ioport 0x70-0x71 unsafe\nioport 0x80\n"
	    "ioport 0x60-0x70 unsafe\n", -EINVAL, 7,
	    "range overlaps another ioport rule"),
	/* What may hand the kernel over, without "unsafe". */
	BAD("lstar", HEADER "msr write 0xc0000082\n", -EINVAL, 5,
	    "not on the safe list: end the rule in unsafe"),
	BAD("tsc_aux", HEADER "msr write 0x610\nmsr write 0xc0000103\n",
	    -EINVAL, 6, "not on the safe list: end the rule in unsafe"),
	BAD("oc_mailbox", HEADER "msr write 0x150\n", -EINVAL, 5,
	    "not on the safe list: end the rule in unsafe"),
	BAD("pci_command", HEADER "pci write 0000:00:02.0 0x04\n", -EINVAL,
	    5, "not on the safe list: end the rule in unsafe"),
	BAD("pci_across_safe", HEADER "pci write 0000:00:02.0 0x0c-0x0e\n",
	    -EINVAL, 5, "not on the safe list: end the rule in unsafe"),
	BAD("pci_config_ports", HEADER "ioport 0xcf8-0xcff\n", -EINVAL, 5,
	    "not on the safe list: end the rule in unsafe"),
	BAD("smi_port", HEADER "ioport 0xb2\n", -EINVAL, 5,
	    "not on the safe list: end the rule in unsafe"),
	BAD("unsafe_twice", HEADER "ioport 0x70 unsafe unsafe\n", -EINVAL, 5,
	    "extra tokens"),
	BAD("unsafe_alone", HEADER "ioport unsafe\n", -EINVAL, 5,
	    "missing argument"),
	BAD("unsafe_upper_case", HEADER "ioport 0x70 UNSAFE\n", -EINVAL, 5,
	    "extra tokens"),
};

static void bad_policy_desc(const struct bad_policy *t, char *desc)
{
	strscpy(desc, t->name, KUNIT_PARAM_DESC_SIZE);
}

KUNIT_ARRAY_PARAM(bad_policy, bad_policies, bad_policy_desc);

/* Each malformed or contradictory text: its errno, line and reason. */
static void owner_policy_test_rejected(struct kunit *test)
{
	const struct bad_policy *t = test->param_value;
	struct lockdown_policy_error err = { 99, "unset" };
	struct lockdown_owner_policy *p = (void *)t;

	KUNIT_EXPECT_EQ(test, parse(test, t->text, t->len, &p, &err), t->err);
	KUNIT_EXPECT_NULL(test, p);
	KUNIT_EXPECT_EQ(test, err.line, t->line);
	KUNIT_ASSERT_NOT_NULL(test, err.reason);
	KUNIT_EXPECT_STREQ(test, err.reason, t->reason);
}

/* HEADER, then comment lines up to @len bytes, in a buffer of that size. */
static char *make_text(struct kunit *test, size_t len)
{
	size_t hlen = strlen(HEADER), i;
	char *buf = kunit_kmalloc(test, len, GFP_KERNEL);

	KUNIT_ASSERT_NOT_NULL(test, buf);
	memcpy(buf, HEADER, hlen);
	memset(buf + hlen, '#', len - hlen);
	for (i = hlen + 200; i < len; i += 201)
		buf[i] = '\n';
	return buf;
}

/* 65536 bytes are accepted, 65537 are not. */
static void owner_policy_test_max_size(struct kunit *test)
{
	const size_t len = LOCKDOWN_POLICY_MAX_SIZE;
	struct lockdown_policy_error err;
	struct lockdown_owner_policy *p;
	char *buf;
	int ret;

	buf = make_text(test, len);
	ret = lockdown_policy_parse(buf, len, &p, &err);
	KUNIT_EXPECT_EQ(test, ret, 0);
	KUNIT_EXPECT_NULL(test, err.reason);
	kfree(p);

	buf = make_text(test, len + 1);
	ret = lockdown_policy_parse(buf, len + 1, &p, &err);
	KUNIT_EXPECT_EQ(test, ret, -E2BIG);
	KUNIT_EXPECT_NULL(test, p);
	KUNIT_EXPECT_EQ(test, err.line, 0U);
	KUNIT_ASSERT_NOT_NULL(test, err.reason);
	KUNIT_EXPECT_STREQ(test, err.reason, "policy larger than 65536 bytes");
}

/* A line of 255 characters is accepted, with or without '\n'; 256 not. */
static void owner_policy_test_max_line(struct kunit *test)
{
	size_t hlen = strlen(HEADER);
	struct lockdown_policy_error err;
	struct lockdown_owner_policy *p;
	char *buf;
	int i, ret;

	for (i = 0; i < 4; i++) {
		size_t line = i & 1 ? 256 : 255;
		size_t len = hlen + line + (i < 2);
		bool ok = line == 255;

		buf = kunit_kmalloc(test, len, GFP_KERNEL);
		KUNIT_ASSERT_NOT_NULL(test, buf);
		memcpy(buf, HEADER, hlen);
		memset(buf + hlen, '#', line);
		if (i < 2)
			buf[len - 1] = '\n';
		ret = lockdown_policy_parse(buf, len, &p, &err);
		KUNIT_EXPECT_EQ_MSG(test, ret, ok ? 0 : -EINVAL,
				    "line of %zu, %s", line,
				    i < 2 ? "LF" : "no LF");
		kfree(p);
		if (ok)
			continue;
		KUNIT_EXPECT_EQ(test, err.line, 5U);
		KUNIT_ASSERT_NOT_NULL(test, err.reason);
		KUNIT_EXPECT_STREQ(test, err.reason,
				   "line longer than 255 characters");
	}
}

/* 256 rules are accepted, a 257th is -E2BIG on its line. */
static void owner_policy_test_max_rules(struct kunit *test)
{
	size_t size = strlen(HEADER) + 257 * sizeof("ioport 0x100 unsafe\n");
	struct lockdown_policy_error err;
	struct lockdown_owner_policy *p;
	size_t len, len256 = 0;
	char *buf;
	int i;

	buf = kunit_kmalloc(test, size, GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, buf);
	len = scnprintf(buf, size, "%s", HEADER);
	for (i = 0; i < 257; i++) {
		len += scnprintf(buf + len, size - len, "ioport 0x%x unsafe\n",
				 i);
		if (i == 255)
			len256 = len;
	}

	KUNIT_ASSERT_EQ(test, parse(test, buf, len256, &p, &err), 0);
	KUNIT_EXPECT_EQ(test, p->nr_rules, 256U);
	KUNIT_EXPECT_EQ(test, p->rules[255].io.start, 0xff);
	KUNIT_EXPECT_EQ(test, p->rules[255].line, 260U);
	KUNIT_EXPECT_EQ(test, lockdown_policy_match_ioport(p, 0xff, 1), 255);
	kfree(p);

	KUNIT_EXPECT_EQ(test, parse(test, buf, len, &p, &err), -E2BIG);
	KUNIT_EXPECT_NULL(test, p);
	KUNIT_EXPECT_EQ(test, err.line, 261U);
	KUNIT_ASSERT_NOT_NULL(test, err.reason);
	KUNIT_EXPECT_STREQ(test, err.reason, "more than 256 rules");
}

/* Only masked bits may change; other MSRs match nothing. */
static void owner_policy_test_match_msr(struct kunit *test)
{
	static const char text[] = HEADER
		"msr write 0xc0000103 unsafe\n"
		"msr write 0x1a0 mask 0x0000000000400000 unsafe\n";
	static const struct msr_case {
		u32 index;
		u64 old, new;
		int rule;
	} cases[] = {
		/* No mask: every bit may change. */
		{ 0xc0000103, 0, U64_MAX, 0 },
		{ 0xc0000103, 5, 5, 0 },
		/* Bit 22 may flip either way; nothing changing is fine. */
		{ 0x1a0, 0x1, 0x400001, 1 },
		{ 0x1a0, 0x400001, 0x1, 1 },
		{ 0x1a0, 0x850089, 0x850089, 1 },
		/* Any other bit changing refuses the write. */
		{ 0x1a0, 0x1, 0x400003, -ENOENT },
		{ 0x1a0, 0, 0x800000, -ENOENT },
		{ 0x1a0, 0, BIT_ULL(63), -ENOENT },
		/* Other MSRs. */
		{ 0x1a1, 0, 0x400000, -ENOENT },
		{ 0xc0000102, 0, 0, -ENOENT },
	};
	const struct msr_case *c;
	struct lockdown_policy_error err;
	struct lockdown_owner_policy *p;
	int ret;

	KUNIT_ASSERT_EQ(test, parse_str(test, text, &p, &err), 0);
	for (c = cases; c < cases + ARRAY_SIZE(cases); c++) {
		ret = lockdown_policy_match_msr(p, c->index, c->old, c->new);
		KUNIT_EXPECT_EQ_MSG(test, ret, c->rule,
				    "MSR %#x: %#llx to %#llx",
				    c->index, c->old, c->new);
	}
	KUNIT_EXPECT_EQ(test, lockdown_policy_match_msr(NULL, 0x1a0, 0, 0),
			-ENOENT);
	kfree(p);
}

/* Every byte of a write inside one range of the same function. */
static void owner_policy_test_match_pci(struct kunit *test)
{
	static const char text[] = HEADER
		"pci write 0000:00:18.0 0x60-0x6f unsafe\n"
		"pci write 0000:00:02.0 0x44 unsafe\n"
		"pci write 0001:00:18.0 0x60 unsafe\n";
	static const struct pci_case {
		u32 domain;
		u8 bus, dev, fn;
		unsigned int off, len;
		int rule;
	} cases[] = {
		/* Inside, up to both edges. */
		{ 0, 0, 0x18, 0, 0x60, 4, 0 },
		{ 0, 0, 0x18, 0, 0x6c, 4, 0 },
		{ 0, 0, 0x18, 0, 0x60, 16, 0 },
		{ 0, 0, 0x18, 0, 0x6f, 1, 0 },
		/* Across an edge, outside, empty, wrapping around. */
		{ 0, 0, 0x18, 0, 0x6d, 4, -ENOENT },
		{ 0, 0, 0x18, 0, 0x6f, 2, -ENOENT },
		{ 0, 0, 0x18, 0, 0x5f, 2, -ENOENT },
		{ 0, 0, 0x18, 0, 0x5f, 1, -ENOENT },
		{ 0, 0, 0x18, 0, 0x70, 1, -ENOENT },
		{ 0, 0, 0x18, 0, 0x60, 17, -ENOENT },
		{ 0, 0, 0x18, 0, 0x60, 0, -ENOENT },
		{ 0, 0, 0x18, 0, 0x60, UINT_MAX, -ENOENT },
		{ 0, 0, 0x18, 0, UINT_MAX, 2, -ENOENT },
		/* A single offset. */
		{ 0, 0, 2, 0, 0x44, 1, 1 },
		{ 0, 0, 2, 0, 0x44, 2, -ENOENT },
		{ 0, 0, 2, 0, 0x43, 2, -ENOENT },
		/* Another function, device, bus or domain. */
		{ 0, 0, 0x18, 1, 0x60, 1, -ENOENT },
		{ 0, 0, 0x19, 0, 0x60, 1, -ENOENT },
		{ 0, 1, 0x18, 0, 0x60, 1, -ENOENT },
		{ 1, 0, 0x18, 0, 0x60, 1, 2 },
		{ 1, 0, 0x18, 0, 0x61, 1, -ENOENT },
		{ 2, 0, 0x18, 0, 0x60, 1, -ENOENT },
		/* A domain above 0xffff is never one of four digits (VMD). */
		{ 0x10000, 0, 0x18, 0, 0x60, 1, -ENOENT },
		{ 0x10001, 0, 0x18, 0, 0x60, 1, -ENOENT },
		{ 0x10000, 0, 2, 0, 0x44, 1, -ENOENT },
	};
	const struct pci_case *c;
	struct lockdown_policy_error err;
	struct lockdown_owner_policy *p;
	int ret;

	KUNIT_ASSERT_EQ(test, parse_str(test, text, &p, &err), 0);
	for (c = cases; c < cases + ARRAY_SIZE(cases); c++) {
		ret = lockdown_policy_match_pci(p, c->domain, c->bus,
						PCI_DEVFN(c->dev, c->fn),
						c->off, c->len);
		KUNIT_EXPECT_EQ_MSG(test, ret, c->rule,
				    "%04x:%02x:%02x.%u %#x+%u", c->domain,
				    c->bus, c->dev, c->fn, c->off, c->len);
	}
	ret = lockdown_policy_match_pci(NULL, 0, 0, PCI_DEVFN(0x18, 0),
					0x60, 1);
	KUNIT_EXPECT_EQ(test, ret, -ENOENT);
	kfree(p);
}

/* Every port of an access inside one range. */
static void owner_policy_test_match_ioport(struct kunit *test)
{
	static const char text[] = HEADER
		"ioport 0x70-0x71 unsafe\n"
		"ioport 0x80\n"
		"ioport 0xffff unsafe\n";
	static const struct io_case {
		unsigned long from, num;
		int rule;
	} cases[] = {
		{ 0x70, 2, 0 },
		{ 0x70, 1, 0 },
		{ 0x71, 1, 0 },
		{ 0x71, 2, -ENOENT },
		{ 0x6f, 2, -ENOENT },
		{ 0x70, 3, -ENOENT },
		{ 0x70, 0, -ENOENT },
		{ 0x80, 1, 1 },
		{ 0x80, 2, -ENOENT },
		{ 0x7f, 2, -ENOENT },
		{ 0x81, 1, -ENOENT },
		{ 0xffff, 1, 2 },
		{ 0xffff, 2, -ENOENT },
		{ 0x10000, 1, -ENOENT },
		{ ULONG_MAX, 2, -ENOENT },
		{ 0x70, ULONG_MAX, -ENOENT },
	};
	const struct io_case *c;
	struct lockdown_policy_error err;
	struct lockdown_owner_policy *p;
	int ret;

	KUNIT_ASSERT_EQ(test, parse_str(test, text, &p, &err), 0);
	for (c = cases; c < cases + ARRAY_SIZE(cases); c++) {
		ret = lockdown_policy_match_ioport(p, c->from, c->num);
		KUNIT_EXPECT_EQ_MSG(test, ret, c->rule, "ports %#lx+%lu",
				    c->from, c->num);
	}
	KUNIT_EXPECT_EQ(test, lockdown_policy_match_ioport(NULL, 0x70, 1),
			-ENOENT);
	kfree(p);
}

/*
 * The safe list decides which rules need "unsafe"; "unsafe" on a rule
 * that does not need it is kept, and changes nothing it matches.
 */
static void owner_policy_test_unsafe(struct kunit *test)
{
	static const char text[] = HEADER
		"msr write 0x610\n"
		"msr write 0xc0000082 unsafe\n"
		"msr write 0x1a0 mask 0x1 unsafe\n"
		"pci write 0000:00:00.0 0x3c\n"
		"pci write 0000:00:00.0 0x0c-0x0d\n"
		"pci write 0000:00:00.0 0x04-0x05 unsafe\n"
		"ioport 0x80 unsafe\n"
		"ioport 0xcf8-0xcff unsafe\n";
	static const struct {
		bool unsafe, safe;
	} want[] = {
		{ false, true }, { true, false }, { true, false },
		{ false, true }, { false, true }, { true, false },
		{ true, true }, { true, false },
	};
	struct lockdown_policy_error err;
	struct lockdown_owner_policy *p;
	unsigned int i;

	KUNIT_ASSERT_EQ(test, parse_str(test, text, &p, &err), 0);
	KUNIT_ASSERT_EQ(test, p->nr_rules, (unsigned int)ARRAY_SIZE(want));
	for (i = 0; i < ARRAY_SIZE(want); i++) {
		KUNIT_EXPECT_EQ_MSG(test, p->rules[i].unsafe, want[i].unsafe,
				    "rule %u", i);
		KUNIT_EXPECT_EQ_MSG(test, lockdown_rule_safe(&p->rules[i]),
				    want[i].safe, "rule %u", i);
	}
	KUNIT_EXPECT_EQ(test, lockdown_policy_match_msr(p, 0xc0000082, 0, 1), 1);
	KUNIT_EXPECT_EQ(test, lockdown_policy_match_ioport(p, 0x80, 1), 6);
	kfree(p);
}

static struct kunit_case owner_policy_test_cases[] = {
	KUNIT_CASE(owner_policy_test_example),
	KUNIT_CASE(owner_policy_test_syntax),
	KUNIT_CASE(owner_policy_test_lenient),
	KUNIT_CASE(owner_policy_test_empty),
	KUNIT_CASE_PARAM(owner_policy_test_rejected, bad_policy_gen_params),
	KUNIT_CASE(owner_policy_test_max_size),
	KUNIT_CASE(owner_policy_test_max_line),
	KUNIT_CASE(owner_policy_test_max_rules),
	KUNIT_CASE(owner_policy_test_match_msr),
	KUNIT_CASE(owner_policy_test_match_pci),
	KUNIT_CASE(owner_policy_test_match_ioport),
	KUNIT_CASE(owner_policy_test_unsafe),
	{}
};

static struct kunit_suite owner_policy_test_suite = {
	.name = "lockdown_owner_policy",
	.test_cases = owner_policy_test_cases,
};

kunit_test_suite(owner_policy_test_suite);
