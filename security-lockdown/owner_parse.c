// SPDX-License-Identifier: GPL-2.0
/*
 * Kernel lockdown: parse the owner policy, and match accesses against it.
 *
 * The owner policy is a text the machine's owner signs to allow named MSR,
 * PCI-config and I/O-port writes while the kernel is locked down:
 *
 *	lockdown-policy v1
 *	machine pk-sha256:<64 hex digits>
 *	serial <decimal>
 *	counter 0x01800001
 *	# a comment
 *	msr write 0x610
 *	msr write 0x1a0 mask 0x0000000000400000 unsafe
 *	pci write 0000:00:18.0 0x60-0x6f unsafe
 *	ioport 0x80
 *
 * The text:
 *  - is at most 65536 bytes of ASCII with LF line ends; it need not end in
 *    '\n', carries no NUL and is never read past its length;
 *  - has lines of at most 255 characters (without the '\n') made of
 *    printable characters and tabs: NUL, '\r', every other control
 *    character (DEL included) and every byte above 0x7f are refused;
 *  - skips blank lines (nothing, or only spaces and tabs) and comment
 *    lines (first character '#') anywhere. Any other line starts with its
 *    first token, never with a space or tab, and has no comment after it;
 *    tokens are separated by spaces and tabs, which may also end a line.
 *    Directives and keywords are lower case.
 *
 * Order: the first line that is neither blank nor a comment is
 * "lockdown-policy v1". "machine", "serial" and "counter" follow, once
 * each and in any order, before the first rule, so that whoever reads a
 * policy sees which machine and which issue of it the text is for before
 * what it allows. At most 256 rules follow; none is a valid, empty policy.
 *
 * Fields:
 *  - machine pk-sha256:HEX: the SHA-256 digest of the contents of the
 *    machine's UEFI PK variable, 64 hex digits in either case;
 *  - serial N: decimal, 1 to 2^64 - 1, digits only, no leading zero;
 *  - counter INDEX: the TPM 2.0 NV counter that keeps the serial across
 *    reboots (owner.c), a handle 0x01000000 to 0x01ffffff;
 *  - every other number is hex: "0x" (lower-case x), then at least one
 *    hex digit in either case; leading zeros are allowed, values too large
 *    for the field are refused (MSR address 32 bits, mask 64 bits, PCI
 *    offset 0xfff, I/O port 0xffff);
 *  - msr write ADDR [mask MASK]: the write is allowed when it changes only
 *    bits set in MASK (non-zero; without it, all 64 bits);
 *  - pci write DDDD:BB:DD.F START[-END]: domain, bus, device (at most
 *    0x1f) and function (at most 7) as exactly 4, 2, 2 and 1 hex digits
 *    without "0x"; a config write is allowed when all its bytes lie inside
 *    START..END;
 *  - ioport START[-END]: an access is allowed when all its ports lie inside
 *    START..END;
 *  - a range is one token, START-END with START <= END, or one value;
 *  - a rule that opens anything not on the safe list below must end in
 *    "unsafe", the owner's word that it may hand the kernel over; any
 *    rule may.
 *
 * No access matches two rules: an MSR has at most one rule, and the ranges
 * of the PCI rules of one function, and of the I/O-port rules, do not
 * overlap. A rule's index therefore names the one rule an access used.
 */

#include <linux/errno.h>
#include <linux/kernel.h>
#include <linux/overflow.h>
#include <linux/pci.h>
#include <linux/slab.h>
#include <linux/string.h>

#include "owner_policy.h"

/* "msr write ADDR mask MASK unsafe" has the most tokens; one more is extra. */
#define MAX_TOKENS	7

/*
 * What a rule may open without "unsafe": registers, ports and config
 * offsets that only tune power, performance or a value the kernel does
 * not rely on, none of which can redirect code, memory or DMA.  Anything
 * else may hand the kernel over (LSTAR, EFER, PAT, the MTRRs, the x2APIC,
 * TSC_AUX that RDPID gives the entry code, the undervolting mailbox 0x150,
 * the PCI command register, BARs and bridge windows, MSI, the 0xcf8 config
 * ports, the SMI port 0xb2, DMA controllers, index/data pairs reaching a
 * whole register space) or is not known well enough to say.
 */
struct safe_range {
	u32 start;
	u32 end;
};

static const struct safe_range safe_msrs[] = {
	{ 0x199, 0x199 },	/* IA32_PERF_CTL: P-state request */
	{ 0x1a2, 0x1a2 },	/* MSR_TEMPERATURE_TARGET: throttling offset */
	{ 0x1ad, 0x1ad },	/* MSR_TURBO_RATIO_LIMIT */
	{ 0x1b0, 0x1b0 },	/* IA32_ENERGY_PERF_BIAS */
	{ 0x1fc, 0x1fc },	/* MSR_IA32_POWER_CTL: C1E, BD PROCHOT */
	{ 0x610, 0x610 },	/* MSR_PKG_POWER_LIMIT: RAPL package limits */
	{ 0x618, 0x618 },	/* MSR_DRAM_POWER_LIMIT */
	{ 0x638, 0x638 },	/* MSR_PP0_POWER_LIMIT: cores */
	{ 0x640, 0x640 },	/* MSR_PP1_POWER_LIMIT: graphics */
	{ 0x774, 0x774 },	/* IA32_HWP_REQUEST: HWP min, max, EPP */
};

/* Config offsets, in the header every function has. */
static const struct safe_range safe_pci[] = {
	{ 0x0c, 0x0d },		/* cache line size, latency timer */
	{ 0x3c, 0x3c },		/* interrupt line: a note for software */
};

static const struct safe_range safe_ioports[] = {
	{ 0x80, 0x80 },		/* POST code: a display, read by no one */
};

static bool range_safe(const struct safe_range *safe, size_t n,
		       u32 start, u32 end)
{
	size_t i;

	for (i = 0; i < n; i++)
		if (start >= safe[i].start && end <= safe[i].end)
			return true;
	return false;
}

/**
 * lockdown_rule_safe() - whether a rule opens only what is on the safe list
 * @r: a parsed rule
 *
 * Return: true when @r may be given without "unsafe".
 */
bool lockdown_rule_safe(const struct lockdown_rule *r)
{
	switch (r->kind) {
	case LOCKDOWN_RULE_MSR:
		return range_safe(safe_msrs, ARRAY_SIZE(safe_msrs),
				  r->msr.index, r->msr.index);
	case LOCKDOWN_RULE_PCI:
		return range_safe(safe_pci, ARRAY_SIZE(safe_pci),
				  r->pci.start, r->pci.end);
	case LOCKDOWN_RULE_IOPORT:
		return range_safe(safe_ioports, ARRAY_SIZE(safe_ioports),
				  r->io.start, r->io.end);
	}
	return false;
}

struct token {
	const char *s;
	size_t len;
};

struct parser {
	struct lockdown_owner_policy *p;	/* room for the most rules */
	unsigned int line;			/* current line, 1-based */
	bool have_header;
	bool have_machine;
	bool have_serial;
	bool have_counter;
	const char *reason;			/* why the parse failed */
};

static int fail(struct parser *ps, int ret, const char *reason)
{
	ps->reason = reason;
	return ret;
}

static bool is_blank(char c)
{
	return c == ' ' || c == '\t';
}

static bool tok_is(const struct token *t, const char *word)
{
	return t->len == strlen(word) && !memcmp(t->s, word, t->len);
}

/* Split s[0, len) at spaces and tabs into at most MAX_TOKENS tokens. */
static unsigned int tokenize(const char *s, size_t len, struct token *t)
{
	unsigned int n = 0;
	size_t i = 0, start;

	while (n < MAX_TOKENS) {
		while (i < len && is_blank(s[i]))
			i++;
		if (i == len)
			break;
		start = i;
		while (i < len && !is_blank(s[i]))
			i++;
		t[n].s = s + start;
		t[n].len = i - start;
		n++;
	}
	return n;
}

static const char *check_args(unsigned int n, unsigned int min,
			      unsigned int max)
{
	if (n < min)
		return "missing argument";
	if (n > max)
		return "extra tokens";
	return NULL;
}

/* "0x" and hex digits, at most @max. Returns NULL, or what is wrong. */
static const char *parse_hex(const struct token *t, u64 max, u64 *val)
{
	u64 v = 0;
	size_t i;
	int d;

	if (!t->len || (t->len == 2 && t->s[0] == '0' && t->s[1] == 'x'))
		return "empty number";
	if (t->len < 2 || t->s[0] != '0' || t->s[1] != 'x')
		return "number without 0x prefix";
	for (i = 2; i < t->len; i++) {
		d = hex_to_bin(t->s[i]);
		if (d < 0)
			return "bad hex digit";
		if (d > max || v > (max - d) / 16)
			return "number out of range";
		v = v * 16 + d;
	}
	*val = v;
	return NULL;
}

/* START or START-END, hex, at most @max, START <= END. */
static const char *parse_range(const struct token *t, u64 max,
			       u16 *start, u16 *end)
{
	const char *dash = memchr(t->s, '-', t->len);
	struct token lo_tok = *t, hi_tok = *t;
	const char *reason;
	u64 lo, hi;

	if (dash) {
		lo_tok.len = dash - t->s;
		hi_tok.s = dash + 1;
		hi_tok.len = t->len - lo_tok.len - 1;
	}
	reason = parse_hex(&lo_tok, max, &lo);
	if (!reason)
		reason = parse_hex(&hi_tok, max, &hi);
	if (reason)
		return reason;
	if (lo > hi)
		return "range ends before it starts";
	*start = lo;
	*end = hi;
	return NULL;
}

/* Exactly @n hex digits, no prefix. */
static bool parse_hex_field(const char *s, size_t n, unsigned int *val)
{
	unsigned int v = 0;
	int d;

	while (n--) {
		d = hex_to_bin(*s++);
		if (d < 0)
			return false;
		v = v << 4 | d;
	}
	*val = v;
	return true;
}

/* DDDD:BB:DD.F */
static const char *parse_pci_function(const struct token *t,
				      struct lockdown_rule *r)
{
	unsigned int domain, bus, dev, fn;
	const char *s = t->s;

	if (t->len != 12 || s[4] != ':' || s[7] != ':' || s[10] != '.' ||
	    !parse_hex_field(s, 4, &domain) ||
	    !parse_hex_field(s + 5, 2, &bus) ||
	    !parse_hex_field(s + 8, 2, &dev) ||
	    !parse_hex_field(s + 11, 1, &fn))
		return "PCI function is not DDDD:BB:DD.F";
	if (dev > 0x1f)
		return "PCI device above 0x1f";
	if (fn > 7)
		return "PCI function above 7";
	r->pci.domain = domain;
	r->pci.bus = bus;
	r->pci.devfn = PCI_DEVFN(dev, fn);
	return NULL;
}

static const char *parse_serial(const struct token *t, u64 *val)
{
	unsigned int d;
	u64 v = 0;
	size_t i;

	for (i = 0; i < t->len; i++) {
		d = (unsigned char)t->s[i] - '0';
		if (d > 9)
			return "serial is not a decimal number";
		if (v > (U64_MAX - d) / 10)
			return "serial out of range";
		v = v * 10 + d;
	}
	if (t->s[0] == '0')
		return t->len > 1 ? "serial has a leading zero" :
				    "serial is zero";
	*val = v;
	return NULL;
}

static const char *parse_machine(const struct token *t, u8 *digest,
				 size_t size)
{
	static const char prefix[] = "pk-sha256:";
	const size_t plen = sizeof(prefix) - 1;

	if (t->len < plen || memcmp(t->s, prefix, plen))
		return "machine is not pk-sha256:";
	if (t->len != plen + 2 * size || hex2bin(digest, t->s + plen, size))
		return "PK digest is not 64 hex digits";
	return NULL;
}

/* msr write ADDR [mask MASK] */
static const char *parse_msr(const struct token *t, unsigned int n,
			     struct lockdown_rule *r)
{
	const char *reason;
	u64 index, mask = U64_MAX;

	if (n > 3 && !tok_is(&t[3], "mask"))
		return "extra tokens";
	reason = check_args(n, 3, 5);
	if (!reason && n == 4)
		reason = "missing argument";
	if (!reason)
		reason = parse_hex(&t[2], U32_MAX, &index);
	if (!reason && n == 5) {
		reason = parse_hex(&t[4], U64_MAX, &mask);
		if (!reason && !mask)
			reason = "mask is zero";
	}
	if (reason)
		return reason;
	r->kind = LOCKDOWN_RULE_MSR;
	r->msr.index = index;
	r->msr.mask = mask;
	return NULL;
}

/* pci write DDDD:BB:DD.F START[-END] */
static const char *parse_pci(const struct token *t, unsigned int n,
			     struct lockdown_rule *r)
{
	const char *reason;

	reason = check_args(n, 4, 4);
	if (!reason)
		reason = parse_pci_function(&t[2], r);
	if (!reason)
		reason = parse_range(&t[3], 0xfff, &r->pci.start, &r->pci.end);
	if (reason)
		return reason;
	r->kind = LOCKDOWN_RULE_PCI;
	return NULL;
}

/* ioport START[-END] */
static const char *parse_ioport(const struct token *t, unsigned int n,
				struct lockdown_rule *r)
{
	const char *reason;

	reason = check_args(n, 2, 2);
	if (!reason)
		reason = parse_range(&t[1], 0xffff, &r->io.start, &r->io.end);
	if (reason)
		return reason;
	r->kind = LOCKDOWN_RULE_IOPORT;
	return NULL;
}

static bool overlap(u16 start1, u16 end1, u16 start2, u16 end2)
{
	return start1 <= end2 && start2 <= end1;
}

static bool same_function(const struct lockdown_rule *a,
			  const struct lockdown_rule *b)
{
	return a->pci.domain == b->pci.domain && a->pci.bus == b->pci.bus &&
	       a->pci.devfn == b->pci.devfn;
}

/* No access may match both @r and an earlier rule. */
static const char *check_unique(const struct lockdown_owner_policy *p,
				const struct lockdown_rule *r)
{
	const struct lockdown_rule *q;
	unsigned int i;

	for (i = 0; i < p->nr_rules; i++) {
		q = &p->rules[i];
		if (q->kind != r->kind)
			continue;
		if (r->kind == LOCKDOWN_RULE_MSR &&
		    q->msr.index == r->msr.index)
			return "second rule for this MSR";
		if (r->kind == LOCKDOWN_RULE_PCI && same_function(q, r) &&
		    overlap(q->pci.start, q->pci.end, r->pci.start, r->pci.end))
			return "range overlaps a rule of this PCI function";
		if (r->kind == LOCKDOWN_RULE_IOPORT &&
		    overlap(q->io.start, q->io.end, r->io.start, r->io.end))
			return "range overlaps another ioport rule";
	}
	return NULL;
}

static int parse_rule(struct parser *ps, const struct token *t,
		      unsigned int n)
{
	struct lockdown_owner_policy *p = ps->p;
	struct lockdown_rule *r;
	const char *reason;

	if (!ps->have_machine || !ps->have_serial || !ps->have_counter)
		return fail(ps, -EINVAL,
			    "rule before machine, serial and counter");
	if (p->nr_rules == LOCKDOWN_POLICY_MAX_RULES)
		return fail(ps, -E2BIG, "more than 256 rules");
	r = &p->rules[p->nr_rules];
	r->line = ps->line;
	r->unsafe = n > 1 && tok_is(&t[n - 1], "unsafe");
	if (r->unsafe)
		n--;
	if (tok_is(&t[0], "msr"))
		reason = parse_msr(t, n, r);
	else if (tok_is(&t[0], "pci"))
		reason = parse_pci(t, n, r);
	else
		reason = parse_ioport(t, n, r);
	if (!reason)
		reason = check_unique(p, r);
	if (!reason && !r->unsafe && !lockdown_rule_safe(r))
		reason = "not on the safe list: end the rule in unsafe";
	if (reason)
		return fail(ps, -EINVAL, reason);
	p->nr_rules++;
	return 0;
}

static int parse_header(struct parser *ps, const struct token *t,
			unsigned int n)
{
	const char *reason;

	if (ps->have_header)
		return fail(ps, -EINVAL, "second lockdown-policy line");
	reason = check_args(n, 2, 2);
	if (!reason && !tok_is(&t[1], "v1"))
		reason = "policy version is not v1";
	if (reason)
		return fail(ps, -EINVAL, reason);
	ps->have_header = true;
	return 0;
}

static const char *parse_counter(const struct token *t, u32 *index)
{
	const char *reason;
	u64 v;

	reason = parse_hex(t, U32_MAX, &v);
	if (reason)
		return reason;
	if (v < LOCKDOWN_POLICY_NV_FIRST || v > LOCKDOWN_POLICY_NV_LAST)
		return "counter is not a TPM NV index (0x01000000-0x01ffffff)";
	*index = v;
	return NULL;
}

/* machine, serial or counter: once each, before the first rule. */
static int parse_binding(struct parser *ps, const struct token *t,
			 unsigned int n)
{
	struct lockdown_owner_policy *p = ps->p;
	const char *reason, *again;
	bool *seen;

	/* A rule needs all three: one after a rule is always a second one. */
	if (tok_is(&t[0], "machine")) {
		seen = &ps->have_machine;
		again = "second machine line";
	} else if (tok_is(&t[0], "serial")) {
		seen = &ps->have_serial;
		again = "second serial line";
	} else {
		seen = &ps->have_counter;
		again = "second counter line";
	}
	if (*seen)
		return fail(ps, -EINVAL, again);
	reason = check_args(n, 2, 2);
	if (!reason && seen == &ps->have_machine)
		reason = parse_machine(&t[1], p->pk_sha256,
				       sizeof(p->pk_sha256));
	else if (!reason && seen == &ps->have_serial)
		reason = parse_serial(&t[1], &p->serial);
	else if (!reason)
		reason = parse_counter(&t[1], &p->counter);
	if (reason)
		return fail(ps, -EINVAL, reason);
	*seen = true;
	return 0;
}

static int parse_line(struct parser *ps, const char *s, size_t len)
{
	struct token t[MAX_TOKENS];
	unsigned int n;

	while (len && is_blank(s[len - 1]))
		len--;
	if (!len || s[0] == '#')
		return 0;
	if (is_blank(s[0]))
		return fail(ps, -EINVAL, "line starts with a space or tab");
	n = tokenize(s, len, t);

	if (tok_is(&t[0], "lockdown-policy"))
		return parse_header(ps, t, n);
	if (!ps->have_header)
		return fail(ps, -EINVAL,
			    "policy does not start with lockdown-policy v1");
	if (tok_is(&t[0], "machine") || tok_is(&t[0], "serial") ||
	    tok_is(&t[0], "counter"))
		return parse_binding(ps, t, n);
	if ((tok_is(&t[0], "msr") || tok_is(&t[0], "pci")) &&
	    (n < 2 || tok_is(&t[1], "write")))
		return parse_rule(ps, t, n);
	if (tok_is(&t[0], "ioport"))
		return parse_rule(ps, t, n);
	return fail(ps, -EINVAL, "unknown directive");
}

/* Length and bytes of one line, before anything looks at its tokens. */
static int check_chars(struct parser *ps, const char *s, size_t len)
{
	unsigned char c;
	size_t i;

	if (len > LOCKDOWN_POLICY_MAX_LINE)
		return fail(ps, -EINVAL, "line longer than 255 characters");
	for (i = 0; i < len; i++) {
		c = s[i];
		if (!c)
			return fail(ps, -EINVAL, "NUL byte");
		if (c == '\r')
			return fail(ps, -EINVAL, "carriage return");
		if (c > 0x7f)
			return fail(ps, -EINVAL, "non-ASCII byte");
		if ((c < 0x20 && c != '\t') || c == 0x7f)
			return fail(ps, -EINVAL, "control character");
	}
	return 0;
}

static int parse_text(struct parser *ps, const char *text, size_t len)
{
	const char *pos = text, *end = text + len, *nl;
	size_t n;
	int ret;

	while (pos < end) {
		nl = memchr(pos, '\n', end - pos);
		n = (nl ? nl : end) - pos;
		ps->line++;
		ret = check_chars(ps, pos, n);
		if (!ret)
			ret = parse_line(ps, pos, n);
		if (ret)
			return ret;
		pos = nl ? nl + 1 : end;
	}

	/* What was never seen concerns no line. */
	ps->line = 0;
	if (!ps->have_header)
		return fail(ps, -EINVAL, "no lockdown-policy line");
	if (!ps->have_machine)
		return fail(ps, -EINVAL, "no machine line");
	if (!ps->have_serial)
		return fail(ps, -EINVAL, "no serial line");
	if (!ps->have_counter)
		return fail(ps, -EINVAL, "no counter line");
	return 0;
}

/**
 * lockdown_policy_parse() - parse the text of an owner policy
 * @text: the policy; need not be NUL-terminated, never read past @len
 * @len: length of @text in bytes
 * @out: set to the parsed policy (free with kfree()), or to NULL on error
 * @err: if not NULL, set to the offending line and the reason on error,
 *	to line 0 and reason NULL on success
 *
 * Parses the format described at the top of this file. The text is only
 * read; its signature must have been checked by the caller. Nothing is
 * printed: report @err as the caller sees fit.
 *
 * Context: Process context; may sleep (GFP_KERNEL).
 * Return: 0 on success; -EINVAL for a malformed or contradictory text;
 * -E2BIG for a text over %LOCKDOWN_POLICY_MAX_SIZE bytes or with more than
 * %LOCKDOWN_POLICY_MAX_RULES rules; -ENOMEM.
 */
int lockdown_policy_parse(const char *text, size_t len,
			  struct lockdown_owner_policy **out,
			  struct lockdown_policy_error *err)
{
	struct parser ps = { };
	int ret;

	*out = NULL;
	if (len > LOCKDOWN_POLICY_MAX_SIZE) {
		ret = fail(&ps, -E2BIG, "policy larger than 65536 bytes");
		goto out;
	}
	ps.p = kzalloc(struct_size(ps.p, rules, LOCKDOWN_POLICY_MAX_RULES),
		       GFP_KERNEL);
	if (!ps.p) {
		ret = fail(&ps, -ENOMEM, "out of memory");
		goto out;
	}
	ret = parse_text(&ps, text, len);
	if (!ret) {
		/* Exactly the rules read: nothing lies past rules[nr_rules]. */
		*out = kmemdup(ps.p, struct_size(ps.p, rules, ps.p->nr_rules),
			       GFP_KERNEL);
		if (!*out)
			ret = fail(&ps, -ENOMEM, "out of memory");
	}
	kfree(ps.p);
out:
	if (err) {
		err->line = ret ? ps.line : 0;
		err->reason = ret ? ps.reason : NULL;
	}
	return ret;
}

/* Ports or offsets [from, from + num - 1] inside [start, end]; num 0 never. */
static bool span_inside(unsigned long from, unsigned long num,
			unsigned long start, unsigned long end)
{
	return num && from >= start && from <= end && num - 1 <= end - from;
}

/**
 * lockdown_policy_match_msr() - find the rule allowing an MSR write
 * @p: the owner policy, or NULL for none
 * @index: the MSR's address
 * @old: the register's value before the write
 * @new: the value the write would give it
 *
 * A rule allows the write when it names the MSR and @old and @new differ
 * only in bits of its mask.
 *
 * Return: the index of that rule in @p->rules, or -ENOENT if no rule
 * allows the write.
 */
int lockdown_policy_match_msr(const struct lockdown_owner_policy *p,
			      u32 index, u64 old, u64 new)
{
	const struct lockdown_rule *r;
	unsigned int i;

	if (!p)
		return -ENOENT;
	for (i = 0; i < p->nr_rules; i++) {
		r = &p->rules[i];
		if (r->kind != LOCKDOWN_RULE_MSR || r->msr.index != index)
			continue;
		/* The only rule for this MSR: it allows the write, or none. */
		if ((old ^ new) & ~r->msr.mask)
			return -ENOENT;
		return i;
	}
	return -ENOENT;
}

/**
 * lockdown_policy_match_pci() - find the rule allowing a PCI config write
 * @p: the owner policy, or NULL for none
 * @domain: PCI domain of the function written to, whole: a rule's four
 *	digits never match a domain above 0xffff (VMD numbers its own from
 *	0x10000)
 * @bus: its bus number
 * @devfn: its device and function, as PCI_DEVFN() encodes them
 * @off: config-space offset of the first byte written
 * @len: number of bytes written
 *
 * A rule allows the write when it names the function and every byte of
 * [@off, @off + @len - 1] lies inside its range. A write of 0 bytes, or
 * one that only partly lies inside a range, matches no rule.
 *
 * Return: the index of that rule in @p->rules, or -ENOENT if no rule
 * allows the write.
 */
int lockdown_policy_match_pci(const struct lockdown_owner_policy *p,
			      u32 domain, u8 bus, u8 devfn,
			      unsigned int off, unsigned int len)
{
	const struct lockdown_rule *r;
	unsigned int i;

	if (!p)
		return -ENOENT;
	for (i = 0; i < p->nr_rules; i++) {
		r = &p->rules[i];
		if (r->kind == LOCKDOWN_RULE_PCI && r->pci.domain == domain &&
		    r->pci.bus == bus && r->pci.devfn == devfn &&
		    span_inside(off, len, r->pci.start, r->pci.end))
			return i;
	}
	return -ENOENT;
}

/**
 * lockdown_policy_match_ioport() - find the rule allowing I/O-port access
 * @p: the owner policy, or NULL for none
 * @from: first port
 * @num: number of ports
 *
 * A rule allows the access when every port of [@from, @from + @num - 1]
 * lies inside its range. An access to 0 ports, or one that only partly
 * lies inside a range, matches no rule.
 *
 * Return: the index of that rule in @p->rules, or -ENOENT if no rule
 * allows the access.
 */
int lockdown_policy_match_ioport(const struct lockdown_owner_policy *p,
				 unsigned long from, unsigned long num)
{
	const struct lockdown_rule *r;
	unsigned int i;

	if (!p)
		return -ENOENT;
	for (i = 0; i < p->nr_rules; i++) {
		r = &p->rules[i];
		if (r->kind == LOCKDOWN_RULE_IOPORT &&
		    span_inside(from, num, r->io.start, r->io.end))
			return i;
	}
	return -ENOENT;
}
