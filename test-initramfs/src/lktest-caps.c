// SPDX-License-Identifier: GPL-2.0
/*
 * lktest-caps: the 2013 scenario.  A program opens /dev/cpu/N/msr with full
 * privileges, drops every capability (bounding set, then effective,
 * permitted and inheritable), and writes the MSR back through the fd it
 * already holds.
 *
 *   lktest-caps [--cpu N] [--msr REG] --expect ok|ENAME
 *
 * Without lockdown the write must still work: dropping capabilities never
 * breaks a program on a machine that is not locked down.
 */
#include "lktest.h"

#include <fcntl.h>
#include <stdint.h>
#include <sys/prctl.h>
#include <sys/syscall.h>
#include <unistd.h>
#include <linux/capability.h>

static int cap_last_cap(void)
{
	int last = 40;
	FILE *f = fopen("/proc/sys/kernel/cap_last_cap", "r");

	if (f) {
		if (fscanf(f, "%d", &last) != 1)
			last = 40;
		fclose(f);
	}
	return last;
}

static void show_caps(void)
{
	char line[256];
	FILE *f = fopen("/proc/self/status", "r");

	if (!f)
		return;
	while (fgets(line, sizeof(line), f))
		if (!strncmp(line, "Cap", 3))
			fputs(line, stdout);
	fclose(f);
}

static int drop_all_caps(void)
{
	struct __user_cap_header_struct hdr = {
		.version = _LINUX_CAPABILITY_VERSION_3,
		.pid = 0,
	};
	struct __user_cap_data_struct data[_LINUX_CAPABILITY_U32S_3];
	int cap, last = cap_last_cap();

	for (cap = 0; cap <= last; cap++) {
		if (prctl(PR_CAPBSET_DROP, cap, 0, 0, 0)) {
			int err = errno;

			printf("PR_CAPBSET_DROP %d: %s\n", cap, lk_errname(err));
			return err;
		}
	}
	memset(data, 0, sizeof(data));
	if (syscall(SYS_capset, &hdr, data)) {
		int err = errno;

		printf("capset(0): %s\n", lk_errname(err));
		return err;
	}
	printf("dropped capabilities 0..%d from bounding, effective, permitted, inheritable\n",
	       last);
	return 0;
}

int main(int argc, char **argv)
{
	int expect = lk_take_expect(&argc, argv);
	uint32_t msr = 0xc0000103;
	char path[64], what[128];
	const char *step;
	uint64_t val;
	int cpu = 0, fd, err, i;

	for (i = 1; i + 1 < argc; i += 2) {
		if (!strcmp(argv[i], "--cpu"))
			cpu = atoi(argv[i + 1]);
		else if (!strcmp(argv[i], "--msr"))
			msr = strtoul(argv[i + 1], NULL, 0);
	}

	fd = lk_open_msr(cpu, msr, &val, path, sizeof(path), &step);
	if (fd < 0)
		return lk_setup_failed(!strcmp(step, "open") ? path : "pread msr", errno);
	printf("opened %s with full privileges, msr 0x%x = 0x%llx\n", path, msr,
	       (unsigned long long)val);

	err = drop_all_caps();
	if (err)
		return lk_setup_failed("drop capabilities", err);
	show_caps();

	err = pwrite(fd, &val, sizeof(val), msr) == sizeof(val) ? 0 : errno;
	snprintf(what, sizeof(what), "pwrite msr 0x%x through the open fd, no capabilities",
		 msr);
	close(fd);
	return lk_verdict(what, err, expect);
}
