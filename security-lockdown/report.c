// SPDX-License-Identifier: GPL-2.0
/*
 * Kernel lockdown: reporting denials.
 *
 * Every denial is counted per reason (userspace reads the counts in
 * securityfs), logged with the upstream text, rate limited per reason so
 * that a storm of one kind never hides another, and sent to audit.
 */

/* The upstream denial text, which scripts and kernel_lockdown(7) quote. */
#define pr_fmt(fmt) "Lockdown: " fmt

#include <linux/audit.h>
#include <linux/init.h>
#include <linux/ratelimit.h>
#include <linux/sched.h>

#include "lockdown.h"

static struct ratelimit_state lockdown_rs[LOCKDOWN_CONFIDENTIALITY_MAX];

void __init lockdown_report_init(void)
{
	int i;

	for (i = 0; i < ARRAY_SIZE(lockdown_rs); i++)
		ratelimit_state_init(&lockdown_rs[i], DEFAULT_RATELIMIT_INTERVAL,
				     DEFAULT_RATELIMIT_BURST);
}

/**
 * lockdown_count - count one denial of @what
 * @s: the state
 * @what: a valid reason
 */
void lockdown_count(struct lockdown_state *s, enum lockdown_reason what)
{
	atomic_long_inc(&s->denials[what]);
}

static void lockdown_audit(enum lockdown_reason what)
{
	struct audit_buffer *ab;

	if (!audit_enabled)
		return;
	ab = audit_log_start(audit_context(), GFP_ATOMIC, AUDIT_KERNEL_OTHER);
	if (!ab)
		return;
	/* Reasons are kernel constants: quoted as lsm_audit does. */
	audit_log_format(ab, "op=lockdown lockdown_reason=\"%s\" level=%s pid=%d comm=",
			 lockdown_reasons[what],
			 lockdown_reasons[READ_ONCE(lockdown_state.level)],
			 task_tgid_nr(current));
	audit_log_untrustedstring(ab, current->comm);
	audit_log_end(ab);
}

/**
 * lockdown_report - report a denial of @what to the running task
 * @what: a valid reason
 *
 * Safe in atomic context.
 */
void lockdown_report(enum lockdown_reason what)
{
	lockdown_count(&lockdown_state, what);
	if (__ratelimit(&lockdown_rs[what]))
		pr_notice("%s: %s is restricted; see man kernel_lockdown.7\n",
			  current->comm, lockdown_reasons[what]);
	lockdown_audit(what);
}
