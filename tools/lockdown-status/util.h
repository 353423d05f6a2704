/* SPDX-License-Identifier: GPL-2.0 */
/*
 * lockdown-status: reading files under $LOCKDOWN_STATUS_ROOT, and the
 * layout of the plain-text output, shared by the status and key views.
 */
#ifndef LOCKDOWN_STATUS_UTIL_H
#define LOCKDOWN_STATUS_UTIL_H

#include <stdbool.h>
#include <stddef.h>

#define LD_READ_MAX	(1 << 20)	/* largest file read whole */

extern const char *ld_root;		/* "" on the running system */

bool ld_fixture(void);
const char *ld_path(char *buf, size_t size, const char *path);
int ld_read_all(const char *path, char **out, size_t *len);
bool ld_exists(const char *path);
const char *ld_strerror(int err);
const char *ld_hint(int err);
void ld_label(const char *name);
void ld_put(const char *s);
const char *ld_plural(long n);
void *ld_xrealloc(void *p, size_t n);
char *ld_xstrndup(const char *s, size_t n);

#endif /* LOCKDOWN_STATUS_UTIL_H */
