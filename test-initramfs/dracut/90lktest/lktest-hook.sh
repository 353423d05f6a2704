#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# cmdline hook, sourced by dracut's init: run the harness, then power off.
# The verdict travels on the serial ports; the host waits for QEMU to exit.
/usr/bin/lktest-run
/usr/bin/lktest-poweroff
