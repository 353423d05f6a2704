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
#include <linux/bits.h>
#include <linux/jump_label.h>
#include <linux/lsm_hooks.h>
#include <linux/mutex.h>
#include <linux/rcupdate.h>
#include <linux/sched.h>
#include <linux/security.h>
#include <linux/spinlock.h>
#include <linux/string.h>
#include <linux/types.h>

#include "owner_policy.h"

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
int lockdown_raise(struct lockdown_state *s, const char *where,
		   enum lockdown_reason level, u64 when_ns);

/**
 * lockdown_reason_valid - whether @what names something to guard
 * @what: a reason, as passed to kernel_is_locked_down()
 *
 * The level markers (none, integrity, confidentiality) are not reasons.
 */
static inline bool lockdown_reason_valid(enum lockdown_reason what)
{
	return what > LOCKDOWN_NONE && what < LOCKDOWN_CONFIDENTIALITY_MAX &&
	       what != LOCKDOWN_INTEGRITY_MAX;
}

/**
 * lockdown_check - decide one question against a state
 * @s: the state
 * @what: the reason being asked about
 *
 * Inline: every question that gets past the open fast path asks it, the
 * hook's and, for a write the owner policy may allow, the site's.
 *
 * Return: 0 when allowed, -EPERM when @what is forbidden at the current
 * level, -EINVAL when @what is not a valid reason.
 */
static inline int lockdown_check(const struct lockdown_state *s,
				 enum lockdown_reason what)
{
	if (!lockdown_reason_valid(what))
		return -EINVAL;
	return READ_ONCE(s->level) >= what ? -EPERM : 0;
}

/* report.c */

struct lockdown_access;
struct seq_file;

void lockdown_count(struct lockdown_state *s, enum lockdown_reason what);
void lockdown_report(enum lockdown_reason what, const struct lockdown_access *a);
void lockdown_report_allowed(const struct lockdown_access *a);
void lockdown_describe(const struct lockdown_access *a, char *buf,
		       size_t size);
void lockdown_show_refusals(struct seq_file *m);

/* cap.c */
int lockdown_cred_prepare(struct cred *new, const struct cred *old, gfp_t gfp);
void lockdown_lower_init_caps(void);
void lockdown_drop_caps(void);

/* owner.c: the owner policy in force, and the questions of the sites */

/* The most a write to lockdown_policy may carry: text and signature. */
#define LOCKDOWN_OWNER_BLOB_MAX	(LOCKDOWN_POLICY_MAX_SIZE + 16384)
#define LOCKDOWN_SIGNER_MAX	128	/* bytes of a signer's description */

/**
 * struct lockdown_owner_set - an installed owner policy
 * @policy: the parsed policy
 * @text: its text, as signed (not NUL-terminated)
 * @len: length of @text
 * @sha256: SHA-256 of @text
 * @signer: description of the key that signed it
 * @loaded_ns: boot-time clock at the load, in ns
 * @uses: per rule of @policy, how many accesses it allowed
 */
struct lockdown_owner_set {
	struct lockdown_owner_policy *policy;
	char *text;
	size_t len;
	u8 sha256[32];
	char signer[LOCKDOWN_SIGNER_MAX];
	u64 loaded_ns;
	atomic64_t uses[];
};

/**
 * struct lockdown_owner - the owner policy in force
 * @lock: serialises loads
 * @set: the current policy, NULL before the first load; RCU-protected
 * @serial: the serial of the current policy, 0 before the first load
 *
 * The running kernel has one, in owner.c; KUnit tests make their own.
 */
struct lockdown_owner {
	struct mutex lock;	/* serialises loads: @set and @serial */
	struct lockdown_owner_set __rcu *set;
	u64 serial;
};

/**
 * struct lockdown_access - an access a guarded site asks about
 * @what: %LOCKDOWN_MSR, %LOCKDOWN_PCI_ACCESS or %LOCKDOWN_IOPORT
 * @msr: for %LOCKDOWN_MSR: CPU, address, value before and after the write
 * @msr.cpu: the CPU whose register is written
 * @msr.reg: the MSR's address
 * @msr.old: its value before the write; unused when @msr.read is set
 * @msr.new: its value after the write
 * @msr.read: reads the value before the write on @msr.cpu
 *	(rdmsrl_safe_on_cpu()), only when a rule with a mask needs it;
 *	NULL when @msr.old holds it (KUnit)
 * @pci: for %LOCKDOWN_PCI_ACCESS: function, first offset, byte count
 * @pci.domain: PCI domain of the function, whole (pci_domain_nr())
 * @pci.bus: its bus
 * @pci.devfn: its device and function
 * @pci.off: first config-space offset written
 * @pci.len: number of bytes written
 * @io: for %LOCKDOWN_IOPORT: first port, port count
 * @io.from: first port
 * @io.num: number of ports
 * @rule: set by the lockdown hook: the index of the rule that allows the
 *	access, or -ENOENT
 * @line: the line of that rule
 * @serial: the serial of the policy it is in
 */
struct lockdown_access {
	enum lockdown_reason what;
	int rule;
	unsigned int line;
	u64 serial;
	union {
		struct {
			unsigned int cpu;
			u32 reg;
			u64 old;
			u64 new;
			int (*read)(unsigned int cpu, u32 reg, u64 *val);
		} msr;
		struct {
			u32 domain;
			u8 bus;
			u8 devfn;
			unsigned int off;
			unsigned int len;
		} pci;
		struct {
			unsigned long from;
			unsigned long num;
		} io;
	};
};

struct lockdown_owner_set *
lockdown_owner_set_alloc(struct lockdown_owner_policy *policy,
			 const char *text, size_t len, const u8 *digest,
			 const char *signer);
void lockdown_owner_set_free(struct lockdown_owner_set *set);
int lockdown_owner_install(struct lockdown_owner *o,
			   struct lockdown_owner_set *set, u64 *cur_serial);
void lockdown_owner_destroy(struct lockdown_owner *o);
bool lockdown_owner_can_ask(void);
int lockdown_owner_split(const void *blob, size_t len, size_t *textlen,
			 size_t *siglen);
int lockdown_owner_load(const void *blob, size_t len);

/* owner_tpm.c: how far a serial may pass its counter in one load */
#define LOCKDOWN_COUNTER_MAX_STEP	64
int lockdown_owner_counter_advance(u32 index, u64 serial, u64 *value);
void lockdown_owner_show_text(struct seq_file *m);
void lockdown_owner_show_status(struct seq_file *m);
bool lockdown_owner_question(struct lockdown_owner *o,
			     struct lockdown_access *a,
			     bool (*ask)(enum lockdown_reason what));

#ifdef CONFIG_SECURITY_LOCKDOWN_OWNER_POLICY
extern struct lockdown_owner lockdown_owner;
#define LOCKDOWN_RUNNING_OWNER	(&lockdown_owner)
extern struct lsm_blob_sizes lockdown_blob_sizes;
extern bool lockdown_blob_ready;

/**
 * struct lockdown_task - the lockdown LSM's part of a task's security blob
 * @access: the access the task's guarded site is asking about, while it
 *	asks (lockdown_owner_question()), else NULL
 */
struct lockdown_task {
	struct lockdown_access *access;
};

static __always_inline struct lockdown_task *
lockdown_task(const struct task_struct *t)
{
	if (!lockdown_blob_ready || !t->security)
		return NULL;
	return t->security + lockdown_blob_sizes.lbs_task;
}

/**
 * lockdown_owner_access - the access the running task's site asks about
 * @what: the reason the locked_down hook is asked about
 *
 * The blob is the running task's own, set and cleared by the task itself
 * and never inherited (a child's blob starts zeroed); an interrupt that
 * asks inside the window is not in task context and gets NULL.
 *
 * Inline: the hook asks it about every question past the open fast path.
 *
 * Context: Any.
 * Return: the access lockdown_owner_question() handed over for @what, or
 * NULL.
 */
static inline struct lockdown_access *
lockdown_owner_access(enum lockdown_reason what)
{
	const struct lockdown_task *lt;
	struct lockdown_access *a;

	if (!in_task())
		return NULL;
	lt = lockdown_task(current);
	if (!lt)
		return NULL;
	a = READ_ONCE(lt->access);
	return a && a->what == what ? a : NULL;
}

bool lockdown_owner_allows(struct lockdown_owner *o, struct lockdown_access *a);
void __init lockdown_owner_init(void);
#else
#define LOCKDOWN_RUNNING_OWNER	NULL
static inline void lockdown_owner_init(void)
{
}

static inline struct lockdown_access *
lockdown_owner_access(enum lockdown_reason what)
{
	return NULL;
}

static inline bool lockdown_owner_allows(struct lockdown_owner *o,
					 struct lockdown_access *a)
{
	return false;
}
#endif

/* tpm_nv.c: the TPM NV counters of owner_tpm.c and hibernate_tpm.c */
#define LOCKDOWN_TPMA_NV_AUTHWRITE	BIT(2)
#define LOCKDOWN_TPMA_NV_TYPE		GENMASK(7, 4)
#define LOCKDOWN_TPM_NT_COUNTER		1
#define LOCKDOWN_TPMA_NV_AUTHREAD	BIT(18)
#define LOCKDOWN_TPMA_NV_NO_DA		BIT(25)
#define LOCKDOWN_TPMA_NV_WRITTEN	BIT(29)
struct tpm_chip;
struct tpm_chip *lockdown_tpm_get(void);
void lockdown_tpm_put(struct tpm_chip *chip);
int lockdown_tpm_counter_check(struct tpm_chip *chip, u32 index, u32 *attrs);
int lockdown_tpm_counter_read(struct tpm_chip *chip, u32 index, u64 *value);
int lockdown_tpm_counter_increment(struct tpm_chip *chip, u32 index);

/* tpm_nv.c, hibernate_tpm.c: big-endian fields of a TPM response */
static inline u16 lockdown_be16(const u8 *p)
{
	__be16 v;

	memcpy(&v, p, sizeof(v));
	return be16_to_cpu(v);
}

static inline u32 lockdown_be32(const u8 *p)
{
	__be32 v;

	memcpy(&v, p, sizeof(v));
	return be32_to_cpu(v);
}

static inline u64 lockdown_be64(const u8 *p)
{
	__be64 v;

	memcpy(&v, p, sizeof(v));
	return be64_to_cpu(v);
}

/* hibernate.c: hibernation at integrity, in images sealed by the TPM */
#ifdef CONFIG_SECURITY_LOCKDOWN_HIBERNATION
bool lockdown_hib_allowed(enum lockdown_reason level);
const char *lockdown_hib_missing(enum lockdown_reason level);
#else
static inline bool lockdown_hib_allowed(enum lockdown_reason level)
{
	return false;
}

static inline const char *lockdown_hib_missing(enum lockdown_reason level)
{
	return "CONFIG_SECURITY_LOCKDOWN_HIBERNATION";
}
#endif

/* core.c: the lockdown hook's answer */
int lockdown_decide(const struct lockdown_state *s, struct lockdown_owner *o,
		    enum lockdown_reason what, bool report);

/* policy.c */
int __init lockdown_policy_init(void);

#endif /* _SECURITY_LOCKDOWN_H */
