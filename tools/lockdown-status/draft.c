// SPDX-License-Identifier: GPL-2.0
/*
 * lockdown-status --draft-policy: the refusals the kernel recorded
 * (lockdown_refusals) as the owner-policy rules that would allow them,
 * after the rules of the policy in force, under header lines for this
 * machine.  The owner reviews and signs the text; nothing here signs.
 *
 * Refusals of one register, or of ranges that touch or overlap, make one
 * rule; a refusal that a rule in force already names, or that no rule
 * can allow, is only a comment.  Comments carry nothing the kernel did
 * not print, and only printable ASCII (parse.c).
 */

#include <stdio.h>
#include <string.h>

#include "draft.h"

struct safe_range {
	unsigned int start, end;
};

/*
 * The safe list of security/lockdown/owner_parse.c: what a rule may open
 * without "unsafe" (tests/safe-list.sh checks that the two agree).
 */
static const struct safe_range safe_msrs[] = {
	{ 0x199, 0x199 }, { 0x1a2, 0x1a2 }, { 0x1ad, 0x1ad },
	{ 0x1b0, 0x1b0 }, { 0x1fc, 0x1fc }, { 0x610, 0x610 },
	{ 0x618, 0x618 }, { 0x638, 0x638 }, { 0x640, 0x640 },
	{ 0x774, 0x774 },
};

static const struct safe_range safe_pci[] = {
	{ 0x0c, 0x0d }, { 0x3c, 0x3c },
};

static const struct safe_range safe_ioports[] = {
	{ 0x80, 0x80 },
};

#define ARRAY_SIZE(a)	(sizeof(a) / sizeof((a)[0]))

/* Whether a rule opening [@start, @end] of @kind may leave out "unsafe". */
bool ld_rule_safe(enum ld_rule_kind kind, unsigned int start, unsigned int end)
{
	const struct safe_range *s = safe_msrs;
	size_t i, n = ARRAY_SIZE(safe_msrs);

	if (kind == LD_RULE_PCI)
		s = safe_pci, n = ARRAY_SIZE(safe_pci);
	else if (kind == LD_RULE_IOPORT)
		s = safe_ioports, n = ARRAY_SIZE(safe_ioports);
	for (i = 0; i < n; i++)
		if (start >= s[i].start && end <= s[i].end)
			return true;
	return false;
}

/* A rule the draft adds, and the refusals it answers. */
struct draft_rule {
	struct ld_policy_rule r;	/* kind, function, range (MSR: start) */
	bool refused[LD_MAX_REFUSALS];
};

static bool same_function(const struct ld_policy_rule *r,
			  const struct ld_access *a)
{
	return r->domain == a->domain && r->bus == a->bus &&
	       r->dev == a->dev && r->fn == a->fn;
}

/*
 * Whether @r (a rule in force, or one drafted) reaches @a: the same
 * register, or a range that overlaps it (@touch: or lies next to it).
 */
static bool reaches(const struct ld_policy_rule *r, const struct ld_access *a,
		    bool touch)
{
	unsigned int t = touch ? 1 : 0;

	switch (a->kind) {
	case LD_ACCESS_MSR:
		return r->kind == LD_RULE_MSR && r->msr == a->msr;
	case LD_ACCESS_PCI:
		if (r->kind != LD_RULE_PCI || !same_function(r, a))
			return false;
		break;
	case LD_ACCESS_IOPORT:
		if (r->kind != LD_RULE_IOPORT)
			return false;
		break;
	default:
		return false;
	}
	return a->start <= r->end + t && r->start <= a->end + t;
}

static void comment_refusal(FILE *f, const struct ld_refusal *r)
{
	fprintf(f, "# refused %llu time%s to %s (pid %u): %s\n", r->times,
		r->times == 1 ? "" : "s", r->comm, r->pid,
		r->access_text[0] ? r->access_text : r->reason);
}

/* Why @r gets no rule: NULL when it may get one. */
static const char *not_drafted(const struct ld_refusal *r)
{
	switch (r->access.kind) {
	case LD_ACCESS_MSR:
	case LD_ACCESS_IOPORT:
		return NULL;
	case LD_ACCESS_PCI:
		return r->access.domain > 0xffff ?
		       "a rule names PCI domains up to ffff only" : NULL;
	case LD_ACCESS_PCI_OUTSIDE:
		return "no rule allows a write past the config space";
	default:
		return r->access_text[0] ?
		       "this tool cannot read the access" :
		       "the kernel named no register, port or config offset: no rule allows it";
	}
}

/* The lines of the policy in force after its header, as they were signed. */
static void print_kept(FILE *f, const char *s)
{
	static const char * const header[] = {
		"lockdown-policy", "machine", "serial", "counter",
	};
	bool started = false;
	const char *e;
	size_t i, w;

	for (; *s; s = *e ? e + 1 : e) {
		e = s + strcspn(s, "\n");
		w = strcspn(s, " \t\n");
		for (i = 0; i < ARRAY_SIZE(header); i++)
			if (w == strlen(header[i]) && !memcmp(s, header[i], w))
				break;
		if (i < ARRAY_SIZE(header))
			started = true;
		else if (started)
			fprintf(f, "%.*s\n", (int)(e - s), s);
	}
}

static void print_rule(FILE *f, const struct draft_rule *dr,
		       const struct ld_refusals *rs)
{
	const struct ld_policy_rule *r = &dr->r;
	int i;

	for (i = 0; i < rs->n; i++)
		if (dr->refused[i])
			comment_refusal(f, &rs->r[i]);
	switch (r->kind) {
	case LD_RULE_MSR:
		fprintf(f, "msr write 0x%x", r->msr);
		break;
	case LD_RULE_PCI:
		fprintf(f, "pci write %04x:%02x:%02x.%x 0x%x", r->domain,
			r->bus, r->dev, r->fn, r->start);
		break;
	case LD_RULE_IOPORT:
		fprintf(f, "ioport 0x%x", r->start);
		break;
	}
	if (r->kind != LD_RULE_MSR && r->end != r->start)
		fprintf(f, "-0x%x", r->end);
	fprintf(f, "%s\n", ld_rule_safe(r->kind, r->start, r->end) ?
		"" : " unsafe");
}

/* Take @r into the drafted rules: a new one, or merged into others. */
static int draft_add(struct draft_rule *dr, int n, const struct ld_refusals *rs,
		     int i)
{
	const struct ld_access *a = &rs->r[i].access;
	struct draft_rule *into = NULL;
	int j;

	for (j = 0; j < n; j++) {
		if (!reaches(&dr[j].r, a, true))
			continue;
		if (!into) {
			into = &dr[j];
		} else {
			/* @a joins two drafted ranges: fold the later one in. */
			int k;

			for (k = 0; k < rs->n; k++)
				into->refused[k] |= dr[j].refused[k];
			if (dr[j].r.start < into->r.start)
				into->r.start = dr[j].r.start;
			if (dr[j].r.end > into->r.end)
				into->r.end = dr[j].r.end;
			dr[j--] = dr[--n];
		}
	}
	if (!into) {
		into = &dr[n++];
		memset(into, 0, sizeof(*into));
		into->r.kind = a->kind == LD_ACCESS_MSR ? LD_RULE_MSR :
			       a->kind == LD_ACCESS_PCI ? LD_RULE_PCI :
			       LD_RULE_IOPORT;
		into->r.msr = a->msr;
		into->r.domain = a->domain;
		into->r.bus = a->bus;
		into->r.dev = a->dev;
		into->r.fn = a->fn;
		into->r.start = a->kind == LD_ACCESS_MSR ? a->msr : a->start;
		into->r.end = a->kind == LD_ACCESS_MSR ? a->msr : a->end;
	} else if (a->kind != LD_ACCESS_MSR) {
		if (a->start < into->r.start)
			into->r.start = a->start;
		if (a->end > into->r.end)
			into->r.end = a->end;
	}
	into->refused[i] = true;
	return n;
}

/**
 * ld_draft_print - print a draft policy
 * @f: where to
 * @d: what it is made of
 *
 * Return: the number of rules it adds to the policy in force.
 */
int ld_draft_print(FILE *f, const struct ld_draft *d)
{
	static struct draft_rule dr[LD_MAX_REFUSALS];
	const struct ld_refusals *rs = d->refusals;
	const struct ld_policy *p = d->policy;
	int i, j, n = 0;

	/*
	 * Notes about this draft go before the header: a later draft keeps
	 * what follows the header as the owner signed it.
	 */
	fprintf(f, "# Drafted by lockdown-status --draft-policy from the kernel's refusals.\n"
		   "# Check each rule against the hardware's manual before you sign it:\n"
		   "# a rule that ends in \"unsafe\" can hand the kernel over to root.\n");
	if (d->counter_fresh)
		fprintf(f, "# The TPM counter was never incremented: serial 1 loads unless its first\n"
			   "# increment starts above it; the refusal then names the value to use.\n");
	if (rs->dropped)
		fprintf(f, "# %llu refusal%s since boot are not in the kernel's record.\n",
			rs->dropped, rs->dropped == 1 ? " was" : "s");
	fprintf(f, "lockdown-policy v1\nmachine pk-sha256:%s\nserial %llu\ncounter 0x%08x\n",
		d->pk_sha256, d->serial, d->counter);
	if (p->serial)
		print_kept(f, d->text);

	for (i = 0; i < rs->n; i++) {
		const struct ld_refusal *r = &rs->r[i];
		const char *why = not_drafted(r);

		for (j = 0; !why && j < p->nrules; j++)
			if (reaches(&p->rules[j], &r->access, false))
				why = "a rule in force reaches it (it refused this before it loaded, or by its mask or range): change that rule";
		if (why) {
			comment_refusal(f, r);
			fprintf(f, "#   not drafted: %s\n", why);
			continue;
		}
		n = draft_add(dr, n, rs, i);
	}
	for (i = 0; i < n; i++)
		print_rule(f, &dr[i], rs);
	return n;
}
