/* SPDX-License-Identifier: GPL-2.0 */
/*
 * lockdown-status: parsers for the files the kernel shows lockdown in.
 *
 * Every parser works on a buffer already read, so that the unit test can
 * feed it fixture files; none of them touches the file system.
 */
#ifndef LOCKDOWN_STATUS_PARSE_H
#define LOCKDOWN_STATUS_PARSE_H

#include <stdbool.h>
#include <stddef.h>

/* The levels, in order; the values double as the tool's exit codes. */
enum ld_level {
	LD_NONE = 0,
	LD_INTEGRITY = 1,
	LD_CONFIDENTIALITY = 2,
};

#define LD_NR_LEVELS	3
#define LD_TEXT_MAX	64	/* longest origin or reason text kept */
#define LD_MAX_REASONS	64	/* lines of lockdown_denials kept */

/* CAP_COMPROMISE_KERNEL: the capability shim (uapi capability.h). */
#define LD_CAP_COMPROMISE_KERNEL	41

/* One line of /sys/kernel/security/lockdown_origin. */
struct ld_origin {
	enum ld_level level;
	unsigned long long sec;		/* seconds since boot */
	unsigned int usec;		/* and microseconds */
	char where[LD_TEXT_MAX];	/* "EFI Secure Boot", ... */
};

/* One line of /sys/kernel/security/lockdown_denials. */
struct ld_denial {
	unsigned long count;
	enum ld_level level;		/* lowest level that restricts it */
	char reason[LD_TEXT_MAX];	/* "raw MSR access", ... */
};

const char *ld_level_name(enum ld_level level);
int ld_level_from_name(const char *name, size_t len, enum ld_level *level);

int ld_parse_level(const char *buf, enum ld_level *level);
int ld_parse_origins(const char *buf, struct ld_origin *o, int max);
int ld_parse_denials(const char *buf, struct ld_denial *d, int max);
int ld_parse_efivar(const unsigned char *buf, size_t len,
		    unsigned int *attr, unsigned char *value);
int ld_parse_bool(const char *buf, bool *value);
int ld_parse_capbnd(const char *status, unsigned long long *mask);
int ld_parse_uint(const char *buf, unsigned int *value);
bool ld_mounted(const char *mounts, const char *dir, const char *fstype);

const char *ld_reason_plain(const char *reason);
const char *ld_origin_plain(const char *where);

#endif /* LOCKDOWN_STATUS_PARSE_H */
