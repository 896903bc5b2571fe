#!/usr/bin/env python3
"""check_partial.py — both meanings of a rotary fraction against an independent implementation.

Usage: check_partial.py PATH/TO/partial_csv [--seed N] [--runs N]
       check_partial.py --error-prefix "rope-lab: error: --rotary-fraction: " \
                        PATH/TO/rope-lab export frequencies

partial_csv takes the flags of the future `rope-lab export frequencies`
(--dim D --base B --rotary-fraction P --rotary-style neox|proportional) and prints
"i,theta,wavelength". This script recomputes every row from the definitions (standard library):

  neox          rotary_dim = int(D * P)  (Python truncation of the double product, as GPT-NeoX
                and transformers); must be even and >= 2, otherwise the driver must fail;
                theta_i = B^(-2i/rotary_dim) for i < rotary_dim/2, 0 for the other pairs
  proportional  pairs = int(D * P) // 2 = floor(P * D / 2); must be >= 1;
                theta_i = B^(-2i/D) for i < pairs, 0 for the others
  wavelength    2 pi / theta, "inf" when theta = 0

Agreement: |a - b| <= 1e-12 * |b| (relative; theta and wavelength are positive or exactly
0 / inf, which must match exactly). The fixed cases from the presets run first, then random
parameters from a seed printed at the start (pass --seed to repeat a run). Invalid parameters
must give exit status 2, one "partial_csv: error: rotary_fraction: ..." line and no stdout.
Exit status 0 when everything agrees, 1 otherwise (every mismatch is printed).
"""

import argparse
import csv
import io
import math
import random
import crash_report  # tests/cli/crash_report.py: a crash is printed and kept
import sys
import time

TOLERANCE = 1e-12

failures = []
checked = 0


def expected(dim, base, fraction, style):
    """The expected thetas (dim/2 floats), or None when the parameters must be rejected."""
    rotary_dim = int(dim * fraction)
    if style == "neox":
        if rotary_dim < 2 or rotary_dim % 2:
            return None
        pairs, exponent_dim = rotary_dim // 2, rotary_dim
    else:
        pairs, exponent_dim = rotary_dim // 2, dim
        if pairs < 1:
            return None
    return [base ** (-2.0 * i / exponent_dim) if i < pairs else 0.0 for i in range(dim // 2)]


def close(a, b):
    if b == 0.0 or math.isinf(b):
        return a == b
    return abs(a - b) <= TOLERANCE * abs(b)


ERROR_PREFIX = "partial_csv: error: rotary_fraction: "


def check(exe, dim, base, fraction, style):
    global checked
    label = f"--dim {dim} --base {base!r} --rotary-fraction {fraction!r} --rotary-style {style}"
    cmd = [*exe, "--dim", str(dim), "--base", repr(base), "--rotary-fraction", repr(fraction),
           "--rotary-style", style]
    proc = crash_report.run(cmd, capture_output=True, text=True, check=False)
    want = expected(dim, base, fraction, style)
    if want is None:
        ok = (proc.returncode == 2 and not proc.stdout and
              proc.stderr.startswith(ERROR_PREFIX) and
              proc.stderr.count("\n") == 1)
        if not ok:
            failures.append(f"{label}: expected a rotary_fraction error, got exit "
                            f"{proc.returncode}, stderr {proc.stderr!r}")
        checked += 1
        return
    if proc.returncode != 0 or proc.stderr:
        failures.append(f"{label}: exit {proc.returncode}, stderr {proc.stderr!r}")
        return
    rows = list(csv.reader(io.StringIO(proc.stdout)))
    if rows[0] != ["i", "theta", "wavelength"]:
        failures.append(f"{label}: header {rows[0]}")
        return
    if len(rows) - 1 != len(want):
        failures.append(f"{label}: {len(rows) - 1} rows, expected {len(want)}")
        return
    for i, (row, theta) in enumerate(zip(rows[1:], want)):
        wavelength = 2.0 * math.pi / theta if theta else math.inf
        got = [int(row[0]), float(row[1]), float(row[2])]
        if got[0] != i or not close(got[1], theta) or not close(got[2], wavelength):
            failures.append(f"{label}: row {i} is {row}, expected {i},{theta!r},{wavelength!r}")
        if theta == 0.0 and row[2] != "inf":
            failures.append(f"{label}: row {i} wavelength is {row[2]!r}, expected 'inf'")
        checked += 1


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("exe", nargs="+", help="the program and its first words")
    parser.add_argument("--error-prefix", default=ERROR_PREFIX,
                        help="how the program's one error line for a bad fraction starts")
    parser.add_argument("--seed", type=int, default=None)
    parser.add_argument("--runs", type=int, default=60)
    args = parser.parse_args()
    globals()["ERROR_PREFIX"] = args.error_prefix
    seed = args.seed if args.seed is not None else time.time_ns() % 2**32
    print(f"check_partial.py: seed {seed} (repeat with --seed {seed})")
    rng = random.Random(seed)

    # The presets and the note's example, then cases at the edges.
    fixed = [(128, 10000.0, 0.25), (96, 10000.0, 0.25), (80, 10000.0, 0.4), (128, 10000.0, 1.0),
             (100, 10000.0, 0.29), (128, 10000.0, 0.2), (128, 10000.0, 0.01), (2, 2.0, 1.0),
             (4096, 500000.0, 0.5)]
    for dim, base, fraction in fixed:
        for style in ("neox", "proportional"):
            check(args.exe, dim, base, fraction, style)
    # Hand values: 25 % of a 128-dim head, slowest kept wavelength.
    for style, pair, value in (("neox", 15, 2 * math.pi * 10 ** 3.75),
                               ("proportional", 15, 2 * math.pi * 10 ** 0.9375)):
        theta = expected(128, 10000.0, 0.25, style)[pair]
        if not close(2 * math.pi / theta, value):
            failures.append(f"{style}: independent slowest wavelength {2 * math.pi / theta}")

    for _ in range(args.runs):
        dim = 2 * rng.randint(1, 2048)
        base = math.exp(rng.uniform(math.log(1.5), math.log(1e7)))
        fraction = rng.choice([rng.uniform(0.0, 1.0), rng.randint(1, 20) / 20, 1.0])
        if fraction == 0.0:
            fraction = 1.0
        check(args.exe, dim, base, fraction, rng.choice(["neox", "proportional"]))

    for f in failures:
        print("FAIL:", f)
    print(f"check_partial.py: {checked} values checked, {len(failures)} mismatches")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
