// SPDX-License-Identifier: GPL-2.0
/*
 * The lockdown tests' module: it only says that it was loaded.  Built once
 * per variant name (lktest_unsigned, lktest_signed, ...) so that every
 * variant can be loaded in the same boot.
 */
#include <linux/init.h>
#include <linux/module.h>

static int __init lktest_init(void)
{
	pr_info("lktest: %s loaded\n", KBUILD_MODNAME);
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
