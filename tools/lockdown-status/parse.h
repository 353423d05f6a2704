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

/* /sys/kernel/security/lockdown_policy_status: the owner policy. */
#define LD_POLICY_MAX_RULES	256	/* as many as the kernel takes */
#define LD_SIGNER_MAX		128	/* longest signer kept, with its NUL */
#define LD_SHA256_HEX		64	/* lower-case hex digits of a SHA-256 */

enum ld_rule_kind {
	LD_RULE_MSR,		/* rule LINE msr 0xADDR mask 0xMASK uses N */
	LD_RULE_PCI,		/* rule LINE pci DDDD:BB:DD.F 0xSTA-0xEND uses N */
	LD_RULE_IOPORT,		/* rule LINE ioport 0xSTAR-0xEND uses N */
};

/* One rule line: the fields of its kind are set, the others 0. */
struct ld_policy_rule {
	unsigned int line;		/* of the policy's text, 1-based */
	enum ld_rule_kind kind;
	unsigned int msr;		/* MSR: its address */
	unsigned long long mask;	/* MSR: the bits a write may change */
	unsigned int domain, bus, dev, fn;	/* PCI: the function */
	unsigned int start, end;	/* PCI offsets, or I/O ports */
	bool unsafe;			/* the owner signed it as unsafe */
	unsigned long long uses;	/* accesses allowed by the rule */
};

/*
 * How far above its TPM counter a policy's serial may be
 * (LOCKDOWN_COUNTER_MAX_STEP in security/lockdown/lockdown.h).
 */
#define LD_COUNTER_MAX_STEP	64

struct ld_policy {
	unsigned long long serial;	/* 0: none loaded since boot */
	char pk_sha256[LD_SHA256_HEX + 1];	/* "" when serial is 0 */
	char sha256[LD_SHA256_HEX + 1];
	char signer[LD_SIGNER_MAX];	/* "unknown" until keys are named */
	unsigned long long loaded_ns;	/* CLOCK_BOOTTIME at the load */
	unsigned int counter;		/* its TPM NV counter; 0: not shown */
	int nrules;
	int nother;			/* rules of a kind not known here */
	struct ld_policy_rule rules[LD_POLICY_MAX_RULES];
};

int ld_parse_policy_status(const char *buf, struct ld_policy *p);

/* /sys/kernel/security/lockdown_refusals: the last refused accesses. */
#define LD_MAX_REFUSALS		64	/* newest kept; the kernel keeps 16 */
#define LD_COMM_MAX		64	/* escaped, with its NUL */

enum ld_access_kind {
	LD_ACCESS_NONE,		/* the site did not say, or not understood */
	LD_ACCESS_MSR,		/* wrmsr 0xREG value 0xVAL cpu N */
	LD_ACCESS_PCI,		/* pci write DDDD:BB:DD.F 0xOFF+LEN */
	LD_ACCESS_PCI_OUTSIDE,	/* pci write DDDD:BB:DD.F outside config space */
	LD_ACCESS_IOPORT,	/* ioport 0xFROM+NUM */
};

/* An access taken apart: the fields of its kind are set, the others 0. */
struct ld_access {
	enum ld_access_kind kind;
	unsigned int msr, cpu;		/* MSR: register, CPU */
	unsigned long long value;	/* MSR: the value refused */
	unsigned int domain, bus, dev, fn;	/* PCI: the function */
	unsigned int start, end;	/* PCI offsets, or ports, inclusive */
};

struct ld_refusal {
	unsigned long long ns;		/* CLOCK_BOOTTIME of its first time */
	unsigned int pid;
	unsigned long long times;	/* in a row, by the same command */
	char reason[LD_TEXT_MAX];
	char access_text[80];		/* "" when the site named none */
	struct ld_access access;
	char comm[LD_COMM_MAX];		/* printable ASCII: others are '?' */
};

struct ld_refusals {
	unsigned long long dropped;	/* refusals since boot not listed */
	int n;
	struct ld_refusal r[LD_MAX_REFUSALS];	/* oldest first */
};

int ld_parse_access(const char *s, size_t len, struct ld_access *a);
int ld_parse_refusals(const char *buf, struct ld_refusals *rs);

/*
 * One line of /proc/keys:
 *   SERIAL FLAGS USAGE EXPIRY PERM UID GID TYPE DESCRIPTION
 * The pointers point into the line parsed; nothing is copied.
 */
struct ld_key_line {
	unsigned int serial;
	bool instantiated;		/* flag 'I' */
	bool in_quota;			/* flag 'Q': charged to a user */
	bool revoked;			/* flag 'R' or 'D' (dead) */
	unsigned int uid;
	char type[16];			/* "asymmetric" for the shown "asymmetri" */
	const char *desc;		/* the key's description ... */
	size_t desc_len;
	const char *detail;		/* ... and what the type adds after it: */
	size_t detail_len;		/* "X509.rsa 1a2b3c4d", "3", "empty" */
};

int ld_parse_key_line(const char *s, size_t len, struct ld_key_line *k);
int ld_parse_serials(const char *buf, unsigned int *serials, int max);

/* One record of /dev/kmsg: "PRI,SEQ,TS,FLAGS;MESSAGE". */
struct ld_kmsg {
	unsigned int facility;		/* 0: the kernel itself */
	unsigned int level;
	unsigned long long seq;
	unsigned long long usec;	/* since boot */
	const char *msg;		/* escaped as the kernel shows it */
	size_t len;
};

int ld_parse_kmsg(const char *s, size_t len, struct ld_kmsg *r);
size_t ld_kmsg_unescape(const char *s, size_t len, char *out, size_t size);

/* The kernel log lines about keys that the tool reads. */
enum ld_log_kind {
	LD_LOG_OTHER,
	LD_LOG_LOADING,		/* integrity: Loading X.509 certificate: SOURCE */
	LD_LOG_LOADED,		/* integrity: Loaded X.509 cert 'NAME' */
	LD_LOG_LOAD_FAILED,	/* integrity: Problem loading X.509 certificate */
	LD_LOG_IGNORED,		/* integrity: Ignoring WHAT: WHY */
	LD_LOG_BAD_LIST,	/* SOURCE: bad signature list at offset ... */
	LD_LOG_BAD_ENTRY,	/* integrity: SOURCE: ... entry of N bytes ignored */
	LD_LOG_REVOKED,		/* module: signature of MOD rejected: WHAT is revoked by LIST */
	LD_LOG_HASH_BLACKLISTED, /* Module hash HASH is blacklisted */
};

/* A log line taken apart; the pointers point into the message. */
struct ld_log {
	const char *subject;	/* SOURCE, NAME, WHAT or MOD */
	size_t subject_len;
	const char *detail;	/* WHY, or what was revoked */
	size_t detail_len;
	const char *by;		/* the list that revoked */
	size_t by_len;
};

enum ld_log_kind ld_parse_log(const char *msg, struct ld_log *l);

/* The trusted-key and revocation keyrings the tool shows. */
enum ld_ring {
	LD_RING_BUILTIN,
	LD_RING_SECONDARY,
	LD_RING_MACHINE,
	LD_RING_PLATFORM,
	LD_RING_BLACKLIST,
	LD_NR_RINGS,
};

const char *ld_ring_name(enum ld_ring ring);
int ld_ring_from_name(const char *name, size_t len, enum ld_ring *ring);

/* Where a trusted key came from, as far as the tool can tell. */
enum ld_source {
	LD_SRC_BUILTIN,		/* .builtin_trusted_keys */
	LD_SRC_SECONDARY,	/* .secondary_trusted_keys */
	LD_SRC_MACHINE,		/* .machine: MOK from shim */
	LD_SRC_PLATFORM_MOK,	/* .platform: MOK, no machine keyring */
	LD_SRC_MOK_VARIABLE,	/* MOK read from a variable, not shim's table */
	LD_SRC_DB,		/* .platform: UEFI db */
	LD_NR_SOURCES,
};

const char *ld_ring_plain(enum ld_ring ring);
const char *ld_ring_trust(enum ld_ring ring);
bool ld_ring_trusts_all(enum ld_ring ring);

enum ld_source ld_source_of(enum ld_ring ring, const char *loaded_from);
const char *ld_source_id(enum ld_source src);
const char *ld_source_plain(enum ld_source src);
const char *ld_source_short(enum ld_source src);

#endif /* LOCKDOWN_STATUS_PARSE_H */
