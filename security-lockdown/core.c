// SPDX-License-Identifier: GPL-2.0
/*
 * Kernel lockdown: the level, how it is raised, and the one question.
 *
 * Copyright (C) 2016 Red Hat, Inc. All Rights Reserved.
 * Written by David Howells (dhowells@redhat.com)
 *
 * The level only goes up: none < integrity < confidentiality. The
 * converted sites ask kernel_is_locked_down() (an inline wrapper in
 * <linux/security.h>), the others security_locked_down(); both go
 * through the LSM hook list, so another LSM attached to locked_down (BPF)
 * is asked too, unless an LSM before it has already refused.
 */

#define pr_fmt(fmt) "lockdown: " fmt

#include <linux/capability.h>
#include <linux/init.h>
#include <linux/lockdown_lsm.h>
#include <linux/lockdown_owner.h>
#include <linux/mutex.h>
#include <linux/timekeeping.h>

#include "lockdown.h"

struct lockdown_state lockdown_state = LOCKDOWN_STATE_INIT(lockdown_state);
DEFINE_STATIC_KEY_FALSE(lockdown_open);
EXPORT_SYMBOL_GPL(lockdown_open);	/* msr.ko: <linux/lockdown_owner.h> */
/*
 * Serialises every raise with the one enabling of the open fast path: the
 * level and the key's state can never be seen out of step.
 */
static DEFINE_MUTEX(lockdown_key_mutex);
/* Static keys can be patched: set by lockdown_init_fastpath(). */
static bool lockdown_fastpath_ready __ro_after_init;

/**
 * lockdown_level_index - index of a level in the level tables
 * @level: LOCKDOWN_NONE, LOCKDOWN_INTEGRITY_MAX or
 *	LOCKDOWN_CONFIDENTIALITY_MAX
 *
 * Return: 0, 1 or 2, or -EINVAL when @level is not a level.
 */
int lockdown_level_index(enum lockdown_reason level)
{
	switch (level) {
	case LOCKDOWN_NONE:
		return 0;
	case LOCKDOWN_INTEGRITY_MAX:
		return 1;
	case LOCKDOWN_CONFIDENTIALITY_MAX:
		return 2;
	default:
		return -EINVAL;
	}
}

/**
 * lockdown_raise - raise a state to @level, recording the origin
 * @s: the state
 * @where: the origin, a string that outlives the state
 * @level: the new level
 * @when_ns: the time of the raise, ns since boot
 *
 * Return: 0 when raised, -EPERM when the state is already at @level or
 * above (lockdown is never lowered), -EINVAL when @level is not a level.
 */
int lockdown_raise(struct lockdown_state *s, const char *where,
		   enum lockdown_reason level, u64 when_ns)
{
	int idx = lockdown_level_index(level);
	unsigned long flags;
	int ret = -EPERM;

	if (idx < 0)
		return idx;

	spin_lock_irqsave(&s->lock, flags);
	if (level > s->level) {
		s->origin[idx].where = where;
		s->origin[idx].when_ns = when_ns;
		WRITE_ONCE(s->level, level);
		ret = 0;
	}
	spin_unlock_irqrestore(&s->lock, flags);
	return ret;
}

/**
 * lock_kernel_down - put the kernel into lockdown mode
 * @where: the origin, shown to userspace ("EFI Secure Boot", ...)
 * @level: LOCKDOWN_INTEGRITY_MAX or LOCKDOWN_CONFIDENTIALITY_MAX
 *
 * Raises the level; never lowers it, and takes CAP_COMPROMISE_KERNEL out
 * of the credentials that hold it (cap.c).
 *
 * The open fast path is closed before the new level is published, so
 * that whoever sees that level (reading securityfs, or refused a raise
 * with -EPERM because of it) finds every guarded site already asking.
 * Both happen under lockdown_key_mutex, which lockdown_init_fastpath()
 * also holds while it decides to open the fast path: a raise is either
 * wholly before that decision (and the path stays shut) or wholly after
 * it (and shuts it).  The mutex also makes a second raiser wait until
 * the first one's patching is complete, not only begun.
 *
 * Return: 0 when raised, -EPERM when already at @level or above,
 * -EINVAL when @level is not a level.
 */
int lock_kernel_down(const char *where, enum lockdown_reason level)
{
	int ret;

	if (lockdown_level_index(level) < 0)
		return -EINVAL;

	mutex_lock(&lockdown_key_mutex);
	/* Before lockdown_init_fastpath() the fast path is off anyway. */
	if (level != LOCKDOWN_NONE && lockdown_fastpath_ready)
		static_branch_disable(&lockdown_open);
	ret = lockdown_raise(&lockdown_state, where, level,
			     ktime_get_boot_fast_ns());
	mutex_unlock(&lockdown_key_mutex);
	if (ret)
		return ret;

	pr_notice("Kernel is locked down from %s; see man kernel_lockdown.7\n",
		  where);
	if (system_state == SYSTEM_BOOTING)
		lockdown_lower_init_caps();
	else
		lockdown_drop_caps();
	return 0;
}

/**
 * lockdown_early_refuses - whether the level raised so far refuses @what
 * @what: the reason of an operation that runs in setup_arch()
 *
 * For the guarded operations that can run before any LSM answers the
 * locked_down hook: ACPI table overrides from the initrd and acpi_rsdp=.
 * lockdown=, secureboot_enable= and firmware Secure Boot raise the level
 * earlier in setup_arch(), but where the tree initialises even early LSMs
 * after setup_arch() (6.12), or without CONFIG_SECURITY_LOCKDOWN_LSM_EARLY,
 * security_locked_down() cannot see that level yet. The caller asks both,
 * and logs its own refusal: nothing is counted or audited this early.
 *
 * Return: true when @what must be refused.
 */
bool __init lockdown_early_refuses(enum lockdown_reason what)
{
	return lockdown_check(&lockdown_state, what) == -EPERM;
}

/**
 * lockdown_decide - the lockdown hook's answer, beyond the open fast path
 * @s: the state
 * @o: the owner policy
 * @what: the reason asked about
 * @report: report a refusal (false: KUnit's questions)
 *
 * The level first; then, when the running task's site handed over the
 * access it asks about (lockdown_owner_question()), the owner policy;
 * then the refusal, reported with the access when there is one.
 *
 * Return: 0 when allowed, -EPERM when refused.
 */
noinline int lockdown_decide(const struct lockdown_state *s,
			     struct lockdown_owner *o,
			     enum lockdown_reason what, bool report)
{
	struct lockdown_access *a;
	int ret;

	ret = lockdown_check(s, what);
	if (ret == -EINVAL) {
		WARN(1, "Invalid lockdown reason %d", what);
		return -EPERM;
	}
	if (!ret)
		return 0;
	/* Hibernation into an image sealed to this kernel: hibernate.c. */
	if (what == LOCKDOWN_HIBERNATION &&
	    lockdown_hib_allowed(READ_ONCE(s->level)))
		return 0;
	a = lockdown_owner_access(what);
	if (a && lockdown_owner_allows(o, a))
		return 0;
	if (!report)
		return ret;
	lockdown_report(what, a);
	if (what == LOCKDOWN_HIBERNATION)
		pr_notice_ratelimited("hibernation needs %s\n",
				      lockdown_hib_missing(READ_ONCE(s->level)));
	return ret;
}

/*
 * The locked_down hook. While the kernel is open it costs a patched-out
 * jump and one comparison, less than the stock hook; everything else
 * (the level, an invalid reason, the owner policy, reporting) is decided
 * out of line.
 */
static int lockdown_locked_down(enum lockdown_reason what)
{
	if (static_branch_likely(&lockdown_open) &&
	    likely((unsigned int)what < LOCKDOWN_CONFIDENTIALITY_MAX))
		return 0;
	return lockdown_decide(&lockdown_state, LOCKDOWN_RUNNING_OWNER, what,
			       true);
}

static struct security_hook_list lockdown_hooks[] __lockdown_hooks_ro = {
	LSM_HOOK_INIT(locked_down, lockdown_locked_down),
	LSM_HOOK_INIT(cred_prepare, lockdown_cred_prepare),
};

static int __init lockdown_lsm_init(void)
{
	lockdown_owner_init();
	lockdown_policy_init();
	lockdown_add_hooks(lockdown_hooks, ARRAY_SIZE(lockdown_hooks));
	return 0;
}

/*
 * The LSM initialises before static keys can be patched; enable the fast
 * path once they can, if nothing locked the kernel down during boot.
 */
static int __init lockdown_init_fastpath(void)
{
	mutex_lock(&lockdown_key_mutex);
	if (lockdown_state.level == LOCKDOWN_NONE)
		static_branch_enable(&lockdown_open);
	lockdown_fastpath_ready = true;
	mutex_unlock(&lockdown_key_mutex);
	return 0;
}
early_initcall(lockdown_init_fastpath);

#ifdef CONFIG_SECURITY_LOCKDOWN_LSM_EARLY
DEFINE_EARLY_LSM(lockdown) = {
#else
DEFINE_LSM(lockdown) = {
#endif
	.name = "lockdown",
	.init = lockdown_lsm_init,
#ifdef CONFIG_SECURITY_LOCKDOWN_OWNER_POLICY
	.blobs = &lockdown_blob_sizes,
#endif
};
