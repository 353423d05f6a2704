// SPDX-License-Identifier: GPL-2.0
/*
 * lktest-msr: one operation on /dev/cpu/N/msr.
 *
 *   lktest-msr read|pwrite|ioctl-read|ioctl-write [--cpu N] [--msr REG]
 *              --expect ok|ENAME
 *
 * The write operations read the MSR first (which must work) and write the
 * same value back, so an allowed write changes nothing.  The default
 * register is MSR_TSC_AUX, harmless to rewrite under QEMU.
 */
#include "lktest.h"

#include <fcntl.h>
#include <stdint.h>
#include <sys/ioctl.h>
#include <unistd.h>
#include <linux/types.h>

#define MSR_TSC_AUX		0xc0000103
/* From arch/x86/include/uapi/asm/msr.h */
#define X86_IOC_RDMSR_REGS	_IOWR('c', 0xA0, __u32[8])
#define X86_IOC_WRMSR_REGS	_IOWR('c', 0xA1, __u32[8])
/* Register order of the regs array, see arch/x86/kernel/msr.c */
enum { R_EAX, R_ECX, R_EDX, R_EBX, R_ESP, R_EBP, R_ESI, R_EDI };

int main(int argc, char **argv)
{
	int expect = lk_take_expect(&argc, argv);
	uint32_t msr = MSR_TSC_AUX;
	__u32 regs[8] = { 0 };
	const char *op = NULL, *step;
	char path[64], what[128];
	uint64_t val;
	int cpu = 0, fd, err, i;

	for (i = 1; i < argc; i++) {
		if (!strcmp(argv[i], "--cpu") && i + 1 < argc)
			cpu = atoi(argv[++i]);
		else if (!strcmp(argv[i], "--msr") && i + 1 < argc)
			msr = strtoul(argv[++i], NULL, 0);
		else
			op = argv[i];
	}
	if (!op) {
		fprintf(stderr, "usage: %s read|pwrite|ioctl-read|ioctl-write [--cpu N] [--msr REG] --expect ok|ENAME\n",
			argv[0]);
		return LKTEST_FAIL;
	}

	/* Opening is setup; the read is the "read" operation itself. */
	fd = lk_open_msr(cpu, msr, &val, path, sizeof(path), &step);
	if (fd < 0 && !strcmp(step, "open"))
		return lk_setup_failed(path, errno);
	err = fd < 0 ? errno : 0;
	if (!strcmp(op, "read")) {
		snprintf(what, sizeof(what), "pread %s msr 0x%x", path, msr);
		if (!err) {
			printf("msr 0x%x = 0x%llx\n", msr, (unsigned long long)val);
			close(fd);
		}
		return lk_verdict(what, err, expect);
	}
	if (err)
		return lk_setup_failed("pread msr (before write)", err);
	printf("msr 0x%x = 0x%llx\n", msr, (unsigned long long)val);

	if (!strcmp(op, "pwrite")) {
		snprintf(what, sizeof(what), "pwrite %s msr 0x%x value 0x%llx",
			 path, msr, (unsigned long long)val);
		err = pwrite(fd, &val, sizeof(val), msr) == sizeof(val) ? 0 : errno;
	} else if (!strcmp(op, "ioctl-read")) {
		snprintf(what, sizeof(what), "ioctl X86_IOC_RDMSR_REGS msr 0x%x", msr);
		regs[R_ECX] = msr;
		err = ioctl(fd, X86_IOC_RDMSR_REGS, regs) ? errno : 0;
		if (!err)
			printf("regs: edx:eax = 0x%08x:%08x\n", regs[R_EDX], regs[R_EAX]);
	} else if (!strcmp(op, "ioctl-write")) {
		snprintf(what, sizeof(what), "ioctl X86_IOC_WRMSR_REGS msr 0x%x value 0x%llx",
			 msr, (unsigned long long)val);
		regs[R_ECX] = msr;
		regs[R_EAX] = (__u32)val;
		regs[R_EDX] = (__u32)(val >> 32);
		err = ioctl(fd, X86_IOC_WRMSR_REGS, regs) ? errno : 0;
	} else {
		fprintf(stderr, "unknown operation '%s'\n", op);
		return LKTEST_FAIL;
	}
	close(fd);
	return lk_verdict(what, err, expect);
}
