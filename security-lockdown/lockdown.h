/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Kernel lockdown: what the files of security/lockdown/ share.
 *
 * The state is a struct so that the KUnit tests can run the same code
 * on a private instance; the running kernel has exactly one,
 * lockdown_state, defined in core.c.
 */
#ifndef _SECURITY_LOCKDOWN_H
#define _SECURITY_LOCKDOWN_H

#include <linux/atomic.h>
#include <linux/jump_label.h>
#include <linux/ratelimit.h>
#include <linux/security.h>
#include <linux/spinlock.h>
#include <linux/types.h>

/* The three levels, as indexes: none, integrity, confidentiality. */
#define LOCKDOWN_NR_LEVELS 3

/**
 * struct lockdown_origin - who raised the kernel to a level, and when
 * @where: origin as given to lock_kernel_down(), e.g. "EFI Secure Boot"
 * @when_ns: boot-time clock (ns since boot) of the raise
 */
struct lockdown_origin {
	const char *where;
	u64 when_ns;
};

/**
 * struct lockdown_state - the lockdown level and its history
 * @lock: serialises raises; readers use READ_ONCE() on @level
 * @level: LOCKDOWN_NONE, LOCKDOWN_INTEGRITY_MAX or
 *	LOCKDOWN_CONFIDENTIALITY_MAX; only ever raised
 * @origin: per level index, who raised the kernel to it (NULL: never)
 * @denials: per reason, how many times it was refused since boot
 */
struct lockdown_state {
	spinlock_t lock;	/* serialises raises of @level and @origin */
	enum lockdown_reason level;
	struct lockdown_origin origin[LOCKDOWN_NR_LEVELS];
	atomic_long_t denials[LOCKDOWN_CONFIDENTIALITY_MAX];
};

#define LOCKDOWN_STATE_INIT(name) {					\
	.lock = __SPIN_LOCK_UNLOCKED(name.lock),			\
	.level = LOCKDOWN_NONE,						\
}

extern struct lockdown_state lockdown_state;

/* core.c */
int lockdown_level_index(enum lockdown_reason level);
bool lockdown_reason_valid(enum lockdown_reason what);
int lockdown_check(const struct lockdown_state *s, enum lockdown_reason what);
int lockdown_raise(struct lockdown_state *s, const char *where,
		   enum lockdown_reason level, u64 when_ns);

/*
 * True while the kernel is known to be open: the hooks then return at
 * once. Off until lockdown_init_fastpath() has seen the boot-time level,
 * and off for good once the kernel is locked down.
 */
DECLARE_STATIC_KEY_FALSE(lockdown_open);

/* report.c */
void lockdown_count(struct lockdown_state *s, enum lockdown_reason what);
void lockdown_report(enum lockdown_reason what);
void __init lockdown_report_init(void);

/* cap.c */
int lockdown_cred_prepare(struct cred *new, const struct cred *old, gfp_t gfp);
void lockdown_lower_init_caps(void);
void lockdown_drop_caps(void);

/* policy.c */
int __init lockdown_policy_init(void);

#endif /* _SECURITY_LOCKDOWN_H */
