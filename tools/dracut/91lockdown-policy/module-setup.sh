#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# dracut module: load the machine owner's signed lockdown policy at every
# boot, from the initramfs, before the root file system's services start.
#
# The policy is the file the owner signed (kernel_lockdown(7), "The owner
# policy"), installed as /etc/lockdown/owner.policy; another path can be
# set in dracut.conf (lockdown_policy=PATH).  The module is included
# whenever that file exists, so "dracut -f" after replacing it is all an
# update takes.  The kernel checks everything: the initramfs is not signed
# and need not be.

# shellcheck disable=SC2154 # moddir, initdir and lockdown_policy from dracut

lockdown_policy_file() {
    echo "${lockdown_policy:-/etc/lockdown/owner.policy}"
}

# called by dracut
check() {
    [[ -f $(lockdown_policy_file) ]] || return 255
    return 0
}

# called by dracut
depends() {
    return 0
}

# called by dracut
installkernel() {
    # the TPM keeps the policy's serial: its drivers, where they are modules
    hostonly='' instmods tpm_crb tpm_tis
}

# called by dracut
install() {
    local f

    f=$(lockdown_policy_file)
    [[ -f $f ]] || dfatal "lockdown-policy: no $f"
    inst_simple "$f" /etc/lockdown/owner.policy
    inst_multiple cat modprobe
    inst_hook cmdline 05 "$moddir/lockdown-policy.sh"
}
