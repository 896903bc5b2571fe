#!/usr/bin/env python3
"""Checks `rope-lab export code` against an independent stdlib-Python computation.

The script implements the two code conventions its own way: Meta's form with Python's complex
numbers over pairs (x[2i], x[2i+1]), and the rotate_half form over pairs (x[i], x[i+d/2]) after
the checkpoint row permutation written as transformers' view/transpose/reshape of the row
indices. It then compares every column of the export (17 significant digits) and requires:
the rotated vectors to agree within 1e-12 absolute, the score with P to equal Meta's to 1e-12
relative, and the score without P to differ (for the cases chosen here: d > 2, m != n, random
q and k). Usage: check_code_export.py ROPE_LAB_BINARY
"""
import cmath
import csv
import io
import math
import random
import crash_report  # tests/cli/crash_report.py: a crash is printed and kept
import sys


def run_export(binary, q, k, m, n, base):
    args = [binary, "export", "code", "--query", ",".join(repr(v) for v in q), "--key",
            ",".join(repr(v) for v in k), "--position", repr(m), "--key-position", repr(n),
            "--base", repr(base)]
    out = crash_report.run(args, check=True, capture_output=True, text=True).stdout
    rows = list(csv.DictReader(io.StringIO(out)))
    return rows, out


def meta_rotate(x, m, base):
    d = len(x)
    y = []
    for i in range(d // 2):
        theta = base ** (-2.0 * i / d)
        z = complex(x[2 * i], x[2 * i + 1]) * cmath.exp(1j * m * theta)
        y += [z.real, z.imag]
    return y


def checkpoint_rows(head_dim):
    # rows reshaped to (head_dim/2, 2), transposed to (2, head_dim/2), flattened
    grid = [[2 * i + j for j in range(2)] for i in range(head_dim // 2)]
    return [grid[i][j] for j in range(2) for i in range(head_dim // 2)]


def half_rotate(x, m, base):
    d = len(x)
    h = d // 2
    ang = [m * base ** (-2.0 * (j % h) / d) for j in range(d)]
    rot = [-x[j + h] for j in range(h)] + [x[j] for j in range(h)]
    return [x[j] * math.cos(ang[j]) + rot[j] * math.sin(ang[j]) for j in range(d)]


def dot(a, b):
    return math.fsum(u * v for u, v in zip(a, b))


def main():
    binary = sys.argv[1]
    rng = random.Random(20261124)
    failures = 0
    cases = [([1.0, 2.0, 3.0, 4.0], [0.5, -1.0, 2.0, 0.25], 3.0, 7.0, 10000.0)]
    for _ in range(6):
        d = 2 * rng.randint(2, 40)
        q = [rng.gauss(0, 1) for _ in range(d)]
        k = [rng.gauss(0, 1) for _ in range(d)]
        m = rng.uniform(-500, 500)
        n = rng.uniform(-500, 500)
        cases.append((q, k, m, n, rng.choice([10000.0, 500000.0, 1e6])))
    for q, k, m, n, base in cases:
        rows, text = run_export(binary, q, k, m, n, base)
        d = len(q)
        perm = checkpoint_rows(d)
        pq = [q[p] for p in perm]
        pk = [k[p] for p in perm]
        want = {
            "perm": perm,
            "q": q,
            "k": k,
            "rq_interleaved": meta_rotate(q, m, base),
            "rk_interleaved": meta_rotate(k, n, base),
            "rq_half": half_rotate(pq, m, base),
            "rk_half": half_rotate(pk, n, base),
            "rq_half_without_p": half_rotate(q, m, base),
            "rk_half_without_p": half_rotate(k, n, base),
        }
        s_meta = dot(want["rq_interleaved"], want["rk_interleaved"])
        s_half = dot(want["rq_half"], want["rk_half"])
        s_nop = dot(want["rq_half_without_p"], want["rk_half_without_p"])
        if len(rows) != d:
            print(f"d = {d}: {len(rows)} rows")
            failures += 1
            continue
        # 17 significant digits: a value like 0.10000000000000001 reads back exactly
        line = text.splitlines()[1].split(",")
        for cell in line[2:]:
            if float(cell) != 0 and len(cell.lstrip("-").replace(".", "").split("e")[0]
                                        .lstrip("0")) > 17:
                print(f"d = {d}: more than 17 digits: {cell}")
                failures += 1
        for j, row in enumerate(rows):
            if int(row["index"]) != j:
                failures += 1
            for col, vec in want.items():
                got = float(row[col])
                if abs(got - vec[j]) > 1e-12 * max(1.0, abs(vec[j])):
                    print(f"d = {d}, m = {m}: {col}[{j}] = {got!r}, want {vec[j]!r}")
                    failures += 1
            for col, s in (("score_interleaved", s_meta), ("score_half", s_half),
                           ("score_half_without_p", s_nop)):
                got = float(row[col])
                if abs(got - s) > 1e-11 * max(1.0, abs(s)):
                    print(f"d = {d}: {col} = {got!r}, want {s!r}")
                    failures += 1
        scale = math.sqrt(dot(q, q) * dot(k, k))
        if abs(s_half - s_meta) > 1e-12 * max(abs(s_meta), scale):
            print(f"d = {d}: with P {s_half!r} != {s_meta!r}")
            failures += 1
        if abs(s_nop - s_meta) < 1e-6 * scale:
            print(f"d = {d}: without P the score {s_nop!r} should differ from {s_meta!r}")
            failures += 1
        exported = float(rows[0]["score_half"])
        print(f"d = {d:3d}, m = {m:9.3f}, n = {n:9.3f}: score {exported!r} (Python {s_meta!r}),"
              f" without P {float(rows[0]['score_half_without_p'])!r}")
    # the hand case: d = 4, P = [0, 2, 1, 3]
    if checkpoint_rows(4) != [0, 2, 1, 3]:
        failures += 1
    print("failures:", failures)
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
