#!/bin/bash
# Install the Debian packages the project needs, only those missing.
# Run as root (CI runs as root); a no-op when everything is present.
set -euo pipefail

PKGS=(
	"linux-source-${KVER:-6.1}" gcc make flex bison bc libelf-dev libssl-dev cpio
	kmod dracut qemu-system-x86 ovmf sbsigntool efitools mtools dosfstools
	ccache msr-tools lm-sensors pciutils libcap2-bin libcap-dev mokutil systemd-boot-efi
	python3 xz-utils openssl busybox-static clang-14 libclang-rt-14-dev file rsync
	python3-docutils python3-ply python3-git groff-base man-db
	shim-unsigned expect kexec-tools swtpm swtpm-tools tpm2-tools
	sparse "linux-config-${KVER:-6.1}"
)

missing=()
for p in "${PKGS[@]}"; do
	dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q 'ok installed' ||
		missing+=("$p")
done
[ ${#missing[@]} -eq 0 ] && exit 0

echo "install-deps: installing: ${missing[*]}"
if [ "$(id -u)" -ne 0 ]; then
	echo "install-deps: need root to install packages" >&2
	exit 1
fi
export DEBIAN_FRONTEND=noninteractive
# kexec-tools is only copied into the test initramfs: never let it load a
# kernel into this machine's own at reboot.
echo 'kexec-tools kexec-tools/load_kexec boolean false' | debconf-set-selections
apt-get update -qq
apt-get install -y -qq --no-install-recommends "${missing[@]}"
