// SPDX-License-Identifier: GPL-2.0
/*
 * lktest-securityfs: one write to /sys/kernel/security/lockdown.
 *
 *   lktest-securityfs CASE --expect ok|ENAME [--file PATH]
 *
 * CASE is a level name written as "NAME\n" (none, integrity,
 * confidentiality) or one hostile payload:
 *   garbage    "lockdown\xff\x01garbage"
 *   overlong   4096 bytes of 'A'
 *   huge       1 MiB of 'i'
 *   partial    "integ"
 *   nul        four NUL bytes
 *   nulprefix  "\0confidentiality"
 *   empty      a zero-length write
 *
 * The level (the bracketed word) is read before and after.  A refused write
 * must leave it unchanged; an accepted level write must leave that level.
 */
#include "lktest.h"

#include <fcntl.h>
#include <unistd.h>

static int read_level(const char *path, char *level, size_t len)
{
	char buf[256], *open_b, *close_b;
	ssize_t n;
	int fd;

	fd = open(path, O_RDONLY);
	if (fd < 0)
		return errno;
	n = read(fd, buf, sizeof(buf) - 1);
	close(fd);
	if (n < 0)
		return errno;
	buf[n] = '\0';
	open_b = strchr(buf, '[');
	close_b = open_b ? strchr(open_b, ']') : NULL;
	if (!close_b)
		return EINVAL;
	*close_b = '\0';
	snprintf(level, len, "%s", open_b + 1);
	return 0;
}

/* Fill BUF with the payload of CASE; returns its length or -1. */
static ssize_t payload(const char *name, char *buf, size_t len, int *is_level)
{
	static const char * const levels[] = { "none", "integrity", "confidentiality" };
	size_t i;

	*is_level = 0;
	for (i = 0; i < sizeof(levels) / sizeof(levels[0]); i++) {
		if (!strcmp(name, levels[i])) {
			*is_level = 1;
			return snprintf(buf, len, "%s\n", name);
		}
	}
	if (!strcmp(name, "garbage")) {
		memcpy(buf, "lockdown\xff\x01garbage", 18);
		return 18;
	}
	if (!strcmp(name, "overlong")) {
		memset(buf, 'A', 4096);
		return 4096;
	}
	if (!strcmp(name, "huge")) {
		memset(buf, 'i', len);
		return len;
	}
	if (!strcmp(name, "partial"))
		return snprintf(buf, len, "integ");
	if (!strcmp(name, "nul")) {
		memset(buf, 0, 4);
		return 4;
	}
	if (!strcmp(name, "nulprefix")) {
		memcpy(buf, "\0confidentiality", 16);
		return 16;
	}
	if (!strcmp(name, "empty"))
		return 0;
	return -1;
}

int main(int argc, char **argv)
{
	int expect = lk_take_expect(&argc, argv);
	const char *file = "/sys/kernel/security/lockdown";
	char before[64], after[64], what[128];
	const char *name = NULL;
	size_t bufsz = 1 << 20;
	int fd, err, err2, is_level, i;
	ssize_t len, n;
	char *buf;

	for (i = 1; i < argc; i++) {
		if (!strcmp(argv[i], "--file") && i + 1 < argc)
			file = argv[++i];
		else
			name = argv[i];
	}
	buf = malloc(bufsz);
	len = name && buf ? payload(name, buf, bufsz, &is_level) : -1;
	if (len < 0) {
		fprintf(stderr, "usage: %s none|integrity|confidentiality|garbage|overlong|huge|partial|nul|nulprefix|empty --expect ok|ENAME\n",
			argv[0]);
		return LKTEST_FAIL;
	}

	err = read_level(file, before, sizeof(before));
	if (err)
		return lk_setup_failed("read level before", err);

	fd = open(file, O_WRONLY);
	if (fd < 0) {
		err = errno;
		printf("open %s O_WRONLY: %s\n", file, lk_errname(err));
	} else {
		n = write(fd, buf, len);
		err = n < 0 ? errno : 0;
		if (n >= 0 && n != len)
			printf("short write: %zd of %zd bytes\n", n, len);
		close(fd);
	}

	err2 = read_level(file, after, sizeof(after));
	if (err2)
		return lk_setup_failed("read level after", err2);
	printf("level before [%s], after [%s]\n", before, after);

	snprintf(what, sizeof(what), "write '%s' (%zd bytes) to %s", name, len, file);
	if (lk_verdict(what, err, expect))
		return LKTEST_FAIL;
	if (err && strcmp(before, after)) {
		printf("refused write changed the level: FAIL\n");
		return LKTEST_FAIL;
	}
	if (!err && is_level && strcmp(after, name)) {
		printf("accepted write did not set level %s: FAIL\n", name);
		return LKTEST_FAIL;
	}
	return LKTEST_MATCH;
}
