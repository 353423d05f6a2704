// SPDX-License-Identifier: GPL-2.0
/*
 * Kernel lockdown: the CAP_COMPROMISE_KERNEL compatibility shim.
 *
 * The 2013 Secure Boot series guarded dangerous interfaces with a new
 * capability, CAP_COMPROMISE_KERNEL. Checking a new capability at an old
 * site breaks every program that drops all capabilities it knows of and
 * then expects the old behaviour. So no site checks it: the sites ask
 * kernel_is_locked_down(). The capability only mirrors the lockdown
 * state for programs that test for it: nobody holds it once the kernel
 * is locked down, and a lockdown during boot removes it from the sets
 * init inherits, where /proc/PID/status shows it.
 */

#define pr_fmt(fmt) "lockdown: " fmt

#include <linux/capability.h>
#include <linux/cred.h>
#include <linux/init_task.h>

#include "lockdown.h"

/**
 * lockdown_capable - the capable() hook
 * @cred: credentials being checked
 * @ns: user namespace of the check
 * @cap: the capability
 * @opts: CAP_OPT_* flags
 *
 * Return: -EPERM for CAP_COMPROMISE_KERNEL while the kernel is locked
 * down, else 0 (commoncap has already decided everything else).
 */
int lockdown_capable(const struct cred *cred, struct user_namespace *ns,
		     int cap, unsigned int opts)
{
	if (cap != CAP_COMPROMISE_KERNEL)
		return 0;
	return READ_ONCE(lockdown_state.level) != LOCKDOWN_NONE ? -EPERM : 0;
}

/**
 * lockdown_lower_init_caps - drop CAP_COMPROMISE_KERNEL from init_cred
 *
 * Called while booting, before init is created, so that init and all it
 * starts run without the capability in their bounding and permitted sets.
 */
void lockdown_lower_init_caps(void)
{
	cap_lower(init_cred.cap_bset, CAP_COMPROMISE_KERNEL);
	cap_lower(init_cred.cap_permitted, CAP_COMPROMISE_KERNEL);
	cap_lower(init_cred.cap_effective, CAP_COMPROMISE_KERNEL);
}
