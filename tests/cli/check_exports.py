#!/usr/bin/env python3
"""check_exports.py — recompute `rope-lab export` output with an independent implementation.

Usage: check_exports.py PATH/TO/rope-lab

Runs the real binary for several datasets and parameters, parses its CSV with the csv module,
and recomputes every value here, straight from the formulas (standard library only):

  theta_i      = base^(-2i/d), i = 0 ... d/2-1;   wavelength_i = 2 pi / theta_i
  PE[pos][2i]  = sin(pos theta_i),  PE[pos][2i+1] = cos(pos theta_i)
  D(r)         = (1/(d/2)) sum_{j=1}^{d/2} | sum_{i=0}^{j-1} e^{i r theta_i} |
  R_m x        : block i = (x[2i], x[2i+1]) (interleaved) or (x[i], x[i+d/2]) (half), rotated
                 counter-clockwise by m theta_i
  score(m, n)  = (R_m q) . (R_n k)
  extrapolation  PI Fig. 2: targets t_s ~ N(0, 1) for s = 0 ... L-1 from SplitMix64(seed)
                 (Box-Muller: sqrt(-2 ln(1 - u1)) cos(2 pi u2)); c solves the normal equations
                 of the basis sin(s theta_j), cos(s theta_j) (small, well-conditioned cases, where
                 the app's rank-revealing QR keeps every column); a(s) on [0, L), [0, 2L) and
                 s = 25, 25.125, ... < 75. Agreement 1e-9 relative (normal equations square the
                 condition number).
  b-over-d     B(s)/d = D(s)/2 with D as above

Agreement rule for every number a (exported) against b (recomputed here):
  |a - b| <= 1e-12 * max(1, |b|)
i.e. 1e-12 relative, with an absolute floor of 1e-12 for values near 0 (where a relative test is
meaningless: sin(pi) is 1.2e-16 in one implementation and -3e-16 in another). Index columns must
match exactly. Exit status 0 when everything agrees, 1 otherwise (every mismatch is printed).
"""

import cmath
import csv
import io
import math
import random
import crash_report  # tests/cli/crash_report.py: a crash is printed and kept
import sys

TOLERANCE = 1e-12

failures = []
checked = 0


def close(a, b):
    return abs(a - b) <= TOLERANCE * max(1.0, abs(b))


def run_export(exe, args):
    cmd = [exe, "export"] + args
    proc = crash_report.run(cmd, capture_output=True, text=True, check=False)
    if proc.returncode != 0:
        raise SystemExit(f"FAIL: {' '.join(cmd)} exited {proc.returncode}: {proc.stderr}")
    if proc.stderr:
        raise SystemExit(f"FAIL: {' '.join(cmd)} wrote to stderr: {proc.stderr}")
    rows = list(csv.reader(io.StringIO(proc.stdout)))
    return rows[0], [[float(x) for x in row] for row in rows[1:]]


def compare(label, header, rows, want_header, want_rows, index_columns):
    """want_rows: lists of floats; the first index_columns columns must match exactly."""
    global checked
    if header != want_header:
        failures.append(f"{label}: header {header}, expected {want_header}")
        return
    if len(rows) != len(want_rows):
        failures.append(f"{label}: {len(rows)} rows, expected {len(want_rows)}")
        return
    for r, (got, want) in enumerate(zip(rows, want_rows)):
        if len(got) != len(want):
            failures.append(f"{label}: row {r} has {len(got)} cells, expected {len(want)}")
            continue
        for c, (a, b) in enumerate(zip(got, want)):
            checked += 1
            ok = (a == b) if c < index_columns else close(a, b)
            if not ok:
                failures.append(f"{label}: row {r} column {header[c]}: got {a!r}, expected {b!r}")


def fmt_list(values):
    return ",".join(repr(v) for v in values)


# --- the formulas ------------------------------------------------------------------------------


def thetas(d, base):
    return [base ** (-2.0 * i / d) for i in range(d // 2)]


def sinusoidal_row(pos, d, base):
    row = []
    for th in thetas(d, base):
        row += [math.sin(pos * th), math.cos(pos * th)]
    return row


def decay_value(r, d, base):
    partial = 0j
    total = 0.0
    for th in thetas(d, base):  # S_j accumulates e^{i r theta_i} for i < j
        partial += cmath.exp(1j * r * th)
        total += abs(partial)
    return total / (d // 2)


def rotate(x, m, base, pairing):
    d = len(x)
    y = list(x)
    for i, th in enumerate(thetas(d, base)):
        a_idx, b_idx = (2 * i, 2 * i + 1) if pairing == "interleaved" else (i, i + d // 2)
        a, b = x[a_idx], x[b_idx]
        c, s = math.cos(m * th), math.sin(m * th)
        y[a_idx] = a * c - b * s
        y[b_idx] = a * s + b * c
    return y


MASK64 = (1 << 64) - 1


class SplitMix64:
    """Steele, Lea and Flood's generator, as rope/random.h states it."""

    def __init__(self, seed):
        self.state = seed & MASK64

    def next(self):
        self.state = (self.state + 0x9E3779B97F4A7C15) & MASK64
        z = self.state
        z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & MASK64
        z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & MASK64
        return z ^ (z >> 31)

    def uniform(self):
        return (self.next() >> 11) * 2.0 ** -53

    def normal(self):
        u1 = 1.0 - self.uniform()
        u2 = self.uniform()
        return math.sqrt(-2.0 * math.log(u1)) * math.cos(2.0 * math.pi * u2)


def solve(a, b):
    """Gaussian elimination with partial pivoting; a is n x n, b has n entries."""
    n = len(b)
    m = [row[:] + [b[i]] for i, row in enumerate(a)]
    for col in range(n):
        piv = max(range(col, n), key=lambda r: abs(m[r][col]))
        m[col], m[piv] = m[piv], m[col]
        for r in range(col + 1, n):
            f = m[r][col] / m[col][col]
            for c in range(col, n + 1):
                m[r][c] -= f * m[col][c]
    x = [0.0] * n
    for r in range(n - 1, -1, -1):
        x[r] = (m[r][n] - sum(m[r][c] * x[c] for c in range(r + 1, n))) / m[r][r]
    return x


def basis(s, ths):
    row = []
    for th in ths:
        row += [math.sin(s * th), math.cos(s * th)]
    return row


# --- the checks --------------------------------------------------------------------------------


def check_frequencies(exe, d, base):
    header, rows = run_export(exe, ["frequencies", "--dim", str(d), "--base", repr(base)])
    want = [[float(i), th, 2.0 * math.pi / th] for i, th in enumerate(thetas(d, base))]
    compare(f"frequencies d={d} base={base}", header, rows, ["i", "theta", "wavelength"], want, 1)


def check_sinusoidal(exe, n, d, base):
    args = ["sinusoidal", "--positions", str(n), "--dim", str(d)]
    if base is not None:
        args += ["--base", repr(base)]
    header, rows = run_export(exe, args)
    b = 10000.0 if base is None else base
    want = [[float(p)] + sinusoidal_row(p, d, b) for p in range(n)]
    want_header = ["pos"] + [f"d{j}" for j in range(d)]
    compare(f"sinusoidal N={n} d={d} base={base}", header, rows, want_header, want, 1)


def check_decay(exe, d, base, r_max):
    args = ["decay", "--dim", str(d), "--base", repr(base), "--max-distance", str(r_max)]
    header, rows = run_export(exe, args)
    want = [[float(r), decay_value(r, d, base)] for r in range(r_max + 1)]
    compare(f"decay d={d} base={base} R={r_max}", header, rows, ["distance", "value"], want, 1)
    # RoFormer's starting value: D(0) = (d/2 + 1) / 2.
    if rows and not close(rows[0][1], (d / 2 + 1) / 2):
        failures.append(f"decay d={d}: D(0) = {rows[0][1]!r}, expected {(d / 2 + 1) / 2}")


def check_rotate(exe, x, m, base, pairing):
    args = ["rotate", "--vector", fmt_list(x), "--position", repr(m), "--base", repr(base)]
    if pairing is not None:
        args += ["--pairing", pairing]
    header, rows = run_export(exe, args)
    y = rotate(x, m, base, pairing or "interleaved")
    want = [[float(i), v] for i, v in enumerate(y)]
    compare(f"rotate d={len(x)} m={m} pairing={pairing}", header, rows, ["index", "value"], want,
            1)
    # A rotation keeps the length.
    if rows:
        norm_out = math.sqrt(sum(r[1] ** 2 for r in rows))
        norm_in = math.sqrt(sum(v * v for v in x))
        if not close(norm_out, norm_in):
            failures.append(f"rotate d={len(x)} m={m}: |R x| = {norm_out}, |x| = {norm_in}")


def check_scores(exe, q, k, n, base, pairing):
    args = ["scores", "--query", fmt_list(q), "--key", fmt_list(k), "--positions", str(n),
            "--base", repr(base)]
    if pairing is not None:
        args += ["--pairing", pairing]
    header, rows = run_export(exe, args)
    p = pairing or "interleaved"
    rq = [rotate(q, m, base, p) for m in range(n)]
    rk = [rotate(k, j, base, p) for j in range(n)]
    want = [[float(m), float(j), sum(a * b for a, b in zip(rq[m], rk[j]))]
            for m in range(n) for j in range(n)]
    compare(f"scores d={len(q)} N={n} pairing={pairing}", header, rows, ["m", "n", "score"], want,
            2)


def check_extrapolation(exe, d, base, context, seed):
    header, rows = run_export(exe, ["extrapolation", "--dim", str(d), "--base", repr(base),
                                    "--original-context", str(context), "--seed", str(seed)])
    ths = thetas(d, base)
    rng = SplitMix64(seed)
    targets = [rng.normal() for _ in range(context)]
    a = [basis(float(t), ths) for t in range(context)]
    gram = [[sum(row[i] * row[j] for row in a) for j in range(d)] for i in range(d)]
    rhs = [sum(row[i] * t for row, t in zip(a, targets)) for i in range(d)]
    c = solve(gram, rhs)

    def fit(x):
        return sum(ci * bi for ci, bi in zip(c, basis(x, ths)))

    want = [[float(x), fit(x), 1.0] for x in range(context)]
    want += [[float(x), fit(x), 2.0] for x in range(2 * context)]
    lo = 25.0 if context >= 75 else math.floor(context / 4)
    hi = min(lo + 50.0, context)
    k = 0
    while lo + k * 0.125 < hi:
        x = lo + k * 0.125
        want.append([x, fit(x), 3.0])
        k += 1
    global TOLERANCE
    saved, TOLERANCE = TOLERANCE, 1e-9
    label = f"extrapolation d={d} base={base} L={context} seed={seed}"
    compare(label, header, rows, ["s", "value", "panel"], want, 0)
    TOLERANCE = saved
    # the fit is a least-squares fit: its residual is orthogonal to every basis function
    resid = [r[1] - t for r, t in zip(rows[:context], targets)]
    for j in range(d):
        dot = sum(row[j] * e for row, e in zip(a, resid))
        if abs(dot) > 1e-9 * context:
            failures.append(f"{label}: residual . basis {j} = {dot!r}")


def check_b_over_d(exe, d, base, max_s):
    header, rows = run_export(exe, ["b-over-d", "--dim", str(d), "--base", repr(base),
                                    "--max-s", str(max_s)])
    want = [[float(x), decay_value(x, d, base) / 2.0] for x in range(max_s + 1)]
    compare(f"b-over-d d={d} base={base} S={max_s}", header, rows, ["s", "b_over_d"], want, 1)
    # PI App. C.2: B(0)/d = (d/2 + 1)/4
    if rows and not close(rows[0][1], (d / 2 + 1) / 4):
        failures.append(f"b-over-d d={d}: B(0)/d = {rows[0][1]!r}, expected {(d / 2 + 1) / 4}")


def main():
    if len(sys.argv) != 2:
        raise SystemExit(__doc__)
    exe = sys.argv[1]
    rng = random.Random(20240611)

    def vec(d):
        return [rng.uniform(-2.0, 2.0) for _ in range(d)]

    for d, base in [(2, 10000.0), (8, 10000.0), (64, 10000.0), (128, 500000.0), (16, 1.5),
                    (4096, 10000.0)]:
        check_frequencies(exe, d, base)
    for n, d, base in [(1, 2, None), (50, 16, None), (20, 6, 100.0), (200, 128, 10000.0)]:
        check_sinusoidal(exe, n, d, base)
    for d, base, r_max in [(2, 10000.0, 10), (16, 1e6, 100), (128, 10000.0, 400),
                           (64, 500.0, 50), (1024, 10000.0, 1000)]:
        check_decay(exe, d, base, r_max)
    for d, m, base, pairing in [(2, 1.0, 10000.0, None), (8, 7.0, 10000.0, "interleaved"),
                                (8, 7.0, 10000.0, "half"), (64, 1000.0, 10000.0, "half"),
                                (16, -3.5, 100.0, None), (6, 0.25, 2.0, "interleaved"),
                                (8, 123456.75, 10000.0, "half")]:
        check_rotate(exe, vec(d), m, base, pairing)
    for d, n, base, pairing in [(2, 5, 10000.0, None), (8, 12, 10000.0, "interleaved"),
                                (8, 12, 10000.0, "half"), (32, 40, 100.0, "half"),
                                (64, 16, 10000.0, None), (16, 200, 10000.0, "half")]:
        check_scores(exe, vec(d), vec(d), n, base, pairing)
    for d, base, context, seed in [(4, 10.0, 100, 1), (6, 10.0, 200, 7), (2, 3.0, 9, 12345)]:
        check_extrapolation(exe, d, base, context, seed)
    for d, base, max_s in [(2, 10000.0, 10), (128, 10000.0, 300), (16, 500000.0, 50)]:
        check_b_over_d(exe, d, base, max_s)

    if failures:
        for f in failures[:50]:
            print("FAIL:", f)
        print(f"{len(failures)} mismatch(es) in {checked} values")
        return 1
    print(f"ok: {checked} values agree to |a-b| <= {TOLERANCE} * max(1, |b|)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
