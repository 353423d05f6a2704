#!/bin/bash
# Debian's own packaged kernel, for the hibernate scenario's hib_stock
# boot: the one linux-image-amd64 depends on today, taken from the archive
# with "apt-get download" and never installed.  Writes
#   $TOP/build/stock-debian/vmlinuz   its kernel
#   $BUILD/stock-debian.initrd         the project's initramfs, with a
#       second cpio archive appended: the virtio modules Debian builds as
#       modules, which a dracut cmdline hook loads before the harness
# and does nothing when the package and the initramfs are those of the
# last run.
set -euo pipefail
. "$(dirname "$0")/lib.sh"

dir=$TOP/build/stock-debian
initrd=$BUILD/stock-debian.initrd
mkdir -p "$dir"

pkg=$(apt-cache depends linux-image-amd64 | sed -n 's/^ *Depends: \(linux-image-[0-9].*\)$/\1/p' | head -n 1)
[ -n "$pkg" ] || die "apt-cache names no kernel that linux-image-amd64 depends on"
ver=$(apt-cache policy "$pkg" | sed -n 's/^ *Candidate: //p')
if [ "$(cat "$dir/package" 2>/dev/null)" != "$pkg $ver" ]; then
	rm -rf "$dir/x" "$dir"/*.deb
	(cd "$dir" && apt-get download -q "$pkg" >/dev/null 2>&1) ||
		die "apt-get download $pkg failed"
	kv=${pkg#linux-image-}
	# Only what the boot needs: the kernel and the virtio modules.
	dpkg-deb --fsys-tarfile "$dir"/"$pkg"_*.deb |
		tar -x -C "$dir" --one-top-level=x --wildcards "./boot/vmlinuz-$kv" \
			"./lib/modules/$kv/kernel/drivers/virtio/*" \
			"./lib/modules/$kv/kernel/drivers/block/virtio_blk.ko*"
	mv "$dir/x/boot/vmlinuz-$kv" "$dir/vmlinuz"
	# dracut's image links /lib to usr/lib: the archive adds to usr/lib
	# only, or the kernel would replace the link with a folder.
	mods=$dir/x/usr/lib/lktest-stock
	hook=$dir/x/usr/lib/dracut/hooks/cmdline
	mkdir -p "$mods" "$hook"
	find "$dir/x/lib/modules" -name '*.ko*' -exec cp {} "$mods/" \;
	cat >"$hook/10-lktest-stock.sh" <<-'EOF'
	# Debian's kernel builds virtio as modules: load them, in the order
	# of their dependencies, before the harness looks for its disks.
	for m in virtio_ring virtio virtio_pci_legacy_dev virtio_pci_modern_dev \
		virtio_pci virtio_blk; do
		insmod /usr/lib/lktest-stock/$m.ko
	done
	EOF
	(cd "$dir/x" && find usr | cpio -o -H newc --quiet) >"$dir/modules.cpio"
	rm -rf "$dir/x" "$dir"/*.deb
	echo "$pkg $ver" >"$dir/package"
fi
if [ "$initrd" -nt "$BUILD/initramfs.img" ] && [ "$initrd" -nt "$dir/modules.cpio" ]; then
	msg "up to date: $pkg $ver"
	exit 0
fi
cat "$BUILD/initramfs.img" "$dir/modules.cpio" >"$initrd"
msg "Debian's $pkg $ver: $dir/vmlinuz, $initrd"
