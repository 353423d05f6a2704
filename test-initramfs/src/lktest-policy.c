// SPDX-License-Identifier: GPL-2.0
/*
 * lktest-policy: load one signed owner policy, as one write().
 *
 *   lktest-policy FILE --expect ok|ENAME
 *
 * Writes FILE whole to /sys/kernel/security/lockdown_policy in a single
 * write() at offset 0, as the kernel requires, and reads the serial in
 * /sys/kernel/security/lockdown_policy_status before and after.  A refused
 * policy must leave the serial (and so the policy in force) unchanged; a
 * loaded one must have changed it.
 */
#include "lktest.h"

#include <fcntl.h>
#include <unistd.h>

#define POLICY	"/sys/kernel/security/lockdown_policy"
#define STATUS	"/sys/kernel/security/lockdown_policy_status"
#define MAX	(1 << 20)

/* The "serial N" line of the status file; -1 when it cannot be read. */
static long long serial(void)
{
	char buf[4096];
	long long s = -1;
	ssize_t n;
	int fd;

	fd = open(STATUS, O_RDONLY);
	if (fd < 0)
		return -1;
	n = read(fd, buf, sizeof(buf) - 1);
	close(fd);
	if (n <= 0)
		return -1;
	buf[n] = '\0';
	if (sscanf(buf, "serial %lld", &s) != 1)
		return -1;
	return s;
}

int main(int argc, char **argv)
{
	int expect = lk_take_expect(&argc, argv);
	static char blob[MAX];
	long long before, after;
	ssize_t len, n;
	char what[512];
	int fd, err, rc;

	if (argc != 2) {
		fprintf(stderr, "usage: %s FILE --expect ok|ENAME\n", argv[0]);
		return LKTEST_FAIL;
	}
	fd = open(argv[1], O_RDONLY);
	if (fd < 0)
		return lk_setup_failed(argv[1], errno);
	len = read(fd, blob, sizeof(blob));
	err = len < 0 ? errno : 0;
	close(fd);
	if (err)
		return lk_setup_failed(argv[1], err);

	before = serial();
	fd = open(POLICY, O_WRONLY);
	if (fd < 0)
		return lk_verdict("open " POLICY, errno, expect);
	n = write(fd, blob, len);
	err = n < 0 ? errno : 0;
	close(fd);
	if (!err && n != len) {
		printf("short write: %zd of %zd bytes\n", n, len);
		return LKTEST_FAIL;
	}
	after = serial();

	snprintf(what, sizeof(what), "write %s (%zd bytes) to %s", argv[1],
		 len, POLICY);
	rc = lk_verdict(what, err, expect);
	printf("serial before %lld, after %lld\n", before, after);
	if (before < 0 || after < 0) {
		printf("cannot read the serial in %s\n", STATUS);
		return LKTEST_FAIL;
	}
	if (err && after != before) {
		printf("refused, yet the serial changed\n");
		return LKTEST_FAIL;
	}
	if (!err && after == before) {
		printf("loaded, yet the serial did not change\n");
		return LKTEST_FAIL;
	}
	return rc;
}
