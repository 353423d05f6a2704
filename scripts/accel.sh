#!/bin/bash
# Print "kvm" when /dev/kvm really runs a guest here, else "tcg".
# The probe boots the test kernel with no initramfs: it must reach
# "Linux version" on the console. The answer is cached per bzImage.
set -euo pipefail
. "$(dirname "$0")/lib.sh"

kernel=${1:-$OBJ/arch/x86/boot/bzImage}
cache=$BUILD/.accel
if [ -f "$cache" ] && [ "$(head -1 "$cache")" = "$(stat -c %Y "$kernel")" ]; then
	tail -1 "$cache"
	exit 0
fi
accel=tcg
if [ -w /dev/kvm ]; then
	log=$(mktemp)
	timeout 20 qemu-system-x86_64 -accel kvm -machine q35 -m 256 -display none \
		-monitor none -no-reboot -serial "file:$log" -kernel "$kernel" \
		-append "console=ttyS0 panic=-1" >/dev/null 2>&1 || true
	grep -q "Linux version" "$log" && accel=kvm
	rm -f "$log"
fi
printf '%s\n%s\n' "$(stat -c %Y "$kernel")" "$accel" >"$cache"
echo "$accel"
