/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Userspace shim: the types <linux/efi.h> gives the signature list parser,
 * with the kernel's layout (efi_guid_t is 16 bytes, byte aligned).
 */
#ifndef FUZZ_SHIM_LINUX_EFI_H
#define FUZZ_SHIM_LINUX_EFI_H

#include <linux/module.h>

typedef struct {
	u8 b[16];
} efi_guid_t;

typedef struct {
	efi_guid_t signature_owner;
	u8 signature_data[];
} efi_signature_data_t;

typedef struct {
	efi_guid_t signature_type;
	u32 signature_list_size;
	u32 signature_header_size;
	u32 signature_size;
	u8 signature_header[];
} efi_signature_list_t;

typedef void (*efi_element_handler_t)(const char *source,
				      const void *element_data,
				      size_t element_size);

int parse_efi_signature_list(const char *source, const void *data,
			     size_t size,
			     efi_element_handler_t (*get_handler_for_guid)(const efi_guid_t *));

_Static_assert(sizeof(efi_signature_list_t) == 28, "list header layout");
_Static_assert(sizeof(efi_signature_data_t) == 16, "signature layout");

#endif
