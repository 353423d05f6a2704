// SPDX-License-Identifier: GPL-2.0
/*
 * lktest-storm: N writes of an MSR's own value, counted by result.
 *
 *   lktest-storm [-n N] [--cpu N] [--msr REG] --expect ok|ENAME
 *
 * Exits 0 when every write gave the expected result.  The runner then
 * checks that the kernel rate limited its denial messages.
 */
#include "lktest.h"

#include <fcntl.h>
#include <stdint.h>
#include <time.h>
#include <unistd.h>

int main(int argc, char **argv)
{
	int expect = lk_take_expect(&argc, argv);
	long n = 10000, i, ok = 0, expected = 0, other = 0;
	int cpu = 0, fd, err, first_other = 0;
	uint32_t msr = 0xc0000103;
	struct timespec t0, t1;
	const char *step;
	char path[64];
	uint64_t val;

	for (i = 1; i + 1 < argc; i += 2) {
		if (!strcmp(argv[i], "-n"))
			n = strtol(argv[i + 1], NULL, 0);
		else if (!strcmp(argv[i], "--cpu"))
			cpu = atoi(argv[i + 1]);
		else if (!strcmp(argv[i], "--msr"))
			msr = strtoul(argv[i + 1], NULL, 0);
	}

	fd = lk_open_msr(cpu, msr, &val, path, sizeof(path), &step);
	if (fd < 0)
		return lk_setup_failed(!strcmp(step, "open") ? path : "pread msr", errno);

	clock_gettime(CLOCK_MONOTONIC, &t0);
	for (i = 0; i < n; i++) {
		err = pwrite(fd, &val, sizeof(val), msr) == sizeof(val) ? 0 : errno;
		if (err == expect)
			expected++;
		else if (!first_other)
			first_other = err ? err : -1;
		if (!err)
			ok++;
		else if (err != expect)
			other++;
	}
	clock_gettime(CLOCK_MONOTONIC, &t1);
	close(fd);

	printf("%ld pwrites to msr 0x%x in %.3f s: %ld as expected (%s), %ld succeeded, %ld other errors%s%s\n",
	       n, msr, (t1.tv_sec - t0.tv_sec) + (t1.tv_nsec - t0.tv_nsec) / 1e9,
	       expected, lk_errname(expect), ok, other,
	       first_other > 0 ? ", first other: " : "",
	       first_other > 0 ? lk_errname(first_other) : "");
	return expected == n ? LKTEST_MATCH : LKTEST_FAIL;
}
