// SPDX-License-Identifier: GPL-2.0
/*
 * Kernel lockdown: reporting refusals, and accesses the owner policy
 * allows.
 *
 * Every refusal is counted per reason and kept in a small record of the
 * last ones (lockdown_refusals in securityfs).  Within a rate limit, per
 * reason for refusals and one for allowed accesses, each is also logged
 * and audited, naming the access when the site said which it was; the
 * next report says how many the limit held back.
 */

/* The upstream denial text, which scripts and kernel_lockdown(7) quote. */
#define pr_fmt(fmt) "Lockdown: " fmt

#include <linux/audit.h>
#include <linux/cred.h>
#include <linux/init.h>
#include <linux/jiffies.h>
#include <linux/lsm_audit.h>
#include <linux/pci.h>
#include <linux/ratelimit_types.h>
#include <linux/sched.h>
#include <linux/seq_file.h>
#include <linux/slab.h>
#include <linux/timekeeping.h>

#include "lockdown.h"

/*
 * One limit per reason, for the console line and the audit record alike:
 * unprivileged users can cause denials (reading /sys/power/state asks
 * about hibernation), and neither the log nor audit's backlog may be
 * theirs to flood; a storm of one reason hides no other.  Allowed
 * accesses share one more limit: a daemon the owner allows to write an
 * MSR many times a second floods neither.
 */
#define LOCKDOWN_ALLOWED LOCKDOWN_NONE	/* the allowed accesses' slot */

/*
 * A report limit: at most DEFAULT_RATELIMIT_BURST reports in a window of
 * DEFAULT_RATELIMIT_INTERVAL (printk's defaults), the window starting at
 * the first report after the last one ended.  Lock-free (refusals come
 * from NMIs too); a spent window costs a few loads and comparisons.
 */

struct lockdown_limit {
	unsigned long window_end;	/* jiffies */
	atomic_t left;			/* reports left in the window */
};

static struct lockdown_limit lockdown_limits[LOCKDOWN_CONFIDENTIALITY_MAX] = {
	[0 ... LOCKDOWN_CONFIDENTIALITY_MAX - 1] = {
		.window_end = INITIAL_JIFFIES,
	},
};

/* Reports due at the last report made, per limit. */
static atomic_long_t lockdown_reported_at[LOCKDOWN_CONFIDENTIALITY_MAX];

/* Accesses the owner policy allowed since boot (the due count). */
static atomic_long_t lockdown_allowed;

/* The last refusals, oldest first from @next (lockdown_refusals). */
#define LOCKDOWN_REFUSALS 16

struct lockdown_refusal {
	u64 when_ns;		/* the first of the run */
	unsigned long times;	/* the same refusal in a row */
	pid_t pid;		/* the first's */
	char comm[TASK_COMM_LEN];
	enum lockdown_reason what;
	bool detailed;		/* @access is the site's */
	struct lockdown_access access;
};

static struct {
	raw_spinlock_t lock;	/* trylock only: refusals come from NMIs too */
	unsigned long next;	/* refusals recorded since boot */
	struct lockdown_refusal r[LOCKDOWN_REFUSALS];
} lockdown_refusals = {
	.lock = __RAW_SPIN_LOCK_UNLOCKED(lockdown_refusals.lock),
};

/* Refusals not recorded because the lock was busy. */
static atomic_long_t lockdown_refusals_lost;

/*
 * Whether a report may go out now.  Whoever starts a new window refills
 * it; a report racing that start may pass on the last window's rest.
 */
static bool lockdown_limit_pass(struct lockdown_limit *l)
{
	unsigned long end = READ_ONCE(l->window_end);
	unsigned long now = jiffies;

	if (time_after_eq(now, end) &&
	    try_cmpxchg(&l->window_end, &end, now + DEFAULT_RATELIMIT_INTERVAL))
		atomic_set(&l->left, DEFAULT_RATELIMIT_BURST);
	return atomic_dec_if_positive(&l->left) >= 0;
}

/*
 * How many reports a limit held back since the last: @due reports were
 * due so far, this one included, and @reported_at were at the last report
 * made (set to @due now).  Racing reporters may split the count between
 * them; it is never below 0.
 */
static long lockdown_held_back(atomic_long_t *due, atomic_long_t *reported_at)
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

/**
 * lockdown_describe - name an access as the reports do
 * @a: the access
 * @buf: where to write the name
 * @size: size of @buf
 *
 * For example "wrmsr 0x610 value 0x0 cpu 0", "pci write 0000:00:02.0
 * 0x3c+1", "ioport 0x2e+2": numbers only, no quotes.
 */
void lockdown_describe(const struct lockdown_access *a, char *buf,
		       size_t size)
{
	switch (a->what) {
	case LOCKDOWN_MSR:
		snprintf(buf, size, "wrmsr 0x%x value 0x%llx cpu %u", a->msr.reg,
			 a->msr.new, a->msr.cpu);
		break;
	case LOCKDOWN_PCI_ACCESS:
		if (!a->pci.len) {
			snprintf(buf, size, "pci write %04x:%02x:%02x.%x outside config space",
				 a->pci.domain, a->pci.bus,
				 PCI_SLOT(a->pci.devfn), PCI_FUNC(a->pci.devfn));
			break;
		}
		snprintf(buf, size, "pci write %04x:%02x:%02x.%x 0x%x+%u",
			 a->pci.domain, a->pci.bus, PCI_SLOT(a->pci.devfn),
			 PCI_FUNC(a->pci.devfn), a->pci.off, a->pci.len);
		break;
	default:
		snprintf(buf, size, "ioport 0x%lx+%lu", a->io.from, a->io.num);
		break;
	}
}

static bool lockdown_same_access(const struct lockdown_access *x,
				 const struct lockdown_access *y)
{
	if (x->what != y->what)
		return false;
	switch (x->what) {
	case LOCKDOWN_MSR:
		return x->msr.reg == y->msr.reg && x->msr.cpu == y->msr.cpu &&
		       x->msr.new == y->msr.new;
	case LOCKDOWN_PCI_ACCESS:
		return x->pci.domain == y->pci.domain &&
		       x->pci.bus == y->pci.bus &&
		       x->pci.devfn == y->pci.devfn &&
		       x->pci.off == y->pci.off && x->pci.len == y->pci.len;
	default:
		return x->io.from == y->io.from && x->io.num == y->io.num;
	}
}

/*
 * Keep a refusal of @what (@a: the access, when the site named it) in the
 * record; the same refusal by the same command as the newest is counted
 * on it, so that a program refused in a loop takes one entry and costs
 * a comparison.  Command names are compared and copied whole: the kernel
 * pads them with NULs (__set_task_comm()).
 */
static void lockdown_record(enum lockdown_reason what,
			    const struct lockdown_access *a)
{
	struct lockdown_refusal *r = NULL;
	unsigned long flags;

	if (!raw_spin_trylock_irqsave(&lockdown_refusals.lock, flags)) {
		atomic_long_inc(&lockdown_refusals_lost);
		return;
	}
	if (lockdown_refusals.next) {
		r = &lockdown_refusals.r[(lockdown_refusals.next - 1) %
					 LOCKDOWN_REFUSALS];
		if (r->what != what || r->detailed != !!a ||
		    (a && !lockdown_same_access(&r->access, a)) ||
		    memcmp(r->comm, current->comm, sizeof(r->comm)))
			r = NULL;
	}
	if (r) {
		r->times++;
	} else {
		r = &lockdown_refusals.r[lockdown_refusals.next++ %
					 LOCKDOWN_REFUSALS];
		r->when_ns = ktime_get_boot_fast_ns();
		r->times = 1;
		r->pid = task_pid_nr(current);
		memcpy(r->comm, current->comm, sizeof(r->comm));
		r->what = what;
		r->detailed = !!a;
		if (a) {
			r->access = *a;
			r->access.msr.read = NULL;	/* never called from here */
		}
	}
	raw_spin_unlock_irqrestore(&lockdown_refusals.lock, flags);
}

/**
 * lockdown_show_refusals - print the record of the last refusals
 * @m: the seq_file of /sys/kernel/security/lockdown_refusals
 *
 * "dropped N" (refusals pushed out of the record or never recorded
 * since boot), then one line per refusal, oldest first:
 *
 *	refused NS pid PID times N reason "REASON" [access "ACCESS"] comm COMM
 *
 * NS and PID are the first refusal's of a run of the same one, ACCESS as
 * the reports name it (only where the site said which access it was),
 * COMM last, its unprintable bytes escaped.
 */
void lockdown_show_refusals(struct seq_file *m)
{
	struct lockdown_refusal *copy, *r;
	unsigned long next, n, i;
	char access[80];

	copy = kmalloc_array(LOCKDOWN_REFUSALS, sizeof(*copy), GFP_KERNEL);
	if (!copy)
		return;
	raw_spin_lock_irq(&lockdown_refusals.lock);
	next = lockdown_refusals.next;
	memcpy(copy, lockdown_refusals.r, sizeof(lockdown_refusals.r));
	raw_spin_unlock_irq(&lockdown_refusals.lock);

	n = min_t(unsigned long, next, LOCKDOWN_REFUSALS);
	seq_printf(m, "dropped %lu\n", next - n +
		   atomic_long_read(&lockdown_refusals_lost));
	for (i = next - n; i < next; i++) {
		r = &copy[i % LOCKDOWN_REFUSALS];
		seq_printf(m, "refused %llu pid %d times %lu reason \"%s\"",
			   r->when_ns, r->pid, r->times,
			   lockdown_reasons[r->what]);
		if (r->detailed) {
			lockdown_describe(&r->access, access, sizeof(access));
			seq_printf(m, " access \"%s\"", access);
		}
		seq_printf(m, " comm %*pE\n",
			   (int)strnlen(r->comm, sizeof(r->comm)), r->comm);
	}
	kfree(copy);
}

struct lockdown_audit_data {
	struct common_audit_data ad;
	const struct lockdown_access *access;
	bool allowed;
	long suppressed;
};

static void lockdown_audit_pre(struct audit_buffer *ab, void *data)
{
	struct lockdown_audit_data *lad =
		container_of(data, struct lockdown_audit_data, ad);

	audit_log_format(ab, "lsm=lockdown %s level=%s",
			 lad->allowed ? "allowed" : "denied",
			 lockdown_reasons[READ_ONCE(lockdown_state.level)]);
}

static void lockdown_audit_post(struct audit_buffer *ab, void *data)
{
	struct lockdown_audit_data *lad =
		container_of(data, struct lockdown_audit_data, ad);
	const struct lockdown_access *a = lad->access;
	char access[80];

	if (lad->allowed)
		audit_log_format(ab, " policy_serial=%llu policy_line=%u",
				 a->serial, a->line);
	/*
	 * Numbers only: quoted as is, like lockdown_reason.
	 * audit_log_untrustedstring() would turn it into hex for its spaces.
	 */
	if (a) {
		lockdown_describe(a, access, sizeof(access));
		audit_log_format(ab, " access=\"%s\"", access);
	}
	audit_log_format(ab, " suppressed=%ld uid=%u auid=%u",
			 lad->suppressed,
			 from_kuid(&init_user_ns, current_uid()),
			 from_kuid(&init_user_ns, audit_get_loginuid(current)));
	audit_log_task_context(ab);
}

/*
 * One report: the console line and an AVC record as the other LSMs write
 * through lsm_audit, for example:
 *   lsm=lockdown denied level=integrity pid=212 comm="wrmsr"
 *   lockdown_reason="raw MSR access" access="wrmsr 0x610 value 0x0 cpu 0"
 *   suppressed=0 uid=0 auid=4294967295
 * with policy_serial= and policy_line= before access= when allowed, and
 * subj= after when an LSM labels tasks.
 */
static void lockdown_log(enum lockdown_reason what,
			 const struct lockdown_access *a, bool allowed,
			 long suppressed)
{
	struct lockdown_audit_data lad = {
		.ad.type = LSM_AUDIT_DATA_LOCKDOWN,
		.ad.u.reason = what,
		.access = a,
		.allowed = allowed,
		.suppressed = suppressed,
	};
	char access[80];

	if (lad.allowed) {
		if (suppressed)
			pr_notice("%ld more allowed accesses were not logged\n",
				  suppressed);
		lockdown_describe(a, access, sizeof(access));
		pr_notice("%s[%d]: owner policy line %u allows %s\n",
			  current->comm, task_pid_nr(current), a->line, access);
	} else {
		if (suppressed)
			pr_notice("%ld more denials of %s were not logged\n",
				  suppressed, lockdown_reasons[what]);
		access[0] = '\0';
		if (a)
			lockdown_describe(a, access, sizeof(access));
		pr_notice("%s: %s is restricted; see man kernel_lockdown.7%s%s%s\n",
			  current->comm, lockdown_reasons[what],
			  a ? " (" : "", access, a ? ")" : "");
	}
	if (audit_enabled)
		common_lsm_audit(&lad.ad, lockdown_audit_pre,
				 lockdown_audit_post);
}

/**
 * lockdown_report - report a denial of @what to the running task
 * @what: a valid reason
 * @a: the access refused, when the site said which it was, else NULL
 *
 * Counts the denial and records it, and within the reason's rate limit
 * logs it and sends it to audit, saying first how many reports the limit
 * held back.  Safe in any context.
 */
void lockdown_report(enum lockdown_reason what,
		     const struct lockdown_access *a)
{
	lockdown_count(&lockdown_state, what);
	lockdown_record(what, a);
	if (!lockdown_limit_pass(&lockdown_limits[what]))
		return;
	lockdown_log(what, a, false,
		     lockdown_held_back(&lockdown_state.denials[what],
					&lockdown_reported_at[what]));
}

/**
 * lockdown_report_allowed - report an access a rule of the owner policy
 *	allowed, once every LSM has
 * @a: the access, with the rule the lockdown hook found
 *
 * Counts it, and within the allowed accesses' rate limit logs and audits
 * it as lockdown_report() does a denial.
 */
void lockdown_report_allowed(const struct lockdown_access *a)
{
	atomic_long_inc(&lockdown_allowed);
	if (!lockdown_limit_pass(&lockdown_limits[LOCKDOWN_ALLOWED]))
		return;
	lockdown_log(a->what, a, true,
		     lockdown_held_back(&lockdown_allowed,
					&lockdown_reported_at[LOCKDOWN_ALLOWED]));
}
