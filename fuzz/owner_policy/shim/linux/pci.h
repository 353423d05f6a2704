/* SPDX-License-Identifier: GPL-2.0 */
/* Userspace shim: the devfn encoding of <uapi/linux/pci.h>. */
#ifndef FUZZ_SHIM_LINUX_PCI_H
#define FUZZ_SHIM_LINUX_PCI_H

#define PCI_DEVFN(slot, func)	((((slot) & 0x1f) << 3) | ((func) & 0x07))
#define PCI_SLOT(devfn)		(((devfn) >> 3) & 0x1f)
#define PCI_FUNC(devfn)		((devfn) & 0x07)

#endif
