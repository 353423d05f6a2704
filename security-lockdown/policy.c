// SPDX-License-Identifier: GPL-2.0
/*
 * Kernel lockdown: boot-time policy.
 *
 * The level a kernel boots with comes from, in any combination (the
 * highest wins): the Kconfig default, "lockdown=", "secureboot_enable=1"
 * and firmware Secure Boot (drivers/firmware/efi/secureboot.c). Secure
 * Boot, real or emulated, also makes module signatures mandatory.
 */

#define pr_fmt(fmt) "lockdown: " fmt

#include <linux/init.h>
#include <linux/module.h>
#include <linux/string.h>

#include "lockdown.h"

/**
 * lockdown_secure_boot - apply the Secure Boot policy
 * @origin: what says the machine runs Secure Boot, e.g. "EFI Secure Boot"
 *
 * Locks the kernel down at integrity (or leaves a higher level alone) and
 * enforces module signatures, so that only code the platform's keys vouch
 * for runs in ring 0.
 */
void lockdown_secure_boot(const char *origin)
{
	lock_kernel_down(origin, LOCKDOWN_INTEGRITY_MAX);
	if (IS_ENABLED(CONFIG_MODULE_SIG))
		set_module_sig_enforced();
}

static int __init lockdown_param(char *level)
{
	if (level && !strcmp(level, "integrity"))
		lock_kernel_down("command line", LOCKDOWN_INTEGRITY_MAX);
	else if (level && !strcmp(level, "confidentiality"))
		lock_kernel_down("command line", LOCKDOWN_CONFIDENTIALITY_MAX);
	else
		pr_warn("lockdown=%.32s%s: unknown level, expected integrity or confidentiality; ignored\n",
			level ?: "", level && strlen(level) > 32 ? "..." : "");
	return 0;
}
early_param("lockdown", lockdown_param);

/*
 * secureboot_enable=1 emulates firmware Secure Boot on any machine (the
 * 2013 series' testing switch); 0 does nothing.
 */
static int __init secureboot_enable_param(char *str)
{
	if (str && !strcmp(str, "1"))
		lockdown_secure_boot("secureboot_enable=1");
	else if (!str || strcmp(str, "0"))
		pr_warn("secureboot_enable=%.32s%s: expected 0 or 1; ignored\n",
			str ?: "", str && strlen(str) > 32 ? "..." : "");
	return 0;
}
early_param("secureboot_enable", secureboot_enable_param);

/**
 * lockdown_policy_init - apply the Kconfig default level
 *
 * Return: 0
 */
int __init lockdown_policy_init(void)
{
	if (IS_ENABLED(CONFIG_LOCK_DOWN_KERNEL_FORCE_INTEGRITY))
		lock_kernel_down("Kernel configuration", LOCKDOWN_INTEGRITY_MAX);
	else if (IS_ENABLED(CONFIG_LOCK_DOWN_KERNEL_FORCE_CONFIDENTIALITY))
		lock_kernel_down("Kernel configuration",
				 LOCKDOWN_CONFIDENTIALITY_MAX);
	return 0;
}
