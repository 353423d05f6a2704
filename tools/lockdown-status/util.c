// SPDX-License-Identifier: GPL-2.0
/*
 * lockdown-status: reading files under $LOCKDOWN_STATUS_ROOT, and the
 * layout of the plain-text output, shared by the status and key views.
 */

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "util.h"

const char *ld_root = "";

/* Whether the tool reads a fixture tree rather than the running system. */
bool ld_fixture(void)
{
	return *ld_root != '\0';
}

/* Build ROOT + @path into @buf. */
const char *ld_path(char *buf, size_t size, const char *path)
{
	snprintf(buf, size, "%s%s", ld_root, path);
	return buf;
}

/*
 * Read the whole file at @path (under the root) into a NUL-terminated
 * buffer the caller frees. Return: 0 or -errno.
 */
int ld_read_all(const char *path, char **out, size_t *len)
{
	char name[PATH_MAX];
	size_t size = 4096, n = 0;
	char *buf = NULL;
	int fd, err = 0;

	fd = open(ld_path(name, sizeof(name), path), O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	for (;;) {
		ssize_t r;

		if (!buf || n + 1 >= size) {
			char *nb;

			if (buf)
				size *= 2;
			if (size > LD_READ_MAX) {
				err = -EFBIG;
				break;
			}
			nb = realloc(buf, size);
			if (!nb) {
				err = -ENOMEM;
				break;
			}
			buf = nb;
		}
		r = read(fd, buf + n, size - n - 1);
		if (r < 0) {
			if (errno == EINTR)
				continue;
			err = -errno;
			break;
		}
		if (r == 0)
			break;
		n += r;
	}
	close(fd);
	if (err) {
		free(buf);
		return err;
	}
	buf[n] = '\0';
	*out = buf;
	if (len)
		*len = n;
	return 0;
}

bool ld_exists(const char *path)
{
	char name[PATH_MAX];
	struct stat st;

	return !stat(ld_path(name, sizeof(name), path), &st);
}

/* An error in words: -EBADMSG is a file the tool does not understand. */
const char *ld_strerror(int err)
{
	return err == -EBADMSG ? "malformed" : strerror(-err);
}

/* What to add to an error a user could get past. */
const char *ld_hint(int err)
{
	return err == -EACCES || err == -EPERM ? "; try as root" : "";
}

/* Start a line of the details, with its label. */
void ld_label(const char *name)
{
	printf("  %-23s", name);
}

/*
 * Print text that came from outside the tool (a certificate's name, a
 * module's name, a log line) with control characters as \xNN, so that
 * it cannot move the cursor or recolour the terminal. Other bytes, UTF-8
 * among them, are printed as they are.
 */
void ld_put(const char *s)
{
	for (; *s; s++) {
		unsigned char c = *s;

		if (c < 0x20 || c == 0x7f)
			printf("\\x%02x", c);
		else
			putchar(c);
	}
}

const char *ld_plural(long n)
{
	return n == 1 ? "" : "s";
}

/* realloc(), or exit with "cannot tell": the tool has nothing to fall back on. */
void *ld_xrealloc(void *p, size_t n)
{
	p = realloc(p, n ? n : 1);
	if (!p) {
		fprintf(stderr, "lockdown-status: out of memory\n");
		exit(3);
	}
	return p;
}

char *ld_xstrndup(const char *s, size_t n)
{
	char *d = ld_xrealloc(NULL, n + 1);

	memcpy(d, s, n);
	d[n] = '\0';
	return d;
}
