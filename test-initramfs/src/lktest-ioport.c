// SPDX-License-Identifier: GPL-2.0
/*
 * lktest-ioport: one raw I/O port operation.
 *
 *   lktest-ioport ioperm [FROM [NUM]]|iopl|devport-open|devport-write
 *                 --expect ok|ENAME
 *   lktest-ioport hold FROM NUM FILE --expect ok|ENAME
 *
 * ioperm(FROM, NUM, 1) (default 0x80, 1) reads each port it granted
 * (inb), then releases them; iopl(3) is released again when allowed.
 * devport-write opens /dev/port read-write and writes back at 0x80 (the
 * POST diagnostic port) the byte it reads there; the first failing step
 * gives the result.
 *
 * hold takes ioperm(FROM, NUM, 1), prints "granted", and waits (at most
 * 60 s) until FILE exists: meanwhile the harness installs a policy that
 * no longer allows those ports.  Then it writes back to each port the
 * byte it reads there, itself and in a child it forks; a port the task
 * lost faults (SIGSEGV), which is EPERM.  ok means the grant outlived the
 * rule and was inherited.
 */
#include "lktest.h"

#include <fcntl.h>
#include <setjmp.h>
#include <signal.h>
#include <sys/io.h>
#include <sys/wait.h>
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

static sigjmp_buf fault;

static void on_segv(int sig)
{
	siglongjmp(fault, sig);
}

/* Write back each port's byte; EPERM when the task no longer has one. */
static int touch_ports(unsigned long from, unsigned long num, const char *who)
{
	volatile unsigned long p = from;
	unsigned char b;

	signal(SIGSEGV, on_segv);
	if (sigsetjmp(fault, 1)) {
		printf("%s: port 0x%lx faulted\n", who, p);
		return EPERM;
	}
	for (; p < from + num; p++) {
		b = inb(p);
		outb(b, p);
		printf("%s: port 0x%lx wrote back 0x%02x\n", who, p, b);
	}
	return 0;
}

static int hold(unsigned long from, unsigned long num, const char *go)
{
	int i, err, status;
	pid_t pid;

	if (ioperm(from, num, 1)) {
		err = errno;
		printf("ioperm(0x%lx, %lu, 1): %s\n", from, num, lk_errname(err));
		return err;
	}
	printf("granted\n");
	fflush(stdout);
	for (i = 0; access(go, F_OK); i++) {
		if (i == 6000) {
			printf("%s never appeared\n", go);
			return ETIMEDOUT;
		}
		usleep(10000);
	}
	err = touch_ports(from, num, "holder");
	fflush(stdout);
	pid = fork();
	if (pid < 0)
		return errno;
	if (!pid) {
		err = touch_ports(from, num, "child");
		fflush(stdout);
		_exit(err);
	}
	if (waitpid(pid, &status, 0) < 0)
		return errno;
	if (!err)
		err = WIFEXITED(status) ? WEXITSTATUS(status) : EIO;
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
	if (!strcmp(op, "hold") && argc == 5)
		return lk_verdict("ioperm grant after the rule is gone",
				  hold(strtoul(argv[2], NULL, 0),
				       strtoul(argv[3], NULL, 0), argv[4]),
				  expect);
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

	fprintf(stderr, "usage: %s ioperm [FROM [NUM]]|iopl|devport-open|devport-write|hold FROM NUM FILE --expect ok|ENAME\n",
		argv[0]);
	return LKTEST_FAIL;
}
