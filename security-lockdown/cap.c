// SPDX-License-Identifier: GPL-2.0
/*
 * Kernel lockdown: the CAP_COMPROMISE_KERNEL compatibility shim.
 *
 * The 2013 Secure Boot series guarded dangerous interfaces with a new
 * capability, CAP_COMPROMISE_KERNEL. Checking a new capability at an old
 * site breaks every program that drops all capabilities it knows of and
 * then expects the old behaviour. So no site checks it: the sites ask
 * kernel_is_locked_down(). The capability only mirrors the lockdown
 * state for programs that test for it.
 *
 * It mirrors it through the credentials themselves, not through a
 * capable() hook: once the kernel is locked down the capability is taken
 * out of every credential that could carry it, so capable(), capget(),
 * PR_CAPBSET_READ, /proc/PID/status and a new user namespace all give
 * the same answer, and capable() costs what it costs without lockdown.
 *
 *  - A lockdown during boot lowers it in init_cred, before init or any
 *    kernel thread is created from it.
 *  - Once locked down, every credential prepared (fork, exec, setuid,
 *    capset, kernel credentials) is prepared without it, and a new user
 *    namespace starts without it (lockdown_restrict_caps()).
 *  - A raise at run time asks every user task to replace its credentials
 *    on its next return to user space (task_work, as keyctl's
 *    KEYCTL_SESSION_TO_PARENT does). A task blocked in a system call
 *    keeps it until that call returns; kernel threads that existed before
 *    the raise keep it in theirs (no code checks it).
 */

#define pr_fmt(fmt) "lockdown: " fmt

#include <linux/capability.h>
#include <linux/cred.h>
#include <linux/init_task.h>
#include <linux/sched/signal.h>
#include <linux/slab.h>
#include <linux/task_work.h>

#include "lockdown.h"

static void lockdown_lower_cap(struct cred *cred)
{
	cap_lower(cred->cap_inheritable, CAP_COMPROMISE_KERNEL);
	cap_lower(cred->cap_permitted, CAP_COMPROMISE_KERNEL);
	cap_lower(cred->cap_effective, CAP_COMPROMISE_KERNEL);
	cap_lower(cred->cap_bset, CAP_COMPROMISE_KERNEL);
	cap_lower(cred->cap_ambient, CAP_COMPROMISE_KERNEL);
}

/**
 * lockdown_restrict_caps - take CAP_COMPROMISE_KERNEL out of new credentials
 * @cred: credentials being prepared, not yet visible to anyone
 *
 * Called for every credential prepare_creds() and prepare_kernel_cred()
 * make (the cred_prepare hook) and by set_cred_user_ns() for the full set
 * a new user namespace starts with. Does nothing while the kernel is not
 * locked down.
 */
void lockdown_restrict_caps(struct cred *cred)
{
	if (READ_ONCE(lockdown_state.level) != LOCKDOWN_NONE)
		lockdown_lower_cap(cred);
}

int lockdown_cred_prepare(struct cred *new, const struct cred *old, gfp_t gfp)
{
	lockdown_restrict_caps(new);
	return 0;
}

/**
 * lockdown_lower_init_caps - drop CAP_COMPROMISE_KERNEL from init_cred
 *
 * Called while booting, before init is created, so that init and all it
 * starts run without the capability in any of their sets.
 */
void lockdown_lower_init_caps(void)
{
	lockdown_lower_cap(&init_cred);
}

static void lockdown_drop_cap_work(struct callback_head *work)
{
	struct cred *new;

	kfree(work);
	if (unlikely(current->flags & PF_EXITING))
		return;
	/* prepare_creds() calls lockdown_cred_prepare(), which lowers it. */
	new = prepare_creds();
	if (new)
		commit_creds(new);
}

/**
 * lockdown_drop_caps - make every user task drop CAP_COMPROMISE_KERNEL
 *
 * Called once the kernel is locked down at run time. Credentials are
 * only ever replaced by their own task: each user task that still holds
 * the capability in any set is sent a task_work that replaces its
 * credentials on its next return to user space.
 */
void lockdown_drop_caps(void)
{
	struct task_struct *g, *t;
	struct callback_head *work;
	unsigned int failed = 0;

	rcu_read_lock();
	for_each_process_thread(g, t) {
		const struct cred *cred = __task_cred(t);

		if (t->flags & (PF_KTHREAD | PF_EXITING))
			continue;
		if (!cap_raised(cred->cap_bset, CAP_COMPROMISE_KERNEL) &&
		    !cap_raised(cred->cap_permitted, CAP_COMPROMISE_KERNEL) &&
		    !cap_raised(cred->cap_inheritable, CAP_COMPROMISE_KERNEL))
			continue;
		work = kmalloc(sizeof(*work), GFP_ATOMIC);
		if (!work) {
			failed++;
			continue;
		}
		init_task_work(work, lockdown_drop_cap_work);
		if (task_work_add(t, work, TWA_RESUME))
			kfree(work);	/* exiting: it will not run again */
	}
	rcu_read_unlock();
	if (failed)
		pr_warn("%u tasks keep CAP_COMPROMISE_KERNEL until they next change credentials: out of memory\n",
			failed);
}
