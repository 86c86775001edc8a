#!/usr/bin/env python3
"""btpatch.py - find and damage records of a blktrace file, for
tests/t0205-blktrace-framing.sh. Records are v7 little-endian unless
"v8" or "be" (big-endian) is among the trailing words.

    btpatch.py find FILE N [PDU] [ta=A] [at=BYTE] [v8] [be]  offset of
        the first issue (D) record with data, not notify or passthrough,
        whose pdu_len is PDU (0 unless given), the Nth record or a later
        one, at byte BYTE or after; with ta=A a record of __BLK_TA_* A
        instead (not notify, with data or not)
    btpatch.py pdu FILE OFF VALUE [v8] [be]  set the pdu_len of the
        record at OFF (in place)
    btpatch.py drop FILE OFF OUT [v8] [be]   FILE without the record at
        OFF, written to OUT
"""
import struct
import sys


def walk(d, hs, po, e):
    o = 0
    while o + hs <= len(d):
        p = struct.unpack_from(e + "H", d, o + po)[0]
        yield o, p
        o += hs + p


def main():
    cmd, path = sys.argv[1], sys.argv[2]
    words = sys.argv[3:]
    v8, e = "v8" in words, ">" if "be" in words else "<"
    hs, po = (64, 50) if v8 else (48, 46)
    nums = [int(w) for w in words if w.isdigit()]
    opt = dict(w.split("=") for w in words if "=" in w)
    ta, at = int(opt.get("ta", 7)), int(opt.get("at", 0))
    d = bytearray(open(path, "rb").read())
    if cmd == "find":
        n, want = nums[0], nums[1] if len(nums) > 1 else 0
        for i, (o, p) in enumerate(walk(d, hs, po, e)):
            a = struct.unpack_from(e + ("Q" if v8 else "I"), d, o + (32 if v8 else 28))[0]
            b = struct.unpack_from(e + "I", d, o + 24)[0]
            kind = not (a >> 16) & 1024 and a & 0xffff == ta and ("ta" in opt or (not (a >> 16) & 512 and b))
            if i >= n and o >= at and p == want and kind:
                print(o)
                return
        sys.exit("btpatch.py: no such record")
    elif cmd == "pdu":
        struct.pack_into(e + "H", d, nums[0] + po, nums[1])
        open(path, "wb").write(d)
    elif cmd == "drop":
        o = nums[0]
        p = struct.unpack_from(e + "H", d, o + po)[0]
        open(words[1], "wb").write(d[:o] + d[o + hs + p:])
    else:
        sys.exit("btpatch.py: unknown command " + cmd)


if __name__ == "__main__":
    main()
