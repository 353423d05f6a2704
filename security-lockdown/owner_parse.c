// SPDX-License-Identifier: GPL-2.0
/*
 * Kernel lockdown: parse the owner policy, and match accesses against it.
 *
 * The text's format is in Documentation/admin-guide/LSM/lockdown.rst ("The
 * policy's text").  A line's bytes are checked first; then the line is
 * copied, NUL-terminated, and split with strsep(); numbers go through
 * kstrtou64() and hex2bin().  The safe list below is what a rule may open
 * without "unsafe".  No access matches two rules (check_unique()), so a
 * rule's index names the one rule an access used.  No locking: the parsed
 * policy is built here and never changed after.
 */

#include <linux/ctype.h>
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

/*
 * "0x" and hex digits, at most @max.  kstrtou64() skips the "0x" and
 * takes nothing else after it; what it takes without one ("+1", "1") is
 * refused first.
 */
static const char *parse_hex(const char *s, u64 max, u64 *val)
{
	int ret;

	if (!str_has_prefix(s, "0x"))
		return "not a 0x hex number";
	ret = kstrtou64(s, 16, val);
	if (ret == -ERANGE || (!ret && *val > max))
		return "number out of range";
	return ret ? "not a 0x hex number" : NULL;
}

/* START or START-END, hex, at most @max, START <= END. */
static const char *parse_range(char *s, u64 max, u16 *start, u16 *end)
{
	char *lo = strsep(&s, "-");
	const char *reason;
	u64 a, b;

	reason = parse_hex(lo, max, &a);
	if (!reason)
		reason = parse_hex(s ? s : lo, max, &b);
	if (reason)
		return reason;
	if (a > b)
		return "range ends before it starts";
	*start = a;
	*end = b;
	return NULL;
}

/* DDDD:BB:DD.F */
static const char *parse_pci_function(const char *s, struct lockdown_rule *r)
{
	u8 domain[2], bus, dev;
	int fn = strlen(s) == 12 ? hex_to_bin(s[11]) : -1;

	if (fn < 0 || s[4] != ':' || s[7] != ':' || s[10] != '.' ||
	    hex2bin(domain, s, 2) || hex2bin(&bus, s + 5, 1) ||
	    hex2bin(&dev, s + 8, 1))
		return "PCI function is not DDDD:BB:DD.F";
	if (dev > 0x1f)
		return "PCI device above 0x1f";
	if (fn > 7)
		return "PCI function above 7";
	r->pci.domain = domain[0] << 8 | domain[1];
	r->pci.bus = bus;
	r->pci.devfn = PCI_DEVFN(dev, fn);
	return NULL;
}

static const char *parse_serial(const char *s, u64 *val)
{
	int ret;

	/* kstrtou64() would take a '+' first */
	ret = isdigit(s[0]) ? kstrtou64(s, 10, val) : -EINVAL;
	if (ret == -ERANGE)
		return "serial out of range";
	if (ret)
		return "serial is not a decimal number";
	return *val ? NULL : "serial is zero";
}

static const char *parse_machine(const char *s, u8 *digest, size_t size)
{
	if (!str_has_prefix(s, "pk-sha256:"))
		return "machine is not pk-sha256:";
	s += strlen("pk-sha256:");
	if (strlen(s) != 2 * size || hex2bin(digest, s, size))
		return "PK digest is not 64 hex digits";
	return NULL;
}

static const char *parse_counter(const char *s, u32 *index)
{
	const char *reason;
	u64 v;

	reason = parse_hex(s, U32_MAX, &v);
	if (reason)
		return reason;
	if (v < LOCKDOWN_POLICY_NV_FIRST || v > LOCKDOWN_POLICY_NV_LAST)
		return "counter is not a TPM NV index (0x01000000-0x01ffffff)";
	*index = v;
	return NULL;
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

/* msr write ADDR [mask MASK] */
static const char *parse_msr(char **t, unsigned int n,
			     struct lockdown_rule *r)
{
	const char *reason;
	u64 index, mask = U64_MAX;

	if (n > 3 && strcmp(t[3], "mask"))
		return "extra tokens";
	reason = check_args(n, 3, 5);
	if (!reason && n == 4)
		reason = "missing argument";
	if (!reason)
		reason = parse_hex(t[2], U32_MAX, &index);
	if (!reason && n == 5) {
		reason = parse_hex(t[4], U64_MAX, &mask);
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
static const char *parse_pci(char **t, unsigned int n,
			     struct lockdown_rule *r)
{
	const char *reason;

	reason = check_args(n, 4, 4);
	if (!reason)
		reason = parse_pci_function(t[2], r);
	if (!reason)
		reason = parse_range(t[3], 0xfff, &r->pci.start, &r->pci.end);
	if (reason)
		return reason;
	r->kind = LOCKDOWN_RULE_PCI;
	return NULL;
}

/* ioport START[-END] */
static const char *parse_ioport(char **t, unsigned int n,
				struct lockdown_rule *r)
{
	const char *reason;

	reason = check_args(n, 2, 2);
	if (!reason)
		reason = parse_range(t[1], 0xffff, &r->io.start, &r->io.end);
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

static int parse_rule(struct parser *ps, char **t, unsigned int n)
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
	r->unsafe = n > 1 && !strcmp(t[n - 1], "unsafe");
	if (r->unsafe)
		n--;
	if (!strcmp(t[0], "msr"))
		reason = parse_msr(t, n, r);
	else if (!strcmp(t[0], "pci"))
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

/* machine, serial or counter: once each, before the first rule. */
static int parse_binding(struct parser *ps, char **t, unsigned int n)
{
	struct lockdown_owner_policy *p = ps->p;
	const char *reason;
	bool *seen;

	/* A rule needs all three: one after a rule is always a second one. */
	if (!strcmp(t[0], "machine"))
		seen = &ps->have_machine;
	else if (!strcmp(t[0], "serial"))
		seen = &ps->have_serial;
	else
		seen = &ps->have_counter;
	if (*seen)
		return fail(ps, -EINVAL, !strcmp(t[0], "machine") ?
			    "second machine line" : !strcmp(t[0], "serial") ?
			    "second serial line" : "second counter line");
	reason = check_args(n, 2, 2);
	if (!reason && seen == &ps->have_machine)
		reason = parse_machine(t[1], p->pk_sha256,
				       sizeof(p->pk_sha256));
	else if (!reason && seen == &ps->have_serial)
		reason = parse_serial(t[1], &p->serial);
	else if (!reason)
		reason = parse_counter(t[1], &p->counter);
	if (reason)
		return fail(ps, -EINVAL, reason);
	*seen = true;
	return 0;
}

/* One line, NUL-terminated, its characters checked: split and parse it. */
static int parse_line(struct parser *ps, char *line)
{
	char *t[MAX_TOKENS], *word;
	unsigned int n = 0;

	line = skip_spaces(line);
	if (!*line || *line == '#')
		return 0;
	while ((word = strsep(&line, " \t"))) {
		if (!*word)
			continue;
		t[n++] = word;
		/* more than any line may have: "extra tokens" below */
		if (n == MAX_TOKENS)
			break;
	}

	if (!strcmp(t[0], "lockdown-policy")) {
		if (ps->have_header)
			return fail(ps, -EINVAL, "second lockdown-policy line");
		if (n != 2 || strcmp(t[1], "v1"))
			return fail(ps, -EINVAL, n < 2 ? "missing argument" :
				    n > 2 ? "extra tokens" :
				    "policy version is not v1");
		ps->have_header = true;
		return 0;
	}
	if (!ps->have_header)
		return fail(ps, -EINVAL,
			    "policy does not start with lockdown-policy v1");
	if (!strcmp(t[0], "machine") || !strcmp(t[0], "serial") ||
	    !strcmp(t[0], "counter"))
		return parse_binding(ps, t, n);
	if ((!strcmp(t[0], "msr") || !strcmp(t[0], "pci")) &&
	    (n < 2 || !strcmp(t[1], "write")))
		return parse_rule(ps, t, n);
	if (!strcmp(t[0], "ioport"))
		return parse_rule(ps, t, n);
	return fail(ps, -EINVAL, "unknown directive");
}

/*
 * Length and bytes of one line, before anything looks at its words: no
 * byte a log line or a terminal would take for something else.
 */
static int check_chars(struct parser *ps, const char *s, size_t len)
{
	size_t i;

	if (len > LOCKDOWN_POLICY_MAX_LINE)
		return fail(ps, -EINVAL, "line longer than 255 characters");
	for (i = 0; i < len; i++) {
		if (!s[i])
			return fail(ps, -EINVAL, "NUL byte");
		if (s[i] == '\r')
			return fail(ps, -EINVAL, "carriage return");
		if (!isascii(s[i]))
			return fail(ps, -EINVAL, "non-ASCII byte");
		if (!isprint(s[i]) && s[i] != '\t')
			return fail(ps, -EINVAL, "control character");
	}
	return 0;
}

static int parse_text(struct parser *ps, const char *text, size_t len)
{
	const char *pos = text, *end = text + len, *nl;
	char line[LOCKDOWN_POLICY_MAX_LINE + 1];
	size_t n;
	int ret;

	while (pos < end) {
		nl = memchr(pos, '\n', end - pos);
		n = (nl ? nl : end) - pos;
		ps->line++;
		ret = check_chars(ps, pos, n);
		if (ret)
			return ret;
		memcpy(line, pos, n);
		line[n] = '\0';
		ret = parse_line(ps, line);
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
 * Parses the format of Documentation/admin-guide/LSM/lockdown.rst ("The
 * policy's text"). The text is only read; its signature must have been
 * checked by the caller. Nothing is printed: report @err as the caller
 * sees fit.
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

/* The last of @num ports or offsets from @from; false for none or past ~0. */
static bool span_last(unsigned long from, unsigned long num,
		      unsigned long *last)
{
	return num && !check_add_overflow(from, num - 1, last);
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
	unsigned long last;
	unsigned int i;

	if (!p || !span_last(off, len, &last))
		return -ENOENT;
	for (i = 0; i < p->nr_rules; i++) {
		r = &p->rules[i];
		if (r->kind == LOCKDOWN_RULE_PCI && r->pci.domain == domain &&
		    r->pci.bus == bus && r->pci.devfn == devfn &&
		    off >= r->pci.start && last <= r->pci.end)
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
	unsigned long last;
	unsigned int i;

	if (!p || !span_last(from, num, &last))
		return -ENOENT;
	for (i = 0; i < p->nr_rules; i++) {
		r = &p->rules[i];
		if (r->kind == LOCKDOWN_RULE_IOPORT && from >= r->io.start &&
		    last <= r->io.end)
			return i;
	}
	return -ENOENT;
}
