// SPDX-License-Identifier: GPL-2.0
/*
 * Kernel lockdown: reporting denials.
 *
 * Every denial is counted per reason (userspace reads the counts in
 * securityfs); within a rate limit per reason, so that a storm of one kind
 * never hides another, it is also logged with the upstream text and sent
 * to audit.
 */

/* The upstream denial text, which scripts and kernel_lockdown(7) quote. */
#define pr_fmt(fmt) "Lockdown: " fmt

#include <linux/audit.h>
#include <linux/cred.h>
#include <linux/init.h>
#include <linux/lsm_audit.h>
#include <linux/ratelimit.h>
#include <linux/sched.h>

#include "lockdown.h"

/*
 * One limit per reason, for the console line and the audit record alike:
 * unprivileged users can cause denials (reading /sys/power/state asks
 * about hibernation), and neither the log nor audit's backlog may be
 * theirs to flood.  What a limit holds back is still counted in
 * lockdown_state.denials[], and the next report of that reason says how
 * many were held back: the count then, less the count at the last report.
 */
static struct lockdown_limit lockdown_limits[LOCKDOWN_CONFIDENTIALITY_MAX] = {
	[0 ... LOCKDOWN_CONFIDENTIALITY_MAX - 1] =
		LOCKDOWN_LIMIT_INIT(lockdown_limits),
};

static atomic_long_t lockdown_reported_at[LOCKDOWN_CONFIDENTIALITY_MAX];

/**
 * lockdown_limit_pass - whether a report may go out now
 * @l: the limit
 *
 * Once @l is spent, @l->quiet_until holds the end of its window: until
 * then the answer is a load and a comparison, not the ratelimit's lock.
 * A daemon the owner policy allows, or a program refused in a loop, then
 * costs next to nothing per call.
 *
 * Context: Any.
 * Return: true when the caller may log and audit.
 */
bool lockdown_limit_pass(struct lockdown_limit *l)
{
	if (lockdown_limit_quiet(l))
		return false;
	if (__ratelimit(&l->rs))
		return true;
	/* Spent, not merely contended: quiet until the window ends. */
	if (READ_ONCE(l->rs.printed) >= l->rs.burst)
		WRITE_ONCE(l->quiet_until,
			   READ_ONCE(l->rs.begin) + l->rs.interval);
	return false;
}

/**
 * lockdown_held_back - how many reports a limit held back since the last
 * @due: how many reports were due so far, the one being made included
 * @reported_at: @due at the last report made; set to @due now
 *
 * Racing reporters may split the count between them; it is never below 0.
 *
 * Return: the number of reports held back before this one.
 */
long lockdown_held_back(atomic_long_t *due, atomic_long_t *reported_at)
{
	long now = atomic_long_read(due);
	long held = now - 1 - atomic_long_xchg(reported_at, now);

	return held > 0 ? held : 0;
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

struct lockdown_audit_data {
	struct common_audit_data ad;
	long suppressed;
};

static void lockdown_audit_pre(struct audit_buffer *ab, void *data)
{
	audit_log_format(ab, "lsm=lockdown denied level=%s",
			 lockdown_reasons[READ_ONCE(lockdown_state.level)]);
}

static void lockdown_audit_post(struct audit_buffer *ab, void *data)
{
	struct lockdown_audit_data *lad =
		container_of(data, struct lockdown_audit_data, ad);

	audit_log_format(ab, " suppressed=%ld uid=%u auid=%u",
			 lad->suppressed,
			 from_kuid(&init_user_ns, current_uid()),
			 from_kuid(&init_user_ns, audit_get_loginuid(current)));
	audit_log_task_context(ab);
}

/*
 * An AVC record as the other LSMs write through lsm_audit, for example:
 *   lsm=lockdown denied level=integrity pid=212 comm="wrmsr"
 *   lockdown_reason="raw MSR access" suppressed=0 uid=0 auid=4294967295
 * followed by subj= when an LSM labels tasks.
 */
static void lockdown_audit(enum lockdown_reason what, long suppressed)
{
	struct lockdown_audit_data lad = {
		.ad.type = LSM_AUDIT_DATA_LOCKDOWN,
		.ad.u.reason = what,
		.suppressed = suppressed,
	};

	if (!audit_enabled)
		return;
	common_lsm_audit(&lad.ad, lockdown_audit_pre, lockdown_audit_post);
}

/**
 * lockdown_report - report a denial of @what to the running task
 * @what: a valid reason
 *
 * Counts the denial, and within the reason's rate limit logs it and sends
 * it to audit, saying first how many reports the limit held back.  Safe
 * in atomic context.
 */
void lockdown_report(enum lockdown_reason what)
{
	long suppressed;

	lockdown_count(&lockdown_state, what);
	if (!lockdown_limit_pass(&lockdown_limits[what]))
		return;
	suppressed = lockdown_held_back(&lockdown_state.denials[what],
					&lockdown_reported_at[what]);
	if (suppressed)
		pr_notice("%ld more denials of %s were not logged\n",
			  suppressed, lockdown_reasons[what]);
	pr_notice("%s: %s is restricted; see man kernel_lockdown.7\n",
		  current->comm, lockdown_reasons[what]);
	lockdown_audit(what, suppressed);
}

struct lockdown_allowed_data {
	struct common_audit_data ad;
	u64 serial;
	unsigned int line;
	const char *access;
	long suppressed;
};

static void lockdown_allowed_pre(struct audit_buffer *ab, void *data)
{
	audit_log_format(ab, "lsm=lockdown allowed level=%s",
			 lockdown_reasons[READ_ONCE(lockdown_state.level)]);
}

static void lockdown_allowed_post(struct audit_buffer *ab, void *data)
{
	struct lockdown_allowed_data *lad =
		container_of(data, struct lockdown_allowed_data, ad);

	/*
	 * The access is text owner.c builds from numbers alone: quoted as
	 * is, like lockdown_reason.  audit_log_untrustedstring() would turn
	 * it into hex for its spaces.
	 */
	audit_log_format(ab, " policy_serial=%llu policy_line=%u access=\"%s\" suppressed=%ld",
			 lad->serial, lad->line, lad->access, lad->suppressed);
	audit_log_format(ab, " uid=%u auid=%u",
			 from_kuid(&init_user_ns, current_uid()),
			 from_kuid(&init_user_ns, audit_get_loginuid(current)));
	audit_log_task_context(ab);
}

/**
 * lockdown_audit_allowed - audit an access the owner policy let through
 * @what: the reason the access is guarded by
 * @serial: the serial of the owner policy that allowed it
 * @line: the line of the rule that allowed it
 * @access: what was accessed, e.g. "wrmsr 0x610 value 0x0 cpu 0"
 * @suppressed: how many allowed accesses the report limit held back since
 *	the last record
 *
 * Sends a record in the shape of the denial records, for example:
 *   lsm=lockdown allowed level=integrity pid=212 comm="wrmsr"
 *   lockdown_reason="raw MSR access" policy_serial=7 policy_line=4
 *   access="wrmsr 0x610 value 0x0 cpu 0" suppressed=0 uid=0
 *   auid=4294967295
 * The caller rate-limits it together with its console line.  Safe in
 * atomic context.
 */
void lockdown_audit_allowed(enum lockdown_reason what, u64 serial,
			    unsigned int line, const char *access,
			    long suppressed)
{
	struct lockdown_allowed_data lad = {
		.ad.type = LSM_AUDIT_DATA_LOCKDOWN,
		.ad.u.reason = what,
		.serial = serial,
		.line = line,
		.access = access,
		.suppressed = suppressed,
	};

	if (!audit_enabled)
		return;
	common_lsm_audit(&lad.ad, lockdown_allowed_pre, lockdown_allowed_post);
}
