// SPDX-License-Identifier: GPL-2.0
/*
 * lktest-kexec: ask the kernel to load a kexec image and report the errno.
 *
 *   lktest-kexec load --expect ok|ENAME
 *	kexec_load(2) with no segments: the unsigned-image path, which
 *	lockdown refuses before it looks at the segments (on an open
 *	kernel this only unloads any loaded image).
 *   lktest-kexec file KERNEL INITRD CMDLINE --expect ok|ENAME
 *	kexec_file_load(2) of KERNEL and INITRD, whose signature the kernel
 *	checks; when it loaded, it is unloaded again.
 *
 * Gives the exact errno that kexec(8) only shows as text.
 */
#include "lktest.h"

#include <linux/kexec.h>
#include <sys/syscall.h>

static int file_load(const char *kernel, const char *initrd, const char *cmdline)
{
	int kfd, ifd, err;

	kfd = open(kernel, O_RDONLY | O_CLOEXEC);
	if (kfd < 0)
		return -errno;
	ifd = open(initrd, O_RDONLY | O_CLOEXEC);
	if (ifd < 0) {
		err = errno;
		close(kfd);
		return -err;
	}
	err = syscall(SYS_kexec_file_load, kfd, ifd, strlen(cmdline) + 1,
		      cmdline, 0UL) ? errno : 0;
	close(ifd);
	close(kfd);
	if (!err && syscall(SYS_kexec_file_load, -1, -1, 0, NULL,
			    (unsigned long)KEXEC_FILE_UNLOAD))
		printf("kexec_file_load unload: %s\n", lk_errname(errno));
	return err;
}

int main(int argc, char **argv)
{
	int expect = lk_take_expect(&argc, argv);
	char what[512];
	int err;

	if (argc == 2 && !strcmp(argv[1], "load")) {
		err = syscall(SYS_kexec_load, 0UL, 0UL, NULL,
			      (unsigned long)KEXEC_ARCH_DEFAULT) ? errno : 0;
		return lk_verdict("kexec_load (no segments)", err, expect);
	}
	if (argc == 5 && !strcmp(argv[1], "file")) {
		err = file_load(argv[2], argv[3], argv[4]);
		if (err < 0)
			return lk_setup_failed(argv[2], -err);
		snprintf(what, sizeof(what), "kexec_file_load %s", argv[2]);
		return lk_verdict(what, err, expect);
	}
	fprintf(stderr, "usage: %s load | file KERNEL INITRD CMDLINE --expect ok|ENAME\n",
		argv[0]);
	return LKTEST_FAIL;
}
