// SPDX-License-Identifier: GPL-2.0
/*
 * lockdown-status: say whether, why and since when this kernel is locked
 * down, and what it has refused.
 *
 * Reads (each path under $LOCKDOWN_STATUS_ROOT when it is set, so that
 * tests can run against a fixture tree):
 *   /sys/kernel/security/lockdown{,_origin,_denials,_policy_status,
 *   _hibernation}
 *   /sys/firmware/efi/efivars/{SecureBoot,SetupMode,MokSBStateRT}-GUID
 *   /sys/module/module/parameters/sig_enforce
 *   /proc/self/status, /proc/sys/kernel/cap_last_cap, /proc/self/mounts,
 *   /proc/cmdline
 * and, for the keys (keys.c): /proc/keys, the trusted keyrings' members
 * and /dev/kmsg.
 *
 * Output: plain words (default), the key view (--keys), or everything
 * as one JSON object (--json; its names are in lockdown-status.1).
 *
 * Exit status, whatever the output: 0 not locked down, 1 integrity,
 * 2 confidentiality, 3 cannot tell (or a usage error).
 */

#include <errno.h>
#include <getopt.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "draft.h"
#include "json.h"
#include "keys.h"
#include "parse.h"
#include "sha256.h"
#include "tpm.h"
#include "util.h"

#define EXIT_CANNOT_TELL	3
#define VERSION			"1.1"
#define JSON_FORMAT		1	/* raised when a name changes meaning */

#define SECFS		"/sys/kernel/security"
#define EFI_DIR		"/sys/firmware/efi"
#define EFIVARS		EFI_DIR "/efivars"
#define EFI_GLOBAL	"8be4df61-93ca-11d2-aa0d-00e098032b8c"
#define SHIM_LOCK	"605dab50-e046-4300-abb6-3dd810dd8b23"
#define SIG_ENFORCE	"/sys/module/module/parameters/sig_enforce"
#define POLICY_STATUS	SECFS "/lockdown_policy_status"
#define POLICY		SECFS "/lockdown_policy"
#define REFUSALS	SECFS "/lockdown_refusals"
#define HIBERNATION	SECFS "/lockdown_hibernation"

#define EFI_VARIABLE_NON_VOLATILE	0x1

enum sb_state {
	SB_NOT_EFI,		/* no /sys/firmware/efi */
	SB_NO_EFIVARFS,		/* efivarfs not mounted */
	SB_UNREADABLE,		/* the variable could not be read */
	SB_NO_VAR,		/* firmware without Secure Boot */
	SB_OFF,			/* SecureBoot=0 */
	SB_SETUP,		/* SetupMode=1 */
	SB_SHIM_OFF,		/* on, but shim validation disabled */
	SB_ON,			/* SecureBoot=1, SetupMode=0 */
};

struct status {
	int level_err;			/* 0, or -errno reading lockdown */
	enum ld_level level;
	char level_line[128];
	int norigins;			/* -errno when unreadable */
	struct ld_origin origins[LD_NR_LEVELS];
	int ndenials;			/* -errno when unreadable */
	struct ld_denial denials[LD_MAX_REASONS];
	enum sb_state sb;
	int sb_err;
	unsigned char secureboot, setupmode;
	int sig_enforce;		/* 1, 0, or -errno */
	int hib_err;			/* 0, or -errno reading hibernation */
	char hibernation[160];		/* its line: "available: ..." */
	int cap_last;			/* last capability, or -errno */
	int cap_held;			/* CAP_COMPROMISE_KERNEL in CapBnd */
	bool securityfs_mounted;
	bool efivarfs_mounted;
	bool cmdline_lockdown;
	char cmdline_level[32];
	int policy_err;			/* -ENOENT: no owner policy here */
	struct ld_policy policy;
};

static void read_level(struct status *st)
{
	char *buf;
	int err;

	err = ld_read_all(SECFS "/lockdown", &buf, NULL);
	if (!err) {
		if (ld_parse_level(buf, &st->level))
			err = -EBADMSG;
		snprintf(st->level_line, sizeof(st->level_line), "%.*s",
			 (int)strcspn(buf, "\n"), buf);
		free(buf);
	}
	st->level_err = err;

	err = ld_read_all(SECFS "/lockdown_origin", &buf, NULL);
	if (!err) {
		err = ld_parse_origins(buf, st->origins, LD_NR_LEVELS);
		if (err < 0)
			err = -EBADMSG;
		free(buf);
	}
	st->norigins = err;

	err = ld_read_all(SECFS "/lockdown_denials", &buf, NULL);
	if (!err) {
		err = ld_parse_denials(buf, st->denials, LD_MAX_REASONS);
		if (err < 0)
			err = -EBADMSG;
		free(buf);
	}
	st->ndenials = err;
}

/* Read a one-byte EFI variable. Return: 0 or -errno. */
static int read_efivar(const char *name, unsigned int *attr,
		       unsigned char *value)
{
	size_t len;
	char *buf;
	int err;

	err = ld_read_all(name, &buf, &len);
	if (err)
		return err;
	if (ld_parse_efivar((unsigned char *)buf, len, attr, value))
		err = -EBADMSG;
	free(buf);
	return err;
}

static void read_secure_boot(struct status *st)
{
	unsigned int attr;
	unsigned char v;
	int err;

	if (!ld_exists(EFI_DIR)) {
		st->sb = SB_NOT_EFI;
		return;
	}
	err = read_efivar(EFIVARS "/SecureBoot-" EFI_GLOBAL, &attr,
			  &st->secureboot);
	if (err == -ENOENT) {
		st->sb = st->efivarfs_mounted ? SB_NO_VAR : SB_NO_EFIVARFS;
		return;
	}
	if (err) {
		st->sb = SB_UNREADABLE;
		st->sb_err = err;
		return;
	}
	if (read_efivar(EFIVARS "/SetupMode-" EFI_GLOBAL, &attr,
			&st->setupmode))
		st->setupmode = 0;	/* as the EFI stub assumes */
	if (st->setupmode == 1) {
		st->sb = SB_SETUP;
		return;
	}
	if (!st->secureboot) {
		st->sb = SB_OFF;
		return;
	}
	/* The EFI stub honours a volatile MokSBStateRT of 1: shim is off. */
	if (!read_efivar(EFIVARS "/MokSBStateRT-" SHIM_LOCK, &attr, &v) &&
	    !(attr & EFI_VARIABLE_NON_VOLATILE) && v == 1) {
		st->sb = SB_SHIM_OFF;
		return;
	}
	st->sb = SB_ON;
}

static void read_modules_and_caps(struct status *st)
{
	unsigned long long mask;
	unsigned int last;
	char *buf;
	bool b;
	int err;

	err = ld_read_all(SIG_ENFORCE, &buf, NULL);
	if (!err) {
		err = ld_parse_bool(buf, &b) ? -EBADMSG : b;
		free(buf);
	}
	st->sig_enforce = err;

	err = ld_read_all(HIBERNATION, &buf, NULL);
	if (!err) {
		snprintf(st->hibernation, sizeof(st->hibernation), "%.*s",
			 (int)strcspn(buf, "\n"), buf);
		free(buf);
	}
	st->hib_err = err;

	err = ld_read_all("/proc/sys/kernel/cap_last_cap", &buf, NULL);
	if (!err) {
		err = ld_parse_uint(buf, &last) ? -EBADMSG : (int)last;
		free(buf);
	}
	st->cap_last = err;

	err = ld_read_all("/proc/self/status", &buf, NULL);
	if (!err) {
		err = ld_parse_capbnd(buf, &mask) ? -EBADMSG :
			!!(mask & 1ULL << LD_CAP_COMPROMISE_KERNEL);
		free(buf);
	}
	st->cap_held = err;
}

/*
 * The owner policy's state into @policy: 0, or -errno (-ENOENT: a kernel
 * without CONFIG_SECURITY_LOCKDOWN_OWNER_POLICY).
 */
static int read_policy(struct ld_policy *policy)
{
	char *buf;
	int err;

	err = ld_read_all(POLICY_STATUS, &buf, NULL);
	if (!err) {
		if (ld_parse_policy_status(buf, policy))
			err = -EBADMSG;
		free(buf);
	}
	return err;
}

static void read_mounts_and_cmdline(struct status *st)
{
	const char *p;
	char *buf;

	if (!ld_read_all("/proc/self/mounts", &buf, NULL)) {
		st->securityfs_mounted = ld_mounted(buf, SECFS, "securityfs");
		st->efivarfs_mounted = ld_mounted(buf, EFIVARS, "efivarfs");
		free(buf);
	}
	if (!ld_read_all("/proc/cmdline", &buf, NULL)) {
		for (p = buf; (p = strstr(p, "lockdown=")); p++) {
			if (p != buf && p[-1] != ' ')
				continue;
			p += strlen("lockdown=");
			st->cmdline_lockdown = true;
			snprintf(st->cmdline_level, sizeof(st->cmdline_level),
				 "%.*s", (int)strcspn(p, " \n"), p);
		}
		free(buf);
	}
}

/* The origin of the current level, or NULL. */
static const struct ld_origin *current_origin(const struct status *st)
{
	int i;

	for (i = 0; i < st->norigins; i++)
		if (st->origins[i].level == st->level)
			return &st->origins[i];
	return NULL;
}

static unsigned long total_denials(const struct status *st)
{
	unsigned long n = 0;
	int i;

	for (i = 0; i < st->ndenials; i++)
		n += st->denials[i].count;
	return n;
}

static void print_since(const struct ld_origin *o)
{
	if (!o->sec && o->usec < 5000)
		printf(" since boot");
	else
		printf(" since %llu.%02u s after boot", o->sec,
		       o->usec / 10000);
}

static void print_because(const struct ld_origin *o)
{
	const char *plain = ld_origin_plain(o->where);

	if (!plain) {
		printf(", because of \"%s\"", o->where);
		return;
	}
	printf(", because %s", plain);
	if (!strcmp(o->where, "command line"))
		printf("%s", ld_level_name(o->level));
	else if (!strcmp(o->where, "Kernel configuration"))
		printf(" (CONFIG_LOCK_DOWN_KERNEL_FORCE_%s)",
		       o->level == LD_INTEGRITY ? "INTEGRITY" :
						  "CONFIDENTIALITY");
}

/* Without lockdown_origin (a kernel without it), guess and say so. */
static void print_guess(const struct status *st)
{
	if (st->sb == SB_ON)
		printf(", probably because firmware Secure Boot is on");
	else if (st->cmdline_lockdown)
		printf(", probably because the kernel command line has lockdown=%s",
		       st->cmdline_level);
	else
		printf(", for a reason this kernel does not show");
}

static void print_level_summary(const struct status *st)
{
	const struct ld_origin *o = current_origin(st);
	unsigned long n = total_denials(st);

	if (st->level_err) {
		printf("Cannot tell whether this kernel is locked down: ");
		if (st->level_err == -ENOENT && !st->securityfs_mounted)
			printf("securityfs is not mounted.\nMount it with: mount -t securityfs securityfs %s\n",
			       SECFS);
		else if (st->level_err == -ENOENT)
			printf("%s/lockdown is missing: this kernel has no lockdown LSM, or it is not in lsm=.\n",
			       SECFS);
		else if (st->level_err == -EBADMSG)
			printf("%s/lockdown reads \"%s\", which this tool does not understand.\n",
			       SECFS, st->level_line);
		else
			printf("cannot read %s/lockdown: %s%s.\n", SECFS,
			       strerror(-st->level_err),
			       st->level_err == -EACCES ? " (try as root)" : "");
		return;
	}

	if (st->level == LD_NONE) {
		printf("This kernel is not locked down.\n");
		if (st->sb == SB_ON)
			printf("Firmware Secure Boot is on, but this kernel was not built to lock down under it.\n");
		return;
	}

	printf("This kernel is locked down (%s)", ld_level_name(st->level));
	if (o) {
		print_since(o);
		print_because(o);
	} else {
		print_guess(st);
	}
	printf(".\n");
	if (st->level == LD_INTEGRITY)
		printf("Programs, root included, may not change the running kernel; they may still read it.\n");
	else
		printf("Programs, root included, may neither change the running kernel nor read its secrets.\n");
	if (st->ndenials >= 0)
		printf(n ? "It has refused %lu operation%s since boot.\n" :
			   "It has refused nothing since boot.\n",
		       n, n == 1 ? "" : "s");
}

/* The plain words, then what the key view adds to them. */
static void print_summary(const struct status *st,
			  const struct ld_keyview *kv)
{
	print_level_summary(st);
	ld_keys_print_summary(kv);
}

/* The Secure Boot state: a stable name (for --json) and plain words. */
static const char *sb_state(const struct status *st, char *text,
			    size_t size)
{
	switch (st->sb) {
	case SB_NOT_EFI:
		snprintf(text, size, "not an EFI boot (no %s)", EFI_DIR);
		return "not-efi";
	case SB_NO_EFIVARFS:
		snprintf(text, size,
			 "unknown: efivarfs is not mounted (mount -t efivarfs efivarfs %s)",
			 EFIVARS);
		return "unknown";
	case SB_UNREADABLE:
		snprintf(text, size, "unknown: cannot read SecureBoot: %s",
			 ld_strerror(st->sb_err));
		return "unknown";
	case SB_NO_VAR:
		snprintf(text, size,
			 "off: the firmware has no SecureBoot variable");
		return "off";
	case SB_OFF:
		snprintf(text, size, "off (SecureBoot=0, SetupMode=0)");
		return "off";
	case SB_SETUP:
		snprintf(text, size,
			 "off: the firmware is in setup mode, no platform key (SecureBoot=%u, SetupMode=1)",
			 st->secureboot);
		return "setup-mode";
	case SB_SHIM_OFF:
		snprintf(text, size,
			 "off: on in firmware, but shim validation is disabled (MokSBStateRT=1)");
		return "shim-validation-off";
	case SB_ON:
		snprintf(text, size, "on (SecureBoot=1, SetupMode=0)");
		return "on";
	}
	snprintf(text, size, "unknown");
	return "unknown";
}

static void print_secure_boot(const struct status *st)
{
	char text[160];

	sb_state(st, text, sizeof(text));
	ld_label("Secure Boot:");
	printf("%s\n", text);
}

static void print_details(const struct status *st,
			  const struct ld_keyview *kv)
{
	bool locked = !st->level_err && st->level != LD_NONE;
	int i;

	printf("\nDetails:\n");
	if (!st->level_err) {
		ld_label("Level:");
		printf("%s (%s/lockdown: %s)\n",
		       ld_level_name(st->level), SECFS, st->level_line);
	}

	if (st->norigins > 0) {
		for (i = 0; i < st->norigins; i++) {
			const struct ld_origin *o = &st->origins[i];

			ld_label(i ? "" : "Origin:");
			printf("%s from %s, %llu.%06u s after boot\n",
			       ld_level_name(o->level), o->where, o->sec,
			       o->usec);
		}
	} else if (st->norigins == -ENOENT && !st->level_err) {
		ld_label("Origin:");
		printf("not shown by this kernel (no %s/lockdown_origin)\n",
		       SECFS);
	} else if (st->norigins < 0 && !st->level_err) {
		ld_label("Origin:");
		printf("unknown (%s/lockdown_origin: %s)\n",
		       SECFS, ld_strerror(st->norigins));
	}

	print_secure_boot(st);

	ld_label("Module signatures:");
	if (st->sig_enforce == 1)
		printf("enforced: only modules with a valid signature load (sig_enforce=Y)\n");
	else if (st->sig_enforce == 0 && locked)
		printf("not enforced (sig_enforce=N), but lockdown refuses modules without a valid signature\n");
	else if (st->sig_enforce == 0)
		printf("not enforced (sig_enforce=N): unsigned modules load and taint the kernel\n");
	else if (st->sig_enforce == -ENOENT)
		printf("not checked: this kernel has no module signing or no modules\n");
	else
		printf("unknown (%s: %s)\n", SIG_ENFORCE,
		       ld_strerror(st->sig_enforce));

	/* A kernel without the file says nothing: upstream's rule holds. */
	if (!st->hib_err) {
		ld_label("Hibernation:");
		printf("%s\n", st->hibernation);
	} else if (st->hib_err != -ENOENT) {
		ld_label("Hibernation:");
		printf("unknown (%s: %s)\n", HIBERNATION,
		       ld_strerror(st->hib_err));
	}

	ld_label("CAP_COMPROMISE_KERNEL:");
	if (st->cap_last >= 0 && st->cap_last < LD_CAP_COMPROMISE_KERNEL)
		printf("unknown to this kernel (its last capability is %d)\n",
		       st->cap_last);
	else if (st->cap_held < 0)
		printf("unknown (cannot read CapBnd in /proc/self/status)\n");
	else if (st->cap_held && locked)
		printf("in this process's bounding set, but nobody may use it while the kernel is locked down\n");
	else if (st->cap_held)
		printf("in this process's bounding set (no interface checks it)\n");
	else if (locked)
		printf("not in this process's bounding set (a lockdown at boot removes it from init's)\n");
	else
		printf("not in this process's bounding set: dropped by this process or a parent; harmless, no interface checks it\n");

	ld_keys_print_details(kv);
}

static void print_denials(const struct status *st)
{
	int i;

	if (st->ndenials == -ENOENT) {
		if (!st->level_err)
			printf("\nThis kernel does not count refusals (no %s/lockdown_denials).\n",
			       SECFS);
		return;
	}
	if (st->ndenials < 0) {
		printf("\nRefusals unknown (%s/lockdown_denials: %s).\n", SECFS,
		       ld_strerror(st->ndenials));
		return;
	}
	if (!total_denials(st))
		return;

	printf("\nRefused since boot:\n");
	for (i = 0; i < st->ndenials; i++) {
		const struct ld_denial *d = &st->denials[i];
		const char *plain = ld_reason_plain(d->reason);

		if (!d->count)
			continue;
		printf("  %6lu  %s", d->count, d->reason);
		if (plain)
			printf(": %s", plain);
		printf("\n");
	}
}

static void print_policy_rule(const struct ld_policy_rule *r)
{
	printf("  line %u: ", r->line);
	switch (r->kind) {
	case LD_RULE_MSR:
		printf("msr write 0x%x", r->msr);
		if (r->mask == ~0ULL)
			printf(" (any bits)");
		else
			printf(" mask 0x%llx", r->mask);
		break;
	case LD_RULE_PCI:
		printf("pci write %04x:%02x:%02x.%x 0x%x-0x%x", r->domain,
		       r->bus, r->dev, r->fn, r->start, r->end);
		break;
	case LD_RULE_IOPORT:
		printf("ioport 0x%x-0x%x", r->start, r->end);
		break;
	}
	if (r->unsafe)
		printf("  UNSAFE: can hand the kernel over");
	if (!r->uses)
		printf("  never used\n");
	else
		printf("  used %llu time%s\n", r->uses,
		       r->uses == 1 ? "" : "s");
}

/* The owner policy, when this kernel has one: what it allows, how often. */
static void print_policy(const struct status *st)
{
	const struct ld_policy *p = &st->policy;
	int i;

	if (st->policy_err == -ENOENT)
		return;
	if (st->policy_err) {
		printf("\nOwner policy unknown (%s: %s%s).\n", POLICY_STATUS,
		       ld_strerror(st->policy_err), ld_hint(st->policy_err));
		return;
	}
	if (!p->serial) {
		printf("\nOwner policy: none loaded since boot.\n");
		return;
	}

	printf("\nOwner policy: serial %llu, signed by ", p->serial);
	if (!strcmp(p->signer, "unknown"))
		printf("a platform key (not named yet)");
	else
		ld_put(p->signer);
	printf(", loaded %llu.%02llu s after boot, for this machine's PK %.16s...\n",
	       p->loaded_ns / 1000000000, p->loaded_ns % 1000000000 / 10000000,
	       p->pk_sha256);
	if (!p->nrules && !p->nother)
		printf("  No rules: it allows nothing that lockdown refuses.\n");
	for (i = 0; i < p->nrules; i++)
		print_policy_rule(&p->rules[i]);
	if (p->nother)
		printf("  and %d rule%s of a kind this tool does not know\n",
		       p->nother, ld_plural(p->nother));
	/*
	 * Loading it raised the counter to its serial: the next policy
	 * needs a higher serial, at most LD_COUNTER_MAX_STEP above.
	 */
	if (p->counter)
		printf("  Next policy: serial %llu to %llu (TPM counter 0x%08x was at %llu when this one loaded).\n",
		       p->serial + 1, p->serial + LD_COUNTER_MAX_STEP,
		       p->counter, p->serial);
}

/* Why the level cannot be told, in words (for --json). */
static void level_error(const struct status *st, char *text, size_t size)
{
	if (st->level_err == -ENOENT && !st->securityfs_mounted)
		snprintf(text, size, "securityfs is not mounted");
	else if (st->level_err == -ENOENT)
		snprintf(text, size,
			 "%s/lockdown is missing: no lockdown LSM, or it is not in lsm=",
			 SECFS);
	else
		snprintf(text, size, "%s/lockdown: %s", SECFS,
			 ld_strerror(st->level_err));
}

/* A time since boot as a JSON number: seconds with six decimals. */
static void json_seconds(struct json *j, const char *key,
			 const struct ld_origin *o)
{
	char num[40];

	snprintf(num, sizeof(num), "%llu.%06u", o->sec, o->usec);
	json_number(j, key, num);
}

static void json_error_or_null(struct json *j, const char *key, int err)
{
	if (err < 0)
		json_string(j, key, ld_strerror(err));
	else
		json_null(j, key);
}

/* An unsigned 64-bit number, beyond what json_int() takes. */
static void json_ull(struct json *j, const char *key, unsigned long long v)
{
	char num[24];

	snprintf(num, sizeof(num), "%llu", v);
	json_number(j, key, num);
}

/* A hex field of a rule, as the kernel prints it: "0x" and @n digits. */
static void json_hex(struct json *j, const char *key, unsigned long long v,
		     int n)
{
	char text[24];

	snprintf(text, sizeof(text), "0x%0*llx", n, v);
	json_string(j, key, text);
}

static void json_policy_rule(struct json *j, const struct ld_policy_rule *r)
{
	static const char * const kinds[] = {
		[LD_RULE_MSR] = "msr",
		[LD_RULE_PCI] = "pci",
		[LD_RULE_IOPORT] = "ioport",
	};
	char text[16];

	json_object_begin(j, NULL);
	json_int(j, "line", r->line);
	json_string(j, "kind", kinds[r->kind]);
	switch (r->kind) {
	case LD_RULE_MSR:
		json_hex(j, "msr", r->msr, 8);
		json_hex(j, "mask", r->mask, 16);
		break;
	case LD_RULE_PCI:
		snprintf(text, sizeof(text), "%04x:%02x:%02x.%x", r->domain,
			 r->bus, r->dev, r->fn);
		json_string(j, "function", text);
		json_hex(j, "start", r->start, 3);
		json_hex(j, "end", r->end, 3);
		break;
	case LD_RULE_IOPORT:
		json_hex(j, "start", r->start, 4);
		json_hex(j, "end", r->end, 4);
		break;
	}
	json_bool(j, "unsafe", r->unsafe);
	json_int(j, "uses", (long long)r->uses);
	json_object_end(j);
}

/* null, with a null error, when this kernel has no owner policy. */
static void json_policy(struct json *j, const struct status *st)
{
	const struct ld_policy *p = &st->policy;
	int i;

	if (st->policy_err) {
		json_null(j, "owner_policy");
		json_error_or_null(j, "owner_policy_error",
				   st->policy_err == -ENOENT ? 0 :
							       st->policy_err);
		return;
	}
	json_object_begin(j, "owner_policy");
	json_ull(j, "serial", p->serial);
	if (p->serial) {
		json_string(j, "pk_sha256", p->pk_sha256);
		json_string(j, "sha256", p->sha256);
		json_string(j, "signer", p->signer);
		json_ull(j, "loaded_ns", p->loaded_ns);
	} else {
		json_null(j, "pk_sha256");
		json_null(j, "sha256");
		json_null(j, "signer");
		json_null(j, "loaded_ns");
	}
	if (p->counter) {
		char handle[16];

		snprintf(handle, sizeof(handle), "0x%08x", p->counter);
		json_string(j, "counter", handle);
		json_ull(j, "next_serial", p->serial + 1);
	} else {
		json_null(j, "counter");
		json_null(j, "next_serial");
	}
	json_array_begin(j, "rules");
	for (i = 0; i < p->nrules; i++)
		json_policy_rule(j, &p->rules[i]);
	json_array_end(j);
	json_int(j, "unknown_rules", p->nother);
	json_object_end(j);
	json_null(j, "owner_policy_error");
}

static void json_lockdown(struct json *j, const struct status *st)
{
	char text[256];
	int i;

	if (st->level_err) {
		level_error(st, text, sizeof(text));
		json_null(j, "level");
		json_string(j, "level_error", text);
		json_null(j, "level_line");
	} else {
		json_string(j, "level", ld_level_name(st->level));
		json_null(j, "level_error");
		json_string(j, "level_line", st->level_line);
	}

	if (st->norigins < 0) {
		json_null(j, "origins");
	} else {
		json_array_begin(j, "origins");
		for (i = 0; i < st->norigins; i++) {
			const struct ld_origin *o = &st->origins[i];

			json_object_begin(j, NULL);
			json_string(j, "level", ld_level_name(o->level));
			json_seconds(j, "seconds", o);
			json_string(j, "origin", o->where);
			json_string(j, "because", ld_origin_plain(o->where));
			json_object_end(j);
		}
		json_array_end(j);
	}
	json_error_or_null(j, "origins_error", st->norigins);

	if (st->ndenials < 0) {
		json_null(j, "denials");
		json_null(j, "denials_total");
	} else {
		json_array_begin(j, "denials");
		for (i = 0; i < st->ndenials; i++) {
			const struct ld_denial *d = &st->denials[i];

			json_object_begin(j, NULL);
			json_string(j, "reason", d->reason);
			json_string(j, "level", ld_level_name(d->level));
			json_int(j, "count", (long long)d->count);
			json_string(j, "guards", ld_reason_plain(d->reason));
			json_object_end(j);
		}
		json_array_end(j);
		json_int(j, "denials_total", (long long)total_denials(st));
	}
	json_error_or_null(j, "denials_error", st->ndenials);
}

static void json_machine(struct json *j, const struct status *st)
{
	char text[160];

	json_object_begin(j, "secure_boot");
	json_string(j, "state", sb_state(st, text, sizeof(text)));
	json_string(j, "text", text);
	if (st->sb >= SB_OFF)
		json_int(j, "secureboot", st->secureboot);
	else
		json_null(j, "secureboot");
	if (st->sb >= SB_OFF)
		json_int(j, "setupmode", st->setupmode);
	else
		json_null(j, "setupmode");
	json_object_end(j);

	if (st->sig_enforce >= 0)
		json_bool(j, "sig_enforce", st->sig_enforce);
	else
		json_null(j, "sig_enforce");
	json_error_or_null(j, "sig_enforce_error", st->sig_enforce);
	if (!st->hib_err)
		json_string(j, "hibernation", st->hibernation);
	else
		json_null(j, "hibernation");

	json_object_begin(j, "cap_compromise_kernel");
	if (st->cap_last >= 0) {
		json_int(j, "cap_last_cap", st->cap_last);
		json_bool(j, "known",
			  st->cap_last >= LD_CAP_COMPROMISE_KERNEL);
	} else {
		json_null(j, "cap_last_cap");
		json_null(j, "known");
	}
	if (st->cap_held >= 0)
		json_bool(j, "in_bounding_set", st->cap_held);
	else
		json_null(j, "in_bounding_set");
	json_object_end(j);
}

/* Everything, as one JSON object (the names: lockdown-status(1)). */
static void print_json(const struct status *st, const struct ld_keyview *kv,
		       int rc)
{
	struct json j;

	json_init(&j, stdout);
	json_object_begin(&j, NULL);
	json_int(&j, "format", JSON_FORMAT);
	json_int(&j, "exit_status", rc);
	json_lockdown(&j, st);
	json_machine(&j, st);
	json_policy(&j, st);
	ld_keys_json(kv, &j);
	json_object_end(&j);
}

/* Say why no draft was printed; the exit status for it. */
static int draft_error(const char *what, const char *path, int err)
{
	fprintf(stderr, "lockdown-status: no draft: cannot read %s (%s: %s%s)\n",
		what, path, ld_strerror(err), ld_hint(err));
	return EXIT_CANNOT_TELL;
}

/*
 * --draft-policy: the refusals as the rules that would allow them, for
 * the owner to review and sign.  The header names this machine (the
 * SHA-256 of PK's contents) and the next serial that can load: the
 * policy in force's plus one, or the TPM counter's value when none has
 * loaded since boot.  Exit 0 when a draft was printed, 3 when not.
 */
static int draft_policy(void)
{
	static struct ld_refusals rs;
	static struct ld_policy policy;	/* 256 rules: not on the stack */
	struct ld_draft d = { .refusals = &rs, .policy = &policy };
	unsigned char pk[LD_SHA256_SIZE];
	char pk_hex[LD_SHA256_HEX + 1];
	char *buf, *text = NULL;
	size_t len;
	int err, i;

	err = ld_read_all(REFUSALS, &buf, NULL);
	if (err)
		return draft_error("the refusals", REFUSALS, err);
	err = ld_parse_refusals(buf, &rs) ? -EBADMSG : 0;
	free(buf);
	if (err)
		return draft_error("the refusals", REFUSALS, err);

	err = read_policy(&policy);
	if (err)
		return draft_error("the owner policy's state", POLICY_STATUS, err);
	if (policy.serial) {
		/* Its rules are kept: a draft without them would drop them. */
		err = ld_read_all(POLICY, &text, NULL);
		if (err)
			return draft_error("the policy in force", POLICY, err);
		d.text = text;
	}

	err = ld_read_all(EFIVARS "/PK-" EFI_GLOBAL, &buf, &len);
	if (!err && len <= 4)
		err = -EBADMSG;
	if (err) {
		free(text);
		return draft_error("the machine's UEFI PK", EFIVARS "/PK-" EFI_GLOBAL, err);
	}
	ld_sha256(buf + 4, len - 4, pk);	/* after the attributes */
	free(buf);
	for (i = 0; i < LD_SHA256_SIZE; i++)
		sprintf(pk_hex + 2 * i, "%02x", pk[i]);
	d.pk_sha256 = pk_hex;

	d.counter = policy.counter ? policy.counter : LD_DRAFT_COUNTER;
	if (policy.serial) {
		d.serial = policy.serial + 1;
	} else {
		err = ld_tpm_counter(d.counter, &d.serial);
		if (err < 0) {
			char what[64];

			free(text);
			snprintf(what, sizeof(what), "TPM counter 0x%08x", d.counter);
			return draft_error(what, "/dev/tpmrm0", err);
		}
		if (err == 1) {
			d.serial = 1;
			d.counter_fresh = true;
		}
	}

	if (!ld_draft_print(stdout, &d))
		fprintf(stderr, "lockdown-status: no refusal to draft a rule from\n");
	free(text);
	if (fflush(stdout) || ferror(stdout))
		return EXIT_CANNOT_TELL;
	return 0;
}

static void usage(FILE *f, const char *prog)
{
	fprintf(f,
		"Usage: %s [OPTION]...\n"
		"Say whether, why and since when this kernel is locked down,\n"
		"what it has refused since boot, and which keys it trusts.\n"
		"\n"
		"  -k, --keys     show every key trusted for module signatures and\n"
		"                 kexec, where it came from, what is revoked, and\n"
		"                 what the kernel ignored at boot\n"
		"  -j, --json     print everything as one JSON object\n"
		"  -q, --quiet    print nothing; only set the exit status\n"
		"      --draft-policy  print the refused MSR, PCI and I/O-port\n"
		"                 writes as an owner policy, with the rules in\n"
		"                 force, for the owner to review and sign\n"
		"  -h, --help     show this help\n"
		"  -V, --version  show the version\n"
		"\n"
		"Exit status: 0 not locked down, 1 locked down (integrity),\n"
		"2 locked down (confidentiality), 3 cannot tell; the same with\n"
		"every option but --draft-policy, which exits 0 when it printed a\n"
		"draft and 3 when not. A usage error exits 3.\n"
		"\n"
		"LOCKDOWN_STATUS_ROOT, when set, is prefixed to every path read.\n"
		"See lockdown-status(1) and kernel_lockdown(7).\n", prog);
}

static const struct option options[] = {
	{ "keys",	no_argument,	NULL, 'k' },
	{ "json",	no_argument,	NULL, 'j' },
	{ "quiet",	no_argument,	NULL, 'q' },
	{ "help",	no_argument,	NULL, 'h' },
	{ "version",	no_argument,	NULL, 'V' },
	{ "draft-policy", no_argument,	NULL, 'D' },
	{ NULL,		0,		NULL, 0 },
};

/* A usage error: getopt_long() has said what is wrong. */
static int usage_error(const char *prog)
{
	fprintf(stderr, "Try '%s --help' for more information.\n", prog);
	return EXIT_CANNOT_TELL;
}

int main(int argc, char **argv)
{
	struct ld_keyview kv = { 0 };
	struct status st = { 0 };
	bool quiet = false, json = false, keys = false, draft = false;
	const char *env;
	int opt, rc;

	while ((opt = getopt_long(argc, argv, "kjqhV", options, NULL)) != -1) {
		switch (opt) {
		case 'k':
			keys = true;
			break;
		case 'j':
			json = true;
			break;
		case 'q':
			quiet = true;
			break;
		case 'h':
			usage(stdout, argv[0]);
			return 0;
		case 'D':
			draft = true;
			break;
		case 'V':
			printf("lockdown-status %s\n", VERSION);
			return 0;
		default:
			return usage_error(argv[0]);
		}
	}
	if (optind < argc) {
		fprintf(stderr, "%s: unexpected argument '%s'\n", argv[0],
			argv[optind]);
		return usage_error(argv[0]);
	}

	env = getenv("LOCKDOWN_STATUS_ROOT");
	if (env)
		ld_root = env;

	read_level(&st);
	rc = st.level_err ? EXIT_CANNOT_TELL : (int)st.level;
	if (quiet)
		return rc;
	if (draft)
		return draft_policy();

	read_mounts_and_cmdline(&st);
	read_secure_boot(&st);
	read_modules_and_caps(&st);
	st.policy_err = read_policy(&st.policy);
	ld_keys_read(&kv);

	if (json) {
		print_json(&st, &kv, rc);
	} else if (keys) {
		ld_keys_print(&kv);
	} else {
		print_summary(&st, &kv);
		print_details(&st, &kv);
		print_denials(&st);
		print_policy(&st);
	}
	ld_keys_free(&kv);

	if (fflush(stdout) || ferror(stdout))
		return EXIT_CANNOT_TELL;
	return rc;
}
