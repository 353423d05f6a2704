#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# dracut module: turn the initramfs into the lockdown test harness.
# Built by scripts/mkinitramfs.sh, which copies this folder, the runner
# (lktest-run.sh) and its plans (plans/*.plan) into a private dracut tree
# and sets:
#   LKTEST_BINDIR   the compiled test programs (lktest-*)
#   LKTEST_KSELFTEST  the tree's lockdown selftests as kselftest installs
#                   them (run_kselftest.sh), installed as /usr/lib/kselftest
#   LKTEST_MODULES  the test modules (*.ko), optional
#   LKTEST_KEYS     public certificates (*.der, *.esl), optional
#   LKTEST_POLICIES signed owner policies (*.policy), optional

# shellcheck disable=SC2154 # moddir and initdir come from dracut

# called by dracut
check() {
    # only when asked for with -m / --add
    return 255
}

# called by dracut
depends() {
    echo bash base
    return 0
}

# called by dracut
install() {
    local f

    # the real tools the checks drive, and what the runner itself uses
    inst_multiple wrmsr rdmsr isadump setpci lspci insmod rmmod modprobe lsmod \
        capsh mokutil dd grep sed cat od head tail tr wc stty dmesg uname \
        mount setpriv chattr find cpio stat cmp sha256sum ln
    inst_multiple -o kmod kexec
    # the owner's TPM counter, and root's attacks on it (tpm2-tools reach
    # the TPM through the kernel's resource manager, /dev/tpmrm0)
    inst_multiple tpm2_nvdefine tpm2_nvundefine tpm2_nvincrement tpm2_nvread \
        tpm2_nvreadpublic tpm2_nvwrite tpm2_clear
    # hibernation: the swap, and root's attempt at the sealed key
    inst_multiple mkswap swapon sleep kill tpm2_startauthsession \
        tpm2_policylocality tpm2_policypcr tpm2_createprimary tpm2_load \
        tpm2_unseal tpm2_flushcontext tpm2_create
    inst_libdir_file "libtss2-tcti-device.so*"

    [[ -d $LKTEST_BINDIR ]] || dfatal "lktest: LKTEST_BINDIR is not set or missing"
    for f in "$LKTEST_BINDIR"/lktest-*; do
        [[ -x $f ]] && inst_binary "$f" "/usr/bin/${f##*/}"
    done
    inst_script "$moddir/lktest-run.sh" /usr/bin/lktest-run
    # the scenarios' plans, where the runner reads them (its PLANS)
    [[ -f $moddir/plans/open.plan ]] || dfatal "lktest: no plans in $moddir/plans"
    mkdir -p "$initdir/usr/lib/lktest/plans"
    for f in "$moddir"/plans/*.plan; do
        inst_simple "$f" "/usr/lib/lktest/plans/${f##*/}"
    done

    # the selftests, and what kselftest's runner uses
    [[ -x $LKTEST_KSELFTEST/run_kselftest.sh ]] ||
        dfatal "lktest: LKTEST_KSELFTEST is not set or missing"
    inst_multiple realpath dirname basename timeout cut uniq sort
    (cd "$LKTEST_KSELFTEST" && find . -type f) | while read -r f; do
        inst_simple "$LKTEST_KSELFTEST/$f" "/usr/lib/kselftest/${f#./}"
    done
    # the status tool a user runs first when something was refused
    inst_binary "$LKTEST_BINDIR/lockdown-status" /usr/bin/lockdown-status

    if [[ $LKTEST_MODULES ]]; then
        mkdir -p "$initdir/usr/lib/lktest/modules"
        for f in "$LKTEST_MODULES"/*.ko; do
            [[ -f $f ]] && inst_simple "$f" "/usr/lib/lktest/modules/${f##*/}"
        done
    fi

    if [[ $LKTEST_KEYS ]]; then
        mkdir -p "$initdir/usr/lib/lktest/keys"
        for f in "$LKTEST_KEYS"/*.der "$LKTEST_KEYS"/*.esl; do
            [[ -f $f ]] && inst_simple "$f" "/usr/lib/lktest/keys/${f##*/}"
        done
    fi

    if [[ $LKTEST_POLICIES ]]; then
        mkdir -p "$initdir/usr/lib/lktest/policies"
        for f in "$LKTEST_POLICIES"/*.policy "$LKTEST_POLICIES"/*.sha256; do
            [[ -f $f ]] && inst_simple "$f" "/usr/lib/lktest/policies/${f##*/}"
        done
    fi

    # No root file system follows: run from the cmdline hook, before the
    # base module stops with "No or empty root=", and power off there.
    inst_hook cmdline 99 "$moddir/lktest-hook.sh"
}
