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
 *   offset     "integrity\n" written at offset 1 (lseek, then write)
 *   pwrite     "integrity\n" written with pwrite() at offset 0: the
 *              seq_file clears FMODE_PWRITE, so the VFS refuses it
 *   writev     "integ" and "rity\n" in one writev()
 *   efault     "integrity\n" whose last bytes lie in an unmapped page
 *   lengths    every length from 1 to 4096: garbage, NUL bytes, each
 *              level name padded with junk or NULs before or after it, and
 *              the name cut short; each write must give the expected errno
 *              and leave the level unchanged
 *
 * The level (the bracketed word) is read before and after.  A refused write
 * must leave it unchanged; an accepted level write must leave that level.
 */
#include "lktest.h"

#include <fcntl.h>
#include <sys/mman.h>
#include <sys/uio.h>
#include <unistd.h>

#define MAX_LEN 4096	/* PAGE_SIZE */

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

/* One write(2) of BUF on a fresh fd: 0 or the errno. */
static int write_once(const char *file, const void *buf, size_t len)
{
	int fd = open(file, O_WRONLY), err;
	ssize_t n;

	if (fd < 0)
		return errno;
	n = write(fd, buf, len);
	err = n < 0 ? errno : (size_t)n == len ? 0 : EIO;
	close(fd);
	return err;
}

/* The writes that are not one plain write(2) of a payload. */
static int odd_write(const char *file, const char *name)
{
	static const char word[] = "integrity\n";
	struct iovec iov[2] = {
		{ .iov_base = "integ", .iov_len = 5 },
		{ .iov_base = "rity\n", .iov_len = 5 },
	};
	long page = sysconf(_SC_PAGESIZE);
	int fd, err = 0;
	char *map;

	if (!strcmp(name, "efault")) {
		map = mmap(NULL, 2 * page, PROT_READ | PROT_WRITE,
			   MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
		if (map == MAP_FAILED || mprotect(map + page, page, PROT_NONE))
			return -1;
		memcpy(map + page - 5, word, 5);
		err = write_once(file, map + page - 5, sizeof(word) - 1);
		munmap(map, 2 * page);
		return err;
	}
	fd = open(file, O_WRONLY);
	if (fd < 0)
		return errno;
	if (!strcmp(name, "offset"))
		err = lseek(fd, 1, SEEK_SET) != 1 ? errno :
		      write(fd, word, sizeof(word) - 1) < 0 ? errno : 0;
	else if (!strcmp(name, "pwrite"))
		err = pwrite(fd, word, sizeof(word) - 1, 0) < 0 ? errno : 0;
	else
		err = writev(fd, iov, 2) < 0 ? errno : 0;
	close(fd);
	return err;
}

/*
 * Payload KIND of length LEN in BUF, or 0 when KIND has none of that
 * length.  None of them is a level name with at most one newline.
 */
static size_t hostile(int kind, size_t len, char *buf)
{
	static const char * const words[] = {
		"none", "integrity", "confidentiality"
	};
	const char *w = words[kind % 3];
	size_t wl = strlen(w), i;

	switch (kind / 3) {
	case 0:		/* garbage: never a letter or a newline */
		if (kind % 3)
			return 0;
		for (i = 0; i < len; i++)
			buf[i] = 0x80 | ((i * 37 + len) & 0x7f);
		return len;
	case 1:		/* NUL bytes */
		if (kind % 3)
			return 0;
		memset(buf, 0, len);
		return len;
	case 2:		/* WORD then junk */
	case 3:		/* WORD, newline, junk */
	case 4:		/* WORD then NULs */
	case 5:		/* WORD, newline, NULs */
	case 6:		/* junk then WORD */
		if (len <= wl + (kind / 3 == 3 || kind / 3 == 5))
			return 0;
		memset(buf, kind / 3 >= 4 && kind / 3 <= 5 ? '\0' : 'x', len);
		if (kind / 3 == 6) {
			memcpy(buf + len - wl, w, wl);
		} else {
			memcpy(buf, w, wl);
			if (kind / 3 == 3 || kind / 3 == 5)
				buf[wl] = '\n';
		}
		return len;
	case 7:		/* WORD cut short, with and without a newline */
		if (len >= wl)
			return 0;
		memcpy(buf, w, len);
		if (len > 1)
			buf[len - 1] = '\n';
		return len;
	case 8:
		if (len >= wl)
			return 0;
		memcpy(buf, w, len);
		return len;
	}
	return 0;
}

#define HOSTILE_KINDS (9 * 3)

/* The whole lockdown file, read again through FD; length or -1. */
static ssize_t reread(int fd, char *buf, size_t len)
{
	ssize_t n;

	if (lseek(fd, 0, SEEK_SET))
		return -1;
	n = read(fd, buf, len - 1);
	if (n >= 0)
		buf[n] = '\0';
	return n;
}

/*
 * Every hostile payload of every length; each must give EXPECT and leave
 * the file as it was.  One fd writes them all (a refused write does not
 * move its position), another reads the file back after each.
 */
static int hostile_lengths(const char *file, int expect)
{
	static char buf[MAX_LEN];
	char want[256], got[256];
	long writes = 0, bad = 0;
	int kind, err, wfd, rfd;
	size_t len, n;

	wfd = open(file, O_WRONLY);
	rfd = open(file, O_RDONLY);
	if (wfd < 0 || rfd < 0)
		return lk_setup_failed(file, errno);
	if (reread(rfd, want, sizeof(want)) <= 0)
		return lk_setup_failed("read the level", errno ? errno : EIO);
	want[strcspn(want, "\n")] = '\0';

	for (len = 1; len <= MAX_LEN; len++) {
		for (kind = 0; kind < HOSTILE_KINDS; kind++) {
			n = hostile(kind, len, buf);
			if (!n)
				continue;
			writes++;
			err = write(wfd, buf, n) < 0 ? errno : 0;
			if (!err) {	/* moved the position: a new fd */
				close(wfd);
				wfd = open(file, O_WRONLY);
			}
			if (reread(rfd, got, sizeof(got)) < 0)
				strcpy(got, "?");
			got[strcspn(got, "\n")] = '\0';
			if (err == expect && !strcmp(got, want))
				continue;
			if (++bad <= 5)
				printf("payload %d of %zu bytes: %s, file '%s' (expected %s, '%s')\n",
				       kind, n, lk_errname(err), got,
				       lk_errname(expect), want);
		}
	}
	close(wfd);
	close(rfd);
	printf("lktest-ops: securityfs-lengths writes=%ld\n", writes);
	printf("%ld hostile writes of 1..%d bytes, %ld not %s or changed '%s': %s\n",
	       writes, MAX_LEN, bad, lk_errname(expect), want,
	       bad ? "MISMATCH" : "MATCH");
	return bad ? LKTEST_FAIL : LKTEST_MATCH;
}

int main(int argc, char **argv)
{
	int expect = lk_take_expect(&argc, argv);
	const char *file = "/sys/kernel/security/lockdown";
	char before[64], after[64], what[128];
	const char *name = NULL;
	size_t bufsz = 1 << 20;
	int fd, err, err2, is_level = 0, odd, i;
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
	odd = name && (!strcmp(name, "offset") || !strcmp(name, "pwrite") ||
		       !strcmp(name, "writev") || !strcmp(name, "efault"));
	if (len < 0 && !odd && !(name && !strcmp(name, "lengths"))) {
		fprintf(stderr, "usage: %s none|integrity|confidentiality|garbage|overlong|huge|partial|nul|nulprefix|empty|offset|pwrite|writev|efault|lengths --expect ok|ENAME\n",
			argv[0]);
		return LKTEST_FAIL;
	}

	err = read_level(file, before, sizeof(before));
	if (err)
		return lk_setup_failed("read level before", err);
	if (!strcmp(name, "lengths"))
		return hostile_lengths(file, expect);

	if (odd) {
		len = 10;
		err = odd_write(file, name);
		if (err < 0)
			return lk_setup_failed("map the buffer", errno);
	} else {
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
