// SPDX-License-Identifier: GPL-2.0
/*
 * Kernel lockdown: the securityfs interface.
 *
 * /sys/kernel/security/lockdown          the level, as upstream: reads
 *     "none [integrity] confidentiality", takes a higher level's name.
 * /sys/kernel/security/lockdown_origin   read-only: one line per level
 *     reached, "LEVEL SECONDS ORIGIN" (seconds since boot).
 * /sys/kernel/security/lockdown_denials  read-only: one line per reason,
 *     "COUNT LEVEL REASON", how often it was refused since boot.
 * /sys/kernel/security/lockdown_refusals (0400) the last refusals, with
 *     the access where the site named it (lockdown_show_refusals()).
 * /sys/kernel/security/lockdown_policy   (0600, with the owner policy)
 *     reads the text of the owner policy in force (nothing when none);
 *     takes a signed policy in one write (lockdown_owner_load()).
 * /sys/kernel/security/lockdown_policy_status   read-only: the owner
 *     policy's serial, machine, digest, signer and per-rule use counts,
 *     in the format lockdown_owner_show_status() documents.
 */

#define pr_fmt(fmt) "lockdown: " fmt

#include <linux/capability.h>
#include <linux/fs.h>
#include <linux/init.h>
#include <linux/math64.h>
#include <linux/seq_file.h>
#include <linux/slab.h>
#include <linux/string.h>
#include <linux/uaccess.h>

#include "lockdown.h"
#include "owner_policy.h"

static const enum lockdown_reason lockdown_levels[LOCKDOWN_NR_LEVELS] = {
	LOCKDOWN_NONE, LOCKDOWN_INTEGRITY_MAX, LOCKDOWN_CONFIDENTIALITY_MAX
};

/* The longest write that can name a level: "confidentiality\n". */
#define LOCKDOWN_WRITE_MAX 32

static int lockdown_show(struct seq_file *m, void *v)
{
	enum lockdown_reason cur = READ_ONCE(lockdown_state.level);
	int i;

	for (i = 0; i < LOCKDOWN_NR_LEVELS; i++) {
		const char *label = lockdown_reasons[lockdown_levels[i]];

		seq_printf(m, lockdown_levels[i] == cur ? "[%s]%c" : "%s%c",
			   label, i == LOCKDOWN_NR_LEVELS - 1 ? '\n' : ' ');
	}
	return 0;
}

static int lockdown_open_file(struct inode *inode, struct file *file)
{
	return single_open(file, lockdown_show, NULL);
}

/*
 * Take one whole level name, with at most one trailing newline, in one
 * write at offset 0. Anything else is -EINVAL and changes nothing; a
 * level not above the current one is -EPERM.
 */
static ssize_t lockdown_write(struct file *file, const char __user *buf,
			      size_t n, loff_t *ppos)
{
	char state[LOCKDOWN_WRITE_MAX + 1];
	size_t len = n;
	int i, err = -EINVAL;

	if (*ppos != 0 || n == 0 || n > LOCKDOWN_WRITE_MAX)
		return -EINVAL;
	if (copy_from_user(state, buf, n))
		return -EFAULT;
	state[n] = '\0';
	if (state[len - 1] == '\n')
		state[--len] = '\0';
	if (strlen(state) != len)	/* embedded NUL */
		return -EINVAL;

	for (i = 0; i < LOCKDOWN_NR_LEVELS; i++) {
		enum lockdown_reason level = lockdown_levels[i];

		if (!strcmp(state, lockdown_reasons[level])) {
			err = lock_kernel_down("securityfs", level);
			break;
		}
	}
	if (err == -EPERM)
		pr_notice_ratelimited("%s (pid %d) may not set lockdown to %s: it is %s and is never lowered\n",
				      current->comm, task_pid_nr(current), state,
				      lockdown_reasons[READ_ONCE(lockdown_state.level)]);
	return err ? err : n;
}

static const struct file_operations lockdown_ops = {
	.open = lockdown_open_file,
	.read = seq_read,
	.llseek = seq_lseek,
	.release = single_release,
	.write = lockdown_write,
};

static int lockdown_origin_show(struct seq_file *m, void *v)
{
	unsigned long flags;
	struct lockdown_origin o[LOCKDOWN_NR_LEVELS];
	u32 rem;
	u64 sec;
	int i;

	spin_lock_irqsave(&lockdown_state.lock, flags);
	memcpy(o, lockdown_state.origin, sizeof(o));
	spin_unlock_irqrestore(&lockdown_state.lock, flags);

	for (i = 0; i < LOCKDOWN_NR_LEVELS; i++) {
		if (!o[i].where)
			continue;
		sec = div_u64_rem(o[i].when_ns, NSEC_PER_SEC, &rem);
		seq_printf(m, "%s %llu.%06u %s\n",
			   lockdown_reasons[lockdown_levels[i]], sec,
			   (u32)(rem / NSEC_PER_USEC), o[i].where);
	}
	return 0;
}
DEFINE_SHOW_ATTRIBUTE(lockdown_origin);

static int lockdown_denials_show(struct seq_file *m, void *v)
{
	enum lockdown_reason r;

	for (r = LOCKDOWN_NONE + 1; r < LOCKDOWN_CONFIDENTIALITY_MAX; r++) {
		if (!lockdown_reason_valid(r))
			continue;
		seq_printf(m, "%lu %s %s\n",
			   atomic_long_read(&lockdown_state.denials[r]),
			   r < LOCKDOWN_INTEGRITY_MAX ? "integrity" :
							"confidentiality",
			   lockdown_reasons[r]);
	}
	return 0;
}
DEFINE_SHOW_ATTRIBUTE(lockdown_denials);

static int lockdown_refusals_show(struct seq_file *m, void *v)
{
	lockdown_show_refusals(m);
	return 0;
}
DEFINE_SHOW_ATTRIBUTE(lockdown_refusals);

static int lockdown_policy_show(struct seq_file *m, void *v)
{
	lockdown_owner_show_text(m);
	return 0;
}

static int lockdown_policy_open(struct inode *inode, struct file *file)
{
	return single_open(file, lockdown_policy_show, NULL);
}

/*
 * Take one signed policy in one write() at offset 0: a policy is verified
 * as a whole, so a write continuing an earlier one is -EINVAL, and one
 * larger than any policy with its signature is -EFBIG; either is logged
 * like the refusals of owner.c.  Root may try; the signature decides.
 */
static ssize_t lockdown_policy_write(struct file *file, const char __user *buf,
				     size_t n, loff_t *ppos)
{
	void *blob;
	int err;

	if (!capable(CAP_SYS_ADMIN))
		return -EPERM;
	if (*ppos != 0 || n == 0) {
		pr_warn_ratelimited("policy refused: not written whole, in one write at offset 0\n");
		return -EINVAL;
	}
	if (n > LOCKDOWN_OWNER_BLOB_MAX) {
		pr_warn_ratelimited("policy refused: larger than %u bytes\n",
				    LOCKDOWN_OWNER_BLOB_MAX);
		return -EFBIG;
	}
	blob = vmemdup_user(buf, n);
	if (IS_ERR(blob))
		return PTR_ERR(blob);
	err = lockdown_owner_load(blob, n);
	kvfree(blob);
	if (err)
		return err;
	*ppos = n;
	return n;
}

static const struct file_operations lockdown_policy_ops = {
	.open = lockdown_policy_open,
	.read = seq_read,
	.llseek = seq_lseek,
	.release = single_release,
	.write = lockdown_policy_write,
};

static int lockdown_policy_status_show(struct seq_file *m, void *v)
{
	lockdown_owner_show_status(m);
	return 0;
}
DEFINE_SHOW_ATTRIBUTE(lockdown_policy_status);

/* Whether "echo disk > /sys/power/state" may work now, and how. */
static int lockdown_hibernation_show(struct seq_file *m, void *v)
{
	enum lockdown_reason level = READ_ONCE(lockdown_state.level);
	const char *missing = lockdown_hib_missing(level);

	if (level == LOCKDOWN_NONE)
		seq_puts(m, "available: images are not sealed, the kernel is not locked down\n");
	else if (lockdown_hib_allowed(level))
		seq_puts(m, "available: images are sealed by the TPM\n");
	else
		seq_printf(m, "refused: needs %s\n", missing);
	return 0;
}
DEFINE_SHOW_ATTRIBUTE(lockdown_hibernation);

static int __init lockdown_policy_secfs_init(void)
{
	struct dentry *d;

	d = securityfs_create_file("lockdown_policy", 0600, NULL, NULL,
				   &lockdown_policy_ops);
	if (IS_ERR(d))
		return PTR_ERR(d);
	d = securityfs_create_file("lockdown_policy_status", 0444, NULL, NULL,
				   &lockdown_policy_status_fops);
	return PTR_ERR_OR_ZERO(d);
}

static int __init lockdown_secfs_init(void)
{
	struct dentry *d;

	d = securityfs_create_file("lockdown", 0644, NULL, NULL, &lockdown_ops);
	if (IS_ERR(d))
		return PTR_ERR(d);
	d = securityfs_create_file("lockdown_origin", 0444, NULL, NULL,
				   &lockdown_origin_fops);
	if (IS_ERR(d))
		return PTR_ERR(d);
	d = securityfs_create_file("lockdown_denials", 0444, NULL, NULL,
				   &lockdown_denials_fops);
	if (IS_ERR(d))
		return PTR_ERR(d);
	/* Commands and pids of every user's refused programs: root's. */
	d = securityfs_create_file("lockdown_refusals", 0400, NULL, NULL,
				   &lockdown_refusals_fops);
	if (IS_ERR(d))
		return PTR_ERR(d);
	d = securityfs_create_file("lockdown_hibernation", 0444, NULL, NULL,
				   &lockdown_hibernation_fops);
	if (IS_ERR(d))
		return PTR_ERR(d);
	if (IS_ENABLED(CONFIG_SECURITY_LOCKDOWN_OWNER_POLICY))
		return lockdown_policy_secfs_init();
	return 0;
}
core_initcall(lockdown_secfs_init);
