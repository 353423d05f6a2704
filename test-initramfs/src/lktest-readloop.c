// SPDX-License-Identifier: GPL-2.0
/*
 * lktest-readloop: open, read and close FILE N times, as a program that
 * polls it would; every read must succeed.
 *
 *   lktest-readloop FILE N
 *
 * Prints "readloop FILE: N reads, last read B bytes".
 */
#include "lktest.h"

int main(int argc, char **argv)
{
	char buf[4096];
	long i, n;
	ssize_t got = 0;
	int fd;

	if (argc != 3 || (n = strtol(argv[2], NULL, 0)) <= 0) {
		fprintf(stderr, "usage: %s FILE N\n", argv[0]);
		return LKTEST_FAIL;
	}
	for (i = 0; i < n; i++) {
		fd = open(argv[1], O_RDONLY | O_CLOEXEC);
		if (fd < 0)
			return lk_setup_failed(argv[1], errno);
		got = read(fd, buf, sizeof(buf));
		close(fd);
		if (got < 0)
			return lk_setup_failed("read", errno);
	}
	printf("readloop %s: %ld reads, last read %zd bytes\n", argv[1], n, got);
	return LKTEST_MATCH;
}
