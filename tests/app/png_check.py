#!/usr/bin/env python3
"""png_check.py — checks an RGBA PNG that rope-lab wrote (F12, screenshot): its size, its
colours and pixels at given places. Standard library only (zlib, struct).

Usage: png_check.py FILE [--size WxH] [--min-colours N] [--pixel X Y R G B TOL]...
                         [--colour R G B TOL N]... [--at-most R G B TOL N]...
  --size WxH            the picture is W x H pixels
  --min-colours N       more than N distinct colours among pixels sampled every 32 px across and
                        every 8 rows down (a drawn frame, not a blank one)
  --pixel X Y R G B TOL the pixel at (X, Y) is within TOL of (R, G, B) in every channel
  --colour R G B TOL N  at least N pixels of the picture are within TOL of (R, G, B)
  --at-most R G B TOL N at most N pixels of the picture are within TOL of (R, G, B)
Exits 1 with one line per failed check.
"""

import struct
import sys
import zlib


def read_png(path):
    """(width, height, rows): rows of RGBA bytes, filters undone."""
    data = open(path, "rb").read()
    if data[:8] != b"\x89PNG\r\n\x1a\n":
        raise SystemExit(f"{path}: not a PNG")
    pos, idat, width, height = 8, b"", 0, 0
    while pos < len(data):
        length, kind = struct.unpack(">I4s", data[pos:pos + 8])
        body = data[pos + 8:pos + 8 + length]
        if kind == b"IHDR":
            width, height, depth, colour = struct.unpack(">IIBB", body[:10])
            if (depth, colour) != (8, 6):
                raise SystemExit(f"{path}: expected 8-bit RGBA, got depth {depth} type {colour}")
        elif kind == b"IDAT":
            idat += body
        pos += 12 + length
    raw = zlib.decompress(idat)
    stride = width * 4
    rows, prev = [], bytearray(stride)
    for y in range(height):
        f = raw[y * (stride + 1)]
        line = bytearray(raw[y * (stride + 1) + 1:(y + 1) * (stride + 1)])
        if f == 0:  # no filter (what rope-lab writes): the bytes are the pixels
            rows.append(bytes(line))
            prev = line
            continue
        for i in range(stride):
            a = line[i - 4] if i >= 4 else 0
            b = prev[i]
            c = prev[i - 4] if i >= 4 else 0
            if f == 1:
                line[i] = (line[i] + a) & 255
            elif f == 2:
                line[i] = (line[i] + b) & 255
            elif f == 3:
                line[i] = (line[i] + (a + b) // 2) & 255
            elif f == 4:
                p = a + b - c
                pa, pb, pc = abs(p - a), abs(p - b), abs(p - c)
                line[i] = (line[i] + (a if pa <= pb and pa <= pc else b if pb <= pc else c)) & 255
        rows.append(bytes(line))
        prev = line
    return width, height, rows


def main(argv):
    path, args = argv[1], argv[2:]
    width, height, rows = read_png(path)
    problems = []
    i = 0
    while i < len(args):
        if args[i] == "--size":
            want = args[i + 1]
            if f"{width}x{height}" != want:
                problems.append(f"size {width}x{height}, expected {want}")
            i += 2
        elif args[i] == "--min-colours":
            n = int(args[i + 1])
            colours = {row[x:x + 3] for row in rows[::8] for x in range(0, width * 4, 32 * 4)}
            if len(colours) <= n:
                problems.append(f"{len(colours)} sampled colours, expected more than {n}")
            i += 2
        elif args[i] == "--pixel":
            x, y, r, g, b, tol = (int(v) for v in args[i + 1:i + 7])
            got = tuple(rows[y][4 * x:4 * x + 3])
            if any(abs(got[k] - (r, g, b)[k]) > tol for k in range(3)):
                problems.append(f"pixel ({x}, {y}) is {got}, expected ({r}, {g}, {b}) +- {tol}")
            i += 7
        elif args[i] in ("--colour", "--at-most"):
            r, g, b, tol, n = (int(v) for v in args[i + 1:i + 6])
            count = sum(1 for row in rows for x in range(0, width * 4, 4)
                        if abs(row[x] - r) <= tol and abs(row[x + 1] - g) <= tol
                        and abs(row[x + 2] - b) <= tol)
            if args[i] == "--colour" and count < n:
                problems.append(f"{count} pixels near ({r}, {g}, {b}) +- {tol}, expected {n} or more")
            if args[i] == "--at-most" and count > n:
                problems.append(f"{count} pixels near ({r}, {g}, {b}) +- {tol}, expected {n} at most")
            i += 6
        else:
            raise SystemExit(f"unknown argument {args[i]}")
    for p in problems:
        print(f"{path}: {p}")
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
