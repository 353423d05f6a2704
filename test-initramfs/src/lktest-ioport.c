// SPDX-License-Identifier: GPL-2.0
/*
 * lktest-ioport: one raw I/O port operation.
 *
 *   lktest-ioport ioperm [FROM [NUM]]|iopl|devport-open|devport-write
 *                 --expect ok|ENAME
 *
 * ioperm(FROM, NUM, 1) (default 0x80, 1) reads each port it granted
 * (inb), then releases them; iopl(3) is released again when allowed.
 * devport-write opens /dev/port read-write and writes back at 0x80 (the
 * POST diagnostic port) the byte it reads there; the first failing step
 * gives the result.
 */
#include "lktest.h"

#include <fcntl.h>
#include <sys/io.h>
#include <unistd.h>

#define PORT	0x80

static int devport(int write_back)
{
	unsigned char b;
	int fd, err = 0;

	fd = open("/dev/port", O_RDWR);
	if (fd < 0) {
		err = errno;
		printf("open /dev/port O_RDWR: %s\n", lk_errname(err));
		return err;
	}
	printf("open /dev/port O_RDWR: ok\n");
	if (!write_back)
		goto out;
	if (pread(fd, &b, 1, PORT) != 1) {
		err = errno ? errno : EIO;
		printf("pread port 0x%x: %s\n", PORT, lk_errname(err));
		goto out;
	}
	printf("pread port 0x%x: 0x%02x\n", PORT, b);
	if (pwrite(fd, &b, 1, PORT) != 1)
		err = errno ? errno : EIO;
	printf("pwrite port 0x%x value 0x%02x: %s\n", PORT, b, lk_errname(err));
out:
	close(fd);
	return err;
}

int main(int argc, char **argv)
{
	int expect = lk_take_expect(&argc, argv);
	const char *op = argc > 1 ? argv[1] : "";
	int err;

	if (!strcmp(op, "ioperm")) {
		unsigned long from = argc > 2 ? strtoul(argv[2], NULL, 0) : PORT;
		unsigned long num = argc > 3 ? strtoul(argv[3], NULL, 0) : 1;
		char what[64];
		unsigned long p;

		err = ioperm(from, num, 1) ? errno : 0;
		if (!err) {
			/* Granted means usable: a port outside it would fault. */
			for (p = from; p < from + num; p++)
				printf("inb(0x%lx) = 0x%02x\n", p, inb(p));
			ioperm(from, num, 0);
		}
		snprintf(what, sizeof(what), "ioperm(0x%lx, %lu, 1)", from, num);
		return lk_verdict(what, err, expect);
	}
	if (!strcmp(op, "iopl")) {
		err = iopl(3) ? errno : 0;
		if (!err)
			iopl(0);
		return lk_verdict("iopl(3)", err, expect);
	}
	if (!strcmp(op, "devport-open"))
		return lk_verdict("/dev/port open O_RDWR", devport(0), expect);
	if (!strcmp(op, "devport-write"))
		return lk_verdict("/dev/port write 0x80", devport(1), expect);

	fprintf(stderr, "usage: %s ioperm [FROM [NUM]]|iopl|devport-open|devport-write --expect ok|ENAME\n",
		argv[0]);
	return LKTEST_FAIL;
}
