#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# cmdline hook, sourced by dracut's init: write the owner's policy to the
# kernel in one write.  The kernel decides; a refusal is its log line
# "lockdown: policy refused: REASON", and the boot goes on without the
# policy.  Sourced: no exit.

if [ -f /etc/lockdown/owner.policy ]; then
    [ -e /sys/kernel/security/lockdown ] ||
        mount -t securityfs securityfs /sys/kernel/security
    modprobe -q tpm_crb 2>/dev/null
    modprobe -q tpm_tis 2>/dev/null
    if cat /etc/lockdown/owner.policy >/sys/kernel/security/lockdown_policy 2>/tmp/lockdown-policy.err; then
        info "lockdown-policy: /etc/lockdown/owner.policy loaded"
    else
        warn "lockdown-policy: /etc/lockdown/owner.policy not loaded: $(cat /tmp/lockdown-policy.err)"
    fi
    rm -f /tmp/lockdown-policy.err
fi
