#!/usr/bin/python3
# SPDX-License-Identifier: GPL-2.0
"""Read and tamper with a hibernation image on a swap disk, as the host.

    hib-image.py show SWAP           what the swap header and map hold
    hib-image.py sealed SWAP TEXT    fail unless the image is sealed and
                                     TEXT appears nowhere on the disk
    hib-image.py plain SWAP          fail unless the image is not sealed
    hib-image.py flip SWAP           flip one byte of chunk 1's ciphertext
    hib-image.py swap SWAP           swap two chunks in the map
    hib-image.py truncate SWAP       end the map before the last chunk
    hib-image.py flags SWAP          clear the header's SF_CRC32_MODE
    hib-image.py stocksig SWAP       give a sealed image the signature
                                     of an image no one sealed
    hib-image.py edit SWAP OLD NEW   in an image no one sealed, NEW for
                                     OLD (as long) wherever the chunks
                                     hold it, and the CRC32 turned off

The layout is kernel/power/swap.c's with the seal of
kernel-tree-patches/*/0011: page 0 is the swap header (struct
swsusp_header, its last 20 bytes the two signatures), its "image" field
the first map page; a map page lists 511 page offsets and the next map
page; the first listed page is the image's first page (struct
swsusp_info), then come the compressed chunks, each a size_t length, the
compressed bytes and, when sealed, a 16-byte tag.
"""
import struct
import sys

PAGE = 4096
ENTRIES = PAGE // 8 - 1
TAG = 16
FLAGS = PAGE - 40 + 16      # struct swsusp_header's flags
SF_CRC32_MODE = 4           # kernel/power/power.h


def page(f, n):
    f.seek(n * PAGE)
    return f.read(PAGE)


def header(f):
    h = page(f, 0)
    hw_sig, crc32, image, flags = struct.unpack_from("<IIQI", h, PAGE - 40)
    return {"sig": h[PAGE - 10:].rstrip(b"\0"), "orig_sig": h[PAGE - 20:PAGE - 10],
            "image": image, "flags": flags, "crc32": crc32,
            "seal_magic": h[PAGE - 40 - 1024:PAGE - 40 - 1024 + 8]}


def data_pages(f, first):
    """The page offsets the map lists, in order."""
    out = []
    for m in map_pages(f, first):
        ent = struct.unpack_from("<%dQ" % ENTRIES, page(f, m))
        out += [e for e in ent if e]
    return out


def map_pages(f, first):
    """The map pages, in order."""
    out, m = [], first
    while m:
        out.append(m)
        m = struct.unpack_from("<Q", page(f, m), ENTRIES * 8)[0]
    return out


def write_map(f, first, pages):
    """List pages in the map pages from first on, in order; zero the rest."""
    for n, m in enumerate(map_pages(f, first)):
        part = pages[n * ENTRIES:(n + 1) * ENTRIES]
        f.seek(m * PAGE)
        f.write(struct.pack("<%dQ" % ENTRIES, *(part + [0] * (ENTRIES - len(part)))))


def chunks(f, pages, sealed):
    """(first index into pages, page count) of each chunk."""
    out, i = [], 1          # pages[0] is the image's first page
    while i < len(pages):
        length = struct.unpack_from("<Q", page(f, pages[i]))[0]
        n = -(-(8 + length + (TAG if sealed else 0)) // PAGE)
        out.append((i, n))
        i += n
    return out


def main():
    cmd, path = sys.argv[1], sys.argv[2]
    with open(path, "r+b") as f:
        h = header(f)
        sealed = h["sig"] == b"LDSUSPEND"
        if h["sig"] not in (b"LDSUSPEND", b"S1SUSPEND"):
            sys.exit("%s: no hibernation image (signature %r)" % (path, h["sig"]))
        pages = data_pages(f, h["image"])
        ch = chunks(f, pages, sealed)
        if cmd == "show":
            print("signature %s, seal %r, flags %#x, %d pages in %d chunks"
                  % (h["sig"].decode(), h["seal_magic"], h["flags"], len(pages), len(ch)))
        elif cmd == "sealed":
            text = sys.argv[3].encode()
            f.seek(0)
            disk = f.read()
            if not sealed or h["seal_magic"] != b"LDHIB\0\0\1":
                sys.exit("%s: the image is not sealed (%r, %r)" % (path, h["sig"], h["seal_magic"]))
            if text in disk:
                sys.exit("%s: '%s' is on the disk in the clear" % (path, sys.argv[3]))
            print("sealed, %d chunks, '%s' nowhere on the disk" % (len(ch), sys.argv[3]))
        elif cmd == "plain":
            if sealed:
                sys.exit("%s: the image is sealed" % path)
            print("an image not sealed (%s), %d chunks" % (h["sig"].decode(), len(ch)))
        elif cmd == "flip":
            start, _ = ch[1]
            off = pages[start] * PAGE + 8 + 100
            f.seek(off)
            b = f.read(1)
            f.seek(off)
            f.write(bytes([b[0] ^ 0x01]))
            print("flipped the byte at %#x, in chunk 1 of %d" % (off, len(ch)))
        elif cmd == "swap":
            # Two data chunks of the same size from the middle of the
            # image, where the loader's own bookkeeping (the page-frame
            # lists of the first chunks) cannot tell them apart.
            i = next(i for i in range(len(ch) // 2, len(ch) - 1)
                     if ch[i][1] == ch[i + 1][1])
            (a, na), (b, nb) = ch[i], ch[i + 1]
            pages[a:b + nb] = pages[b:b + nb] + pages[a:a + na]
            write_map(f, h["image"], pages)
            print("swapped chunks %d and %d (%d pages each) of %d" % (i, i + 1, na, len(ch)))
        elif cmd == "truncate":
            last, n = ch[-1]
            write_map(f, h["image"], pages[:last])
            print("the map ends before chunk %d of %d (%d of %d pages left)"
                  % (len(ch) - 1, len(ch), last, len(pages)))
        elif cmd == "flags":
            if not h["flags"] & SF_CRC32_MODE:
                sys.exit("%s: the image has no CRC32 (flags %#x)" % (path, h["flags"]))
            f.seek(FLAGS)
            f.write(struct.pack("<I", h["flags"] & ~SF_CRC32_MODE))
            print("header flags %#x, were %#x" % (h["flags"] & ~SF_CRC32_MODE, h["flags"]))
        elif cmd == "stocksig":
            if not sealed:
                sys.exit("%s: the image is not sealed" % path)
            f.seek(PAGE - 10)
            f.write(b"S1SUSPEND\0")
            print("signature S1SUSPEND on a sealed image of %d chunks" % len(ch))
        elif cmd == "edit":
            # What root does to an image no one sealed: the compressor
            # leaves text it has not seen before (random letters) whole,
            # and nothing but the CRC32, which the header turns off,
            # covers it.
            old, new = sys.argv[3].encode(), sys.argv[4].encode()
            if sealed or len(old) != len(new):
                sys.exit("%s: edit wants an image not sealed, OLD and NEW as long" % path)
            data = b"".join(page(f, p) for p in pages[1:])
            n = data.count(old)
            if not n:
                sys.exit("%s: '%s' is in no page of the image" % (path, sys.argv[3]))
            data = data.replace(old, new)
            for i, p in enumerate(pages[1:]):
                f.seek(p * PAGE)
                f.write(data[i * PAGE:(i + 1) * PAGE])
            f.seek(FLAGS)
            f.write(struct.pack("<I", h["flags"] & ~SF_CRC32_MODE))
            print("'%s' in %d places, now '%s'; header flags %#x, were %#x"
                  % (sys.argv[3], n, sys.argv[4], h["flags"] & ~SF_CRC32_MODE, h["flags"]))
        else:
            sys.exit("unknown command '%s'" % cmd)


if __name__ == "__main__":
    main()
