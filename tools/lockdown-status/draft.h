/* SPDX-License-Identifier: GPL-2.0 */
/*
 * lockdown-status: draft an owner policy from the kernel's refusals.
 */
#ifndef LOCKDOWN_STATUS_DRAFT_H
#define LOCKDOWN_STATUS_DRAFT_H

#include <stdbool.h>
#include <stdio.h>

#include "parse.h"

/* The TPM counter a first policy names: the guide's example. */
#define LD_DRAFT_COUNTER	0x01800001

/* What a draft is made of; the caller has read it all. */
struct ld_draft {
	const struct ld_refusals *refusals;
	const struct ld_policy *policy;	/* in force; serial 0: none */
	const char *text;		/* its text; NULL when none */
	const char *pk_sha256;		/* this machine's, lower-case hex */
	unsigned long long serial;	/* the draft's */
	unsigned int counter;		/* the draft's TPM counter */
	bool counter_fresh;		/* never incremented: serial 1 guessed */
};

bool ld_rule_safe(enum ld_rule_kind kind, unsigned int start,
		  unsigned int end);
int ld_draft_print(FILE *f, const struct ld_draft *d);

#endif /* LOCKDOWN_STATUS_DRAFT_H */
