// SPDX-License-Identifier: GPL-2.0
/*
 * lktest-modload: load one module file with finit_module(2) and, when it
 * loaded, unload it again with delete_module(2).
 *
 *   lktest-modload FILE.ko NAME --expect ok|ENAME
 *
 * Gives the exact errno that insmod only shows as text.
 */
#include "lktest.h"

#include <fcntl.h>
#include <sys/syscall.h>
#include <unistd.h>

int main(int argc, char **argv)
{
	int expect = lk_take_expect(&argc, argv);
	char what[320];
	int fd, err;

	if (argc < 3) {
		fprintf(stderr, "usage: %s FILE.ko NAME --expect ok|ENAME\n", argv[0]);
		return LKTEST_FAIL;
	}
	fd = open(argv[1], O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return lk_setup_failed(argv[1], errno);
	err = syscall(SYS_finit_module, fd, "", 0) ? errno : 0;
	close(fd);
	if (!err) {
		if (syscall(SYS_delete_module, argv[2], O_NONBLOCK))
			printf("delete_module %s: %s\n", argv[2], lk_errname(errno));
		else
			printf("delete_module %s: ok\n", argv[2]);
	}
	snprintf(what, sizeof(what), "finit_module %s", argv[1]);
	return lk_verdict(what, err, expect);
}
