// SPDX-License-Identifier: GPL-2.0
/*
 * lockdown-status: the keys the kernel trusts for module signatures and
 * kexec, where each came from, what the kernel revokes, and what it
 * ignored at boot.
 *
 * Reads (each path under $LOCKDOWN_STATUS_ROOT when it is set):
 *
 *   /proc/keys  every key this user may view. The keyrings shown are
 *               found there by name: .builtin_trusted_keys,
 *               .secondary_trusted_keys, .machine, .platform and
 *               .blacklist. Only a keyring that is not charged to a
 *               user's quota (no 'Q' flag) is taken: the kernel makes
 *               these without a quota, a program's keyrings have one.
 *               They belong to root, and /proc/keys shows them to root
 *               only: to anyone else, a keyring missing there may exist.
 *               A fixture tree shows what root would see.
 *
 *   members     of each of those keyrings: on the running system,
 *               keyctl(KEYCTL_READ, SERIAL) through syscall(2) (libc
 *               only, no libkeyutils). The test seam: under a fixture
 *               root the tool cannot ask the kernel about a tree of
 *               files, so it reads ROOT/proc/keyrings/SERIAL instead
 *               (SERIAL as /proc/keys shows it, 8 hex digits), a text
 *               file with one hex serial a line. The kernel has no
 *               such file; only the fixtures do.
 *
 *   /dev/kmsg   the kernel log, opened O_RDONLY | O_NONBLOCK and read
 *               record by record until EAGAIN (a fixture's regular file
 *               is read to its end). Only records of facility 0 are
 *               believed: the kernel's own. A program writing to
 *               /dev/kmsg cannot log with facility 0, so it cannot
 *               forge the lines read here. From the log come the UEFI
 *               list each certificate was loaded from ("Loading X.509
 *               certificate: SOURCE", then "Loaded X.509 cert 'NAME'"),
 *               the sources ignored ("integrity: Ignoring ..."), the
 *               malformed lists skipped, and the module signatures
 *               refused by a revocation.
 *
 * Nothing read here is fatal: what cannot be read is said.
 */

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "keys.h"
#include "util.h"

#define KEYCTL_READ	11		/* <linux/keyctl.h> */

#define MAX_KEYS	65536		/* lines of /proc/keys kept */
#define MAX_MEMBERS	65536		/* members of one keyring */
#define MAX_LISTS	64		/* UEFI lists named in the log */
#define MAX_NAMES	4096		/* certificates named, per list */
#define MAX_EVENTS	256		/* distinct lines ignored or refused */
#define KMSG_BUF	(64 * 1024)	/* more than a record can take */
#define KMSG_MSG_MAX	8192		/* a message, unescaped */
#define DETAIL_NAMES	3		/* sources named in the details */

/*
 * Make room for element @n of @array, of elements of @size bytes: the
 * room doubles each time @n reaches a power of two.
 */
static void *grow(void *array, int n, size_t size)
{
	if (n & (n - 1))
		return array;
	return ld_xrealloc(array, (size_t)(n ? 2 * n : 1) * size);
}

/* Read /proc/keys; note the keyrings shown among the keys. */
static void read_proc_keys(struct ld_keyview *kv)
{
	const char *s;
	char *buf;
	int err;

	err = ld_read_all("/proc/keys", &buf, NULL);
	if (err) {
		kv->keys_err = err;
		return;
	}
	for (s = buf; *s; ) {
		size_t len = strcspn(s, "\n");
		struct ld_key_line kl;
		struct ld_key *k;
		enum ld_ring r;

		if (!ld_parse_key_line(s, len, &kl) && kl.instantiated &&
		    kv->nkeys < MAX_KEYS) {
			kv->keys = grow(kv->keys, kv->nkeys, sizeof(*kv->keys));
			k = &kv->keys[kv->nkeys++];
			k->serial = kl.serial;
			memcpy(k->type, kl.type, sizeof(k->type));
			k->desc = ld_xstrndup(kl.desc, kl.desc_len);
			k->detail = kl.detail ?
				ld_xstrndup(kl.detail, kl.detail_len) : NULL;
			k->revoked = kl.revoked;
			if (!strcmp(kl.type, "keyring") && !kl.in_quota &&
			    !ld_ring_from_name(kl.desc, kl.desc_len, &r) &&
			    !kv->rings[r].found) {
				kv->rings[r].found = true;
				kv->rings[r].serial = kl.serial;
			}
		}
		s += len;
		if (*s)
			s++;
	}
	free(buf);
}

/* The members of keyring @serial, from the fixture's stand-in file. */
static int fixture_members(unsigned int serial, unsigned int **out)
{
	char path[64], *buf;
	const char *s;
	int err, max = 1, n;

	snprintf(path, sizeof(path), "/proc/keyrings/%08x", serial);
	err = ld_read_all(path, &buf, NULL);
	if (err)
		return err;
	for (s = buf; *s; s++)
		max += *s == '\n';
	*out = ld_xrealloc(NULL, (size_t)max * sizeof(**out));
	n = ld_parse_serials(buf, *out, max);
	free(buf);
	if (n < 0) {
		free(*out);
		*out = NULL;
		return -EBADMSG;
	}
	return n;
}

/*
 * The members of keyring @serial, from the kernel: keyctl(KEYCTL_READ)
 * gives their serials and returns the size it needs, so ask once for the
 * size, then again until the buffer is big enough (a keyring may grow in
 * between).
 */
static int keyctl_members(unsigned int serial, unsigned int **out)
{
	const long max = MAX_MEMBERS * (long)sizeof(int32_t);
	int32_t *ids = NULL;
	long size = 0, r;
	int tries, i, n, err = -EAGAIN;

	for (tries = 0; tries < 4; tries++) {
		r = syscall(SYS_keyctl, KEYCTL_READ, (long)(int32_t)serial,
			    size ? ids : NULL, size);
		if (r < 0) {
			err = -errno;
			break;
		}
		if (r <= size || size == max) {
			n = (r < size ? r : size) / sizeof(*ids);
			*out = ld_xrealloc(NULL, (size_t)n * sizeof(**out));
			for (i = 0; i < n; i++)
				(*out)[i] = (unsigned int)ids[i];
			free(ids);
			return n;
		}
		size = r < max ? r : max;
		ids = ld_xrealloc(ids, size);
	}
	free(ids);
	return err;
}

static const struct ld_key *find_key(const struct ld_keyview *kv,
				     unsigned int serial)
{
	int i;

	for (i = 0; i < kv->nkeys; i++)
		if (kv->keys[i].serial == serial)
			return &kv->keys[i];
	return NULL;
}

/* List the members of every keyring found; note links to keyrings. */
static void read_members(struct ld_keyview *kv)
{
	int r, i, j, n;

	for (r = 0; r < LD_NR_RINGS; r++) {
		struct ld_keyring *ring = &kv->rings[r];

		if (!ring->found)
			continue;
		n = ld_fixture() ? fixture_members(ring->serial, &ring->members) :
				   keyctl_members(ring->serial, &ring->members);
		if (n < 0) {
			ring->err = n;
			continue;
		}
		ring->nmembers = n;
		for (i = 0; i < n; i++) {
			struct ld_member *m;

			kv->members = grow(kv->members, kv->nmembers,
					   sizeof(*kv->members));
			m = &kv->members[kv->nmembers++];
			memset(m, 0, sizeof(*m));
			m->ring = r;
			m->serial = ring->members[i];
			m->key = find_key(kv, m->serial);
			m->link = -1;
			if (!m->key || strcmp(m->key->type, "keyring"))
				continue;
			m->link = LD_NR_RINGS;	/* some other keyring */
			for (j = 0; j < LD_NR_RINGS; j++)
				if (kv->rings[j].found &&
				    kv->rings[j].serial == m->serial)
					m->link = j;
		}
	}
}

/* The list named @source in the log, added when new; or -1. */
static int find_list(struct ld_keyview *kv, const char *source, size_t len)
{
	int i;

	for (i = 0; i < kv->nlists; i++)
		if (strlen(kv->lists[i].source) == len &&
		    !memcmp(kv->lists[i].source, source, len))
			return i;
	if (kv->nlists >= MAX_LISTS)
		return -1;
	kv->lists = grow(kv->lists, kv->nlists, sizeof(*kv->lists));
	memset(&kv->lists[kv->nlists], 0, sizeof(*kv->lists));
	kv->lists[kv->nlists].source = ld_xstrndup(source, len);
	return kv->nlists++;
}

static char *dup_part(const char *s, size_t len)
{
	return s ? ld_xstrndup(s, len) : NULL;
}

/* Note a line about a source ignored or a refusal; once per text. */
static void add_event(struct ld_keyview *kv, enum ld_log_kind kind,
		      const struct ld_log *l, const char *msg)
{
	struct ld_event *e;
	int i;

	for (i = 0; i < kv->nevents; i++) {
		if (!strcmp(kv->events[i].message, msg)) {
			kv->events[i].count++;
			return;
		}
	}
	if (kv->nevents >= MAX_EVENTS) {
		kv->events_lost++;
		return;
	}
	kv->events = grow(kv->events, kv->nevents, sizeof(*kv->events));
	e = &kv->events[kv->nevents++];
	e->kind = kind;
	e->subject = dup_part(l->subject, l->subject_len);
	e->detail = dup_part(l->detail, l->detail_len);
	e->by = dup_part(l->by, l->by_len);
	e->message = ld_xstrndup(msg, strlen(msg));
	e->count = 1;
}

struct kmsg_state {
	struct ld_keyview *kv;
	int pending;			/* the list being loaded, or -1 */
	char msg[KMSG_MSG_MAX];
};

/* One line of the log: a record's header and message, or a
 * continuation (" KEY=VALUE"), which is skipped. */
static void kmsg_line(struct kmsg_state *ks, const char *s, size_t len)
{
	struct ld_keyview *kv = ks->kv;
	struct ld_list *list;
	struct ld_kmsg r;
	struct ld_log l;
	enum ld_log_kind kind;

	if (!len || *s == ' ' || ld_parse_kmsg(s, len, &r) || r.facility)
		return;
	ld_kmsg_unescape(r.msg, r.len, ks->msg, sizeof(ks->msg));
	kind = ld_parse_log(ks->msg, &l);
	switch (kind) {
	case LD_LOG_OTHER:
		break;
	case LD_LOG_LOADING:
		ks->pending = find_list(kv, l.subject, l.subject_len);
		break;
	case LD_LOG_LOADED:
		if (ks->pending < 0)
			break;
		list = &kv->lists[ks->pending];
		if (list->nnames < MAX_NAMES) {
			list->names = grow(list->names, list->nnames,
					   sizeof(*list->names));
			list->names[list->nnames++] =
				ld_xstrndup(l.subject, l.subject_len);
		}
		ks->pending = -1;
		break;
	case LD_LOG_LOAD_FAILED:
		if (ks->pending >= 0)
			kv->lists[ks->pending].failed++;
		ks->pending = -1;
		break;
	default:
		add_event(kv, kind, &l, ks->msg);
		break;
	}
}

/*
 * Read the kernel log. /dev/kmsg gives one record a read() and EAGAIN
 * at the end (O_NONBLOCK), EPIPE when records were overwritten while
 * reading; a fixture's file gives whatever read() gives, to EOF. Both
 * are taken apart in lines.
 */
static int read_kmsg(struct ld_keyview *kv)
{
	struct kmsg_state *ks;
	char name[PATH_MAX], *buf;
	size_t n = 0, start;
	bool skip = false;
	int fd, err = 0;

	fd = open(ld_path(name, sizeof(name), "/dev/kmsg"),
		  O_RDONLY | O_NONBLOCK | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	buf = ld_xrealloc(NULL, KMSG_BUF);
	ks = ld_xrealloc(NULL, sizeof(*ks));
	ks->kv = kv;
	ks->pending = -1;
	for (;;) {
		ssize_t r;
		char *nl;

		if (KMSG_BUF - n < KMSG_MSG_MAX) {
			n = 0;		/* a line longer than any record */
			skip = true;
		}
		r = read(fd, buf + n, KMSG_BUF - n);
		if (r < 0) {
			if (errno == EINTR || errno == EPIPE)
				continue;
			if (errno != EAGAIN)
				err = -errno;
			break;
		}
		if (r == 0)
			break;
		n += r;
		for (start = 0; (nl = memchr(buf + start, '\n', n - start));
		     start = nl + 1 - buf) {
			if (!skip)
				kmsg_line(ks, buf + start, nl - (buf + start));
			skip = false;
		}
		memmove(buf, buf + start, n - start);
		n -= start;
	}
	if (n && !skip && !err)
		kmsg_line(ks, buf, n);
	close(fd);
	free(ks);
	free(buf);
	return err;
}

/*
 * The list the log says the certificate @name was loaded from. The same
 * certificate may be in more than one list: a machine keyring's key is
 * attributed to a MOK list first; otherwise the first list that loaded
 * it, as the first load made the key.
 */
static const char *loaded_from(const struct ld_keyview *kv,
			       const char *name, bool mok)
{
	const char *first = NULL;
	int i, j;

	for (i = 0; i < kv->nlists; i++) {
		const struct ld_list *list = &kv->lists[i];

		for (j = 0; j < list->nnames; j++) {
			if (strcmp(list->names[j], name))
				continue;
			if (!mok || !strncmp(list->source, "UEFI:MokList", 12))
				return list->source;
			if (!first)
				first = list->source;
		}
	}
	return first;
}

/* Attribute each key to its source, and count. */
static void attribute(struct ld_keyview *kv)
{
	int i;

	for (i = 0; i < kv->nmembers; i++) {
		struct ld_member *m = &kv->members[i];
		const struct ld_key *k = m->key;

		if (m->link >= 0)
			continue;
		if (m->ring == LD_RING_BLACKLIST) {
			if (!k)
				kv->revoked_hidden++;
			else if (!strcmp(k->type, "asymmetric"))
				kv->revoked_certs++;
			else if (strcmp(k->type, "blacklist"))
				kv->revoked_other++;
			else if (!strncmp(k->desc, "tbs:", 4))
				kv->revoked_tbs++;
			else if (!strncmp(k->desc, "bin:", 4))
				kv->revoked_bin++;
			else
				kv->revoked_other++;
			continue;
		}
		kv->ntrusted++;
		if (!k) {
			kv->hidden++;
			continue;
		}
		m->loaded_from = loaded_from(kv, k->desc,
					     m->ring == LD_RING_MACHINE);
		m->source = ld_source_of(m->ring, m->loaded_from);
		kv->trusted[m->source]++;
	}
	for (i = 0; i < kv->nevents; i++) {
		if (kv->events[i].kind == LD_LOG_REVOKED ||
		    kv->events[i].kind == LD_LOG_HASH_BLACKLISTED)
			kv->nrefused += kv->events[i].count;
		else
			kv->nignored++;
	}
}

/**
 * ld_keys_read - gather the key view
 * @kv: where to store it, zeroed by the caller
 */
void ld_keys_read(struct ld_keyview *kv)
{
	kv->as_root = ld_fixture() || geteuid() == 0;
	read_proc_keys(kv);
	if (!kv->keys_err)
		read_members(kv);
	kv->log_err = read_kmsg(kv);
	attribute(kv);
}

void ld_keys_free(struct ld_keyview *kv)
{
	int i, j;

	for (i = 0; i < kv->nkeys; i++) {
		free(kv->keys[i].desc);
		free(kv->keys[i].detail);
	}
	free(kv->keys);
	for (i = 0; i < LD_NR_RINGS; i++)
		free(kv->rings[i].members);
	free(kv->members);
	for (i = 0; i < kv->nlists; i++) {
		for (j = 0; j < kv->lists[i].nnames; j++)
			free(kv->lists[i].names[j]);
		free(kv->lists[i].names);
		free(kv->lists[i].source);
	}
	free(kv->lists);
	for (i = 0; i < kv->nevents; i++) {
		free(kv->events[i].subject);
		free(kv->events[i].detail);
		free(kv->events[i].by);
		free(kv->events[i].message);
	}
	free(kv->events);
	memset(kv, 0, sizeof(*kv));
}

/* ---- plain text ---- */

#define PHRASE_MAX	8
#define PHRASE_ITEM	128

/* Words to print as "a", "a and b", "a, b and c". */
struct phrase {
	int n;
	int more;			/* items left out */
	char item[PHRASE_MAX][PHRASE_ITEM];
};

__attribute__((format(printf, 2, 3)))
static void phrase_add(struct phrase *p, const char *fmt, ...)
{
	va_list ap;

	if (p->n == PHRASE_MAX) {
		p->more++;
		return;
	}
	va_start(ap, fmt);
	vsnprintf(p->item[p->n++], PHRASE_ITEM, fmt, ap);
	va_end(ap);
}

static void phrase_print(const struct phrase *p, const char *none)
{
	int i;

	if (!p->n)
		printf("%s", none);
	for (i = 0; i < p->n; i++) {
		printf("%s", !i ? "" :
			     i == p->n - 1 && !p->more ? " and " : ", ");
		ld_put(p->item[i]);
	}
	if (p->more)
		printf(" and %d more", p->more);
}

static bool is_trusted_ring(int r)
{
	return r != LD_RING_BLACKLIST;
}

static bool is_refusal(const struct ld_event *e)
{
	return e->kind == LD_LOG_REVOKED || e->kind == LD_LOG_HASH_BLACKLISTED;
}

/* Whether any keyring that trusts keys was found but not listed. */
static int ring_error(const struct ld_keyview *kv)
{
	int r;

	for (r = 0; r < LD_NR_RINGS; r++)
		if (is_trusted_ring(r) && kv->rings[r].found &&
		    kv->rings[r].err)
			return kv->rings[r].err;
	return 0;
}

static bool any_ring_found(const struct ld_keyview *kv)
{
	int r;

	for (r = 0; r < LD_NR_RINGS; r++)
		if (kv->rings[r].found)
			return true;
	return false;
}

/* Why keyring @r is not in /proc/keys, to follow "Name: ". */
static void print_ring_missing(const struct ld_keyview *kv, enum ld_ring r)
{
	if (kv->as_root)
		printf("this kernel has no %s keyring", ld_ring_name(r));
	else
		printf("%s is not shown to this user (try as root)",
		       ld_ring_name(r));
}

static bool any_ring_listed(const struct ld_keyview *kv)
{
	int r;

	for (r = 0; r < LD_NR_RINGS; r++)
		if (is_trusted_ring(r) && kv->rings[r].found &&
		    !kv->rings[r].err)
			return true;
	return false;
}

/* "1 built into the kernel, 2 MOK and 3 UEFI db" */
static void print_breakdown(const struct ld_keyview *kv)
{
	struct phrase p = { 0 };
	int s, t, n;

	for (s = 0; s < LD_NR_SOURCES; s++) {
		for (t = 0; t < s; t++)
			if (!strcmp(ld_source_short(t), ld_source_short(s)))
				break;
		if (t < s)
			continue;	/* counted with an earlier one */
		for (t = s, n = 0; t < LD_NR_SOURCES; t++)
			if (!strcmp(ld_source_short(t), ld_source_short(s)))
				n += kv->trusted[t];
		if (n)
			phrase_add(&p, "%d %s", n, ld_source_short(s));
	}
	if (kv->hidden)
		phrase_add(&p, "%d this user cannot see", kv->hidden);
	phrase_print(&p, "none");
}

/* "1 certificate, 3 certificate hashes and 1 binary hash" */
static void print_revoked_counts(const struct ld_keyview *kv)
{
	struct phrase p = { 0 };

	if (kv->revoked_certs)
		phrase_add(&p, "%d certificate%s", kv->revoked_certs,
			   ld_plural(kv->revoked_certs));
	if (kv->revoked_tbs)
		phrase_add(&p, "%d certificate hash%s", kv->revoked_tbs,
			   kv->revoked_tbs == 1 ? "" : "es");
	if (kv->revoked_bin)
		phrase_add(&p, "%d binary hash%s", kv->revoked_bin,
			   kv->revoked_bin == 1 ? "" : "es");
	if (kv->revoked_other)
		phrase_add(&p, "%d other entr%s", kv->revoked_other,
			   kv->revoked_other == 1 ? "y" : "ies");
	if (kv->revoked_hidden)
		phrase_add(&p, "%d entr%s this user cannot see",
			   kv->revoked_hidden,
			   kv->revoked_hidden == 1 ? "y" : "ies");
	phrase_print(&p, "nothing");
}

/* "1 key source and 1 malformed key list" */
static void print_ignored_counts(const struct ld_keyview *kv)
{
	static const struct {
		enum ld_log_kind kind;
		const char *one, *more;
	} kinds[] = {
		{ LD_LOG_IGNORED, "key source", "key sources" },
		{ LD_LOG_BAD_LIST, "malformed key list", "malformed key lists" },
		{ LD_LOG_BAD_ENTRY, "malformed entry", "malformed entries" },
	};
	struct phrase p = { 0 };
	size_t k;
	int i, n;

	for (k = 0; k < sizeof(kinds) / sizeof(kinds[0]); k++) {
		for (i = 0, n = 0; i < kv->nevents; i++)
			n += kv->events[i].kind == kinds[k].kind;
		if (n)
			phrase_add(&p, "%d %s", n,
				   n == 1 ? kinds[k].one : kinds[k].more);
	}
	phrase_print(&p, "nothing");
}

static void print_keys_error(const struct ld_keyview *kv)
{
	if (kv->keys_err == -ENOENT)
		printf("no /proc/keys (this kernel has no key retention service)");
	else
		printf("cannot read /proc/keys: %s%s",
		       ld_strerror(kv->keys_err), ld_hint(kv->keys_err));
}

static void print_log_error(const struct ld_keyview *kv)
{
	printf("cannot read the kernel log (/dev/kmsg: %s%s)",
	       ld_strerror(kv->log_err), ld_hint(kv->log_err));
}

/* The plain words that open --keys. */
static void print_keys_summary(const struct ld_keyview *kv)
{
	int err = ring_error(kv);

	if (kv->keys_err) {
		printf("Cannot tell which keys the kernel trusts: ");
		print_keys_error(kv);
		printf(".\n");
	} else if (!any_ring_listed(kv) && err) {
		printf("Cannot tell which keys the kernel trusts: cannot list its keyrings (%s%s).\n",
		       ld_strerror(err), ld_hint(err));
	} else if (!any_ring_listed(kv) && !kv->as_root) {
		printf("Cannot tell which keys the kernel trusts: /proc/keys shows its keyrings to root only; try as root.\n");
	} else if (!any_ring_listed(kv)) {
		printf("Cannot tell which keys the kernel trusts: /proc/keys shows none of its keyrings.\n");
	} else if (!kv->ntrusted) {
		printf("The kernel trusts no keys for module signatures and kexec.\n");
	} else {
		printf("The kernel trusts %d key%s for module signatures and kexec: ",
		       kv->ntrusted, ld_plural(kv->ntrusted));
		print_breakdown(kv);
		printf(".\n");
	}
	if (!kv->keys_err && any_ring_listed(kv) && err)
		printf("Some of its keyrings cannot be listed; see below.\n");
	if (!kv->keys_err && kv->rings[LD_RING_BLACKLIST].found &&
	    !kv->rings[LD_RING_BLACKLIST].err) {
		printf("It revokes ");
		print_revoked_counts(kv);
		printf(".\n");
	}
	if (kv->log_err) {
		printf("The kernel log is unreadable (/dev/kmsg: %s%s), so what it ignored at boot is unknown.\n",
		       ld_strerror(kv->log_err), ld_hint(kv->log_err));
		return;
	}
	if (kv->nignored) {
		printf("At boot it ignored ");
		print_ignored_counts(kv);
		printf("; see \"Ignored at boot\".\n");
	}
	if (kv->nrefused == 1)
		printf("It refused to load a module once because its signature is revoked.\n");
	else if (kv->nrefused)
		printf("It refused to load a module %d times because its signature is revoked.\n",
		       kv->nrefused);
}

/* Print @s with its first letter in capitals. */
static void print_capitalized(const char *s)
{
	if (*s >= 'a' && *s <= 'z')
		printf("%c%s", *s - 'a' + 'A', s + 1);
	else
		printf("%s", s);
}

static const char *ring_ref(int link, const struct ld_member *m)
{
	if (link < LD_NR_RINGS)
		return ld_ring_name(link);
	return m->key->desc;
}

static void print_ring(const struct ld_keyview *kv, enum ld_ring r)
{
	const struct ld_keyring *ring = &kv->rings[r];
	struct phrase links = { 0 };
	int i, nkeys = 0, hidden = 0;

	print_capitalized(ld_ring_plain(r));
	printf(": ");
	if (!ring->found) {
		print_ring_missing(kv, r);
		printf("%s.\n", r == LD_RING_MACHINE && kv->as_root &&
		       kv->rings[LD_RING_PLATFORM].found ?
		       " (MOK certificates then go to .platform)" : "");
		return;
	}
	if (ring->err) {
		printf("cannot list %s (%s%s).\n", ld_ring_name(r),
		       ld_strerror(ring->err), ld_hint(ring->err));
		return;
	}
	for (i = 0; i < kv->nmembers; i++) {
		const struct ld_member *m = &kv->members[i];

		if (m->ring != r)
			continue;
		if (m->link >= 0) {
			phrase_add(&links, "%s", ring_ref(m->link, m));
			continue;
		}
		nkeys++;
		hidden += !m->key;
	}
	if (nkeys)
		printf("%d key%s in %s\n", nkeys, ld_plural(nkeys),
		       ld_ring_name(r));
	else
		printf("none in %s\n", ld_ring_name(r));
	printf("  Trusted for %s.\n", ld_ring_trust(r));
	if (links.n) {
		printf("  It links ");
		phrase_print(&links, "");
		printf(", so %s keys count here too.\n",
		       links.n == 1 ? "that keyring's" : "their");
	}

	for (i = 0; i < kv->nmembers; i++) {
		const struct ld_member *m = &kv->members[i];

		if (m->ring != r || m->link >= 0 || !m->key)
			continue;
		printf("    ");
		ld_put(m->key->desc);
		if (m->loaded_from) {
			printf("  (from ");
			ld_put(m->loaded_from);
			printf(")");
		}
		printf("\n");
		if (m->source == LD_SRC_PLATFORM_MOK ||
		    m->source == LD_SRC_MOK_VARIABLE)
			printf("      %s\n", ld_source_plain(m->source));
	}
	if (hidden)
		printf("    and %d key%s this user cannot see (/proc/keys does not show %s)\n",
		       hidden, ld_plural(hidden), hidden == 1 ? "it" : "them");
	if (r == LD_RING_PLATFORM && kv->log_err && nkeys &&
	    !kv->rings[LD_RING_MACHINE].found)
		printf("  Without a machine keyring, MOK certificates are kept here too; the kernel log would tell which.\n");
}

static void print_revoked(const struct ld_keyview *kv)
{
	const struct ld_keyring *ring = &kv->rings[LD_RING_BLACKLIST];
	int i;

	printf("Revoked: ");
	if (!ring->found) {
		print_ring_missing(kv, LD_RING_BLACKLIST);
		printf(".\n");
		return;
	}
	if (ring->err) {
		printf("cannot list .blacklist (%s%s).\n",
		       ld_strerror(ring->err), ld_hint(ring->err));
		return;
	}
	print_revoked_counts(kv);
	printf(" in .blacklist\n");
	if (!ring->nmembers)
		return;
	printf("  The kernel refuses signatures by these certificates, and any certificate or binary with one of these hashes.\n");
	for (i = 0; i < kv->nmembers; i++) {
		const struct ld_member *m = &kv->members[i];

		if (m->ring == LD_RING_BLACKLIST && m->link < 0 && m->key &&
		    !strcmp(m->key->type, "asymmetric")) {
			printf("    ");
			ld_put(m->key->desc);
			printf("\n");
		}
	}
}

static void print_event(const struct ld_event *e)
{
	const char *subject = e->subject ? e->subject : "a list";
	const char *at = "bad signature list at offset ";

	printf("  ");
	switch (e->kind) {
	case LD_LOG_IGNORED:
		ld_put(subject);
		printf(" ignored");
		if (e->detail) {
			printf(": ");
			ld_put(e->detail);
		}
		break;
	case LD_LOG_BAD_LIST:
		ld_put(subject);
		if (!strncmp(e->detail, at, strlen(at))) {
			printf(": skipped a malformed signature list at offset ");
			ld_put(e->detail + strlen(at));
		} else {
			printf(": skipped a malformed signature list (");
			ld_put(e->detail);
			printf(")");
		}
		break;
	case LD_LOG_BAD_ENTRY:
		ld_put(subject);
		printf(": ignored a malformed entry (");
		ld_put(e->detail);
		printf(")");
		break;
	case LD_LOG_REVOKED:
		ld_put(subject);
		printf(": ");
		ld_put(e->detail);
		if (e->by) {
			printf(" is revoked by ");
			ld_put(e->by);
		}
		break;
	case LD_LOG_HASH_BLACKLISTED:
		printf("a module with hash ");
		ld_put(subject);
		printf(": blacklisted");
		break;
	default:
		ld_put(e->message);
		break;
	}
	if (e->count > 1)
		printf(" (%d times)", e->count);
	printf("\n");
}

static void print_log(const struct ld_keyview *kv)
{
	int i;

	if (kv->log_err) {
		printf("Ignored at boot: unknown: ");
		print_log_error(kv);
		printf(".\n");
		return;
	}
	printf("Ignored at boot (kernel log):%s\n",
	       kv->nignored ? "" : " nothing");
	for (i = 0; i < kv->nevents; i++)
		if (!is_refusal(&kv->events[i]))
			print_event(&kv->events[i]);
	if (kv->events_lost)
		printf("  and %d more lines about keys, not kept\n",
		       kv->events_lost);

	if (kv->nrefused) {
		printf("\nModule signatures refused (kernel log):\n");
		for (i = 0; i < kv->nevents; i++)
			if (is_refusal(&kv->events[i]))
				print_event(&kv->events[i]);
	}

	printf("\nLoaded at boot (kernel log):%s\n",
	       kv->nlists ? "" : " no certificates from UEFI lists");
	for (i = 0; i < kv->nlists; i++) {
		const struct ld_list *list = &kv->lists[i];

		printf("  ");
		ld_put(list->source);
		printf(": %d certificate%s", list->nnames,
		       ld_plural(list->nnames));
		if (list->failed)
			printf(", and %d that could not be loaded",
			       list->failed);
		printf("\n");
	}
}

/**
 * ld_keys_print - print the key view (--keys)
 * @kv: the view
 *
 * Plain words first, then each keyring with its keys, the revocations,
 * and what the kernel log says.
 */
void ld_keys_print(const struct ld_keyview *kv)
{
	int r;

	print_keys_summary(kv);
	if (!kv->keys_err && (kv->as_root || any_ring_found(kv))) {
		for (r = 0; r < LD_NR_RINGS; r++) {
			if (!is_trusted_ring(r))
				continue;
			printf("\n");
			print_ring(kv, r);
		}
		printf("\n");
		print_revoked(kv);
	}
	printf("\n");
	print_log(kv);
}

/**
 * ld_keys_print_summary - what the default output's plain words add
 * @kv: the view
 *
 * A sentence when the kernel ignored a key source at boot: the one
 * thing about keys a user must not miss. Nothing otherwise.
 */
void ld_keys_print_summary(const struct ld_keyview *kv)
{
	if (kv->log_err || !kv->nignored)
		return;
	printf("At boot the kernel ignored ");
	print_ignored_counts(kv);
	printf("; lockdown-status --keys says which.\n");
}

/**
 * ld_keys_print_details - the key lines of the default output's details
 * @kv: the view
 */
void ld_keys_print_details(const struct ld_keyview *kv)
{
	struct phrase p = { 0 };
	int err = ring_error(kv), i;

	ld_label("Trusted keys:");
	if (kv->keys_err) {
		printf("unknown: ");
		print_keys_error(kv);
		printf("\n");
	} else if (!any_ring_listed(kv)) {
		if (err)
			printf("unknown: cannot list the keyrings (%s%s)\n",
			       ld_strerror(err), ld_hint(err));
		else if (!kv->as_root)
			printf("unknown: /proc/keys shows the kernel's keyrings to root only; try as root\n");
		else
			printf("unknown: /proc/keys shows none of the kernel's keyrings\n");
	} else {
		printf("%d for modules and kexec", kv->ntrusted);
		if (kv->ntrusted) {
			printf(": ");
			print_breakdown(kv);
		}
		if (err)
			printf(" (some keyrings cannot be listed: %s%s)",
			       ld_strerror(err), ld_hint(err));
		printf("\n");
	}

	if (!kv->keys_err) {
		const struct ld_keyring *bl = &kv->rings[LD_RING_BLACKLIST];

		ld_label("Revoked:");
		if (!bl->found && kv->as_root)
			printf("unknown: no .blacklist keyring\n");
		else if (!bl->found)
			printf("unknown: .blacklist is not shown to this user\n");
		else if (bl->err)
			printf("unknown: cannot list .blacklist (%s%s)\n",
			       ld_strerror(bl->err), ld_hint(bl->err));
		else {
			print_revoked_counts(kv);
			printf("\n");
		}
	}

	ld_label("Ignored at boot:");
	if (kv->log_err) {
		printf("unknown: ");
		print_log_error(kv);
		printf("\n");
	} else {
		for (i = 0; i < kv->nevents; i++) {
			const struct ld_event *e = &kv->events[i];
			const char *subject = e->subject ? e->subject : "a list";

			if (e->kind == LD_LOG_REVOKED ||
			    e->kind == LD_LOG_HASH_BLACKLISTED)
				continue;
			if (p.n == DETAIL_NAMES)
				p.more++;
			else if (e->kind == LD_LOG_IGNORED)
				phrase_add(&p, "%s", subject);
			else if (e->kind == LD_LOG_BAD_LIST)
				phrase_add(&p, "a malformed list in %s", subject);
			else if (e->kind == LD_LOG_BAD_ENTRY)
				phrase_add(&p, "a malformed entry in %s",
					   subject);
		}
		phrase_print(&p, "nothing");
		printf("\n");
	}

	if (!kv->log_err && kv->nrefused) {
		ld_label("Revoked signatures:");
		memset(&p, 0, sizeof(p));
		for (i = 0; i < kv->nevents; i++) {
			const struct ld_event *e = &kv->events[i];

			if (e->kind == LD_LOG_REVOKED && e->by)
				phrase_add(&p, "%s (revoked by %s)",
					   e->subject, e->by);
			else if (e->kind == LD_LOG_REVOKED)
				phrase_add(&p, "%s", e->subject);
			else if (e->kind == LD_LOG_HASH_BLACKLISTED)
				phrase_add(&p, "a module by its hash");
		}
		printf("%d module load%s refused: ", kv->nrefused,
		       ld_plural(kv->nrefused));
		phrase_print(&p, "");
		printf("\n");
	}
}

/* ---- JSON ---- */

static void json_error(struct json *j, const char *key, int err)
{
	if (err)
		json_string(j, key, ld_strerror(err));
	else
		json_null(j, key);
}

static void json_serial(struct json *j, const char *key, unsigned int serial)
{
	char buf[16];

	snprintf(buf, sizeof(buf), "%08x", serial);
	json_string(j, key, buf);
}

static void json_keyrings(const struct ld_keyview *kv, struct json *j)
{
	enum ld_ring r;
	int i;

	json_array_begin(j, "keyrings");
	for (r = 0; r < LD_NR_RINGS; r++) {
		const struct ld_keyring *ring = &kv->rings[r];
		int nkeys = 0, hidden = 0;

		for (i = 0; i < kv->nmembers; i++) {
			const struct ld_member *m = &kv->members[i];

			if (m->ring == r && m->link < 0) {
				nkeys++;
				hidden += !m->key;
			}
		}
		json_object_begin(j, NULL);
		json_string(j, "name", ld_ring_name(r));
		if (ring->found || kv->as_root)
			json_bool(j, "present", ring->found);
		else
			json_null(j, "present");
		if (ring->found)
			json_serial(j, "serial", ring->serial);
		else
			json_null(j, "serial");
		json_string(j, "source", ld_ring_plain(r));
		json_string(j, "trusted_for", ld_ring_trust(r));
		if (!ring->found && !kv->as_root)
			json_string(j, "error", "not shown to this user");
		else
			json_error(j, "error", ring->err);
		if (ring->found && !ring->err) {
			json_int(j, "keys", nkeys);
			json_int(j, "hidden", hidden);
		} else {
			json_null(j, "keys");
			json_null(j, "hidden");
		}
		json_array_begin(j, "links");
		for (i = 0; i < kv->nmembers; i++) {
			const struct ld_member *m = &kv->members[i];

			if (m->ring == r && m->link >= 0)
				json_string(j, NULL, ring_ref(m->link, m));
		}
		json_array_end(j);
		json_object_end(j);
	}
	json_array_end(j);
}

static void json_key(struct json *j, const struct ld_member *m)
{
	json_object_begin(j, NULL);
	json_serial(j, "serial", m->serial);
	json_string(j, "keyring", ld_ring_name(m->ring));
	json_string(j, "type", m->key->type);
	json_string(j, "description", m->key->desc);
	if (m->key->detail)
		json_string_len(j, "algorithm", m->key->detail,
				strcspn(m->key->detail, " "));
	else
		json_null(j, "algorithm");
	if (m->ring != LD_RING_BLACKLIST) {
		json_string(j, "source", ld_source_id(m->source));
		json_string(j, "source_text", ld_source_plain(m->source));
		json_string(j, "loaded_from", m->loaded_from);
		json_array_begin(j, "trusted_for");
		json_string(j, NULL, "modules");
		json_string(j, NULL, "kexec");
		if (ld_ring_trusts_all(m->ring))
			json_string(j, NULL, "secondary-keyring");
		json_array_end(j);
	}
	json_object_end(j);
}

static void json_events(const struct ld_keyview *kv, struct json *j,
			bool refusals)
{
	int i;

	for (i = 0; i < kv->nevents; i++) {
		const struct ld_event *e = &kv->events[i];
		if (is_refusal(e) != refusals)
			continue;
		json_object_begin(j, NULL);
		if (refusals) {
			json_string(j, "kind", e->kind == LD_LOG_REVOKED ?
				    "revoked" : "hash-blacklisted");
			json_string(j, e->kind == LD_LOG_REVOKED ? "module" :
				    "hash", e->subject);
			if (e->kind == LD_LOG_REVOKED) {
				json_string(j, "revoked", e->detail);
				json_string(j, "revoked_by", e->by);
			}
		} else {
			json_string(j, "kind", e->kind == LD_LOG_IGNORED ?
				    "ignored" : e->kind == LD_LOG_BAD_LIST ?
				    "malformed-list" : "malformed-entry");
			json_string(j, "source", e->subject);
			json_string(j, "reason", e->detail);
		}
		json_string(j, "message", e->message);
		json_int(j, "count", e->count);
		json_object_end(j);
	}
}

/**
 * ld_keys_json - write the key view as members of the object being written
 * @kv: the view
 * @j: the writer, inside the top-level object
 *
 * Writes "keys_error", "keyrings", "trusted_keys", "revoked",
 * "kernel_log_error", "ignored", "refused_signatures" and "loaded_from"
 * (described in lockdown-status(1)).
 */
void ld_keys_json(const struct ld_keyview *kv, struct json *j)
{
	const struct ld_keyring *bl = &kv->rings[LD_RING_BLACKLIST];
	bool listed = !kv->keys_err && bl->found && !bl->err;
	int i, k;

	json_error(j, "keys_error", kv->keys_err);
	json_keyrings(kv, j);

	if (kv->keys_err || !any_ring_listed(kv)) {
		json_null(j, "trusted_keys");
	} else {
		json_array_begin(j, "trusted_keys");
		for (i = 0; i < kv->nmembers; i++) {
			const struct ld_member *m = &kv->members[i];

			if (m->ring != LD_RING_BLACKLIST && m->link < 0 &&
			    m->key)
				json_key(j, m);
		}
		json_array_end(j);
	}

	json_object_begin(j, "revoked");
	if (kv->keys_err)
		json_error(j, "error", kv->keys_err);
	else if (!bl->found)
		json_string(j, "error", kv->as_root ? "no .blacklist keyring" :
				      "not shown to this user");
	else
		json_error(j, "error", bl->err);
	json_array_begin(j, "certificates");
	for (i = 0; i < kv->nmembers; i++) {
		const struct ld_member *m = &kv->members[i];

		if (m->ring == LD_RING_BLACKLIST && m->link < 0 && m->key &&
		    !strcmp(m->key->type, "asymmetric"))
			json_key(j, m);
	}
	json_array_end(j);
	if (listed) {
		json_int(j, "certificate_count", kv->revoked_certs);
		json_int(j, "certificate_hashes", kv->revoked_tbs);
		json_int(j, "binary_hashes", kv->revoked_bin);
		json_int(j, "other", kv->revoked_other);
	} else {
		json_null(j, "certificate_count");
		json_null(j, "certificate_hashes");
		json_null(j, "binary_hashes");
		json_null(j, "other");
	}
	json_object_end(j);

	json_error(j, "kernel_log_error", kv->log_err);
	if (kv->log_err) {
		json_null(j, "ignored");
		json_null(j, "refused_signatures");
		json_null(j, "loaded_from");
		return;
	}
	json_array_begin(j, "ignored");
	json_events(kv, j, false);
	json_array_end(j);
	json_array_begin(j, "refused_signatures");
	json_events(kv, j, true);
	json_array_end(j);

	json_array_begin(j, "loaded_from");
	for (i = 0; i < kv->nlists; i++) {
		const struct ld_list *list = &kv->lists[i];

		json_object_begin(j, NULL);
		json_string(j, "source", list->source);
		json_array_begin(j, "certificates");
		for (k = 0; k < list->nnames; k++)
			json_string(j, NULL, list->names[k]);
		json_array_end(j);
		json_int(j, "failed", list->failed);
		json_object_end(j);
	}
	json_array_end(j);
}
