#!/usr/bin/env python3
"""check_scaled_exports.py — decay, rotate and scores exports with a context extension, against
an independent implementation.

Usage: check_scaled_exports.py [--seed N] PATH/TO/rope-lab

The app's decay, pointers and heatmap views compute with theta'_i and the attention factor a
when a scaling is on, and their data exports must give the numbers they show:

  rope-lab export decay  --dim D --base B --max-distance R --scaling M ...
      distance,value,value_scaled       D(r) at theta and at theta'
  rope-lab export rotate --vector X --position M --base B [--pairing P] --scaling M ...
      index,value,value_scaled,attention_factor    R_m x at theta and at theta', and a
  rope-lab export scores --query Q --key K --positions N --base B [--pairing P] --scaling M ...
      m,n,score,score_scaled            (R_m q).(R_n k) and a^2 (R'_m q).(R'_n k)
  rope-lab export rotate ... --rotary-fraction P --rotary-style neox|proportional (no scaling)
      index,value                       the pairs past the fraction are not rotated

theta' and a come from check_scaling.py's reference (written from the project's notes on
context extension, not from the C++ code); check_partial.py's gives the partial thetas. The rest
is written here from the definitions, standard library only:

  D(r) = (1/(d/2)) sum_{j=1}^{d/2} | sum_{i<j} exp(1j r theta_i) |          (RoFormer 3.4.3)
  block i: (x_2i, x_2i+1) interleaved, (x_i, x_i+d/2) half; rotated by the angle m theta_i
  p-RoPE (--scaling proportional): value is R_m x at the whole head's theta

Agreement: |a - b| <= 1e-12 max(1, |b|). Parameter sets are drawn at random on every run; the
seed is printed first, and --seed N reruns the same sets.
"""

import cmath
import csv
import io
import math
import os
import random
import crash_report  # tests/cli/crash_report.py: a crash is printed and kept
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import check_partial  # noqa: E402
import check_scaling  # noqa: E402

TOLERANCE = 1e-12
RUNS_PER_METHOD = 6
MAX_DIM = 256  # keeps the Python side quick: D(r) is O(R d) and scores O(N^2 d) here

failures = []
numbers_checked = 0


def close(a, b):
    return abs(a - b) <= TOLERANCE * max(1.0, abs(b))


def decay(thetas, r_max):
    half = len(thetas)
    out = []
    for r in range(r_max + 1):
        partial, total = 0j, 0.0
        for t in thetas:
            partial += cmath.exp(1j * r * t)
            total += abs(partial)
        out.append(total / half)
    return out


def rotate(x, m, thetas, pairing):
    d = len(x)
    y = list(x)
    for i, t in enumerate(thetas):
        a, b = (2 * i, 2 * i + 1) if pairing == "interleaved" else (i, i + d // 2)
        c, s = math.cos(m * t), math.sin(m * t)
        y[a] = c * x[a] - s * x[b]
        y[b] = s * x[a] + c * x[b]
    return y


def dot(u, v):
    return math.fsum(p * q for p, q in zip(u, v))


def run(args, tmpdir, lists):
    args = list(args)
    for flag, values in (lists or {}).items():
        path = os.path.join(tmpdir, flag.strip("-") + ".txt")
        with open(path, "w") as f:
            f.write(",".join(repr(v) for v in values) + "\n")
        args += [flag, path]
    proc = crash_report.run(args, capture_output=True, text=True, check=False)
    return proc, " ".join(args)


def compare(label, proc, cmd, header, want):
    """want: one list of numbers per row, in header order."""
    global numbers_checked
    if proc.returncode != 0 or proc.stderr:
        failures.append(f"{label}: exit {proc.returncode}, stderr {proc.stderr.strip()!r}\n  {cmd}")
        return
    rows = list(csv.reader(io.StringIO(proc.stdout)))
    if not rows or rows[0] != header:
        failures.append(f"{label}: header {rows[:1]}, expected {header}\n  {cmd}")
        return
    if len(rows) - 1 != len(want):
        failures.append(f"{label}: {len(rows) - 1} rows, expected {len(want)}\n  {cmd}")
        return
    for row, w in zip(rows[1:], want):
        for name, text, b in zip(header, row, w):
            numbers_checked += 1
            if not close(float(text), b):
                failures.append(f"{label}: {name} = {text} in row {row[:2]}, expected {b!r}\n"
                                f"  {cmd}")
                return


def random_vector(d):
    return [random.choice([random.uniform(-2.0, 2.0), float(random.randint(-3, 3))])
            for _ in range(d)]


def case(method):
    while True:
        d, b, cfg, given = check_scaling.random_case(method)
        if d <= MAX_DIM:
            return d, b, cfg, given


def scaling_flags(d, b, method, cfg, given):
    """check_scaling's flags without --dim and --base (each dataset takes its own)."""
    flags = check_scaling.flags_for(d, b, method, cfg, given)
    return flags[4:]


def lists_for(method, cfg):
    if method != "longrope":
        return None
    return {"--long-factor-file": cfg["long_factor"], "--short-factor-file": cfg["short_factor"]}


def check_method(rope, method, tmpdir):
    d, b, cfg, given = case(method)
    theta, scaled, a = check_scaling.reference(d, b, method, cfg)
    flags = scaling_flags(d, b, method, cfg, given)
    lists = lists_for(method, cfg)
    label = f"{method} d={d} b={b!r} {({k: cfg[k] for k in given})}"

    r_max = random.choice([1, 7, 40])
    proc, cmd = run([rope, "export", "decay", "--dim", str(d), "--base", repr(b),
                     "--max-distance", str(r_max)] + flags, tmpdir, lists)
    compare("decay " + label, proc, cmd, ["distance", "value", "value_scaled"],
            [[r, u, v] for r, (u, v) in enumerate(zip(decay(theta, r_max),
                                                      decay(scaled, r_max)))])

    pairing = random.choice(["interleaved", "half"])
    x = random_vector(d)
    m = random.choice([0.0, 1.0, 5.0, 123.0, random.uniform(-1000.0, 1000.0)])
    proc, cmd = run([rope, "export", "rotate", "--vector", ",".join(repr(v) for v in x),
                     "--position", repr(m), "--base", repr(b), "--pairing", pairing] + flags,
                    tmpdir, lists)
    plain = rotate(x, m, theta, pairing)
    turned = rotate(x, m, scaled, pairing)
    compare("rotate " + label, proc, cmd, ["index", "value", "value_scaled", "attention_factor"],
            [[i, plain[i], turned[i], a] for i in range(d)])

    n = random.choice([1, 3, 6])
    q, k = random_vector(d), random_vector(d)
    proc, cmd = run([rope, "export", "scores", "--query", ",".join(repr(v) for v in q),
                     "--key", ",".join(repr(v) for v in k), "--positions", str(n),
                     "--base", repr(b), "--pairing", pairing] + flags, tmpdir, lists)
    rq = [rotate(q, p, theta, pairing) for p in range(n)]
    rk = [rotate(k, p, theta, pairing) for p in range(n)]
    rq2 = [rotate(q, p, scaled, pairing) for p in range(n)]
    rk2 = [rotate(k, p, scaled, pairing) for p in range(n)]
    compare("scores " + label, proc, cmd, ["m", "n", "score", "score_scaled"],
            [[i, j, dot(rq[i], rk[j]), a * a * dot(rq2[i], rk2[j])]
             for i in range(n) for j in range(n)])


def check_partial_rotate(rope, tmpdir):
    """The pointers view's export with a partial rotation and no scaling."""
    for d, b, fraction, style in [(128, 10000.0, 0.25, "neox"), (80, 10000.0, 0.4, "neox"),
                                  (128, 10000.0, 0.25, "proportional"),
                                  (64, 500000.0, 0.5, "proportional")]:
        theta = check_partial.expected(d, b, fraction, style)
        x = random_vector(d)
        m = random.uniform(0.0, 5000.0)
        proc, cmd = run([rope, "export", "rotate", "--vector", ",".join(repr(v) for v in x),
                         "--position", repr(m), "--base", repr(b), "--rotary-fraction",
                         repr(fraction), "--rotary-style", style], tmpdir, None)
        y = rotate(x, m, theta, "interleaved")
        compare(f"rotate {style} {fraction} d={d}", proc, cmd, ["index", "value"],
                [[i, y[i]] for i in range(d)])


def main():
    args = sys.argv[1:]
    seed = None
    if len(args) >= 2 and args[0] == "--seed":
        seed = int(args[1])
        args = args[2:]
    if len(args) != 1:
        raise SystemExit(__doc__)
    rope = args[0]
    if seed is None:
        seed = int.from_bytes(os.urandom(4), "little")
    print(f"check_scaled_exports: seed {seed} (rerun: check_scaled_exports.py --seed {seed} "
          f"{rope})", flush=True)
    random.seed(seed)
    with tempfile.TemporaryDirectory() as tmpdir:
        for method in check_scaling.METHODS:
            for _ in range(RUNS_PER_METHOD):
                check_method(rope, method, tmpdir)
        check_partial_rotate(rope, tmpdir)
    for f in failures:
        print("FAIL:", f)
    print(f"check_scaled_exports: {RUNS_PER_METHOD * len(check_scaling.METHODS)} parameter "
          f"sets x 3 datasets, {numbers_checked} numbers; {len(failures)} failures (seed {seed})")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
