// SPDX-License-Identifier: GPL-2.0
/*
 * Lockdown selftests: each interface lockdown guards is refused with
 * EPERM at the level that guards it and works below that level.
 *
 * The level is read from /sys/kernel/security/lockdown, so the suite runs
 * on an open or a locked-down kernel alike and never changes the level.
 * What a kernel lacks (the MSR driver, ioperm, PCI, kexec_load, module
 * signatures, hibernation) is skipped.  Where the kernel counts denials
 * (lockdown_denials), a refusal must be counted under its reason.
 */
#define _GNU_SOURCE
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/io.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <unistd.h>
#include <linux/types.h>

#include "../kselftest_harness.h"

#define SECURITYFS	"/sys/kernel/security/"
#define LOCKDOWN	SECURITYFS "lockdown"
#define DENIALS		SECURITYFS "lockdown_denials"
#define OWNER_POLICY	SECURITYFS "lockdown_policy"
#define SYSFS_PCI	"/sys/bus/pci/devices"

#define MSR_TSC_AUX		0xc0000103
#define X86_IOC_RDMSR_REGS	_IOWR('c', 0xA0, __u32[8])
#define X86_IOC_WRMSR_REGS	_IOWR('c', 0xA1, __u32[8])
#define IORESOURCE_MEM		0x00000200
#define PCI_INTERRUPT_LINE	0x3c	/* software's scratch register */
#define POST_PORT		0x80

enum level { NONE, INTEGRITY, CONFIDENTIALITY };
static const char *const level_names[] = { "none", "integrity", "confidentiality" };

static int read_file(const char *path, char *buf, size_t len)
{
	ssize_t n;
	int fd;

	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	n = read(fd, buf, len - 1);
	close(fd);
	if (n < 0)
		return -errno;
	buf[n] = '\0';
	return n;
}

/*
 * The level bracketed in the lockdown file ("none [integrity]
 * confidentiality"), -ENOENT without one, -EINVAL when the file is not
 * the three levels with exactly one bracketed.
 */
static int lockdown_level(void)
{
	char buf[128], want[128];
	int i, n;

	n = read_file(LOCKDOWN, buf, sizeof(buf));
	if (n < 0)
		return n;
	for (i = NONE; i <= CONFIDENTIALITY; i++) {
		snprintf(want, sizeof(want), "%s%s%s %s%s%s %s%s%s\n",
			 i == NONE ? "[" : "", "none", i == NONE ? "]" : "",
			 i == INTEGRITY ? "[" : "", "integrity",
			 i == INTEGRITY ? "]" : "",
			 i == CONFIDENTIALITY ? "[" : "", "confidentiality",
			 i == CONFIDENTIALITY ? "]" : "");
		if (!strcmp(buf, want))
			return i;
	}
	return -EINVAL;
}

/* How often REASON was refused since boot; -1 when the kernel does not say. */
static long denials(const char *reason)
{
	char buf[4096], *line, *save, *rest;
	long count;

	if (read_file(DENIALS, buf, sizeof(buf)) < 0)
		return -1;
	for (line = strtok_r(buf, "\n", &save); line;
	     line = strtok_r(NULL, "\n", &save)) {
		count = strtol(line, &rest, 10);	/* "COUNT LEVEL REASON" */
		if (*rest != ' ')
			continue;
		rest = strchr(rest + 1, ' ');
		if (rest && !strcmp(rest + 1, reason))
			return count;
	}
	return -1;
}

/* An owner policy may allow some raw accesses at integrity. */
static bool owner_policy_in_force(void)
{
	char buf[16];

	return read_file(OWNER_POLICY, buf, sizeof(buf)) > 0;
}

/*
 * One guarded access: the level that guards it, the reason it is counted
 * under, and what was seen before it was tried.
 */
struct guard {
	enum level guard_level;
	const char *reason;
	int level;
	long denials_before;
};

/*
 * Start a guarded access; false (the test skipped) when this kernel has
 * no lockdown, or when an owner policy might decide it (POLICY_MAY_ALLOW).
 */
static bool guard_begin(struct __test_metadata *_metadata, struct guard *g,
			enum level guard_level, const char *reason,
			bool policy_may_allow)
{
	g->guard_level = guard_level;
	g->reason = reason;
	g->level = lockdown_level();
	if (g->level < 0)
		SKIP(return false, "no %s (%s)", LOCKDOWN, strerror(-g->level));
	if (policy_may_allow && g->level >= INTEGRITY && owner_policy_in_force())
		SKIP(return false, "an owner policy is in force and may allow it");
	g->denials_before = denials(reason);
	return true;
}

static bool guard_denies(const struct guard *g)
{
	return g->level >= (int)g->guard_level;
}

/*
 * End a guarded access that gave ERR (0 or an errno): EPERM at or above
 * the guarding level, counted under the reason; success below it.
 */
static void guard_end(struct __test_metadata *_metadata, struct guard *g,
		      int err)
{
	long after = denials(g->reason);

	TH_LOG("level %s, %s: %s", level_names[g->level], g->reason,
	       err ? strerror(err) : "allowed");
	if (guard_denies(g)) {
		EXPECT_EQ(EPERM, err);
		if (g->denials_before >= 0)
			EXPECT_LT(g->denials_before, after);
	} else {
		EXPECT_EQ(0, err);
		if (g->denials_before >= 0)
			EXPECT_EQ(g->denials_before, after);
	}
}

static int write_str(const char *path, const char *s)
{
	int fd, err = 0;

	fd = open(path, O_WRONLY | O_CLOEXEC);
	if (fd < 0)
		return errno;
	if (write(fd, s, strlen(s)) < 0)
		err = errno;
	close(fd);
	return err;
}

TEST(level_file_names_one_level)
{
	int level = lockdown_level();

	if (level == -ENOENT)
		SKIP(return, "no %s", LOCKDOWN);
	ASSERT_LE(0, level) TH_LOG("%s: not three levels, one bracketed", LOCKDOWN);
}

/* Writes that can only fail: garbage, or a level not above the current one. */
TEST(level_cannot_be_lowered)
{
	int level = lockdown_level(), i;

	if (level < 0)
		SKIP(return, "no %s", LOCKDOWN);
	EXPECT_EQ(EINVAL, write_str(LOCKDOWN, "unlocked\n"));
	for (i = NONE; i <= level; i++)
		EXPECT_EQ(EPERM, write_str(LOCKDOWN, level_names[i]))
			TH_LOG("writing '%s' at %s", level_names[i], level_names[level]);
	EXPECT_EQ(level, lockdown_level());
}

/*
 * Open CPU 0's MSR device and read MSR_TSC_AUX: the fd, or -1 after
 * skipping (no driver, no such register).
 */
static int open_msr(struct __test_metadata *_metadata, uint64_t *val)
{
	int fd = open("/dev/cpu/0/msr", O_RDWR | O_CLOEXEC);

	if (fd < 0)
		SKIP(return -1, "/dev/cpu/0/msr: %s (CONFIG_X86_MSR, the msr module)",
		     strerror(errno));
	if (pread(fd, val, sizeof(*val), MSR_TSC_AUX) != sizeof(*val)) {
		close(fd);
		SKIP(return -1, "this CPU has no MSR_TSC_AUX");
	}
	return fd;
}

/*
 * Below the guarding level the MSR driver's own filter decides: write
 * only where the administrator allowed writes (msr.allow_writes=on).
 */
static bool msr_writes_testable(struct __test_metadata *_metadata,
				struct guard *g)
{
	char buf[32] = "";

	if (guard_denies(g))
		return true;
	read_file("/sys/module/msr/parameters/allow_writes", buf, sizeof(buf));
	if (strcmp(buf, "on\n"))
		SKIP(return false, "msr.allow_writes is not on: the driver's filter decides");
	return true;
}

TEST(msr_read_allowed)
{
	__u32 regs[8] = { 0, MSR_TSC_AUX };
	uint64_t val;
	int fd;

	fd = open_msr(_metadata, &val);
	if (fd < 0)
		return;
	EXPECT_EQ(0, ioctl(fd, X86_IOC_RDMSR_REGS, regs));
	EXPECT_EQ((__u32)val, regs[0]);
	close(fd);
}

/*
 * Write MSR_TSC_AUX's own value back, through pwrite or the
 * X86_IOC_WRMSR_REGS ioctl: allowed, it changes nothing.
 */
static void msr_write_back(struct __test_metadata *_metadata, bool by_ioctl)
{
	__u32 regs[8] = { 0, MSR_TSC_AUX };
	struct guard g;
	uint64_t val;
	int fd, err;

	if (!guard_begin(_metadata, &g, INTEGRITY, "raw MSR access", true))
		return;
	fd = open_msr(_metadata, &val);
	if (fd < 0)
		return;
	if (msr_writes_testable(_metadata, &g)) {
		if (by_ioctl) {
			regs[0] = (__u32)val;
			regs[2] = (__u32)(val >> 32);
			err = ioctl(fd, X86_IOC_WRMSR_REGS, regs) ? errno : 0;
		} else {
			err = pwrite(fd, &val, sizeof(val), MSR_TSC_AUX) ==
			      sizeof(val) ? 0 : errno;
		}
		guard_end(_metadata, &g, err);
	}
	close(fd);
}

TEST(msr_write)
{
	msr_write_back(_metadata, false);
}

TEST(msr_write_ioctl)
{
	msr_write_back(_metadata, true);
}

/* The test runs in a child of its own: a granted port goes with it. */
TEST(ioperm_grant)
{
	struct guard g;
	int err;

	if (!guard_begin(_metadata, &g, INTEGRITY, "raw io port access", true))
		return;
	err = ioperm(POST_PORT, 1, 1) ? errno : 0;
	if (err == ENOSYS)
		SKIP(return, "no ioperm (CONFIG_X86_IOPL_IOPERM)");
	guard_end(_metadata, &g, err);
}

TEST(iopl_raise)
{
	struct guard g;
	int err;

	if (!guard_begin(_metadata, &g, INTEGRITY, "raw io port access", false))
		return;
	err = iopl(3) ? errno : 0;
	if (err == ENOSYS)
		SKIP(return, "no iopl (CONFIG_X86_IOPL_IOPERM)");
	guard_end(_metadata, &g, err);
}

/* Opening is the guarded step: nothing is read or written. */
static void open_guarded(struct __test_metadata *_metadata, const char *path,
			 int flags, enum level guard_level, const char *reason)
{
	struct guard g;
	int fd, err;

	if (access(path, F_OK))
		SKIP(return, "no %s", path);
	if (!guard_begin(_metadata, &g, guard_level, reason, false))
		return;
	fd = open(path, flags | O_CLOEXEC);
	err = fd < 0 ? errno : 0;
	if (fd >= 0)
		close(fd);
	guard_end(_metadata, &g, err);
}

TEST(dev_port_open)
{
	open_guarded(_metadata, "/dev/port", O_RDWR, INTEGRITY, "/dev/mem,kmem,port");
}

TEST(dev_mem_open)
{
	open_guarded(_metadata, "/dev/mem", O_RDONLY, INTEGRITY, "/dev/mem,kmem,port");
}

TEST(kcore_open)
{
	open_guarded(_metadata, "/proc/kcore", O_RDONLY, CONFIDENTIALITY,
		     "/proc/kcore access");
}

/* The first PCI device in sysfs, and the first memory BAR of one. */
static bool pci_device(char *dev, size_t len, bool want_mem_bar, int *bar)
{
	unsigned long long start, end, flags;
	char path[512];
	struct dirent *de;
	bool found = false;
	DIR *d;
	FILE *f;
	int i;

	d = opendir(SYSFS_PCI);
	if (!d)
		return false;
	while (!found && (de = readdir(d))) {
		if (de->d_name[0] == '.')
			continue;
		snprintf(dev, len, "%s", de->d_name);
		if (!want_mem_bar) {
			found = true;
			break;
		}
		snprintf(path, sizeof(path), SYSFS_PCI "/%s/resource", dev);
		f = fopen(path, "re");
		if (!f)
			continue;
		for (i = 0; i < 6 && fscanf(f, "%llx %llx %llx", &start, &end,
					    &flags) == 3; i++) {
			snprintf(path, sizeof(path), SYSFS_PCI "/%s/resource%d",
				 dev, i);
			if ((flags & IORESOURCE_MEM) && end - start >= 4095 &&
			    !access(path, F_OK)) {
				*bar = i;
				found = true;
				break;
			}
		}
		fclose(f);
	}
	closedir(d);
	return found;
}

/* Write back the Interrupt Line byte of PATH's config space. */
static void config_write_back(struct __test_metadata *_metadata,
			      const char *path)
{
	struct guard g;
	unsigned char b;
	int fd, err;

	if (!guard_begin(_metadata, &g, INTEGRITY, "direct PCI access", true))
		return;
	fd = open(path, O_RDWR | O_CLOEXEC);
	if (fd < 0)
		SKIP(return, "%s: %s", path, strerror(errno));
	ASSERT_EQ(1, pread(fd, &b, 1, PCI_INTERRUPT_LINE));
	err = pwrite(fd, &b, 1, PCI_INTERRUPT_LINE) == 1 ? 0 : errno;
	close(fd);
	guard_end(_metadata, &g, err);
}

TEST(pci_config_read_allowed)
{
	unsigned char cfg[64];
	char dev[256], path[512];
	int fd;

	if (!pci_device(dev, sizeof(dev), false, NULL))
		SKIP(return, "no PCI device");
	snprintf(path, sizeof(path), SYSFS_PCI "/%s/config", dev);
	fd = open(path, O_RDONLY | O_CLOEXEC);
	ASSERT_LE(0, fd);
	EXPECT_EQ((ssize_t)sizeof(cfg), pread(fd, cfg, sizeof(cfg), 0));
	close(fd);
}

TEST(pci_sysfs_config_write)
{
	char dev[256], path[512];

	if (!pci_device(dev, sizeof(dev), false, NULL))
		SKIP(return, "no PCI device");
	snprintf(path, sizeof(path), SYSFS_PCI "/%s/config", dev);
	config_write_back(_metadata, path);
}

TEST(pci_procfs_config_write)
{
	unsigned int domain, bus, slot, fn;
	char dev[256], path[512];
	int n;

	if (!pci_device(dev, sizeof(dev), false, NULL))
		SKIP(return, "no PCI device");
	n = sscanf(dev, "%x:%x:%x.%x", &domain, &bus, &slot, &fn);
	ASSERT_EQ(4, n);
	if (domain)
		snprintf(path, sizeof(path), "/proc/bus/pci/%04x:%02x/%02x.%x",
			 domain, bus, slot, fn);
	else
		snprintf(path, sizeof(path), "/proc/bus/pci/%02x/%02x.%x",
			 bus, slot, fn);
	if (access(path, F_OK))
		SKIP(return, "no %s (CONFIG_PROC_FS)", path);
	config_write_back(_metadata, path);
}

/* Map one page of a memory BAR; nothing is read or written through it. */
TEST(pci_bar_mmap)
{
	char dev[256], path[512];
	struct guard g;
	int fd, err, bar;
	void *p;

	if (!pci_device(dev, sizeof(dev), true, &bar))
		SKIP(return, "no PCI device with a memory BAR");
	if (!guard_begin(_metadata, &g, INTEGRITY, "direct PCI access", false))
		return;
	snprintf(path, sizeof(path), SYSFS_PCI "/%s/resource%d", dev, bar);
	fd = open(path, O_RDWR | O_CLOEXEC);
	ASSERT_LE(0, fd) TH_LOG("%s: %s", path, strerror(errno));
	p = mmap(NULL, 4096, PROT_READ, MAP_SHARED, fd, 0);
	err = p == MAP_FAILED ? errno : 0;
	if (p != MAP_FAILED)
		munmap(p, 4096);
	close(fd);
	guard_end(_metadata, &g, err);
}

/*
 * An unsigned "module" of zeroes: refused before it is parsed when
 * signatures are enforced (EKEYREJECTED) or lockdown guards them (EPERM);
 * otherwise the loader finds no ELF header (ENOEXEC).
 */
TEST(unsigned_module)
{
	static const char blob[64];
	char enforce[8] = "", disabled[8] = "";
	struct guard g;
	int err;

	if (read_file("/sys/module/module/parameters/sig_enforce", enforce,
		      sizeof(enforce)) < 0)
		SKIP(return, "no module signatures (CONFIG_MODULE_SIG)");
	read_file("/proc/sys/kernel/modules_disabled", disabled, sizeof(disabled));
	if (!strcmp(disabled, "1\n"))
		SKIP(return, "module loading is disabled");
	if (!guard_begin(_metadata, &g, INTEGRITY, "unsigned module loading", false))
		return;
	err = syscall(SYS_init_module, blob, sizeof(blob), "") ? errno : 0;
	if (enforce[0] == 'Y') {
		EXPECT_EQ(EKEYREJECTED, err);
		return;
	}
	if (!guard_denies(&g)) {
		EXPECT_EQ(ENOEXEC, err);
		err = 0;
	}
	guard_end(_metadata, &g, err);
}

/*
 * kexec_load with no segments unloads the staged image: open, done only
 * when none is staged.
 */
TEST(kexec_load_unload)
{
	char buf[8] = "", loaded[8] = "";
	struct guard g;
	int err;

	if (!guard_begin(_metadata, &g, INTEGRITY, "kexec of unsigned images", false))
		return;
	read_file("/proc/sys/kernel/kexec_load_disabled", buf, sizeof(buf));
	if (!strcmp(buf, "1\n"))
		SKIP(return, "kexec_load is disabled (kernel.kexec_load_disabled)");
	read_file("/sys/kernel/kexec_loaded", loaded, sizeof(loaded));
	if (!guard_denies(&g) && strcmp(loaded, "0\n"))
		SKIP(return, "a kexec image is staged: unloading it is not a test's call");
	err = syscall(SYS_kexec_load, 0UL, 0UL, NULL, 0UL) ? errno : 0;
	if (err == ENOSYS)
		SKIP(return, "no kexec_load (CONFIG_KEXEC)");
	guard_end(_metadata, &g, err);
}

/*
 * Whether /sys/power/state offers "disk": the kernel would hibernate on
 * a write of it.  Reading the file asks lockdown, so read it before
 * guard_begin() takes the counters.
 */
static bool hibernation_offered(void)
{
	char buf[128];

	if (read_file("/sys/power/state", buf, sizeof(buf)) < 0)
		return false;
	return strstr(buf, "disk");
}

/*
 * /dev/snapshot hands the image to user space, which cannot seal it:
 * refused at integrity even where the kernel offers sealed hibernation
 * (it then refuses without asking lockdown, so no count is checked).
 */
TEST(snapshot_open)
{
	struct guard g;
	int fd, err;

	if (access("/dev/snapshot", F_OK))
		SKIP(return, "no /dev/snapshot (CONFIG_HIBERNATION_SNAPSHOT_DEV)");
	if (!hibernation_offered() && lockdown_level() == NONE)
		SKIP(return, "hibernation is off, and not by lockdown (nohibernate?)");
	if (!guard_begin(_metadata, &g, INTEGRITY, "hibernation", false))
		return;
	fd = open("/dev/snapshot", O_RDONLY | O_CLOEXEC);
	err = fd < 0 ? errno : 0;
	if (fd >= 0)
		close(fd);
	TH_LOG("level %s, /dev/snapshot: %s", level_names[g.level],
	       err ? strerror(err) : "opened");
	EXPECT_EQ(guard_denies(&g) ? EPERM : 0, err);
}

/*
 * "disk" written to /sys/power/state where the kernel does not offer it:
 * refused and counted under lockdown.  Where it is offered the write
 * would hibernate this machine, which is not a test's call.
 */
TEST(hibernate_refused)
{
	struct guard g;

	if (access("/sys/power/state", F_OK))
		SKIP(return, "no /sys/power/state (CONFIG_PM_SLEEP)");
	if (hibernation_offered())
		SKIP(return, "hibernation is offered: writing disk would hibernate");
	if (lockdown_level() == NONE)
		SKIP(return, "hibernation is off, and not by lockdown");
	if (!guard_begin(_metadata, &g, INTEGRITY, "hibernation", false))
		return;
	guard_end(_metadata, &g, write_str("/sys/power/state", "disk"));
}

TEST_HARNESS_MAIN
