// SPDX-License-Identifier: GPL-2.0
/*
 * Kernel lockdown: the owner policy at run time.
 *
 * The machine's owner signs a policy (format: the admin guide) that lets
 * named MSR, PCI-config and I/O-port writes through while the kernel is
 * locked down.  lockdown_owner_load() verifies and installs it; a guarded
 * site asks __kernel_is_locked_down_msr() or a sibling, which hands the
 * access to the lockdown hook through the task's blob
 * (lockdown_owner_question()); the hook asks the policy
 * (lockdown_owner_allows()); every LSM on the hook is asked as usual.
 */

#define pr_fmt(fmt) "lockdown: " fmt

#include <crypto/pkcs7.h>
#include <crypto/sha2.h>
#include <keys/system_keyring.h>
#include <linux/efi.h>
#include <linux/err.h>
#include <linux/export.h>
#include <linux/lockdown_owner.h>
#include <linux/lsm_hooks.h>
#include <linux/module_signature.h>
#include <linux/mutex.h>
#include <linux/pci.h>
#include <linux/ratelimit.h>
#include <linux/rcupdate.h>
#include <linux/sched.h>
#include <linux/seq_file.h>
#include <linux/slab.h>
#include <linux/string.h>
#include <linux/timekeeping.h>
#include <linux/verification.h>

#include "lockdown.h"
#include "owner_policy.h"

/* The PK variable holds one EFI_SIGNATURE_LIST; far less than this. */
#define LOCKDOWN_PK_MAX		65536

/* What the signer is called when no platform key can be named. */
#define LOCKDOWN_SIGNER_UNKNOWN	"unknown"

/* The current policy of the running kernel. */
struct lockdown_owner lockdown_owner = {
	.lock = __MUTEX_INITIALIZER(lockdown_owner.lock),
};

/* Filled in with offsets by the LSM framework at boot. */
struct lsm_blob_sizes lockdown_blob_sizes __ro_after_init = {
	.lbs_task = sizeof(struct lockdown_task),
};

/* The blob offset is valid: the LSM framework initialised lockdown. */
bool lockdown_blob_ready __ro_after_init;

/**
 * lockdown_owner_init - note that the task blob can be used
 *
 * Called from the lockdown LSM's init, after the framework has turned
 * lockdown_blob_sizes into offsets.  When lockdown is not an enabled LSM,
 * no access reaches the hook, and lockdown_blob_sizes is never used as an
 * offset into another LSM's blob.
 */
void __init lockdown_owner_init(void)
{
	lockdown_blob_ready = true;
}

/**
 * lockdown_owner_can_ask - whether a site's access can reach the hook
 *
 * Return: false when lockdown is not an enabled LSM (it then has no part
 * in the task blob); the owner policy then never allows anything.
 */
bool lockdown_owner_can_ask(void)
{
	return lockdown_blob_ready;
}

/**
 * lockdown_owner_set_alloc - wrap a parsed, verified policy for installing
 * @policy: the parsed policy; owned by the result on success
 * @text: the policy's text, copied
 * @len: length of @text
 * @digest: SHA-256 of @text
 * @signer: description of the signing key, copied (truncated if long)
 *
 * Return: the set with zeroed use counters, or NULL when out of memory
 * (@policy is then still the caller's).
 */
struct lockdown_owner_set *
lockdown_owner_set_alloc(struct lockdown_owner_policy *policy,
			 const char *text, size_t len, const u8 *digest,
			 const char *signer)
{
	struct lockdown_owner_set *set;

	set = kzalloc(struct_size(set, uses, policy->nr_rules), GFP_KERNEL);
	if (!set)
		return NULL;
	set->text = kmemdup(text, len, GFP_KERNEL);
	if (!set->text && len) {
		kfree(set);
		return NULL;
	}
	set->len = len;
	set->policy = policy;
	memcpy(set->sha256, digest, sizeof(set->sha256));
	strscpy(set->signer, signer, sizeof(set->signer));
	set->loaded_ns = ktime_get_boot_fast_ns();
	return set;
}

/**
 * lockdown_owner_set_free - free a set and the policy it holds
 * @set: from lockdown_owner_set_alloc(), not installed, or NULL
 */
void lockdown_owner_set_free(struct lockdown_owner_set *set)
{
	if (!set)
		return;
	kfree(set->text);
	kfree(set->policy);
	kfree(set);
}

/**
 * lockdown_owner_install - make @set the current policy of @o
 * @o: the owner policy state
 * @set: from lockdown_owner_set_alloc(); owned by @o on success
 * @cur_serial: set to the serial in force when the call returns
 *
 * The serial rule: @set's serial must be above the current one (0 at
 * boot).  The policy it replaces is freed once no reader can see it.
 *
 * Context: Process context; sleeps.
 * Return: 0 when installed; -ESTALE, with nothing changed, when @set's
 * serial is not above the current one.
 */
int lockdown_owner_install(struct lockdown_owner *o,
			   struct lockdown_owner_set *set, u64 *cur_serial)
{
	struct lockdown_owner_set *old;

	mutex_lock(&o->lock);
	if (set->policy->serial <= o->serial) {
		*cur_serial = o->serial;
		mutex_unlock(&o->lock);
		return -ESTALE;
	}
	old = rcu_replace_pointer(o->set, set, lockdep_is_held(&o->lock));
	o->serial = set->policy->serial;
	*cur_serial = o->serial;
	mutex_unlock(&o->lock);

	if (old) {
		synchronize_rcu();
		lockdown_owner_set_free(old);
	}
	return 0;
}

/**
 * lockdown_owner_destroy - free the policy of a private state
 * @o: a state that no reader can see any more (KUnit)
 */
void lockdown_owner_destroy(struct lockdown_owner *o)
{
	lockdown_owner_set_free(rcu_dereference_protected(o->set, 1));
	RCU_INIT_POINTER(o->set, NULL);
}

static __printf(2, 3) int lockdown_owner_refuse(int err, const char *fmt, ...)
{
	struct va_format vaf;
	va_list args;

	va_start(args, fmt);
	vaf.fmt = fmt;
	vaf.va = &args;
	pr_warn_ratelimited("policy refused: %pV\n", &vaf);
	va_end(args);
	return err;
}

/*
 * The SHA-256 of the UEFI PK variable's contents.  Returns 0, or -ENODEV
 * when there is no PK to read (no runtime services, setup mode, error).
 */
static int lockdown_pk_sha256(u8 *digest)
{
	static efi_char16_t pk_name[] = L"PK";
	efi_guid_t guid = EFI_GLOBAL_VARIABLE_GUID;
	unsigned long probe[4], size = sizeof(probe);
	efi_status_t status;
	void *data;

	if (!efi_enabled(EFI_RUNTIME_SERVICES) ||
	    !efi_rt_services_supported(EFI_RT_SUPPORTED_GET_VARIABLE))
		return -ENODEV;
	/* A small buffer rather than NULL, as load_uefi.c asks firmware. */
	status = efi.get_variable(pk_name, &guid, NULL, &size, probe);
	if (status == EFI_SUCCESS) {
		sha256((const u8 *)probe, size, digest);
		return 0;
	}
	if (status != EFI_BUFFER_TOO_SMALL || size > LOCKDOWN_PK_MAX)
		return -ENODEV;
	data = kmalloc(size, GFP_KERNEL);
	if (!data)
		return -ENOMEM;
	status = efi.get_variable(pk_name, &guid, NULL, &size, data);
	if (status == EFI_SUCCESS)
		sha256(data, size, digest);
	kfree(data);
	return status == EFI_SUCCESS ? 0 : -ENODEV;
}

/*
 * Verify the signature over the text with the keys the owner enrolled
 * (UEFI db, MOKs from shim; verify_pkcs7_owner_signature(), a tree patch
 * to certs/), and name the key that signed it (*signer, kmalloc'd; NULL
 * when it cannot be named).  On refusal, log why: no owner's key, a
 * revoked signer (and which list revoked it), or a text that is not the
 * one signed.
 */
static int lockdown_owner_verify(const void *text, size_t textlen,
				 const void *sig, size_t siglen, char **signer)
{
	struct pkcs7_message *pkcs7;
	char *revoked = NULL;
	int ret;

	ret = verify_pkcs7_owner_signature(text, textlen, sig, siglen, signer);
	if (!ret)
		return 0;
	if (ret == -ENOKEY && *signer) {
		lockdown_owner_refuse(ret,
				      "signed by '%s', which is not an owner key (no lockdown owner extended key usage)",
				      *signer);
		kfree(*signer);
		*signer = NULL;
		return ret;
	}
	if (ret == -ENOKEY)
		return lockdown_owner_refuse(ret, "signed by no key of UEFI db or MOK");
	if (ret == -EBADMSG)
		return lockdown_owner_refuse(ret,
					     "signature is malformed or carries certificates (sign with scripts/sign-file)");
	if (ret != -EKEYREJECTED)
		return lockdown_owner_refuse(ret, "signature not verified (error %d)",
					     ret);

	pkcs7 = pkcs7_parse_message(sig, siglen);
	if (!IS_ERR(pkcs7)) {
		revoked = blacklist_describe_revoked_signer(pkcs7);
		pkcs7_free_message(pkcs7);
	}
	if (revoked)
		lockdown_owner_refuse(ret, "signer's %s", revoked);
	else
		lockdown_owner_refuse(ret, "signature does not match the text");
	kfree(revoked);
	return ret;
}

/**
 * lockdown_owner_split - find the text and the signature in a signed policy
 * @blob: the policy text with its signature appended
 * @len: length of @blob
 * @textlen: set to the length of the text, which starts @blob
 * @siglen: set to the length of the PKCS#7 signature, which follows it
 *
 * Reads the trailer scripts/sign-file appends, as the module loader does,
 * and checks it with mod_check_sig().  Logs why on refusal.
 *
 * Return: 0, or -EBADMSG when the trailer is missing or malformed.
 */
int lockdown_owner_split(const void *blob, size_t len, size_t *textlen,
			 size_t *siglen)
{
	const size_t markerlen = sizeof(MODULE_SIG_STRING) - 1;
	const u8 *p = blob;
	struct module_signature ms;
	int ret;

	if (len < markerlen ||
	    memcmp(p + len - markerlen, MODULE_SIG_STRING, markerlen))
		return lockdown_owner_refuse(-EBADMSG, "no signature appended");
	len -= markerlen;
	if (len < sizeof(ms))
		return lockdown_owner_refuse(-EBADMSG,
					     "signature trailer truncated");
	memcpy(&ms, p + len - sizeof(ms), sizeof(ms));
	ret = mod_check_sig(&ms, len, "lockdown policy");
	if (ret)
		return lockdown_owner_refuse(-EBADMSG,
					     "malformed signature trailer (%pe)",
					     ERR_PTR(ret));
	*siglen = be32_to_cpu(ms.sig_len);
	*textlen = len - sizeof(ms) - *siglen;
	return 0;
}

/* A rule as lockdown_policy_status and the load's warnings name it. */
static void lockdown_rule_format(const struct lockdown_rule *r, char *buf,
				 size_t size)
{
	switch (r->kind) {
	case LOCKDOWN_RULE_MSR:
		snprintf(buf, size, "msr 0x%08x mask 0x%016llx", r->msr.index,
			 r->msr.mask);
		break;
	case LOCKDOWN_RULE_PCI:
		snprintf(buf, size, "pci %04x:%02x:%02x.%x 0x%03x-0x%03x",
			 r->pci.domain, r->pci.bus, PCI_SLOT(r->pci.devfn),
			 PCI_FUNC(r->pci.devfn), r->pci.start, r->pci.end);
		break;
	case LOCKDOWN_RULE_IOPORT:
		snprintf(buf, size, "ioport 0x%04x-0x%04x", r->io.start,
			 r->io.end);
		break;
	}
}

/*
 * Name each unsafe rule of the policy just installed with @serial, loudly:
 * whoever reads the log must see that the owner opened something that
 * can hand the kernel over.
 */
static void lockdown_owner_warn_unsafe(u64 serial)
{
	const struct lockdown_owner_set *set;
	const struct lockdown_rule *r;
	char rule[64];
	unsigned int i;

	rcu_read_lock();
	set = rcu_dereference(lockdown_owner.set);
	if (set && set->policy->serial != serial)
		set = NULL;	/* a newer one, whose loader warns */
	for (i = 0; set && i < set->policy->nr_rules; i++) {
		r = &set->policy->rules[i];
		if (!r->unsafe)
			continue;
		lockdown_rule_format(r, rule, sizeof(rule));
		pr_warn("owner policy serial %llu line %u is unsafe: %s; root can use it to take over the kernel\n",
			serial, r->line, rule);
	}
	rcu_read_unlock();
}

/*
 * Loads one at a time, from the serial check to the install, so that the
 * TPM counter and the serial in force move together.
 */
static DEFINE_MUTEX(lockdown_owner_load_lock);

/*
 * The serial rule across reboots: @policy's serial is at least its TPM
 * counter's value, which is raised to it (owner_tpm.c).  Logs why on
 * refusal; a counter that cannot be used refuses the policy.
 */
static int lockdown_owner_counter(const struct lockdown_owner_policy *policy)
{
	u32 index = policy->counter;
	u64 value = 0;
	int ret;

	ret = lockdown_owner_counter_advance(index, policy->serial, &value);
	switch (ret) {
	case 0:
		return 0;
	case -ESTALE:
		return lockdown_owner_refuse(ret,
					     "serial %llu is below TPM counter 0x%08x at %llu",
					     policy->serial, index, value);
	case -ERANGE:
		return lockdown_owner_refuse(ret,
					     "serial %llu is more than %u above TPM counter 0x%08x at %llu",
					     policy->serial,
					     LOCKDOWN_COUNTER_MAX_STEP, index,
					     value);
	case -ENODEV:
		return lockdown_owner_refuse(ret,
					     "no TPM 2.0 to hold counter 0x%08x",
					     index);
	case -ENOENT:
		return lockdown_owner_refuse(-ENODEV,
					     "TPM counter 0x%08x is not defined",
					     index);
	case -ENOTTY:
		return lockdown_owner_refuse(-ENODEV,
					     "TPM index 0x%08x is not a counter with authread and authwrite (nt=counter, 8 bytes)",
					     index);
	default:
		return lockdown_owner_refuse(ret,
					     "TPM counter 0x%08x not read or incremented (%pe)",
					     index, ERR_PTR(ret));
	}
}

/**
 * lockdown_owner_load - verify a signed owner policy and make it current
 * @blob: the policy text with a signature appended as scripts/sign-file
 *	appends one to a module
 * @len: length of @blob, at most %LOCKDOWN_OWNER_BLOB_MAX
 *
 * Checks, in this order: the size (-EFBIG); the signature trailer
 * (-EBADMSG); firmware Secure Boot on (-EPERM); the signature, by a key
 * of UEFI db or a MOK whose certificate carries the lockdown owner
 * extended key usage, not revoked (verify_pkcs7_owner_signature());
 * the text's SHA-256 not in the binary blacklist (-EKEYREJECTED); the
 * text, parsed only now that it is known to be the owner's (-EINVAL,
 * -E2BIG); its machine line against this machine's PK (-ENODEV, -EXDEV);
 * its serial above the current one (-ESTALE) and at least its TPM
 * counter's value, which is raised to it (owner_tpm.c; -ESTALE, -ERANGE,
 * -ENODEV, -EIO).  On any refusal the current policy stays and one
 * console line names the reason.
 *
 * Context: Process context; sleeps.
 * Return: 0 when loaded; -EFBIG, -EBADMSG, -EPERM, the errors of
 * verify_pkcs7_signature(), -EKEYREJECTED, -EINVAL, -E2BIG, -ENODEV,
 * -EXDEV, -ESTALE, -ERANGE, -EIO or -ENOMEM when refused.
 */
int lockdown_owner_load(const void *blob, size_t len)
{
	struct lockdown_policy_error perr;
	struct lockdown_owner_policy *policy;
	struct lockdown_owner_set *set;
	size_t textlen, siglen;
	u8 digest[SHA256_DIGEST_SIZE], pk[SHA256_DIGEST_SIZE];
	unsigned int nr_rules;
	char *signer, *list;
	u64 cur;
	int ret;

	if (len > LOCKDOWN_OWNER_BLOB_MAX)
		return lockdown_owner_refuse(-EFBIG, "larger than %u bytes",
					     LOCKDOWN_OWNER_BLOB_MAX);
	ret = lockdown_owner_split(blob, len, &textlen, &siglen);
	if (ret)
		return ret;
	if (!efi_enabled(EFI_SECURE_BOOT))
		return lockdown_owner_refuse(-EPERM,
					     "firmware Secure Boot is off");

	ret = lockdown_owner_verify(blob, textlen, blob + textlen, siglen,
				    &signer);
	if (ret)
		return ret;

	sha256(blob, textlen, digest);
	if (is_binary_blacklisted(digest, sizeof(digest))) {
		/* "binary hash HEX is revoked by UEFI:dbx", if it can say */
		list = blacklist_describe_hash(digest, sizeof(digest),
					       BLACKLIST_HASH_BINARY);
		if (list)
			ret = lockdown_owner_refuse(-EKEYREJECTED, "%s", list);
		else
			ret = lockdown_owner_refuse(-EKEYREJECTED,
						    "sha256 %*phN is revoked",
						    (int)sizeof(digest), digest);
		kfree(list);
		goto out;
	}

	ret = lockdown_policy_parse(blob, textlen, &policy, &perr);
	if (ret == -ENOMEM)
		goto out;
	if (ret) {
		if (perr.line)
			lockdown_owner_refuse(ret, "line %u: %s", perr.line,
					      perr.reason);
		else
			lockdown_owner_refuse(ret, "%s", perr.reason);
		goto out;
	}

	ret = lockdown_pk_sha256(pk);
	if (!ret && memcmp(pk, policy->pk_sha256, sizeof(pk)))
		ret = lockdown_owner_refuse(-EXDEV,
					    "policy is for another machine");
	else if (ret && ret != -ENOMEM)
		lockdown_owner_refuse(ret, "no UEFI PK to bind it to");
	if (ret) {
		kfree(policy);
		goto out;
	}

	set = lockdown_owner_set_alloc(policy, blob, textlen, digest,
				       signer ?: LOCKDOWN_SIGNER_UNKNOWN);
	if (!set) {
		kfree(policy);
		ret = -ENOMEM;
		goto out;
	}
	/* Once installed, a concurrent load may free it: read it first. */
	nr_rules = policy->nr_rules;
	mutex_lock(&lockdown_owner_load_lock);
	cur = READ_ONCE(lockdown_owner.serial);
	ret = policy->serial > cur ? lockdown_owner_counter(policy) : -ESTALE;
	if (!ret)
		ret = lockdown_owner_install(&lockdown_owner, set, &cur);
	mutex_unlock(&lockdown_owner_load_lock);
	if (ret == -ESTALE && policy->serial <= cur)
		lockdown_owner_refuse(ret, "serial %llu is not above the current %llu",
				      policy->serial, cur);
	if (ret) {
		lockdown_owner_set_free(set);
		goto out;
	}
	pr_notice("owner policy serial %llu loaded: %u rules, signed by '%s', sha256 %*phN\n",
		  cur, nr_rules, signer ?: LOCKDOWN_SIGNER_UNKNOWN,
		  (int)sizeof(digest), digest);
	lockdown_owner_warn_unsafe(cur);
out:
	kfree(signer);
	return ret;
}

/**
 * lockdown_owner_show_text - print the current policy's text
 * @m: the seq_file of /sys/kernel/security/lockdown_policy
 *
 * Prints nothing when no policy was ever loaded.
 */
void lockdown_owner_show_text(struct seq_file *m)
{
	const struct lockdown_owner_set *set;

	rcu_read_lock();
	set = rcu_dereference(lockdown_owner.set);
	if (set)
		seq_write(m, set->text, set->len);
	rcu_read_unlock();
}

static void lockdown_owner_show_rule(struct seq_file *m,
				     const struct lockdown_rule *r, s64 uses)
{
	char rule[64];

	lockdown_rule_format(r, rule, sizeof(rule));
	seq_printf(m, "rule %u %s%s uses %lld\n", r->line, rule,
		   r->unsafe ? " unsafe" : "", uses);
}

/**
 * lockdown_owner_show_status - print the state of the owner policy
 * @m: the seq_file of /sys/kernel/security/lockdown_policy_status
 *
 * One "key value" line each, in this order (HEX: 64 lower-case digits):
 *
 *	serial N		the current serial; 0: none loaded since boot
 *	pk-sha256 HEX		the machine the policy is for
 *	sha256 HEX		SHA-256 of the policy's text
 *	signer NAME		the signing key's description, or "unknown"
 *	loaded-ns N		boot-time clock at the load, in ns
 *	counter 0xINDEX		the TPM NV counter that holds the serial
 *
 * then one line per rule, in the order of the text:
 *
 *	rule LINE msr 0xADDR mask 0xMASK [unsafe] uses N	(8 and 16 digits)
 *	rule LINE pci DDDD:BB:DD.F 0xSTA-0xEND [unsafe] uses N	(3 digits each)
 *	rule LINE ioport 0xSTAR-0xEND [unsafe] uses N		(4 digits each)
 *
 * "unsafe" marks a rule the owner signed as unsafe (owner_parse.c).
 * When no policy was loaded, only "serial 0" is printed.  New keys may
 * be added before the rule lines; readers skip lines they do not know.
 */
void lockdown_owner_show_status(struct seq_file *m)
{
	const struct lockdown_owner_set *set;
	unsigned int i;

	rcu_read_lock();
	set = rcu_dereference(lockdown_owner.set);
	if (!set) {
		rcu_read_unlock();
		seq_puts(m, "serial 0\n");
		return;
	}
	seq_printf(m, "serial %llu\npk-sha256 %*phN\nsha256 %*phN\nsigner %s\nloaded-ns %llu\ncounter 0x%08x\n",
		   set->policy->serial,
		   (int)sizeof(set->policy->pk_sha256), set->policy->pk_sha256,
		   (int)sizeof(set->sha256), set->sha256, set->signer,
		   set->loaded_ns, set->policy->counter);
	for (i = 0; i < set->policy->nr_rules; i++)
		lockdown_owner_show_rule(m, &set->policy->rules[i],
					 atomic64_read(&set->uses[i]));
	rcu_read_unlock();
}

static int lockdown_owner_match(const struct lockdown_owner_policy *p,
				const struct lockdown_access *a)
{
	switch (a->what) {
	case LOCKDOWN_MSR:
		return lockdown_policy_match_msr(p, a->msr.reg, a->msr.old,
						 a->msr.new);
	case LOCKDOWN_PCI_ACCESS:
		return lockdown_policy_match_pci(p, a->pci.domain, a->pci.bus,
						 a->pci.devfn, a->pci.off,
						 a->pci.len);
	case LOCKDOWN_IOPORT:
		return lockdown_policy_match_ioport(p, a->io.from, a->io.num);
	default:
		return -ENOENT;
	}
}

/**
 * lockdown_owner_allows - whether a rule of @o's policy allows @a
 * @o: the owner policy state
 * @a: the access; @a->rule, and with a rule @a->line and @a->serial, are set
 *
 * For an MSR whose rule has a mask, the register is read (outside any
 * RCU section: it may sleep) and the policy asked again, since it may
 * have changed meanwhile; a register that cannot be read is allowed by
 * no rule.
 *
 * Context: The site's, which handed @a over: task context.
 * Return: true when a rule allows @a.
 */
bool lockdown_owner_allows(struct lockdown_owner *o, struct lockdown_access *a)
{
	const struct lockdown_owner_set *set;
	int idx;

	if (!rcu_access_pointer(o->set))	/* no policy: refused as is */
		return false;
again:
	idx = -ENOENT;
	rcu_read_lock_sched();
	set = rcu_dereference_sched(o->set);
	if (set && a->what == LOCKDOWN_MSR && a->msr.read) {
		/* Old value unknown: the rule for this MSR, whatever its mask. */
		idx = lockdown_policy_match_msr(set->policy, a->msr.reg,
						a->msr.new, a->msr.new);
		if (idx >= 0 && set->policy->rules[idx].msr.mask != ~0ULL)
			idx = -EAGAIN;	/* a mask: read the register first */
	} else if (set) {
		idx = lockdown_owner_match(set->policy, a);
	}
	if (idx >= 0) {
		a->line = set->policy->rules[idx].line;
		a->serial = set->policy->serial;
	}
	rcu_read_unlock_sched();

	if (unlikely(idx == -EAGAIN)) {
		idx = -ENOENT;
		if (!a->msr.read(a->msr.cpu, a->msr.reg, &a->msr.old)) {
			a->msr.read = NULL;	/* @a->msr.old holds it */
			goto again;
		}
	}
	a->rule = idx;
	return idx >= 0;
}

/* Count a use of @a's rule, unless a newer policy replaced it meanwhile. */
static void lockdown_owner_count(struct lockdown_owner *o,
				 const struct lockdown_access *a)
{
	struct lockdown_owner_set *set;

	rcu_read_lock_sched();
	set = rcu_dereference_sched(o->set);
	if (set && set->policy->serial == a->serial)
		atomic64_inc(&set->uses[a->rule]);
	rcu_read_unlock_sched();
}

/*
 * lockdown_owner_question(), inline: the running kernel's sites pass a
 * constant @ask, a direct call, and @report true.
 */
static __always_inline bool
__lockdown_owner_question(struct lockdown_owner *o, struct lockdown_access *a,
			  bool (*ask)(enum lockdown_reason what), bool report)
{
	struct lockdown_task *lt = lockdown_task(current);
	struct lockdown_access *outer = NULL;
	bool refused;

	a->rule = -ENOENT;
	if (lt) {
		outer = lt->access;
		WRITE_ONCE(lt->access, a);
	}
	refused = ask(a->what);
	if (lt)
		WRITE_ONCE(lt->access, outer);
	if (refused || a->rule < 0)
		return refused;
	/* Every LSM allowed it: only now is the rule's use counted. */
	lockdown_owner_count(o, a);
	if (report)
		lockdown_report_allowed(a);
	return false;
}

/**
 * lockdown_owner_question - ask every LSM about an access a site names
 * @o: the owner policy state the hook is to ask
 * @a: the access
 * @ask: asks every LSM on the locked_down hook about @a->what
 *
 * @a is handed to the lockdown hook through the running task's blob for
 * the time of @ask: the hook asks @o's policy about it, and names it when
 * it refuses.  If every LSM allows and a rule allowed it, the rule's use
 * is counted.  Nothing is logged for an allowed access: this is the entry
 * point for KUnit, whose made-up accesses must not read like real ones,
 * nor spend the real report limit.
 *
 * Return: true when the access must be refused.
 */
bool lockdown_owner_question(struct lockdown_owner *o,
			     struct lockdown_access *a,
			     bool (*ask)(enum lockdown_reason what))
{
	return __lockdown_owner_question(o, a, ask, false);
}

/*
 * kernel_is_locked_down(), spelled out: a size-optimised build keeps that
 * inline helper out of line, one call more on every allowed access.
 */
static __always_inline bool lockdown_ask(enum lockdown_reason what)
{
	return unlikely(security_locked_down(what) != 0);
}

/*
 * The out-of-line halves of the questions in include/linux/lockdown_owner.h
 * (documented there), asked while the kernel is not known to be open.
 */
bool __kernel_is_locked_down_msr(unsigned int cpu, u32 reg, u64 val,
				 int (*read)(unsigned int cpu, u32 reg,
					     u64 *val))
{
	struct lockdown_access a = {
		.what = LOCKDOWN_MSR,
		.msr = { .cpu = cpu, .reg = reg, .new = val, .read = read },
	};

	return __lockdown_owner_question(&lockdown_owner, &a, lockdown_ask,
					 true);
}
EXPORT_SYMBOL_GPL(__kernel_is_locked_down_msr);

bool __kernel_is_locked_down_pci(struct pci_dev *dev, loff_t off, size_t len)
{
	struct lockdown_access a = {
		.what = LOCKDOWN_PCI_ACCESS,
		.pci = {
			.domain = pci_domain_nr(dev->bus),
			.bus = dev->bus->number,
			.devfn = dev->devfn,
		},
	};

	/* Config space is 4 KiB; outside it, len 0 matches no rule. */
	if (off >= 0 && off < PCI_CFG_SPACE_EXP_SIZE &&
	    len <= PCI_CFG_SPACE_EXP_SIZE - off) {
		a.pci.off = off;
		a.pci.len = len;
	}
	return __lockdown_owner_question(&lockdown_owner, &a, lockdown_ask,
					 true);
}

bool __kernel_is_locked_down_ioport(unsigned long from, unsigned long num)
{
	struct lockdown_access a = {
		.what = LOCKDOWN_IOPORT,
		.io = { .from = from, .num = num },
	};

	return __lockdown_owner_question(&lockdown_owner, &a, lockdown_ask,
					 true);
}
