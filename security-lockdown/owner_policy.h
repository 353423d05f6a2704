/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Kernel lockdown: the owner policy, a list of MSR, PCI-config and I/O-port
 * writes that the machine's owner allows while the kernel is locked down.
 *
 * owner_parse.c turns the policy's text into a struct lockdown_owner_policy
 * and answers whether one access matches a rule; owner.c verifies and
 * installs signed policies and answers the guarded sites (its declarations
 * are in lockdown.h: this header stays free of kernel-only headers, so
 * that fuzz/owner_policy/ builds the parser in userspace). The text format
 * is in Documentation/admin-guide/LSM/lockdown.rst, the loading at the top
 * of owner.c.
 */
#ifndef _SECURITY_LOCKDOWN_OWNER_POLICY_H
#define _SECURITY_LOCKDOWN_OWNER_POLICY_H

#include <linux/types.h>

/* Limits of the text, and of what it may allow. */
#define LOCKDOWN_POLICY_MAX_SIZE	65536	/* bytes */
#define LOCKDOWN_POLICY_MAX_LINE	255	/* characters, without '\n' */
#define LOCKDOWN_POLICY_MAX_RULES	256
/* TPM 2.0 NV index handles (TPM_HT_NV_INDEX): where a counter may live. */
#define LOCKDOWN_POLICY_NV_FIRST	0x01000000
#define LOCKDOWN_POLICY_NV_LAST		0x01ffffff

/**
 * enum lockdown_rule_kind - what a rule of the owner policy allows
 * @LOCKDOWN_RULE_MSR: writes to one model-specific register
 * @LOCKDOWN_RULE_PCI: config-space writes to a range of one PCI function
 * @LOCKDOWN_RULE_IOPORT: access to a range of I/O ports
 */
enum lockdown_rule_kind {
	LOCKDOWN_RULE_MSR,
	LOCKDOWN_RULE_PCI,
	LOCKDOWN_RULE_IOPORT,
};

/**
 * struct lockdown_rule - one rule of the owner policy
 * @kind: which member of the union is valid
 * @line: line of the policy text the rule was read from (1-based)
 * @unsafe: the rule ends in "unsafe": the owner accepts that it opens a
 *	register, port or offset not on the safe list of owner_parse.c
 * @msr: for %LOCKDOWN_RULE_MSR
 * @msr.index: the MSR's address
 * @msr.mask: the bits a write may change; all others must keep their value
 * @pci: for %LOCKDOWN_RULE_PCI
 * @pci.domain: PCI domain (segment), 4 hex digits in the text
 * @pci.bus: bus number
 * @pci.devfn: device and function, as PCI_DEVFN() encodes them
 * @pci.start: first config-space offset of the range
 * @pci.end: last config-space offset of the range (inclusive)
 * @io: for %LOCKDOWN_RULE_IOPORT
 * @io.start: first port of the range
 * @io.end: last port of the range (inclusive)
 */
struct lockdown_rule {
	enum lockdown_rule_kind kind;
	unsigned int line;
	bool unsafe;
	union {
		struct {
			u32 index;
			u64 mask;
		} msr;
		struct {
			u16 domain;
			u8 bus;
			u8 devfn;
			u16 start;
			u16 end;
		} pci;
		struct {
			u16 start;
			u16 end;
		} io;
	};
};

/**
 * struct lockdown_owner_policy - a parsed owner policy
 * @serial: the policy's serial number, 1 to U64_MAX; a newer policy for the
 *	same machine has a larger one
 * @pk_sha256: SHA-256 digest of the contents of the UEFI PK variable of the
 *	machine the policy is for
 * @counter: handle of the TPM NV counter that keeps the serial across
 *	reboots, %LOCKDOWN_POLICY_NV_FIRST to %LOCKDOWN_POLICY_NV_LAST
 * @nr_rules: number of entries in @rules, 0 to %LOCKDOWN_POLICY_MAX_RULES
 * @rules: the rules, in the order of the text. No two rules match the same
 *	access: an MSR has at most one rule, and the ranges of the PCI rules
 *	of one function, and of the I/O-port rules, do not overlap.
 *
 * Allocated by lockdown_policy_parse() at exactly this size; free it with
 * kfree().
 */
struct lockdown_owner_policy {
	u64 serial;
	u8 pk_sha256[32];
	u32 counter;
	unsigned int nr_rules;
	struct lockdown_rule rules[];
};

/**
 * struct lockdown_policy_error - why lockdown_policy_parse() refused a text
 * @line: the offending line (1-based), or 0 when the error concerns the
 *	text as a whole: too large, or a required line missing at its end
 * @reason: what is wrong, a constant string without the line number
 */
struct lockdown_policy_error {
	unsigned int line;
	const char *reason;
};

bool lockdown_rule_safe(const struct lockdown_rule *r);
int lockdown_policy_parse(const char *text, size_t len,
			  struct lockdown_owner_policy **out,
			  struct lockdown_policy_error *err);
int lockdown_policy_match_msr(const struct lockdown_owner_policy *p,
			      u32 index, u64 old, u64 new);
int lockdown_policy_match_pci(const struct lockdown_owner_policy *p,
			      u32 domain, u8 bus, u8 devfn,
			      unsigned int off, unsigned int len);
int lockdown_policy_match_ioport(const struct lockdown_owner_policy *p,
				 unsigned long from, unsigned long num);

#endif /* _SECURITY_LOCKDOWN_OWNER_POLICY_H */
