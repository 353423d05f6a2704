/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Helpers shared by the lockdown test programs: parse "--expect ok|ENAME",
 * name an errno, print one verdict line, open an MSR device.  Header only,
 * no global state.
 */
#ifndef LKTEST_H
#define LKTEST_H

#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* Exit codes: 0 = the result matched the expectation, 1 = anything else. */
#define LKTEST_MATCH	0
#define LKTEST_FAIL	1

static inline const char *lk_errname(int err)
{
	const char *name;

	if (!err)
		return "ok";
	name = strerrorname_np(err);
	return name ? name : "E?";
}

/* "ok" -> 0, "EPERM" -> EPERM, "1" -> 1; -1 when unknown. */
static inline int lk_parse_expect(const char *s)
{
	char *end;
	long v;
	int e;

	if (!strcmp(s, "ok") || !strcmp(s, "0"))
		return 0;
	for (e = 1; e < 256; e++) {
		const char *name = strerrorname_np(e);

		if (name && !strcmp(name, s))
			return e;
	}
	v = strtol(s, &end, 0);
	if (*s && !*end && v > 0 && v < 4096)
		return v;
	return -1;
}

/*
 * Find "--expect X" in argv, remove it, return the errno it names.
 * Exits with a usage error when it is missing or unknown.
 */
static inline int lk_take_expect(int *argc, char **argv)
{
	int i, expect;

	for (i = 1; i < *argc - 1; i++) {
		if (strcmp(argv[i], "--expect"))
			continue;
		expect = lk_parse_expect(argv[i + 1]);
		if (expect < 0) {
			fprintf(stderr, "unknown expectation '%s'\n", argv[i + 1]);
			exit(LKTEST_FAIL);
		}
		memmove(&argv[i], &argv[i + 2], (*argc - i - 1) * sizeof(*argv));
		*argc -= 2;
		return expect;
	}
	fprintf(stderr, "%s: missing --expect ok|ENAME\n", argv[0]);
	exit(LKTEST_FAIL);
}

/* Print "WHAT: RESULT (expected X): MATCH|MISMATCH" and return the exit code. */
static inline int lk_verdict(const char *what, int err, int expect)
{
	int match = err == expect;

	printf("%s: %s%s%s (expected %s): %s\n", what, lk_errname(err),
	       err ? " " : "", err ? strerror(err) : "", lk_errname(expect),
	       match ? "MATCH" : "MISMATCH");
	return match ? LKTEST_MATCH : LKTEST_FAIL;
}

/* Setup step that must work in every scenario; report and fail otherwise. */
static inline int lk_setup_failed(const char *what, int err)
{
	printf("%s: %s %s (setup step, must succeed): FAIL\n", what,
	       lk_errname(err), strerror(err));
	return LKTEST_FAIL;
}

/*
 * Open /dev/cpu/CPU/msr read-write (the path goes to PATH, LEN bytes) and
 * read register MSR into *val through it.  Returns the open fd; or -1 with
 * errno set (EIO for a short read) and *step naming what failed, "open" or
 * "pread", the fd closed.
 */
static inline int lk_open_msr(int cpu, uint32_t msr, uint64_t *val,
			      char *path, size_t len, const char **step)
{
	ssize_t n;
	int fd, err;

	snprintf(path, len, "/dev/cpu/%d/msr", cpu);
	*step = "open";
	fd = open(path, O_RDWR | O_CLOEXEC);
	if (fd < 0)
		return -1;
	*step = "pread";
	errno = 0;
	n = pread(fd, val, sizeof(*val), msr);
	if (n == (ssize_t)sizeof(*val))
		return fd;
	err = n < 0 ? errno : EIO;
	close(fd);
	errno = err;
	return -1;
}

#endif /* LKTEST_H */
