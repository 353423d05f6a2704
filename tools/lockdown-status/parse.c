// SPDX-License-Identifier: GPL-2.0
/*
 * lockdown-status: parsers for the files the kernel shows lockdown in.
 *
 * Formats (security/lockdown/securityfs.c):
 *   lockdown          "none [integrity] confidentiality\n"
 *   lockdown_origin   "LEVEL SECONDS ORIGIN\n" per level reached
 *   lockdown_denials  "COUNT LEVEL REASON\n" per reason
 *   lockdown_policy_status  "KEY VALUE\n" for the owner policy, then
 *                     "rule LINE KIND ... uses N\n" per rule
 *                     (security/lockdown/owner.c)
 * and efivarfs variables: 4 bytes of attributes, then the value.
 *
 * The key view reads (security/keys/proc.c, kernel/printk/printk.c):
 *   /proc/keys        "SERIAL FLAGS USAGE EXPIRY PERM UID GID TYPE DESC"
 *   keyring members   one hex serial a line (the fixtures' stand-in for
 *                     keyctl(KEYCTL_READ))
 *   /dev/kmsg         "PRI,SEQ,TS,FLAGS;MESSAGE", then " KEY=VALUE" lines
 */

#include <errno.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "parse.h"

#define ARRAY_SIZE(a) (sizeof(a) / sizeof((a)[0]))

static const char * const level_names[LD_NR_LEVELS] = {
	[LD_NONE] = "none",
	[LD_INTEGRITY] = "integrity",
	[LD_CONFIDENTIALITY] = "confidentiality",
};

/**
 * ld_level_name - the kernel's name of a level
 * @level: the level
 *
 * Return: "none", "integrity", "confidentiality" or "?".
 */
const char *ld_level_name(enum ld_level level)
{
	if ((unsigned int)level >= LD_NR_LEVELS)
		return "?";
	return level_names[level];
}

/**
 * ld_level_from_name - look a level up by name
 * @name: the name, not necessarily NUL-terminated
 * @len: its length
 * @level: where to store the level
 *
 * Return: 0, or -EINVAL when @name is no level.
 */
int ld_level_from_name(const char *name, size_t len, enum ld_level *level)
{
	unsigned int i;

	for (i = 0; i < LD_NR_LEVELS; i++) {
		if (strlen(level_names[i]) == len &&
		    !strncmp(name, level_names[i], len)) {
			*level = i;
			return 0;
		}
	}
	return -EINVAL;
}

/* Length of the line at @s, without its newline. */
static size_t line_len(const char *s)
{
	return strcspn(s, "\n");
}

/* The next line after the one at @s, or NULL at the end. */
static const char *next_line(const char *s)
{
	s += line_len(s);
	return *s ? s + 1 : NULL;
}

/**
 * ld_parse_level - parse /sys/kernel/security/lockdown
 * @buf: the file's contents, NUL-terminated
 * @level: where to store the current (bracketed) level
 *
 * The line names every level once, in order, the current one in brackets.
 *
 * Return: 0, or -EINVAL when @buf is not in that format.
 */
int ld_parse_level(const char *buf, enum ld_level *level)
{
	size_t len = line_len(buf);
	const char *p = buf, *end = buf + len;
	unsigned int i;
	int current = -1;

	if (buf[len] && buf[len + 1])
		return -EINVAL;		/* more than one line */

	for (i = 0; i < LD_NR_LEVELS; i++) {
		size_t n = strlen(level_names[i]);
		bool bracket = p < end && *p == '[';

		if (bracket)
			p++;
		if ((size_t)(end - p) < n || strncmp(p, level_names[i], n))
			return -EINVAL;
		p += n;
		if (bracket) {
			if (p == end || *p != ']' || current >= 0)
				return -EINVAL;
			p++;
			current = i;
		}
		if (i < LD_NR_LEVELS - 1) {
			if (p == end || *p != ' ')
				return -EINVAL;
			p++;
		}
	}
	if (p != end || current < 0)
		return -EINVAL;
	*level = current;
	return 0;
}

/*
 * Parse "WORD REST" at @s (one line of @len bytes): @word gets the first
 * word, @rest the remainder after one space.
 */
static int split_word(const char *s, size_t len, const char **word,
		      size_t *wlen, const char **rest, size_t *rlen)
{
	const char *sp = memchr(s, ' ', len);

	if (!sp || sp == s || sp + 1 == s + len)
		return -EINVAL;
	*word = s;
	*wlen = sp - s;
	*rest = sp + 1;
	*rlen = s + len - (sp + 1);
	return 0;
}

/* Copy @len bytes of text into @dst, truncating to fit. */
static void copy_text(char *dst, size_t size, const char *src, size_t len)
{
	if (len >= size)
		len = size - 1;
	memcpy(dst, src, len);
	dst[len] = '\0';
}

/* Parse an unsigned decimal of exactly @len bytes. */
static int parse_ull(const char *s, size_t len, unsigned long long *v)
{
	unsigned long long r = 0;
	size_t i;

	if (!len || len > 20)
		return -EINVAL;
	for (i = 0; i < len; i++) {
		unsigned int d = s[i] - '0';

		if (d > 9 || r > (~0ULL - d) / 10)
			return -EINVAL;
		r = r * 10 + d;
	}
	*v = r;
	return 0;
}

/**
 * ld_parse_origins - parse /sys/kernel/security/lockdown_origin
 * @buf: the file's contents, NUL-terminated (empty when never raised)
 * @o: array to fill, lowest level first
 * @max: its size
 *
 * Each line is "LEVEL SECONDS.MICROSECONDS ORIGIN"; ORIGIN may contain
 * spaces and is truncated to fit struct ld_origin.
 *
 * Return: the number of lines parsed, or -EINVAL on a malformed line.
 */
int ld_parse_origins(const char *buf, struct ld_origin *o, int max)
{
	const char *s;
	int n = 0;

	for (s = buf; s && *s; s = next_line(s)) {
		size_t len = line_len(s), wlen, rlen, tlen, rrlen;
		const char *word, *rest, *time, *where, *dot;
		unsigned long long usec;

		if (n >= max)
			return -EINVAL;
		if (split_word(s, len, &word, &wlen, &rest, &rlen) ||
		    ld_level_from_name(word, wlen, &o[n].level) ||
		    o[n].level == LD_NONE)
			return -EINVAL;
		if (split_word(rest, rlen, &time, &tlen, &where, &rrlen))
			return -EINVAL;
		dot = memchr(time, '.', tlen);
		if (!dot || parse_ull(time, dot - time, &o[n].sec) ||
		    time + tlen - (dot + 1) != 6 ||
		    parse_ull(dot + 1, 6, &usec))
			return -EINVAL;
		o[n].usec = (unsigned int)usec;	/* six digits */
		copy_text(o[n].where, sizeof(o[n].where), where, rrlen);
		n++;
	}
	return n;
}

/**
 * ld_parse_denials - parse /sys/kernel/security/lockdown_denials
 * @buf: the file's contents, NUL-terminated
 * @d: array to fill, in the file's order
 * @max: its size
 *
 * Each line is "COUNT LEVEL REASON"; REASON may contain spaces and is
 * truncated to fit struct ld_denial.
 *
 * Return: the number of lines parsed, or -EINVAL on a malformed line.
 */
int ld_parse_denials(const char *buf, struct ld_denial *d, int max)
{
	const char *s;
	int n = 0;

	for (s = buf; s && *s; s = next_line(s)) {
		size_t len = line_len(s), clen, rlen, wlen, rrlen;
		const char *count, *rest, *word, *reason;
		unsigned long long c;

		if (n >= max)
			return -EINVAL;
		if (split_word(s, len, &count, &clen, &rest, &rlen) ||
		    parse_ull(count, clen, &c) || c > (unsigned long)-1)
			return -EINVAL;
		if (split_word(rest, rlen, &word, &wlen, &reason, &rrlen) ||
		    ld_level_from_name(word, wlen, &d[n].level) ||
		    d[n].level == LD_NONE)
			return -EINVAL;
		d[n].count = c;
		copy_text(d[n].reason, sizeof(d[n].reason), reason, rrlen);
		n++;
	}
	return n;
}

/**
 * ld_parse_efivar - parse a one-byte efivarfs variable
 * @buf: the file's contents
 * @len: their length
 * @attr: where to store the attributes (EFI_VARIABLE_*)
 * @value: where to store the value
 *
 * Return: 0, or -EINVAL when @buf is not 4 bytes of attributes and a
 * one-byte value.
 */
int ld_parse_efivar(const unsigned char *buf, size_t len,
		    unsigned int *attr, unsigned char *value)
{
	uint32_t a;

	if (len != sizeof(a) + 1)
		return -EINVAL;
	/* efivarfs gives the attributes as a u32 in host byte order */
	memcpy(&a, buf, sizeof(a));
	*attr = a;
	*value = buf[4];
	return 0;
}

/**
 * ld_parse_bool - parse a bool module parameter such as sig_enforce
 * @buf: the file's contents, NUL-terminated
 * @value: where to store the value
 *
 * Return: 0, or -EINVAL when @buf is not "Y" or "N" (or 1 or 0).
 */
int ld_parse_bool(const char *buf, bool *value)
{
	size_t len = line_len(buf);

	if (len != 1 || (buf[1] && buf[2]))
		return -EINVAL;
	switch (buf[0]) {
	case 'Y':
	case '1':
		*value = true;
		return 0;
	case 'N':
	case '0':
		*value = false;
		return 0;
	}
	return -EINVAL;
}

/**
 * ld_parse_capbnd - find the bounding set in /proc/PID/status
 * @status: the file's contents, NUL-terminated
 * @mask: where to store the set
 *
 * Return: 0, or -EINVAL when there is no well-formed "CapBnd:" line.
 */
int ld_parse_capbnd(const char *status, unsigned long long *mask)
{
	const char *s;

	for (s = status; s && *s; s = next_line(s)) {
		size_t len = line_len(s), i;
		unsigned long long m = 0;

		if (strncmp(s, "CapBnd:", 7))
			continue;
		for (i = 7; i < len && (s[i] == '\t' || s[i] == ' '); i++)
			;
		if (i == len || len - i > 16)
			return -EINVAL;
		for (; i < len; i++) {
			char c = s[i];
			unsigned int d;

			if (c >= '0' && c <= '9')
				d = c - '0';
			else if (c >= 'a' && c <= 'f')
				d = c - 'a' + 10;
			else if (c >= 'A' && c <= 'F')
				d = c - 'A' + 10;
			else
				return -EINVAL;
			m = m << 4 | d;
		}
		*mask = m;
		return 0;
	}
	return -EINVAL;
}

/**
 * ld_parse_uint - parse a file holding one unsigned decimal
 * @buf: the file's contents, NUL-terminated
 * @value: where to store the number
 *
 * Return: 0, or -EINVAL.
 */
int ld_parse_uint(const char *buf, unsigned int *value)
{
	unsigned long long v;
	size_t len = line_len(buf);

	if ((buf[len] && buf[len + 1]) || parse_ull(buf, len, &v) ||
	    v > ~0U)
		return -EINVAL;
	*value = (unsigned int)v;
	return 0;
}

/**
 * ld_mounted - whether /proc/self/mounts lists a file system
 * @mounts: the file's contents, NUL-terminated
 * @dir: the mount point
 * @fstype: the file system type
 *
 * Return: true when a line "SOURCE @dir @fstype ..." is present.
 */
bool ld_mounted(const char *mounts, const char *dir, const char *fstype)
{
	size_t dlen = strlen(dir), tlen = strlen(fstype);
	const char *s;

	for (s = mounts; s && *s; s = next_line(s)) {
		size_t len = line_len(s);
		const char *p = memchr(s, ' ', len);

		if (!p)
			continue;
		p++;
		len -= p - s;
		if (len > dlen + tlen + 1 && !strncmp(p, dir, dlen) &&
		    p[dlen] == ' ' && !strncmp(p + dlen + 1, fstype, tlen) &&
		    (len == dlen + 1 + tlen || p[dlen + 1 + tlen] == ' '))
			return true;
	}
	return false;
}

/* What each lockdown reason of Linux 6.1 and 6.12 guards, in plain words. */
static const struct {
	const char *reason;
	const char *plain;
} reasons[] = {
	{ "unsigned module loading",
	  "loading modules without a valid signature (insmod, modprobe)" },
	{ "/dev/mem,kmem,port", "opening /dev/mem and /dev/port" },
	{ "/dev/efi_test access",
	  "opening /dev/efi_test (EFI runtime service tests)" },
	{ "kexec of unsigned images",
	  "kexec_load(), and kexec_file_load() of unsigned kernels (kexec)" },
	{ "hibernation",
	  "hibernation (suspend to disk); counted each time it is offered" },
	{ "direct PCI access",
	  "PCI config space writes and BAR mappings (setpci, /sys/bus/pci)" },
	{ "raw io port access", "I/O port access through ioperm() and iopl()" },
	{ "raw MSR access", "writes to /dev/cpu/*/msr (wrmsr)" },
	{ "modifying ACPI tables",
	  "ACPI table overrides and custom methods" },
	{ "modifying device tree contents",
	  "writes to /proc/powerpc/ofdt" },
	{ "direct PCMCIA CIS storage",
	  "replacing a PCMCIA card's CIS through sysfs" },
	{ "reconfiguration of serial port IO",
	  "changing a serial port's I/O port or IRQ (setserial)" },
	{ "unsafe module parameters",
	  "module parameters that set I/O ports, IRQs or memory addresses" },
	{ "unsafe mmio", "loading the testmmiotrace module" },
	{ "debugfs access",
	  "writable or mappable files in /sys/kernel/debug" },
	{ "xmon write access", "writes from the xmon debugger" },
	{ "use of bpf to write user RAM",
	  "BPF programs calling bpf_probe_write_user()" },
	{ "use of kgdb/kdb to write kernel RAM",
	  "kgdb and kdb writing kernel memory" },
	{ "RTAS error injection", "RTAS error injection (powerpc)" },
	{ "Xen guest user action",
	  "the Xen privcmd \"unrestricted\" parameter" },
	{ "/proc/kcore access", "reading kernel memory through /proc/kcore" },
	{ "use of kprobes", "kprobe trace events" },
	{ "use of bpf to read kernel RAM",
	  "BPF programs reading kernel memory (bpf_probe_read_kernel())" },
	{ "use of kgdb/kdb to read kernel RAM",
	  "kgdb and kdb reading kernel memory" },
	{ "unsafe use of perf",
	  "perf sampling of interrupted registers (PERF_SAMPLE_REGS_INTR)" },
	{ "use of tracefs",
	  "tracing through /sys/kernel/tracing (ftrace, trace-cmd)" },
	{ "xmon read and write access", "the xmon debugger" },
	{ "xfrm SA secret", "IPsec keys in \"ip xfrm state\" (shown zeroed)" },
};

/**
 * ld_reason_plain - what a lockdown reason guards, in plain words
 * @reason: the reason text, as in lockdown_denials
 *
 * Return: a phrase, or NULL for a reason this tool does not know.
 */
const char *ld_reason_plain(const char *reason)
{
	size_t i;

	for (i = 0; i < ARRAY_SIZE(reasons); i++)
		if (!strcmp(reason, reasons[i].reason))
			return reasons[i].plain;
	return NULL;
}

/* Why the kernel is locked down, by origin, to follow "because". */
static const struct {
	const char *where;
	const char *plain;
} origins[] = {
	{ "EFI Secure Boot", "firmware Secure Boot is on" },
	{ "secureboot_enable=1",
	  "the kernel command line has secureboot_enable=1 (Secure Boot emulated)" },
	{ "command line", "the kernel command line has lockdown=" },
	{ "securityfs",
	  "a level was written to /sys/kernel/security/lockdown" },
	{ "Kernel configuration", "the kernel was built to lock down" },
};

/**
 * ld_origin_plain - why the kernel is locked down, in plain words
 * @where: the origin, as in lockdown_origin
 *
 * Return: a phrase to follow "because", or NULL for an unknown origin.
 */
const char *ld_origin_plain(const char *where)
{
	size_t i;

	for (i = 0; i < ARRAY_SIZE(origins); i++)
		if (!strcmp(where, origins[i].where))
			return origins[i].plain;
	return NULL;
}

/* Skip blanks, then return the next blank-separated field of [*p, end). */
static const char *next_field(const char **p, const char *end, size_t *len)
{
	const char *s = *p, *e;

	while (s < end && *s == ' ')
		s++;
	for (e = s; e < end && *e != ' '; e++)
		;
	*p = e;
	*len = e - s;
	return s;
}

/* Parse @len hex digits (an optional "0x" first); at most 8 of them. */
static int parse_hex32(const char *s, size_t len, unsigned int *v)
{
	unsigned int r = 0;
	size_t i;

	if (len > 2 && s[0] == '0' && (s[1] == 'x' || s[1] == 'X')) {
		s += 2;
		len -= 2;
	}
	if (!len || len > 8)
		return -EINVAL;
	for (i = 0; i < len; i++) {
		char c = s[i];
		unsigned int d;

		if (c >= '0' && c <= '9')
			d = c - '0';
		else if (c >= 'a' && c <= 'f')
			d = c - 'a' + 10;
		else if (c >= 'A' && c <= 'F')
			d = c - 'A' + 10;
		else
			return -EINVAL;
		r = r << 4 | d;
	}
	*v = r;
	return 0;
}

/* Whether [s, s + len) ends with @suffix. */
static bool ends_with(const char *s, size_t len, const char *suffix)
{
	size_t n = strlen(suffix);

	return len >= n && !memcmp(s + len - n, suffix, n);
}

/* The last ": " in [s, s + len), or NULL. */
static const char *last_colon(const char *s, size_t len)
{
	size_t i;

	for (i = len; i >= 2; i--)
		if (s[i - 2] == ':' && s[i - 1] == ' ')
			return s + i - 2;
	return NULL;
}

/*
 * /proc/keys shows the type in "%-9.9s": longer names are cut. These are
 * the ones that matter here, or that are common enough to be seen.
 */
static const char * const long_types[] = {
	"asymmetric", "dns_resolver", "id_resolver", ".request_key_auth",
};

/**
 * ld_parse_key_line - parse one line of /proc/keys
 * @s: the line
 * @len: its length, without the newline
 * @k: where to store its fields; the pointers point into @s
 *
 * The description is split from what the key's type appends to it: a
 * keyring's ": COUNT" (or ": empty"), an asymmetric key's
 * ": X509.ALGO KEYID []".
 *
 * Return: 0, or -EINVAL when @s is not in that format.
 */
int ld_parse_key_line(const char *s, size_t len, struct ld_key_line *k)
{
	const char *p = s, *end = s + len, *f, *c;
	unsigned long long v;
	unsigned int perm;
	size_t flen, i;

	memset(k, 0, sizeof(*k));
	f = next_field(&p, end, &flen);
	if (parse_hex32(f, flen, &k->serial))
		return -EINVAL;
	f = next_field(&p, end, &flen);			/* flags */
	if (flen != 7)
		return -EINVAL;
	k->instantiated = f[0] == 'I';
	k->revoked = f[1] == 'R' || f[2] == 'D';
	k->in_quota = f[3] == 'Q';
	f = next_field(&p, end, &flen);			/* usage */
	if (parse_ull(f, flen, &v))
		return -EINVAL;
	f = next_field(&p, end, &flen);			/* expiry */
	if (!flen)
		return -EINVAL;
	f = next_field(&p, end, &flen);			/* permissions */
	if (parse_hex32(f, flen, &perm))
		return -EINVAL;
	f = next_field(&p, end, &flen);			/* uid */
	if (parse_ull(f, flen, &v) || v > ~0U)
		return -EINVAL;
	k->uid = (unsigned int)v;
	f = next_field(&p, end, &flen);			/* gid */
	if (flen && *f == '-')
		f++, flen--;
	if (parse_ull(f, flen, &v))
		return -EINVAL;
	f = next_field(&p, end, &flen);			/* type */
	if (!flen || flen >= sizeof(k->type))
		return -EINVAL;
	copy_text(k->type, sizeof(k->type), f, flen);
	if (flen == 9) {
		for (i = 0; i < ARRAY_SIZE(long_types); i++)
			if (!strncmp(long_types[i], f, 9))
				copy_text(k->type, sizeof(k->type),
					  long_types[i], strlen(long_types[i]));
	}
	while (p < end && *p == ' ')
		p++;
	if (p == end)
		return -EINVAL;				/* no description */
	k->desc = p;
	k->desc_len = end - p;

	c = last_colon(k->desc, k->desc_len);
	if (!c)
		return 0;
	if ((!strcmp(k->type, "keyring") &&
	     strspn(c + 2, "0123456789") == (size_t)(end - c - 2) &&
	     end > c + 2) ||
	    (!strcmp(k->type, "keyring") && end - c - 2 == 5 &&
	     !memcmp(c + 2, "empty", 5)) ||
	    (!strcmp(k->type, "asymmetric") && ends_with(p, end - p, "]"))) {
		k->desc_len = c - p;
		k->detail = c + 2;
		k->detail_len = end - (c + 2);
		if (ends_with(k->detail, k->detail_len, " []"))
			k->detail_len -= 3;
	}
	return 0;
}

/**
 * ld_parse_serials - parse a list of key serials, one hex number a line
 * @buf: the text, NUL-terminated; blank lines are skipped
 * @serials: array to fill
 * @max: its size
 *
 * Return: the number of serials, -EINVAL on a line that is not a serial,
 * or -E2BIG when there are more than @max.
 */
int ld_parse_serials(const char *buf, unsigned int *serials, int max)
{
	const char *s;
	int n = 0;

	for (s = buf; s && *s; s = next_line(s)) {
		const char *p = s, *end = s + line_len(s), *f;
		size_t flen;

		f = next_field(&p, end, &flen);
		if (!flen)
			continue;
		if (n >= max)
			return -E2BIG;
		if (parse_hex32(f, flen, &serials[n]))
			return -EINVAL;
		next_field(&p, end, &flen);
		if (flen)
			return -EINVAL;
		n++;
	}
	return n;
}

/**
 * ld_parse_kmsg - parse the header of one /dev/kmsg record
 * @s: the record's first line
 * @len: its length, without the newline
 * @r: where to store the fields; @r->msg points into @s
 *
 * The header is "PRI,SEQ,TS_USEC,FLAGS[,MORE...];"; PRI is the syslog
 * facility * 8 + level. Continuation lines (" KEY=VALUE") are not part
 * of the record's message and are not passed here.
 *
 * Return: 0, or -EINVAL when @s is no record header.
 */
int ld_parse_kmsg(const char *s, size_t len, struct ld_kmsg *r)
{
	const char *semi = memchr(s, ';', len), *c1, *c2, *c3;
	unsigned long long pri;

	if (!semi)
		return -EINVAL;
	c1 = memchr(s, ',', semi - s);
	if (!c1)
		return -EINVAL;
	c2 = memchr(c1 + 1, ',', semi - (c1 + 1));
	if (!c2)
		return -EINVAL;
	c3 = memchr(c2 + 1, ',', semi - (c2 + 1));
	if (!c3)
		return -EINVAL;
	if (parse_ull(s, c1 - s, &pri) || pri > 0xffff ||
	    parse_ull(c1 + 1, c2 - c1 - 1, &r->seq) ||
	    parse_ull(c2 + 1, c3 - c2 - 1, &r->usec))
		return -EINVAL;
	r->facility = (unsigned int)pri >> 3;
	r->level = (unsigned int)pri & 7;
	r->msg = semi + 1;
	r->len = s + len - (semi + 1);
	return 0;
}

static int hex_digit(char c)
{
	if (c >= '0' && c <= '9')
		return c - '0';
	if (c >= 'a' && c <= 'f')
		return c - 'a' + 10;
	if (c >= 'A' && c <= 'F')
		return c - 'A' + 10;
	return -1;
}

/**
 * ld_kmsg_unescape - undo the \xNN escapes of a /dev/kmsg message
 * @s: the message
 * @len: its length
 * @out: where to store it, NUL-terminated (truncated to fit)
 * @size: the size of @out, at least 1
 *
 * The kernel writes bytes below ' ', from 127 up, and '\' as \xNN. A
 * \x00 is kept escaped, so that @out stays one string.
 *
 * Return: the length stored.
 */
size_t ld_kmsg_unescape(const char *s, size_t len, char *out, size_t size)
{
	size_t i, n = 0;

	for (i = 0; i < len && n + 1 < size; i++) {
		int hi, lo;

		if (s[i] == '\\' && i + 3 < len && s[i + 1] == 'x' &&
		    (hi = hex_digit(s[i + 2])) >= 0 &&
		    (lo = hex_digit(s[i + 3])) >= 0 && (hi || lo)) {
			out[n++] = (char)(hi << 4 | lo);
			i += 3;
			continue;
		}
		out[n++] = s[i];
	}
	out[n] = '\0';
	return n;
}

/* Parse exactly @n hex digits at @s (@n at most 16). */
static int parse_xdigits(const char *s, size_t n, unsigned long long *v)
{
	unsigned long long r = 0;
	size_t i;

	for (i = 0; i < n; i++) {
		int d = hex_digit(s[i]);

		if (d < 0)
			return -EINVAL;
		r = r << 4 | d;
	}
	*v = r;
	return 0;
}

/* Parse "0x" and exactly @n hex digits: the field [s, s + len). */
static int parse_0x(const char *s, size_t len, size_t n,
		    unsigned long long *v)
{
	if (len != n + 2 || s[0] != '0' || s[1] != 'x')
		return -EINVAL;
	return parse_xdigits(s + 2, n, v);
}

/* Parse "0xSTART-0xEND", each of @n hex digits, START <= END. */
static int parse_0x_range(const char *s, size_t len, size_t n,
			  struct ld_policy_rule *r)
{
	unsigned long long start, end;

	if (len != 2 * (n + 2) + 1 || s[n + 2] != '-' ||
	    parse_0x(s, n + 2, n, &start) ||
	    parse_0x(s + n + 3, n + 2, n, &end) || start > end)
		return -EINVAL;
	r->start = (unsigned int)start;		/* at most 4 digits */
	r->end = (unsigned int)end;
	return 0;
}

static bool field_is(const char *f, size_t len, const char *word)
{
	return len == strlen(word) && !memcmp(f, word, len);
}

/* Whether the next field of [*p, end) is @word; *p moves past it. */
static bool next_is(const char **p, const char *end, const char *word)
{
	size_t len;
	const char *f = next_field(p, end, &len);

	return field_is(f, len, word);
}

/* "DDDD:BB:DD.F", as the kernel prints a PCI function. */
static int parse_pci_function(const char *s, size_t len,
			      struct ld_policy_rule *r)
{
	unsigned long long domain, bus, dev, fn;

	if (len != 12 || s[4] != ':' || s[7] != ':' || s[10] != '.' ||
	    parse_xdigits(s, 4, &domain) || parse_xdigits(s + 5, 2, &bus) ||
	    parse_xdigits(s + 8, 2, &dev) || parse_xdigits(s + 11, 1, &fn) ||
	    dev > 0x1f || fn > 7)
		return -EINVAL;
	r->domain = (unsigned int)domain;
	r->bus = (unsigned int)bus;
	r->dev = (unsigned int)dev;
	r->fn = (unsigned int)fn;
	return 0;
}

/*
 * Parse "LINE KIND FIELDS... [unsafe] uses N", what follows "rule ". Return: 0,
 * 1 for a kind this tool does not know (only LINE is read), or -EINVAL.
 */
static int parse_policy_rule(const char *s, size_t len,
			     struct ld_policy_rule *r)
{
	const char *p = s, *end = s + len, *f;
	unsigned long long v;
	size_t flen;

	memset(r, 0, sizeof(*r));
	f = next_field(&p, end, &flen);
	if (parse_ull(f, flen, &v) || !v || v > ~0U)
		return -EINVAL;
	r->line = (unsigned int)v;
	f = next_field(&p, end, &flen);
	if (field_is(f, flen, "msr")) {
		r->kind = LD_RULE_MSR;
		f = next_field(&p, end, &flen);
		if (parse_0x(f, flen, 8, &v))
			return -EINVAL;
		r->msr = (unsigned int)v;
		if (!next_is(&p, end, "mask"))
			return -EINVAL;
		f = next_field(&p, end, &flen);
		if (parse_0x(f, flen, 16, &r->mask) || !r->mask)
			return -EINVAL;
	} else if (field_is(f, flen, "pci")) {
		r->kind = LD_RULE_PCI;
		f = next_field(&p, end, &flen);
		if (parse_pci_function(f, flen, r))
			return -EINVAL;
		f = next_field(&p, end, &flen);
		if (parse_0x_range(f, flen, 3, r))
			return -EINVAL;
	} else if (field_is(f, flen, "ioport")) {
		r->kind = LD_RULE_IOPORT;
		f = next_field(&p, end, &flen);
		if (parse_0x_range(f, flen, 4, r))
			return -EINVAL;
	} else {
		return flen ? 1 : -EINVAL;
	}
	f = next_field(&p, end, &flen);
	if (field_is(f, flen, "unsafe")) {
		r->unsafe = true;
		f = next_field(&p, end, &flen);
	}
	if (!field_is(f, flen, "uses"))
		return -EINVAL;
	f = next_field(&p, end, &flen);
	if (parse_ull(f, flen, &r->uses) || r->uses > (~0ULL >> 1))
		return -EINVAL;			/* the kernel prints an s64 */
	next_field(&p, end, &flen);
	return flen ? -EINVAL : 0;
}

/* Whether [s, s + len) is a SHA-256 as the kernel prints it. */
static bool is_sha256_hex(const char *s, size_t len)
{
	size_t i;

	if (len != LD_SHA256_HEX)
		return false;
	for (i = 0; i < len; i++)
		if (!((s[i] >= '0' && s[i] <= '9') ||
		      (s[i] >= 'a' && s[i] <= 'f')))
			return false;
	return true;
}

/* The keys of lockdown_policy_status, in the order the kernel prints. */
enum {
	PK_SERIAL,
	PK_PK_SHA256,
	PK_SHA256,
	PK_SIGNER,
	PK_LOADED_NS,
	PK_COUNTER,
	PK_RULE,
	PK_NR_KEYS,
};

static const char * const policy_keys[PK_NR_KEYS] = {
	[PK_SERIAL] = "serial",
	[PK_PK_SHA256] = "pk-sha256",
	[PK_SHA256] = "sha256",
	[PK_SIGNER] = "signer",
	[PK_LOADED_NS] = "loaded-ns",
	[PK_COUNTER] = "counter",
	[PK_RULE] = "rule",
};

/* Parse the value @v (@len bytes) of one header line into @p. */
static int parse_policy_value(int key, const char *v, size_t len,
			      struct ld_policy *p)
{
	switch (key) {
	case PK_SERIAL:
		return parse_ull(v, len, &p->serial);
	case PK_PK_SHA256:
	case PK_SHA256:
		if (!is_sha256_hex(v, len))
			return -EINVAL;
		copy_text(key == PK_SHA256 ? p->sha256 : p->pk_sha256,
			  LD_SHA256_HEX + 1, v, len);
		return 0;
	case PK_SIGNER:
		copy_text(p->signer, sizeof(p->signer), v, len);
		return 0;
	case PK_LOADED_NS:
		return parse_ull(v, len, &p->loaded_ns);
	case PK_COUNTER:
		return parse_hex32(v, len, &p->counter) || !p->counter ?
		       -EINVAL : 0;
	}
	return -EINVAL;
}

/**
 * ld_parse_policy_status - parse /sys/kernel/security/lockdown_policy_status
 * @buf: the file's contents, NUL-terminated
 * @p: where to store the policy's state
 *
 * The lines are "KEY VALUE": serial (only it when 0), pk-sha256, sha256,
 * signer (may contain spaces; truncated to fit), loaded-ns, counter (the
 * TPM NV index in hex, not 0; absent before the kernel kept one), each
 * once and in this order, then one "rule LINE KIND ... uses N" a rule, in
 * the order of the policy's lines. Lines of keys this tool does not know are
 * skipped, and rules of kinds it does not know counted in @p->nother.
 * Every line ends in a newline: a file cut short mid-line is refused.
 *
 * Return: 0, -EINVAL when @buf is not in that format, or -E2BIG when it
 * has more than %LD_POLICY_MAX_RULES rules.
 */
int ld_parse_policy_status(const char *buf, struct ld_policy *p)
{
	unsigned int prev_line = 0;
	int last = -1;
	const char *s;

	memset(p, 0, sizeof(*p));
	for (s = buf; s && *s; s = next_line(s)) {
		size_t len = line_len(s), wlen = strcspn(s, " \n");
		const char *v = s + wlen + 1;
		size_t vlen = len > wlen ? len - wlen - 1 : 0;
		int key, ret;

		if (!s[len])
			return -EINVAL;		/* cut short */
		for (key = 0; key < PK_NR_KEYS; key++)
			if (field_is(s, wlen, policy_keys[key]))
				break;
		if (key == PK_NR_KEYS)
			continue;		/* a later kernel's key */
		if (!vlen || (last < 0 && key != PK_SERIAL) ||
		    (last >= 0 && !p->serial))
			return -EINVAL;
		if (key != PK_RULE) {
			if (key != last + 1 ||
			    parse_policy_value(key, v, vlen, p))
				return -EINVAL;
			last = key;
			continue;
		}
		if (last != PK_LOADED_NS && last != PK_COUNTER &&
		    last != PK_RULE)
			return -EINVAL;
		if (p->nrules + p->nother >= LD_POLICY_MAX_RULES)
			return -E2BIG;
		ret = parse_policy_rule(v, vlen, &p->rules[p->nrules]);
		if (ret < 0 || p->rules[p->nrules].line <= prev_line)
			return -EINVAL;
		prev_line = p->rules[p->nrules].line;
		if (ret)
			p->nother++;
		else
			p->nrules++;
		last = PK_RULE;
	}
	if (last < 0 || (p->serial && last < PK_LOADED_NS))
		return -EINVAL;
	return 0;
}

/* Whether @s starts with @prefix; if so, *@rest is what follows it. */
static bool skip_prefix(const char *s, const char *prefix, const char **rest)
{
	size_t n = strlen(prefix);

	if (strncmp(s, prefix, n))
		return false;
	*rest = s + n;
	return true;
}

static void set_subject(struct ld_log *l, const char *s, size_t len)
{
	l->subject = s;
	l->subject_len = len;
}

static void set_detail(struct ld_log *l, const char *s, size_t len)
{
	l->detail = s;
	l->detail_len = len;
}

/* The last occurrence of @needle in @s, or NULL. */
static const char *last_strstr(const char *s, const char *needle)
{
	const char *p, *last = NULL;

	for (p = s; (p = strstr(p, needle)); p++)
		last = p;
	return last;
}

/**
 * ld_parse_log - recognise a kernel log message about keys
 * @msg: the message, unescaped, NUL-terminated
 * @l: where to store its parts (pointing into @msg)
 *
 * Knows the messages of security/integrity/ (certificates loaded from a
 * UEFI list, a list or variable ignored, a malformed list skipped) and
 * of module loading (a signature rejected by a revocation list).
 *
 * Return: what kind of message @msg is; LD_LOG_OTHER for any other.
 */
enum ld_log_kind ld_parse_log(const char *msg, struct ld_log *l)
{
	const char *rest, *p, *q;
	size_t len;

	memset(l, 0, sizeof(*l));
	if (skip_prefix(msg, "integrity: Loading X.509 certificate: ", &rest)) {
		set_subject(l, rest, strlen(rest));
		return l->subject_len ? LD_LOG_LOADING : LD_LOG_OTHER;
	}
	if (skip_prefix(msg, "integrity: Loaded X.509 cert '", &rest)) {
		len = strlen(rest);
		if (!len || rest[len - 1] != '\'')
			return LD_LOG_OTHER;
		set_subject(l, rest, len - 1);
		return LD_LOG_LOADED;
	}
	if (skip_prefix(msg, "integrity: Problem loading X.509 certificate",
			&rest))
		return LD_LOG_LOAD_FAILED;
	if (skip_prefix(msg, "integrity: Ignoring ", &rest)) {
		p = strstr(rest, ": ");
		if (!p) {
			set_subject(l, rest, strlen(rest));
			return LD_LOG_IGNORED;
		}
		set_subject(l, rest, p - rest);
		set_detail(l, p + 2, strlen(p + 2));
		return LD_LOG_IGNORED;
	}
	p = strstr(msg, "bad signature list at offset");
	if (p) {
		rest = msg;
		skip_prefix(msg, "EFI: ", &rest);
		q = p;
		while (q > rest && (q[-1] == ' ' || q[-1] == ':'))
			q--;
		if (q > rest)
			set_subject(l, rest, q - rest);
		set_detail(l, p, strlen(p));
		return LD_LOG_BAD_LIST;
	}
	if (skip_prefix(msg, "integrity: ", &rest) && strstr(rest, " entry of ") &&
	    ends_with(rest, strlen(rest), " bytes ignored")) {
		p = strstr(rest, ": ");
		if (!p)
			return LD_LOG_OTHER;
		set_subject(l, rest, p - rest);
		set_detail(l, p + 2, strlen(p + 2));
		return LD_LOG_BAD_ENTRY;
	}
	if (skip_prefix(msg, "module: signature of ", &rest)) {
		p = strstr(rest, " rejected: ");
		if (!p)
			return LD_LOG_OTHER;
		set_subject(l, rest, p - rest);
		rest = p + strlen(" rejected: ");
		q = last_strstr(rest, " is revoked by ");
		if (!q) {
			set_detail(l, rest, strlen(rest));
			return LD_LOG_REVOKED;
		}
		set_detail(l, rest, q - rest);
		l->by = q + strlen(" is revoked by ");
		l->by_len = strlen(l->by);
		return LD_LOG_REVOKED;
	}
	if (skip_prefix(msg, "Module hash ", &rest) &&
	    ends_with(rest, strlen(rest), " is blacklisted")) {
		set_subject(l, rest, strlen(rest) - strlen(" is blacklisted"));
		return LD_LOG_HASH_BLACKLISTED;
	}
	return LD_LOG_OTHER;
}

static const struct {
	const char *name;
	const char *plain;
	const char *trust;
} rings[LD_NR_RINGS] = {
	[LD_RING_BUILTIN] = { ".builtin_trusted_keys", "built into the kernel",
		"module signatures and kexec images, and everything else that uses the secondary keyring" },
	[LD_RING_SECONDARY] = { ".secondary_trusted_keys",
		"added at runtime (signed by a trusted key)",
		"module signatures and kexec images, and everything else that uses the secondary keyring" },
	[LD_RING_MACHINE] = { ".machine",
		"MOK, handed over by shim (machine keyring)",
		"module signatures and kexec images, and everything else that uses the secondary keyring" },
	[LD_RING_PLATFORM] = { ".platform", "UEFI db (firmware)",
		"module signatures (Debian's fallback) and kexec images; not other uses" },
	[LD_RING_BLACKLIST] = { ".blacklist", "revoked", NULL },
};

/**
 * ld_ring_name - the kernel's name of a keyring the tool shows
 * @ring: the keyring
 *
 * Return: ".builtin_trusted_keys", ...
 */
const char *ld_ring_name(enum ld_ring ring)
{
	if ((unsigned int)ring >= LD_NR_RINGS)
		return "?";
	return rings[ring].name;
}

/**
 * ld_ring_from_name - look a keyring up by its name
 * @name: the name, not necessarily NUL-terminated
 * @len: its length
 * @ring: where to store it
 *
 * Return: 0, or -EINVAL when the tool does not show that keyring.
 */
int ld_ring_from_name(const char *name, size_t len, enum ld_ring *ring)
{
	unsigned int i;

	for (i = 0; i < LD_NR_RINGS; i++) {
		if (strlen(rings[i].name) == len &&
		    !memcmp(name, rings[i].name, len)) {
			*ring = i;
			return 0;
		}
	}
	return -EINVAL;
}

/**
 * ld_ring_plain - where the keys of a keyring come from, in plain words
 * @ring: the keyring
 *
 * Return: a phrase such as "built into the kernel".
 */
const char *ld_ring_plain(enum ld_ring ring)
{
	if ((unsigned int)ring >= LD_NR_RINGS)
		return "?";
	return rings[ring].plain;
}

/**
 * ld_ring_trust - what the keys of a keyring are trusted for
 * @ring: the keyring
 *
 * Return: a phrase, or NULL for the blacklist (it trusts nothing).
 */
const char *ld_ring_trust(enum ld_ring ring)
{
	if ((unsigned int)ring >= LD_NR_RINGS)
		return NULL;
	return rings[ring].trust;
}

/**
 * ld_ring_trusts_all - whether a keyring's keys verify more than modules
 *			and kexec images
 * @ring: the keyring
 *
 * The built-in, secondary and machine keyrings are searched by every
 * user of the secondary keyring; the platform keyring only by module
 * signature checks (Debian's fallback) and kexec image checks.
 *
 * Return: true for those three.
 */
bool ld_ring_trusts_all(enum ld_ring ring)
{
	return ring == LD_RING_BUILTIN || ring == LD_RING_SECONDARY ||
	       ring == LD_RING_MACHINE;
}

/**
 * ld_source_of - where a trusted key came from
 * @ring: the keyring it is in
 * @loaded_from: the list the kernel log says it was loaded from
 *		 ("UEFI:db", "UEFI:MokListRT (MOKvar table)"), or NULL
 *
 * Without a machine keyring the kernel puts MOK certificates in the
 * platform keyring, beside db's: only the log tells them apart. A MOK
 * certificate loaded from the MokListRT variable rather than shim's
 * MOKvar table came from where the OS could have written it.
 *
 * Return: the source.
 */
enum ld_source ld_source_of(enum ld_ring ring, const char *loaded_from)
{
	bool mok = loaded_from && !strncmp(loaded_from, "UEFI:MokList", 12);
	bool table = loaded_from && strstr(loaded_from, "(MOKvar table)");

	switch (ring) {
	case LD_RING_BUILTIN:
		return LD_SRC_BUILTIN;
	case LD_RING_SECONDARY:
		return LD_SRC_SECONDARY;
	case LD_RING_MACHINE:
		return mok && !table ? LD_SRC_MOK_VARIABLE : LD_SRC_MACHINE;
	default:
		if (mok)
			return table ? LD_SRC_PLATFORM_MOK :
				       LD_SRC_MOK_VARIABLE;
		return LD_SRC_DB;
	}
}

static const struct {
	const char *id;
	const char *plain;
	const char *brief;
} sources[LD_NR_SOURCES] = {
	[LD_SRC_BUILTIN] = { "builtin", "built into the kernel",
			     "built into the kernel" },
	[LD_SRC_SECONDARY] = { "secondary",
			       "added at runtime (signed by a trusted key)",
			       "added at runtime" },
	[LD_SRC_MACHINE] = { "machine",
			     "MOK, handed over by shim (machine keyring)",
			     "MOK" },
	[LD_SRC_DB] = { "db", "UEFI db (firmware)", "UEFI db" },
	[LD_SRC_PLATFORM_MOK] = { "platform-mok",
		"MOK, handed over by shim (in the platform keyring: no machine keyring)",
		"MOK" },
	[LD_SRC_MOK_VARIABLE] = { "mok-variable",
		"MOK from the MokListRT variable, not shim's MOKvar table: the OS could have written it",
		"MOK from a variable" },
};

/**
 * ld_source_id - a stable name of a key source, for --json
 * @src: the source
 *
 * Return: "builtin", "secondary", "machine", "db", "platform-mok" or
 * "mok-variable".
 */
const char *ld_source_id(enum ld_source src)
{
	if ((unsigned int)src >= LD_NR_SOURCES)
		return "?";
	return sources[src].id;
}

/**
 * ld_source_plain - where a key came from, in plain words
 * @src: the source
 *
 * Return: a phrase such as "UEFI db (firmware)".
 */
const char *ld_source_plain(enum ld_source src)
{
	if ((unsigned int)src >= LD_NR_SOURCES)
		return "?";
	return sources[src].plain;
}

/**
 * ld_source_short - a key source in a word or two, for counts
 * @src: the source
 *
 * Return: a phrase such as "UEFI db".
 */
const char *ld_source_short(enum ld_source src)
{
	if ((unsigned int)src >= LD_NR_SOURCES)
		return "?";
	return sources[src].brief;
}

/* Parse "0x" and 1 to @max hex digits, as the kernel's "0x%x" prints. */
static int parse_0x_any(const char *s, size_t len, size_t max,
			unsigned long long *v)
{
	if (len < 3 || len > max + 2 || s[0] != '0' || s[1] != 'x')
		return -EINVAL;
	return parse_xdigits(s + 2, len - 2, v);
}

/* Parse "0xFROM+NUM" into the inclusive range [*start, *end]. */
static int parse_span(const char *s, size_t len, size_t max_digits,
		      unsigned long long limit, unsigned int *start,
		      unsigned int *end)
{
	const char *plus = memchr(s, '+', len);
	unsigned long long from, num;

	if (!plus ||
	    parse_0x_any(s, plus - s, max_digits, &from) ||
	    parse_ull(plus + 1, s + len - plus - 1, &num) ||
	    !num || from > limit || num - 1 > limit - from)
		return -EINVAL;
	*start = (unsigned int)from;
	*end = (unsigned int)(from + num - 1);
	return 0;
}

/**
 * ld_parse_access - parse an access as the kernel names it
 * @s: the text (between the quotes of lockdown_refusals' access "...")
 * @len: its length
 * @a: where to store it
 *
 * "wrmsr 0xREG value 0xVAL cpu N", "pci write DDDD:BB:DD.F 0xOFF+LEN",
 * "pci write DDDD:BB:DD.F outside config space" or "ioport 0xFROM+NUM".
 * A PCI domain above 0xffff (more than 4 digits) is taken apart too; a
 * rule cannot name it (@a->domain tells).
 *
 * Return: 0, or -EINVAL for any other text.
 */
int ld_parse_access(const char *s, size_t len, struct ld_access *a)
{
	const char *p = s, *end = s + len, *f;
	unsigned long long v;
	size_t flen;

	memset(a, 0, sizeof(*a));
	f = next_field(&p, end, &flen);
	if (field_is(f, flen, "wrmsr")) {
		a->kind = LD_ACCESS_MSR;
		f = next_field(&p, end, &flen);
		if (parse_0x_any(f, flen, 8, &v))
			return -EINVAL;
		a->msr = (unsigned int)v;
		if (!next_is(&p, end, "value"))
			return -EINVAL;
		f = next_field(&p, end, &flen);
		if (parse_0x_any(f, flen, 16, &a->value))
			return -EINVAL;
		if (!next_is(&p, end, "cpu"))
			return -EINVAL;
		f = next_field(&p, end, &flen);
		if (parse_ull(f, flen, &v) || v > ~0U)
			return -EINVAL;
		a->cpu = (unsigned int)v;
	} else if (field_is(f, flen, "pci")) {
		struct ld_policy_rule r;
		const char *colon;

		if (!next_is(&p, end, "write"))
			return -EINVAL;
		f = next_field(&p, end, &flen);
		/* The domain has 4 to 8 digits: take them apart. */
		colon = f + flen - 8;
		if (flen < 12 || flen > 16 || *colon != ':' ||
		    parse_xdigits(f, colon - f, &v) ||
		    parse_pci_function(colon - 4, 12, &r))
			return -EINVAL;
		a->domain = (unsigned int)v;
		a->bus = r.bus;
		a->dev = r.dev;
		a->fn = r.fn;
		f = next_field(&p, end, &flen);
		if (field_is(f, flen, "outside")) {
			a->kind = LD_ACCESS_PCI_OUTSIDE;
			if (!next_is(&p, end, "config"))
				return -EINVAL;
			if (!next_is(&p, end, "space"))
				return -EINVAL;
		} else {
			a->kind = LD_ACCESS_PCI;
			if (parse_span(f, flen, 3, 0xfff, &a->start, &a->end))
				return -EINVAL;
		}
	} else if (field_is(f, flen, "ioport")) {
		a->kind = LD_ACCESS_IOPORT;
		f = next_field(&p, end, &flen);
		if (parse_span(f, flen, 4, 0xffff, &a->start, &a->end))
			return -EINVAL;
	} else {
		return -EINVAL;
	}
	next_field(&p, end, &flen);
	return flen ? -EINVAL : 0;
}

/*
 * Parse the quoted field "WORD \"TEXT\" " at *@p: @word, then a quoted
 * text without quotes in it. Return: 0, with @text and @tlen set and *@p
 * past the closing quote, or -EINVAL.
 */
static int quoted_field(const char **p, const char *end, const char *word,
			const char **text, size_t *tlen)
{
	size_t n = strlen(word);
	const char *q;

	if ((size_t)(end - *p) < n + 3 || memcmp(*p, word, n) ||
	    (*p)[n] != ' ' || (*p)[n + 1] != '"')
		return -EINVAL;
	*text = *p + n + 2;
	q = memchr(*text, '"', end - *text);
	if (!q)
		return -EINVAL;
	*tlen = q - *text;
	*p = q + 1;
	return 0;
}

/*
 * Copy the kernel's escaped command name, keeping only printable ASCII:
 * the kernel escapes control bytes but prints bytes above 0x9f as they
 * are, and a policy's text is ASCII.  Each other byte becomes '?'.
 */
static void copy_comm(char *dst, size_t size, const char *src, size_t len)
{
	size_t i;

	copy_text(dst, size, src, len);
	for (i = 0; dst[i]; i++)
		if (dst[i] < 0x20 || dst[i] > 0x7e)
			dst[i] = '?';
}

/**
 * ld_parse_refusals - parse /sys/kernel/security/lockdown_refusals
 * @buf: the file's contents, NUL-terminated
 * @rs: where to store them
 *
 * "dropped N", then one line a refusal, oldest first:
 *   refused NS pid PID times N reason "REASON" [access "ACCESS"] comm COMM
 * COMM is the rest of the line (it may hold spaces), kept as printable
 * ASCII.  An ACCESS this tool cannot take apart keeps its text, with
 * kind LD_ACCESS_NONE.  Only the newest %LD_MAX_REFUSALS are kept; the
 * others are added to @rs->dropped.
 *
 * Return: 0, or -EINVAL when @buf is not in that format.
 */
int ld_parse_refusals(const char *buf, struct ld_refusals *rs)
{
	const char *s = buf;
	unsigned long long v;
	size_t len;

	memset(rs, 0, sizeof(*rs));
	len = line_len(s);
	if (len < 9 || memcmp(s, "dropped ", 8) || !s[len] ||
	    parse_ull(s + 8, len - 8, &v))
		return -EINVAL;
	rs->dropped = v;
	for (s = next_line(s); s && *s; s = next_line(s)) {
		const char *p = s, *end, *f, *text;
		struct ld_refusal *r;
		size_t flen, tlen;

		len = line_len(s);
		end = s + len;
		if (!s[len])
			return -EINVAL;		/* cut short */
		if (rs->n == LD_MAX_REFUSALS) {
			memmove(rs->r, rs->r + 1, sizeof(rs->r) - sizeof(rs->r[0]));
			rs->n--;
			rs->dropped++;
		}
		r = &rs->r[rs->n];
		memset(r, 0, sizeof(*r));
		if (!next_is(&p, end, "refused"))
			return -EINVAL;
		f = next_field(&p, end, &flen);
		if (parse_ull(f, flen, &r->ns))
			return -EINVAL;
		if (!next_is(&p, end, "pid"))
			return -EINVAL;
		f = next_field(&p, end, &flen);
		if (parse_ull(f, flen, &v) || v > ~0U)
			return -EINVAL;
		r->pid = (unsigned int)v;
		if (!next_is(&p, end, "times"))
			return -EINVAL;
		f = next_field(&p, end, &flen);
		if (parse_ull(f, flen, &r->times) || !r->times)
			return -EINVAL;
		if (p == end || *p++ != ' ' ||
		    quoted_field(&p, end, "reason", &text, &tlen))
			return -EINVAL;
		copy_text(r->reason, sizeof(r->reason), text, tlen);
		if (p == end || *p++ != ' ')
			return -EINVAL;
		if (!quoted_field(&p, end, "access", &text, &tlen)) {
			copy_text(r->access_text, sizeof(r->access_text),
				  text, tlen);
			if (ld_parse_access(text, tlen, &r->access))
				r->access.kind = LD_ACCESS_NONE;
			if (p == end || *p++ != ' ')
				return -EINVAL;
		}
		if ((size_t)(end - p) < 6 || memcmp(p, "comm ", 5))
			return -EINVAL;
		copy_comm(r->comm, sizeof(r->comm), p + 5, end - p - 5);
		rs->n++;
	}
	return 0;
}
