/* SPDX-License-Identifier: GPL-2.0 */
/*
 * lockdown-status: the keys the kernel trusts for module signatures and
 * kexec, where they came from, what it revokes, and what the kernel log
 * says it ignored at boot.
 */
#ifndef LOCKDOWN_STATUS_KEYS_H
#define LOCKDOWN_STATUS_KEYS_H

#include <stdbool.h>

#include "json.h"
#include "parse.h"

/* A key of /proc/keys. */
struct ld_key {
	unsigned int serial;
	char type[16];
	char *desc;			/* its description: the name */
	char *detail;			/* "X509.rsa 1a2b3c4d", or NULL */
	bool revoked;
};

/* One of the keyrings the tool shows. */
struct ld_keyring {
	bool found;			/* in /proc/keys */
	unsigned int serial;
	int err;			/* 0, or -errno listing its members */
	int nmembers;
	unsigned int *members;
};

/* A member of one of those keyrings. */
struct ld_member {
	enum ld_ring ring;
	unsigned int serial;
	const struct ld_key *key;	/* NULL: /proc/keys does not show it */
	int link;			/* a keyring: enum ld_ring, or -1 */
	const char *loaded_from;	/* the UEFI list, from the kernel log */
	enum ld_source source;
};

/* A list the kernel loaded certificates from, by the kernel log. */
struct ld_list {
	char *source;			/* "UEFI:db", ... */
	int nnames;
	char **names;			/* the certificates loaded */
	int failed;			/* certificates it could not load */
};

/* A line of the kernel log about a key source ignored or a refusal. */
struct ld_event {
	enum ld_log_kind kind;
	char *subject;
	char *detail;
	char *by;
	char *message;
	int count;			/* how many times it was logged */
};

struct ld_keyview {
	bool as_root;			/* /proc/keys shows root's view */
	int keys_err;			/* 0, or -errno reading /proc/keys */
	int nkeys;
	struct ld_key *keys;
	struct ld_keyring rings[LD_NR_RINGS];
	int nmembers;
	struct ld_member *members;

	int log_err;			/* 0, or -errno reading /dev/kmsg */
	int nlists;
	struct ld_list *lists;
	int nevents;
	struct ld_event *events;
	int events_lost;		/* lines past the last event kept */

	/* Counts, over the keyrings that could be listed */
	int ntrusted;			/* hidden ones included */
	int trusted[LD_NR_SOURCES];
	int hidden;			/* members /proc/keys does not show */
	int revoked_certs, revoked_tbs, revoked_bin, revoked_other;
	int revoked_hidden;
	int nignored;			/* distinct lines ignoring something */
	int nrefused;			/* module signatures refused */
};

void ld_keys_read(struct ld_keyview *kv);
void ld_keys_free(struct ld_keyview *kv);
void ld_keys_print(const struct ld_keyview *kv);
void ld_keys_print_summary(const struct ld_keyview *kv);
void ld_keys_print_details(const struct ld_keyview *kv);
void ld_keys_json(const struct ld_keyview *kv, struct json *j);

#endif /* LOCKDOWN_STATUS_KEYS_H */
