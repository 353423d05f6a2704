// SPDX-License-Identifier: GPL-2.0
/*
 * lktest-open: open one file and read a byte from it.
 *
 *   lktest-open PATH [r|w|rw] --expect ok|ENAME
 *
 * For /proc/kcore, /dev/mem, /dev/port and the like, where lockdown refuses
 * the open itself.  When the mode includes reading, one byte is read after
 * a successful open and its result counts too.
 */
#include "lktest.h"

#include <fcntl.h>
#include <unistd.h>

int main(int argc, char **argv)
{
	int expect = lk_take_expect(&argc, argv);
	const char *mode = argc > 2 ? argv[2] : "r";
	int flags, fd, err = 0;
	char what[320];
	char b;

	if (argc < 2) {
		fprintf(stderr, "usage: %s PATH [r|w|rw] --expect ok|ENAME\n", argv[0]);
		return LKTEST_FAIL;
	}
	flags = !strcmp(mode, "rw") ? O_RDWR : !strcmp(mode, "w") ? O_WRONLY : O_RDONLY;

	fd = open(argv[1], flags);
	if (fd < 0) {
		err = errno;
	} else if (flags != O_WRONLY) {
		ssize_t n = read(fd, &b, 1);

		if (n < 0)
			err = errno;
		printf("open ok, read: %s\n", n < 0 ? lk_errname(errno) :
		       n ? "1 byte" : "end of file");
	}
	if (fd >= 0)
		close(fd);
	snprintf(what, sizeof(what), "open %s %s", argv[1], mode);
	return lk_verdict(what, err, expect);
}
