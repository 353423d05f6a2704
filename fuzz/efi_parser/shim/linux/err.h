/* SPDX-License-Identifier: GPL-2.0 */
#ifndef FUZZ_SHIM_LINUX_ERR_H
#define FUZZ_SHIM_LINUX_ERR_H

#include <errno.h>

#endif
