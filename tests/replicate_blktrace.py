#!/usr/bin/env python3
"""Replicate a v7 blktrace per-CPU file N times, each copy shifted in time
past the previous one and with sequence numbers continued, so that the
result is a valid, larger trace (for benchmarks).

    replicate_blktrace.py IN OUT COPIES
"""
import struct
import sys

HDR = struct.Struct("<IIQQIIIIIHH")


def main():
    src, dst, copies = sys.argv[1], sys.argv[2], int(sys.argv[3])
    data = open(src, "rb").read()
    recs, off, tmax, tmin = [], 0, 0, None
    while off < len(data):
        f = list(HDR.unpack_from(data, off))
        pdu = data[off + 48: off + 48 + f[10]]
        recs.append((f, pdu))
        tmin = f[2] if tmin is None else min(tmin, f[2])
        tmax = max(tmax, f[2])
        off += 48 + f[10]
    span = tmax - tmin + 1000000
    seq = 0
    with open(dst, "wb") as out:
        for k in range(copies):
            for f, pdu in recs:
                g = list(f)
                g[2] = f[2] + k * span
                if g[1]:
                    seq += 1
                    g[1] = seq
                out.write(HDR.pack(*g))
                out.write(pdu)


if __name__ == "__main__":
    main()
