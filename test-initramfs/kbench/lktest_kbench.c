// SPDX-License-Identifier: GPL-2.0
/*
 * lktest_kbench: what the questions lockdown answers cost in the kernel.
 *
 * On load, times @calls calls of each operation below in batches of
 * @batch, each batch with ktime_get_ns(), and logs one line per
 * operation:
 *
 *   lktest_kbench: kind=kernel op=OP median_ns=X.XXX batches=B batch=N result=R
 *
 * Under QEMU's -icount shift=0 guest time advances one nanosecond per
 * instruction executed, so X is instructions per call, whatever the host
 * is doing. Built for each kernel scripts/bench.sh compares (ours and the
 * stock tree); kernel_is_locked_down() exists only in ours, and
 * kernel_is_locked_down_msr() only with the owner policy built in. The
 * module stays loaded until rmmod; it changes nothing but the owner
 * policy's use count of the rule that allows TSC_AUX, if one does.
 */
#include <linux/capability.h>
#include <linux/init.h>
#include <linux/ktime.h>
#include <linux/module.h>
#include <linux/security.h>
#include <linux/slab.h>
#include <linux/sort.h>
#include <linux/user_namespace.h>
#ifdef CONFIG_SECURITY_LOCKDOWN_OWNER_POLICY
#include <linux/lockdown_owner.h>
#include <asm/msr.h>
#endif

static unsigned long calls = 2000000;
module_param(calls, ulong, 0444);
MODULE_PARM_DESC(calls, "calls per operation (default 2000000)");
static unsigned long batch = 20000;
module_param(batch, ulong, 0444);
MODULE_PARM_DESC(batch, "calls per timed batch (default 20000)");

static noinline int kb_empty(void)
{
	barrier();
	return 0;
}

static int kb_capable(void)
{
	return capable(CAP_SYS_ADMIN);
}

static int kb_ns_capable(void)
{
	return ns_capable(&init_user_ns, CAP_SYS_ADMIN);
}

static int kb_security_locked_down(void)
{
	return security_locked_down(LOCKDOWN_MSR);
}

#ifdef CAP_COMPROMISE_KERNEL
static int kb_kernel_is_locked_down(void)
{
	return kernel_is_locked_down(LOCKDOWN_MSR);
}
#endif

#ifdef CONFIG_SECURITY_LOCKDOWN_OWNER_POLICY
/*
 * The MSR site's question about writing back MSR_TSC_AUX's own value:
 * kernel_is_locked_down(LOCKDOWN_MSR) until an owner policy is loaded;
 * under scripts/mkpolicies.sh's bench policy, a write a rule allows.
 */
#define KB_MSR_TSC_AUX	0xc0000103
static u64 kb_tsc_aux;

static int kb_kernel_is_locked_down_msr(void)
{
	return kernel_is_locked_down_msr(0, KB_MSR_TSC_AUX, kb_tsc_aux,
					 rdmsrl_safe_on_cpu);
}
#endif

static const struct {
	const char *name;
	int (*fn)(void);
} ops[] = {
	{ "empty", kb_empty },
	{ "capable", kb_capable },
	{ "ns_capable", kb_ns_capable },
	{ "security_locked_down", kb_security_locked_down },
#ifdef CAP_COMPROMISE_KERNEL
	{ "kernel_is_locked_down", kb_kernel_is_locked_down },
#endif
#ifdef CONFIG_SECURITY_LOCKDOWN_OWNER_POLICY
	{ "kernel_is_locked_down_msr", kb_kernel_is_locked_down_msr },
#endif
};

static int cmp_u64(const void *a, const void *b)
{
	u64 x = *(const u64 *)a, y = *(const u64 *)b;

	return x < y ? -1 : x > y;
}

/* Picoseconds per call of each batch: ns * 1000 / batch. */
static void kb_run(int (*fn)(void), u64 *ps, unsigned long batches, int *res)
{
	unsigned long b, i;
	u64 t0;

	*res = fn();
	for (b = 0; b < batches; b++) {
		t0 = ktime_get_ns();
		for (i = 0; i < batch; i++)
			fn();
		ps[b] = div64_u64((ktime_get_ns() - t0) * 1000, batch);
	}
}

static int __init kb_init(void)
{
	unsigned long batches;
	u64 *ps, med;
	int i, res;

	if (!batch || calls < batch)
		return -EINVAL;
	batches = calls / batch;
#ifdef CONFIG_SECURITY_LOCKDOWN_OWNER_POLICY
	rdmsrl_safe(KB_MSR_TSC_AUX, &kb_tsc_aux);
#endif
	ps = kcalloc(batches, sizeof(*ps), GFP_KERNEL);
	if (!ps)
		return -ENOMEM;
	for (i = 0; i < ARRAY_SIZE(ops); i++) {
		kb_run(ops[i].fn, ps, batches, &res);
		sort(ps, batches, sizeof(*ps), cmp_u64, NULL);
		med = ps[batches / 2];
		pr_info("lktest_kbench: kind=kernel op=%s median_ns=%llu.%03llu batches=%lu batch=%lu result=%d\n",
			ops[i].name, med / 1000, med % 1000, batches, batch, res);
	}
	kfree(ps);
	return 0;
}

static void __exit kb_exit(void)
{
}

module_init(kb_init);
module_exit(kb_exit);

MODULE_DESCRIPTION("Lockdown benchmark: cost of capable() and the lockdown questions");
MODULE_LICENSE("GPL");
