// SPDX-License-Identifier: GPL-2.0
/*
 * The lockdown tests' module: it says that it was loaded, and what
 * capable(CAP_COMPROMISE_KERNEL) answers.  Built once
 * per variant name (lktest_unsigned, lktest_signed, ...) so that every
 * variant can be loaded in the same boot.
 */
#include <linux/capability.h>
#include <linux/init.h>
#include <linux/module.h>

/*
 * capable(CAP_COMPROMISE_KERNEL) of the loading task: no interface checks
 * that capability, so this is how the tests see the lockdown shim's
 * answer from inside the kernel. -1 on a kernel without the capability.
 */
static int lktest_compromise_kernel(void)
{
#ifdef CAP_COMPROMISE_KERNEL
	return capable(CAP_COMPROMISE_KERNEL);
#else
	return -1;
#endif
}

static int __init lktest_init(void)
{
	pr_info("lktest: %s loaded; capable(CAP_COMPROMISE_KERNEL)=%d\n",
		KBUILD_MODNAME, lktest_compromise_kernel());
	return 0;
}

static void __exit lktest_exit(void)
{
	pr_info("lktest: %s unloaded\n", KBUILD_MODNAME);
}

module_init(lktest_init);
module_exit(lktest_exit);

MODULE_DESCRIPTION("Lockdown test module: prints a line on load");
MODULE_LICENSE("GPL");
