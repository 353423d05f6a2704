// SPDX-License-Identifier: GPL-2.0
/*
 * KUnit tests for the owner policy at run time (owner.c): what can be
 * tested without a signature.  They install policies into a private
 * struct lockdown_owner and stand in for the LSM hook list with
 * fake_ask(), which answers as the lockdown hook does (lockdown_decide()
 * on a private struct lockdown_state and that policy) and, when told to,
 * as another LSM refusing everything.  The kernel's own level and policy
 * are never touched.
 */

#include <kunit/test.h>
#include <linux/module_signature.h>
#include <linux/mutex.h>
#include <linux/pci.h>
#include <linux/slab.h>
#include <linux/string.h>

#include "lockdown.h"
#include "owner_policy.h"

#define PK "3f5a0c9d2b1e4f6a7c8d9e0f1a2b3c4d5e6f708192a3b4c5d6e7f8091a2b3c4d"

/* What fake_ask() saw, and how it answers; one test runs at a time. */
static struct {
	const struct lockdown_state *s;
	struct lockdown_owner *o;
	bool other_lsm_refuses;
	unsigned int asked;
	bool access_seen;
	bool other_reason_seen;
	bool lockdown_allowed;
} fake;

static bool fake_ask(enum lockdown_reason what)
{
	fake.asked++;
	fake.access_seen = lockdown_owner_access(what);
	fake.other_reason_seen =
		lockdown_owner_access(what == LOCKDOWN_MSR ? LOCKDOWN_IOPORT :
							     LOCKDOWN_MSR);
	fake.lockdown_allowed = !lockdown_decide(fake.s, fake.o, what, false);
	return !fake.lockdown_allowed || fake.other_lsm_refuses;
}

/* Ask about @a as a site does, at the level of @s, with @o's policy. */
static bool question(struct lockdown_owner *o, struct lockdown_state *s,
		     struct lockdown_access *a)
{
	memset(&fake, 0, sizeof(fake));
	fake.s = s;
	fake.o = o;
	return lockdown_owner_question(o, a, fake_ask);
}

static struct lockdown_owner *new_owner(struct kunit *test)
{
	struct lockdown_owner *o = kunit_kzalloc(test, sizeof(*o), GFP_KERNEL);

	KUNIT_ASSERT_NOT_NULL(test, o);
	mutex_init(&o->lock);
	return o;
}

static struct lockdown_state *new_state(struct kunit *test,
					enum lockdown_reason level)
{
	struct lockdown_state *s = kunit_kzalloc(test, sizeof(*s), GFP_KERNEL);

	KUNIT_ASSERT_NOT_NULL(test, s);
	spin_lock_init(&s->lock);
	s->level = LOCKDOWN_NONE;
	if (level != LOCKDOWN_NONE)
		KUNIT_ASSERT_EQ(test, lockdown_raise(s, "kunit", level, 0), 0);
	return s;
}

/* Parse "serial @serial" and @rules, wrap it as a load would. */
static struct lockdown_owner_set *new_set(struct kunit *test, u64 serial,
					  const char *rules)
{
	static const u8 digest[32] = { 0x5a };
	struct lockdown_owner_policy *p;
	struct lockdown_owner_set *set;
	char *text;

	text = kasprintf(GFP_KERNEL,
			 "lockdown-policy v1\nmachine pk-sha256:" PK
			 "\nserial %llu\ncounter 0x01800001\n%s", serial,
			 rules);
	KUNIT_ASSERT_NOT_NULL(test, text);
	KUNIT_ASSERT_EQ(test, lockdown_policy_parse(text, strlen(text), &p,
						    NULL), 0);
	set = lockdown_owner_set_alloc(p, text, strlen(text), digest, "kunit");
	kfree(text);
	KUNIT_ASSERT_NOT_NULL(test, set);
	return set;
}

/* Install, freeing @set when refused as a load does. */
static int install(struct lockdown_owner *o, struct lockdown_owner_set *set,
		   u64 *cur)
{
	int ret = lockdown_owner_install(o, set, cur);

	if (ret)
		lockdown_owner_set_free(set);
	return ret;
}

static u64 uses(struct lockdown_owner *o, unsigned int rule)
{
	return atomic64_read(&rcu_dereference_protected(o->set, 1)->uses[rule]);
}

/* Only a serial above the current one (0 at boot) is installed. */
static void owner_test_serial(struct kunit *test)
{
	struct lockdown_owner *o = new_owner(test);
	u64 cur = 99;

	KUNIT_EXPECT_EQ(test, install(o, new_set(test, 5, ""), &cur), 0);
	KUNIT_EXPECT_EQ(test, cur, 5ULL);
	KUNIT_EXPECT_EQ(test, install(o, new_set(test, 5, ""), &cur), -ESTALE);
	KUNIT_EXPECT_EQ(test, cur, 5ULL);
	KUNIT_EXPECT_EQ(test, install(o, new_set(test, 3, ""), &cur), -ESTALE);
	KUNIT_EXPECT_EQ(test, cur, 5ULL);
	KUNIT_EXPECT_EQ(test, rcu_dereference_protected(o->set, 1)->policy->serial,
			5ULL);
	KUNIT_EXPECT_EQ(test, install(o, new_set(test, 6, "ioport 0x80\n"),
				      &cur), 0);
	KUNIT_EXPECT_EQ(test, cur, 6ULL);
	KUNIT_EXPECT_EQ(test, o->serial, 6ULL);
	KUNIT_EXPECT_EQ(test, install(o, new_set(test, U64_MAX, ""), &cur), 0);
	KUNIT_EXPECT_EQ(test, install(o, new_set(test, 7, ""), &cur), -ESTALE);
	KUNIT_EXPECT_EQ(test, cur, U64_MAX);
	lockdown_owner_destroy(o);
}

static const char msr_rules[] =
	"msr write 0xc0000103 unsafe\n"			/* line 4, rule 0 */
	"msr write 0x1a0 mask 0x0000000000400000 unsafe\n";	/* line 5, rule 1 */

/* What fake_read() gives: the register's value, or an error. */
static struct {
	u64 val;
	int err;
	unsigned int reads;
} fake_msr;

static int fake_read(unsigned int cpu, u32 reg, u64 *val)
{
	fake_msr.reads++;
	*val = fake_msr.val;
	return fake_msr.err;
}

static bool decide_msr(struct lockdown_owner *o, struct lockdown_state *s,
		       u32 reg, u64 old, u64 new,
		       int (*read)(unsigned int cpu, u32 reg, u64 *val))
{
	struct lockdown_access a = {
		.what = LOCKDOWN_MSR,
		.msr = { .reg = reg, .old = old, .new = new, .read = read },
	};

	fake_msr.reads = 0;
	return question(o, s, &a);
}

/*
 * At integrity: the site hands the write to the hook for that reason
 * only, and never beyond the question; a write a rule allows is allowed
 * by the hook and counted, one no rule allows is refused.
 */
static void owner_test_rule(struct kunit *test)
{
	struct lockdown_state *s = new_state(test, LOCKDOWN_INTEGRITY_MAX);
	struct lockdown_owner *o = new_owner(test);
	u64 cur;

	if (!lockdown_owner_can_ask())
		kunit_skip(test, "lockdown is not an enabled LSM");

	KUNIT_ASSERT_EQ(test, install(o, new_set(test, 1, msr_rules), &cur), 0);

	KUNIT_EXPECT_FALSE(test, decide_msr(o, s, 0xc0000103, 0, 1, NULL));
	KUNIT_EXPECT_EQ(test, fake.asked, 1U);
	KUNIT_EXPECT_TRUE(test, fake.access_seen);
	KUNIT_EXPECT_FALSE(test, fake.other_reason_seen);
	KUNIT_EXPECT_TRUE(test, fake.lockdown_allowed);
	KUNIT_EXPECT_NULL(test, lockdown_owner_access(LOCKDOWN_MSR));
	KUNIT_EXPECT_EQ(test, uses(o, 0), 1ULL);

	/* Within the mask: allowed; one bit outside it: refused. */
	KUNIT_EXPECT_FALSE(test, decide_msr(o, s, 0x1a0, 0, 0x400000, NULL));
	KUNIT_EXPECT_EQ(test, uses(o, 1), 1ULL);
	KUNIT_EXPECT_TRUE(test, decide_msr(o, s, 0x1a0, 0, 0x400001, NULL));
	KUNIT_EXPECT_EQ(test, fake.asked, 1U);
	KUNIT_EXPECT_TRUE(test, fake.access_seen);
	KUNIT_EXPECT_FALSE(test, fake.lockdown_allowed);
	KUNIT_EXPECT_EQ(test, uses(o, 1), 1ULL);

	/* An MSR no rule names. */
	KUNIT_EXPECT_TRUE(test, decide_msr(o, s, 0x10, 0, 1, NULL));
	KUNIT_EXPECT_FALSE(test, fake.lockdown_allowed);
	KUNIT_EXPECT_NULL(test, lockdown_owner_access(LOCKDOWN_MSR));
	lockdown_owner_destroy(o);
}

/*
 * As the MSR site asks: the register is read only for a rule with a mask,
 * and a register that cannot be read is not written.
 */
static void owner_test_msr_read(struct kunit *test)
{
	struct lockdown_state *s = new_state(test, LOCKDOWN_INTEGRITY_MAX);
	struct lockdown_owner *o = new_owner(test);
	u64 cur;

	if (!lockdown_owner_can_ask())
		kunit_skip(test, "lockdown is not an enabled LSM");

	KUNIT_ASSERT_EQ(test, install(o, new_set(test, 1, msr_rules), &cur), 0);
	fake_msr.val = 0x1234;
	fake_msr.err = 0;

	/* No mask: any value, never read. */
	KUNIT_EXPECT_FALSE(test, decide_msr(o, s, 0xc0000103, 0, 7, fake_read));
	KUNIT_EXPECT_EQ(test, fake_msr.reads, 0U);
	/* An MSR no rule names: refused unread. */
	KUNIT_EXPECT_TRUE(test, decide_msr(o, s, 0x10, 0, 7, fake_read));
	KUNIT_EXPECT_EQ(test, fake_msr.reads, 0U);

	/* A mask: read once; only the masked bit may differ from it. */
	KUNIT_EXPECT_FALSE(test, decide_msr(o, s, 0x1a0, 0, 0x401234, fake_read));
	KUNIT_EXPECT_EQ(test, fake_msr.reads, 1U);
	KUNIT_EXPECT_EQ(test, uses(o, 1), 1ULL);
	KUNIT_EXPECT_TRUE(test, decide_msr(o, s, 0x1a0, 0, 0x400000, fake_read));
	KUNIT_EXPECT_EQ(test, fake_msr.reads, 1U);
	KUNIT_EXPECT_FALSE(test, fake.lockdown_allowed);

	/* The read fails: refused, as no rule allowed it. */
	fake_msr.err = -EIO;
	KUNIT_EXPECT_TRUE(test, decide_msr(o, s, 0x1a0, 0, 0x1234, fake_read));
	KUNIT_EXPECT_EQ(test, fake_msr.reads, 1U);
	KUNIT_EXPECT_FALSE(test, fake.lockdown_allowed);
	KUNIT_EXPECT_EQ(test, uses(o, 1), 1ULL);
	lockdown_owner_destroy(o);
}

/* Another LSM refusing wins over the owner policy, and nothing counts. */
static void owner_test_other_lsm(struct kunit *test)
{
	struct lockdown_state *s = new_state(test, LOCKDOWN_INTEGRITY_MAX);
	struct lockdown_owner *o = new_owner(test);
	struct lockdown_access a = {
		.what = LOCKDOWN_MSR,
		.msr = { .reg = 0xc0000103, .old = 0, .new = 1 },
	};
	u64 cur;

	if (!lockdown_owner_can_ask())
		kunit_skip(test, "lockdown is not an enabled LSM");

	KUNIT_ASSERT_EQ(test, install(o, new_set(test, 1, msr_rules), &cur), 0);
	memset(&fake, 0, sizeof(fake));
	fake.s = s;
	fake.o = o;
	fake.other_lsm_refuses = true;
	KUNIT_EXPECT_TRUE(test, lockdown_owner_question(o, &a, fake_ask));
	KUNIT_EXPECT_EQ(test, fake.asked, 1U);
	KUNIT_EXPECT_TRUE(test, fake.lockdown_allowed);
	KUNIT_EXPECT_NULL(test, lockdown_owner_access(LOCKDOWN_MSR));
	KUNIT_EXPECT_EQ(test, uses(o, 0), 0ULL);
	lockdown_owner_destroy(o);
}

/*
 * Not locked down: allowed, and no rule is asked or counted.  No policy,
 * or a policy withdrawn by an empty one: refused.
 */
static void owner_test_plain(struct kunit *test)
{
	struct lockdown_state *open = new_state(test, LOCKDOWN_NONE);
	struct lockdown_state *s = new_state(test, LOCKDOWN_INTEGRITY_MAX);
	struct lockdown_owner *o = new_owner(test);
	u64 cur;

	KUNIT_EXPECT_TRUE(test, decide_msr(o, s, 0xc0000103, 0, 1, NULL));
	KUNIT_EXPECT_EQ(test, fake.asked, 1U);
	KUNIT_EXPECT_FALSE(test, fake.lockdown_allowed);

	KUNIT_ASSERT_EQ(test, install(o, new_set(test, 1, msr_rules), &cur), 0);
	KUNIT_EXPECT_FALSE(test, decide_msr(o, open, 0xc0000103, 0, 1, NULL));
	KUNIT_EXPECT_EQ(test, fake.asked, 1U);
	KUNIT_EXPECT_EQ(test, uses(o, 0), 0ULL);
	KUNIT_EXPECT_FALSE(test, decide_msr(o, open, 0x10, 0, 1, NULL));

	KUNIT_ASSERT_EQ(test, install(o, new_set(test, 2, ""), &cur), 0);
	KUNIT_EXPECT_TRUE(test, decide_msr(o, s, 0xc0000103, 0, 1, NULL));
	KUNIT_EXPECT_FALSE(test, fake.lockdown_allowed);
	lockdown_owner_destroy(o);
}

/* PCI and I/O-port accesses go through the same path, by their rules. */
static void owner_test_pci_ioport(struct kunit *test)
{
	struct lockdown_state *s = new_state(test, LOCKDOWN_INTEGRITY_MAX);
	struct lockdown_owner *o = new_owner(test);
	struct lockdown_access pci = {
		.what = LOCKDOWN_PCI_ACCESS,
		.pci = { .domain = 0, .bus = 0, .devfn = PCI_DEVFN(0x18, 0),
			 .off = 0x60, .len = 4 },
	};
	struct lockdown_access io = {
		.what = LOCKDOWN_IOPORT,
		.io = { .from = 0x70, .num = 2 },
	};
	u64 cur;

	if (!lockdown_owner_can_ask())
		kunit_skip(test, "lockdown is not an enabled LSM");

	KUNIT_ASSERT_EQ(test, install(o, new_set(test, 1,
						 "pci write 0000:00:18.0 0x60-0x6f unsafe\n"
						 "ioport 0x70-0x71 unsafe\n"), &cur), 0);
	KUNIT_EXPECT_FALSE(test, question(o, s, &pci));
	KUNIT_EXPECT_TRUE(test, fake.access_seen);
	pci.pci.domain = 0x10000;	/* VMD's first domain is not domain 0 */
	KUNIT_EXPECT_TRUE(test, question(o, s, &pci));
	pci.pci.domain = 0;
	pci.pci.off = 0x6e;	/* 0x6e..0x71: past the range */
	KUNIT_EXPECT_TRUE(test, question(o, s, &pci));
	KUNIT_EXPECT_FALSE(test, question(o, s, &io));
	io.io.num = 3;
	KUNIT_EXPECT_TRUE(test, question(o, s, &io));
	KUNIT_EXPECT_EQ(test, uses(o, 0), 1ULL);
	KUNIT_EXPECT_EQ(test, uses(o, 1), 1ULL);
	lockdown_owner_destroy(o);
}

/*
 * A blob of "text" || "sig.." || @ms || the marker, @cut bytes short, in
 * a buffer of exactly its size; split it.
 */
static int split(struct kunit *test, const struct module_signature *ms,
		 size_t cut, size_t *textlen, size_t *siglen)
{
	static const char text_sig[] = "textsig..";	/* 4 + 5 */
	const size_t markerlen = sizeof(MODULE_SIG_STRING) - 1;
	size_t len = sizeof(text_sig) - 1 + sizeof(*ms) + markerlen;
	u8 *blob = kunit_kmalloc(test, len, GFP_KERNEL);
	int ret;

	KUNIT_ASSERT_NOT_NULL(test, blob);
	memcpy(blob, text_sig, sizeof(text_sig) - 1);
	memcpy(blob + sizeof(text_sig) - 1, ms, sizeof(*ms));
	memcpy(blob + len - markerlen, MODULE_SIG_STRING, markerlen);
	ret = lockdown_owner_split(blob + cut, len - cut, textlen, siglen);
	kunit_kfree(test, blob);
	return ret;
}

/* The appended-signature trailer, as scripts/sign-file writes it. */
static void owner_test_split(struct kunit *test)
{
	const struct module_signature good = {
		.id_type = PKEY_ID_PKCS7,
		.sig_len = cpu_to_be32(5),
	};
	struct module_signature ms;
	size_t textlen = 0, siglen = 0;

	KUNIT_EXPECT_EQ(test, split(test, &good, 0, &textlen, &siglen), 0);
	KUNIT_EXPECT_EQ(test, textlen, (size_t)4);
	KUNIT_EXPECT_EQ(test, siglen, (size_t)5);

	/* Signature as long as everything before the trailer: no text. */
	ms = good;
	ms.sig_len = cpu_to_be32(9);
	KUNIT_EXPECT_EQ(test, split(test, &ms, 0, &textlen, &siglen),
			-EBADMSG);
	ms.sig_len = cpu_to_be32(U32_MAX);
	KUNIT_EXPECT_EQ(test, split(test, &ms, 0, &textlen, &siglen),
			-EBADMSG);
	/* Not PKCS#7, or fields sign-file leaves zero set. */
	ms = good;
	ms.id_type = PKEY_ID_X509;
	KUNIT_EXPECT_EQ(test, split(test, &ms, 0, &textlen, &siglen),
			-EBADMSG);
	ms = good;
	ms.hash = 1;
	KUNIT_EXPECT_EQ(test, split(test, &ms, 0, &textlen, &siglen),
			-EBADMSG);
	/* Text and signature gone: the trailer alone, then less. */
	KUNIT_EXPECT_EQ(test, split(test, &good, 9, &textlen, &siglen),
			-EBADMSG);
	KUNIT_EXPECT_EQ(test, split(test, &good, 10, &textlen, &siglen),
			-EBADMSG);
	KUNIT_EXPECT_EQ(test, lockdown_owner_split("", 0, &textlen, &siglen),
			-EBADMSG);
	KUNIT_EXPECT_EQ(test, lockdown_owner_split("text", 4, &textlen,
						   &siglen), -EBADMSG);
}

static struct kunit_case owner_test_cases[] = {
	KUNIT_CASE(owner_test_serial),
	KUNIT_CASE(owner_test_rule),
	KUNIT_CASE(owner_test_msr_read),
	KUNIT_CASE(owner_test_other_lsm),
	KUNIT_CASE(owner_test_plain),
	KUNIT_CASE(owner_test_pci_ioport),
	KUNIT_CASE(owner_test_split),
	{}
};

static struct kunit_suite owner_test_suite = {
	.name = "lockdown_owner",
	.test_cases = owner_test_cases,
};

kunit_test_suite(owner_test_suite);
