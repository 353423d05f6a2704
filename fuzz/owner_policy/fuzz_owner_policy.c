// SPDX-License-Identifier: GPL-2.0
/*
 * libFuzzer target for the lockdown owner-policy parser and matchers
 * (security-lockdown/owner_parse.c, compiled unchanged against the shim
 * headers next to this file).
 *
 * The input is the policy text, copied into a buffer of exactly its size
 * (no NUL after it), so AddressSanitizer catches any read past it; the
 * parsed policy is allocated at its exact size too. A refusal must say
 * why and name a line of the input. An accepted policy must keep the
 * promises of owner_policy.h: at most 256 rules, every range in bounds and
 * in order, no access matching two rules, each rule matched by accesses on
 * its own bounds and by nothing just outside them, every rule not marked
 * unsafe on the safe list. Finally the policy is
 * written out in canonical form and parsed again, which must give the same
 * policy.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <linux/kernel.h>
#include <linux/pci.h>

#include "owner_policy.h"

#define CHECK(cond) do {						\
	if (!(cond)) {							\
		fprintf(stderr, "%s:%d: invariant failed: %s\n",	\
			__FILE__, __LINE__, #cond);			\
		abort();						\
	}								\
} while (0)

static int verbose;

static unsigned int count_lines(const char *text, size_t len)
{
	unsigned int n = 0;
	size_t i;

	for (i = 0; i < len; i++)
		if (text[i] == '\n')
			n++;
	return n + (len && text[len - 1] != '\n');
}

/* The matchers, asked about rule @r's MSR or function. */
static int msr(const struct lockdown_owner_policy *p,
	       const struct lockdown_rule *r, u64 old, u64 new)
{
	return lockdown_policy_match_msr(p, r->msr.index, old, new);
}

static int pci(const struct lockdown_owner_policy *p,
	       const struct lockdown_rule *r, unsigned int off,
	       unsigned int len)
{
	return lockdown_policy_match_pci(p, r->pci.domain, r->pci.bus,
					 r->pci.devfn, off, len);
}

static int io(const struct lockdown_owner_policy *p, unsigned long from,
	      unsigned long num)
{
	return lockdown_policy_match_ioport(p, from, num);
}

static void check_msr(const struct lockdown_owner_policy *p, int i)
{
	const struct lockdown_rule *r = &p->rules[i];
	u64 m = r->msr.mask;

	CHECK(m != 0);
	CHECK(msr(p, r, 0, 0) == i);
	CHECK(msr(p, r, 0, m) == i);
	CHECK(msr(p, r, ~m, U64_MAX) == i);
	CHECK(msr(p, r, 0x5a5a, 0x5a5a ^ m) == i);
	if (m != U64_MAX) {
		CHECK(msr(p, r, 0, ~m) == -ENOENT);
		CHECK(msr(p, r, m, U64_MAX) == -ENOENT);
	}
}

static void check_pci(const struct lockdown_owner_policy *p, int i)
{
	const struct lockdown_rule *r = &p->rules[i];
	unsigned int s = r->pci.start, e = r->pci.end;

	CHECK(s <= e && e <= 0xfff);
	CHECK(pci(p, r, s, e - s + 1) == i);
	CHECK(pci(p, r, s, 1) == i);
	CHECK(pci(p, r, e, 1) == i);
	CHECK(pci(p, r, s, 0) == -ENOENT);
	CHECK(pci(p, r, s, e - s + 2) == -ENOENT);
	CHECK(pci(p, r, e, ~0U) == -ENOENT);
	/* A write across either edge lies inside no rule of this function. */
	CHECK(pci(p, r, e, 2) == -ENOENT);
	if (s)
		CHECK(pci(p, r, s - 1, 2) == -ENOENT);
}

static void check_io(const struct lockdown_owner_policy *p, int i)
{
	const struct lockdown_rule *r = &p->rules[i];
	unsigned long s = r->io.start, e = r->io.end;

	CHECK(s <= e && e <= 0xffff);
	CHECK(io(p, s, e - s + 1) == i);
	CHECK(io(p, s, 1) == i);
	CHECK(io(p, e, 1) == i);
	CHECK(io(p, s, 0) == -ENOENT);
	CHECK(io(p, s, e - s + 2) == -ENOENT);
	CHECK(io(p, e, ~0UL) == -ENOENT);
	/* An access across either edge lies inside no rule. */
	CHECK(io(p, e, 2) == -ENOENT);
	if (s)
		CHECK(io(p, s - 1, 2) == -ENOENT);
}

static int disjoint(unsigned int start1, unsigned int end1,
		    unsigned int start2, unsigned int end2)
{
	return end1 < start2 || end2 < start1;
}

static int same_function(const struct lockdown_rule *a,
			 const struct lockdown_rule *b)
{
	return a->pci.domain == b->pci.domain && a->pci.bus == b->pci.bus &&
	       a->pci.devfn == b->pci.devfn;
}

static void check_pairs(const struct lockdown_owner_policy *p)
{
	const struct lockdown_rule *a, *b;
	unsigned int i, j;

	for (i = 0; i < p->nr_rules; i++) {
		a = &p->rules[i];
		for (j = i + 1; j < p->nr_rules; j++) {
			b = &p->rules[j];
			CHECK(a->line < b->line);
			if (a->kind != b->kind)
				continue;
			if (a->kind == LOCKDOWN_RULE_MSR)
				CHECK(a->msr.index != b->msr.index);
			if (a->kind == LOCKDOWN_RULE_PCI && same_function(a, b))
				CHECK(disjoint(a->pci.start, a->pci.end,
					       b->pci.start, b->pci.end));
			if (a->kind == LOCKDOWN_RULE_IOPORT)
				CHECK(disjoint(a->io.start, a->io.end,
					       b->io.start, b->io.end));
		}
	}
}

/* The policy in canonical form; 256 rules take at most 12 KiB. */
static size_t format_policy(const struct lockdown_owner_policy *p,
			    char *buf, size_t size)
{
	const struct lockdown_rule *r;
	size_t n = 0;
	unsigned int i;

#define OUT(...) do {							\
	int w = snprintf(buf + n, size - n, __VA_ARGS__);		\
	CHECK(w > 0 && (size_t)w < size - n);				\
	n += w;								\
} while (0)
	OUT("lockdown-policy v1\nmachine pk-sha256:");
	for (i = 0; i < sizeof(p->pk_sha256); i++)
		OUT("%02x", p->pk_sha256[i]);
	OUT("\nserial %llu\ncounter 0x%08x\n", (unsigned long long)p->serial,
	    p->counter);
	for (i = 0; i < p->nr_rules; i++) {
		r = &p->rules[i];
		switch (r->kind) {
		case LOCKDOWN_RULE_MSR:
			OUT("msr write 0x%x mask 0x%llx", r->msr.index,
			    (unsigned long long)r->msr.mask);
			break;
		case LOCKDOWN_RULE_PCI:
			OUT("pci write %04x:%02x:%02x.%x 0x%x-0x%x",
			    r->pci.domain, r->pci.bus, PCI_SLOT(r->pci.devfn),
			    PCI_FUNC(r->pci.devfn), r->pci.start, r->pci.end);
			break;
		case LOCKDOWN_RULE_IOPORT:
			OUT("ioport 0x%x-0x%x", r->io.start, r->io.end);
			break;
		default:
			CHECK(!"rule kind");
		}
		OUT("%s\n", r->unsafe ? " unsafe" : "");
	}
#undef OUT
	return n;
}

static void check_round_trip(const struct lockdown_owner_policy *p)
{
	static char buf[LOCKDOWN_POLICY_MAX_SIZE];
	struct lockdown_owner_policy *q;
	struct lockdown_policy_error err;
	const struct lockdown_rule *a, *b;
	size_t len = format_policy(p, buf, sizeof(buf));
	char *text = malloc(len);
	unsigned int i;

	CHECK(text);
	memcpy(text, buf, len);
	CHECK(lockdown_policy_parse(text, len, &q, &err) == 0);
	free(text);
	CHECK(q->serial == p->serial && q->nr_rules == p->nr_rules &&
	      q->counter == p->counter);
	CHECK(!memcmp(q->pk_sha256, p->pk_sha256, sizeof(p->pk_sha256)));
	for (i = 0; i < p->nr_rules; i++) {
		a = &p->rules[i];
		b = &q->rules[i];
		CHECK(a->kind == b->kind && b->line == i + 5 &&
		      a->unsafe == b->unsafe);
		if (a->kind == LOCKDOWN_RULE_MSR)
			CHECK(a->msr.index == b->msr.index &&
			      a->msr.mask == b->msr.mask);
		else if (a->kind == LOCKDOWN_RULE_PCI)
			CHECK(same_function(a, b) &&
			      a->pci.start == b->pci.start &&
			      a->pci.end == b->pci.end);
		else
			CHECK(a->io.start == b->io.start &&
			      a->io.end == b->io.end);
	}
	free(q);
}

static void check_policy(const struct lockdown_owner_policy *p,
			 unsigned int lines)
{
	unsigned int i;

	CHECK(p->serial != 0);
	CHECK(p->counter >= LOCKDOWN_POLICY_NV_FIRST &&
	      p->counter <= LOCKDOWN_POLICY_NV_LAST);
	CHECK(p->nr_rules <= LOCKDOWN_POLICY_MAX_RULES);
	for (i = 0; i < p->nr_rules; i++) {
		CHECK(p->rules[i].line >= 1 && p->rules[i].line <= lines);
		CHECK(p->rules[i].unsafe || lockdown_rule_safe(&p->rules[i]));
		switch (p->rules[i].kind) {
		case LOCKDOWN_RULE_MSR:
			check_msr(p, i);
			break;
		case LOCKDOWN_RULE_PCI:
			check_pci(p, i);
			break;
		case LOCKDOWN_RULE_IOPORT:
			check_io(p, i);
			break;
		default:
			CHECK(!"rule kind");
		}
	}
	check_pairs(p);
	check_round_trip(p);
}

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
	verbose = getenv("FUZZ_VERBOSE") != NULL;
	CHECK(lockdown_policy_match_msr(NULL, 0, 0, 0) == -ENOENT);
	CHECK(lockdown_policy_match_pci(NULL, 0, 0, 0, 0, 1) == -ENOENT);
	CHECK(lockdown_policy_match_ioport(NULL, 0, 1) == -ENOENT);
	return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct lockdown_owner_policy *p = (void *)&size;
	struct lockdown_policy_error err = { ~0U, "unset" };
	unsigned int lines = count_lines((const char *)data, size);
	/* Exactly the input: no NUL after it, nothing to read past it. */
	char *text = malloc(size ? size : 1);
	int ret;

	CHECK(text);
	memcpy(text, data, size);
	ret = lockdown_policy_parse(text, size, &p, &err);
	free(text);
	if (verbose && ret)
		fprintf(stderr, "refused: %d, line %u: %s\n", ret, err.line,
			err.reason);
	else if (verbose)
		fprintf(stderr, "accepted: serial %llu, %u rules\n",
			(unsigned long long)p->serial, p->nr_rules);
	if (ret) {
		CHECK(ret == -EINVAL || ret == -E2BIG);
		CHECK(p == NULL);
		CHECK(err.reason != NULL && strcmp(err.reason, "unset"));
		CHECK(err.line <= lines);
		if (size > LOCKDOWN_POLICY_MAX_SIZE)
			CHECK(ret == -E2BIG && err.line == 0);
		return 0;
	}
	CHECK(size <= LOCKDOWN_POLICY_MAX_SIZE);
	CHECK(err.line == 0 && err.reason == NULL);
	check_policy(p, lines);
	free(p);
	return 0;
}
