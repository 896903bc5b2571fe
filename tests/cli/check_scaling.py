#!/usr/bin/env python3
"""check_scaling.py — context-extension frequencies against an independent implementation.

Usage: check_scaling.py [--seed N] PROGRAM [WORD ...]
  e.g. check_scaling.py --seed 7 build/app/rope-lab export frequencies

PROGRAM, followed by the WORDs, takes the flags of `rope-lab export frequencies --scaling ...`:
  --dim D --base B --scaling METHOD --factor S --original-context L --beta-fast --beta-slow
  --truncate true|false --low-freq-factor --high-freq-factor --sequence-length
  --attention-factor --mscale --mscale-all-dim --rotary-fraction
  --long-factor-file F --short-factor-file F        (files: numbers by line or by comma)
and prints the CSV
  i,theta,wavelength,theta_scaled,wavelength_scaled,ratio,rotations_per_context,attention_factor

The formulas below are written from the project's notes on context extension (which describe
transformers' modeling_rope_utils.py), in transformers' order of operations, without reference
to the C++ code. Standard library only.

  theta_i   = 1 / b^(2i/d)                   wavelength = 2 pi / theta ("inf" for theta = 0)
  ratio     = theta'/theta                   rotations_per_context = L theta / (2 pi)
  linear    theta' = theta / s
  ntk       b' = b s^(d/(d-2))               theta' = 1 / b'^(2i/d)
  dynamic   l = max(sequence_length, L)      b' = b ((s l / L) - (s - 1))^(d/(d-2)); l = L: b
  yarn      c(n) = d ln(L / (n 2 pi)) / (2 ln b); low = c(beta_fast), high = c(beta_slow),
            floor/ceil if truncate; low = max(low, 0); high = min(high, d - 1); equal: high
            += 0.001; ramp_i = clamp((i - low)/(high - low), 0, 1); e = 1 - ramp;
            theta' = 1/(s b^(2i/d)) (1 - e) + theta e.  Attention factor: given, else
            mscale(s, mscale)/mscale(s, mscale_all_dim) if both set, else mscale(s, 1), with
            mscale(s, m) = 0.1 m ln s + 1 (1 for s <= 1).
  llama3    lambda < L/high: theta; lambda > L/low: theta/s; else smooth = (L/lambda - low) /
            (high - low), theta' = (1 - smooth) theta/s + smooth theta.
  longrope  ext = long_factor if sequence_length > L else short_factor; theta' = 1/(ext b^(2i/d));
            attention factor given, else 1 for s <= 1, else sqrt(1 + ln s / ln L).
  proportional  the first int(p d // 2) pairs theta/s, then 0.
  Attention factor 1 for every method but yarn and longrope.

Defaults when a flag is left out: factor 1, L 4096, beta 32/1, truncate true, low 1, high 4,
sequence length 0 (unset), attention factor 0 (derive), mscale 0, rotary fraction 1.

Agreement: |a - b| <= 1e-12 max(1, |b|) for every number; i and the row count exactly; inf only
where inf is expected. Parameter sets are drawn at random on every run; the seed is printed
first, and passing it as --seed N reruns the same sets. Bad input must exit 2 with one line on
stderr naming the flag and nothing on stdout.
"""

import csv
import io
import math
import os
import random
import crash_report  # tests/cli/crash_report.py: a crash is printed and kept
import sys
import tempfile

TOLERANCE = 1e-12
HEADER = ["i", "theta", "wavelength", "theta_scaled", "wavelength_scaled", "ratio",
          "rotations_per_context", "attention_factor"]
METHODS = ["none", "linear", "ntk", "dynamic", "yarn", "llama3", "longrope", "proportional"]
RUNS_PER_METHOD = 30

DEFAULTS = {"factor": 1.0, "original_context": 4096, "beta_fast": 32.0, "beta_slow": 1.0,
            "truncate": True, "low_freq_factor": 1.0, "high_freq_factor": 4.0,
            "sequence_length": 0, "attention_factor": 0.0, "mscale": 0.0, "mscale_all_dim": 0.0,
            "rotary_fraction": 1.0, "long_factor": None, "short_factor": None}

failures = []
numbers_checked = 0


# --- The reference -------------------------------------------------------------------------------

def inv_freq(d, b):
    return [1.0 / (b ** ((2 * i) / d)) for i in range(d // 2)]


def get_mscale(s, m=1.0):
    return 1.0 if s <= 1 else 0.1 * m * math.log(s) + 1.0


def reference(d, b, method, cfg):
    """(theta, theta_scaled, attention_factor) for one parameter set."""
    s = cfg["factor"]
    L = cfg["original_context"]
    theta = inv_freq(d, b)
    attention = 1.0
    if method == "none":
        scaled = list(theta)
    elif method == "linear":
        scaled = [t / s for t in theta]
    elif method == "ntk":
        scaled = inv_freq(d, b * s ** (d / (d - 2)))
    elif method == "dynamic":
        length = max(cfg["sequence_length"], L)
        if length == L:  # the model falls back to its original frequencies
            scaled = list(theta)
        else:
            scaled = inv_freq(d, b * ((s * length / L) - (s - 1)) ** (d / (d - 2)))
    elif method == "yarn":
        def correction_dim(rotations):
            return (d * math.log(L / (rotations * 2 * math.pi))) / (2 * math.log(b))
        low = correction_dim(cfg["beta_fast"])
        high = correction_dim(cfg["beta_slow"])
        if cfg["truncate"]:
            low, high = math.floor(low), math.ceil(high)
        low, high = max(low, 0), min(high, d - 1)
        if low == high:
            high += 0.001
        scaled = []
        for i in range(d // 2):
            ramp = min(max((i - low) / (high - low), 0.0), 1.0)
            extrapolation = 1 - ramp
            interpolated = 1.0 / (s * b ** ((2 * i) / d))
            scaled.append(interpolated * (1 - extrapolation) + theta[i] * extrapolation)
        if cfg["attention_factor"] > 0:
            attention = cfg["attention_factor"]
        elif cfg["mscale"] and cfg["mscale_all_dim"]:
            attention = get_mscale(s, cfg["mscale"]) / get_mscale(s, cfg["mscale_all_dim"])
        else:
            attention = get_mscale(s)
    elif method == "llama3":
        low_f, high_f = cfg["low_freq_factor"], cfg["high_freq_factor"]
        scaled = []
        for t in theta:
            wavelen = 2 * math.pi / t
            if wavelen < L / high_f:
                scaled.append(t)
            elif wavelen > L / low_f:
                scaled.append(t / s)
            else:
                smooth = (L / wavelen - low_f) / (high_f - low_f)
                scaled.append((1 - smooth) * t / s + smooth * t)
    elif method == "longrope":
        ext = cfg["long_factor"] if cfg["sequence_length"] > L else cfg["short_factor"]
        scaled = [1.0 / (ext[i] * b ** ((2 * i) / d)) for i in range(d // 2)]
        if cfg["attention_factor"] > 0:
            attention = cfg["attention_factor"]
        elif s <= 1:
            attention = 1.0
        else:
            attention = math.sqrt(1 + math.log(s) / math.log(L))
    elif method == "proportional":
        kept = int(cfg["rotary_fraction"] * d // 2)
        scaled = [t / s if i < kept else 0.0 for i, t in enumerate(theta)]
    else:
        raise ValueError(method)
    return theta, scaled, attention


def expected_rows(d, b, method, cfg):
    theta, scaled, attention = reference(d, b, method, cfg)
    L = cfg["original_context"]
    rows = []
    for i, (t, t2) in enumerate(zip(theta, scaled)):
        rows.append([i, t, 2 * math.pi / t, t2, 2 * math.pi / t2 if t2 > 0 else math.inf,
                     t2 / t, L * t / (2 * math.pi), attention])
    return rows


# --- Running the program -------------------------------------------------------------------------

class Run:
    def __init__(self, code, out, err, cmd):
        self.code, self.out, self.err, self.cmd = code, out, err, cmd


def run(program, args, tmpdir, lists=None):
    """program: the command's words (["rope-lab", "export", "frequencies"])."""
    """lists: {"--long-factor-file": [...], ...} written to files, by comma or by line."""
    args = list(args)
    for flag, values in (lists or {}).items():
        path = os.path.join(tmpdir, flag.strip("-") + ".txt")
        with open(path, "w") as f:
            if random.random() < 0.5:
                f.write(",".join(repr(v) for v in values) + "\n")
            else:
                f.write("\n".join(repr(v) for v in values) + "\n")
        args += [flag, path]
    cmd = list(program) + args
    proc = crash_report.run(cmd, capture_output=True, text=True, check=False)
    return Run(proc.returncode, proc.stdout, proc.stderr, " ".join(cmd))


def close(a, b):
    if math.isinf(b) or math.isinf(a):
        return a == b
    return abs(a - b) <= TOLERANCE * max(1.0, abs(b))


def compare(label, r, want):
    global numbers_checked
    if r.code != 0 or r.err:
        failures.append(f"{label}: exit {r.code}, stderr {r.err.strip()!r}\n  {r.cmd}")
        return
    rows = list(csv.reader(io.StringIO(r.out)))
    if not rows or rows[0] != HEADER:
        failures.append(f"{label}: header {rows[:1]}\n  {r.cmd}")
        return
    body = rows[1:]
    if len(body) != len(want):
        failures.append(f"{label}: {len(body)} rows, expected {len(want)}\n  {r.cmd}")
        return
    for row, w in zip(body, want):
        if len(row) != len(HEADER) or row[0] != str(w[0]):
            failures.append(f"{label}: row {row}, expected index {w[0]}\n  {r.cmd}")
            return
        for name, text, b in zip(HEADER[1:], row[1:], w[1:]):
            a = float(text)
            numbers_checked += 1
            if not close(a, b):
                failures.append(f"{label}: row {w[0]} {name} = {text}, expected {b!r}\n"
                                f"  {r.cmd}")
                return


def flags_for(d, b, method, cfg, given):
    """Command-line flags for the fields in `given` (the others stay at their defaults)."""
    args = ["--dim", str(d), "--base", repr(b), "--scaling", method]
    spelled = {"factor": "--factor", "original_context": "--original-context",
               "beta_fast": "--beta-fast", "beta_slow": "--beta-slow", "truncate": "--truncate",
               "low_freq_factor": "--low-freq-factor", "high_freq_factor": "--high-freq-factor",
               "sequence_length": "--sequence-length", "attention_factor": "--attention-factor",
               "mscale": "--mscale", "mscale_all_dim": "--mscale-all-dim",
               "rotary_fraction": "--rotary-fraction"}
    for key in given:
        if key in spelled:
            value = cfg[key]
            text = ("true" if value else "false") if key == "truncate" else (
                str(value) if isinstance(value, int) else repr(value))
            args += [spelled[key], text]
    return args


# --- Random parameter sets ------------------------------------------------------------------------

def log_uniform(lo, hi):
    return math.exp(random.uniform(math.log(lo), math.log(hi)))


def random_case(method):
    d = random.choice([2 * random.randint(1, 256), 2 * random.randint(1, 2048), 64, 96, 128])
    if method in ("ntk", "dynamic"):
        d = max(d, 4)
    b = random.choice([10000.0, 500000.0, 1e6, log_uniform(1.5, 1e7)])
    cfg = dict(DEFAULTS)
    given = []

    def give(key, value):
        cfg[key] = value
        given.append(key)

    if method != "none" or random.random() < 0.5:
        factor = random.choice([2.0, 4.0, 8.0, 32.0, 40.0, log_uniform(0.25, 100.0)])
        if method == "ntk":
            factor = max(factor, 1.0)  # s < 1 can push b' below 1 (an error case, checked apart)
        if method == "proportional" and random.random() < 0.5:
            factor = 1.0
        if random.random() < 0.9:
            give("factor", factor)
    if method in ("dynamic", "yarn", "llama3", "longrope") and random.random() < 0.9:
        low = 2 if method == "longrope" else 1
        give("original_context", random.choice(
            [2048, 4096, 8192, 32768, random.randint(low, 64), int(log_uniform(low, 1e7))]))
    L = cfg["original_context"]
    if method in ("dynamic", "longrope") and random.random() < 0.8:
        give("sequence_length", random.choice([L, L + 1, random.randint(1, 4 * L)]))
    if method == "yarn":
        if random.random() < 0.5:
            slow = random.choice([1.0, random.uniform(0.1, 4.0)])
            give("beta_slow", slow)
            give("beta_fast", random.choice([32.0, slow, slow + random.uniform(0.0, 64.0)]))
        if random.random() < 0.5:
            give("truncate", random.random() < 0.5)
        if random.random() < 0.3:
            give("mscale", random.choice([0.707, 1.0, random.uniform(0.0, 2.0)]))
            give("mscale_all_dim", random.choice([0.0, 1.0, random.uniform(0.0, 2.0)]))
    if method == "llama3" and random.random() < 0.7:
        low = random.uniform(0.25, 4.0)
        give("low_freq_factor", low)
        give("high_freq_factor", low + random.uniform(0.01, 8.0))
    if method in ("yarn", "longrope") and random.random() < 0.3:
        give("attention_factor", random.uniform(0.5, 2.0))
    if method == "longrope":
        cfg["short_factor"] = [random.uniform(0.8, 1.5) for _ in range(d // 2)]
        cfg["long_factor"] = [random.uniform(1.0, 64.0) for _ in range(d // 2)]
    if method == "proportional" and random.random() < 0.9:
        give("rotary_fraction", random.choice([0.0, 0.25, 0.5, 1.0, random.random()]))
    if random.random() < 0.1:  # flags another method reads must not change anything
        # (rotary_fraction is read by every method now: it is the partial rotary's fraction)
        other = "beta_fast" if method != "yarn" else "low_freq_factor"
        give(other, cfg[other])
    return d, b, cfg, given


# Published shapes, checked on every run besides the random sets.
FIXED = [
    # Llama 3.1: b 500000, d 128, factor 8, low 1, high 4, L 8192
    (128, 500000.0, "llama3", {"factor": 8.0, "original_context": 8192,
                               "low_freq_factor": 1.0, "high_freq_factor": 4.0}),
    # Llama 3.2 1B: d 64, factor 32
    (64, 500000.0, "llama3", {"factor": 32.0, "original_context": 8192}),
    # DeepSeek-V3's YaRN: 64 rotary dims, factor 40, L 4096, mscale 1 and 1
    (64, 10000.0, "yarn", {"factor": 40.0, "original_context": 4096, "mscale": 1.0,
                           "mscale_all_dim": 1.0}),
    # Qwen2.5 with YaRN factor 4 over 32768
    (128, 1e6, "yarn", {"factor": 4.0, "original_context": 32768}),
    # YaRN's quirks: L < 2 pi (all kept), L = 4 (one pair kept), high clamped to d - 1
    (16, 10000.0, "yarn", {"factor": 2.0, "original_context": 1}),
    (16, 10000.0, "yarn", {"factor": 2.0, "original_context": 4}),
    (8, 10.0, "yarn", {"factor": 2.0, "original_context": 1000000}),
    (128, 10000.0, "linear", {"factor": 4.0}),
    (128, 10000.0, "ntk", {"factor": 8.0}),
    (128, 10000.0, "dynamic", {"factor": 2.0, "original_context": 4096,
                               "sequence_length": 8192}),
    (256, 10000.0, "proportional", {"rotary_fraction": 0.25}),
    (4096, 1e6, "yarn", {"factor": 16.0, "original_context": 8192, "truncate": False}),
]


def check_values(program, tmpdir):
    for d, b, method, fixed in FIXED:
        cfg = dict(DEFAULTS)
        cfg.update(fixed)
        compare(f"{method} d={d} b={b} {fixed}",
                run(program, flags_for(d, b, method, cfg, fixed), tmpdir),
                expected_rows(d, b, method, cfg))
    # Phi-3-mini-128k's shape: d 96, L 4096, s 32; short below L, long above.
    for length in (0, 4096, 4097, 131072):
        cfg = dict(DEFAULTS, factor=32.0, original_context=4096, sequence_length=length,
                   short_factor=[1.0 + 0.01 * i for i in range(48)],
                   long_factor=[1.0 + 1.5 * i for i in range(48)])
        given = ["factor", "original_context", "sequence_length"]
        compare(f"longrope phi-3 shape l={length}",
                run(program, flags_for(96, 10000.0, "longrope", cfg, given), tmpdir,
                    {"--long-factor-file": cfg["long_factor"],
                     "--short-factor-file": cfg["short_factor"]}),
                expected_rows(96, 10000.0, "longrope", cfg))

    for method in METHODS:
        for _ in range(RUNS_PER_METHOD):
            d, b, cfg, given = random_case(method)
            lists = None
            if method == "longrope":
                lists = {"--long-factor-file": cfg["long_factor"],
                         "--short-factor-file": cfg["short_factor"]}
            shown = {k: cfg[k] for k in given}
            compare(f"{method} d={d} b={b!r} {shown}",
                    run(program, flags_for(d, b, method, cfg, given), tmpdir, lists),
                    expected_rows(d, b, method, cfg))


# --- Bad input ------------------------------------------------------------------------------------

BAD = [
    # (flags, extra lists, the flag the error must name, text the message must contain)
    (["--scaling", "linear", "--factor", "0"], None, "--factor",
     "must be a finite number greater than 0, got 0"),
    (["--scaling", "yarn", "--factor", "-1"], None, "--factor",
     "must be a finite number greater than 0, got -1"),
    (["--scaling", "dynamic", "--factor", "nan"], None, "--factor", "must be a number from 1e-6 to 1e6, got 'nan'"),
    (["--scaling", "llama3", "--factor", "8", "--low-freq-factor", "4.5", "--high-freq-factor",
      "4"], None, "--low-freq-factor", "must be at most high_freq_factor (4), got 4.5"),
    (["--scaling", "llama3", "--factor", "8", "--low-freq-factor", "5"], None,
     "--low-freq-factor", "must be at most high_freq_factor (4), got 5"),
    (["--scaling", "longrope", "--factor", "32"],
     {"--long-factor-file": [2.0] * 47, "--short-factor-file": [1.0] * 48},
     "--long-factor-file", "must have d/2 = 48 entries, got 47"),
    (["--scaling", "longrope", "--factor", "32"],
     {"--long-factor-file": [2.0] * 48, "--short-factor-file": [1.0] * 49},
     "--short-factor-file", "must have d/2 = 48 entries, got 49"),
    (["--scaling", "yarn", "--factor", "8", "--original-context", "-5"], None,
     "--original-context", "must be an integer from 1 to 1073741824, got -5"),
    (["--scaling", "dynamic", "--factor", "2", "--original-context", "0"], None,
     "--original-context", "got 0"),
    (["--scaling", "yarn", "--factor", "8", "--beta-fast", "0.5"], None, "--beta-fast",
     "must be at least beta_slow (1), got 0.5"),
    (["--scaling", "proportional", "--rotary-fraction", "1.5"], None, "--rotary-fraction",
     "must be a finite number from 0 to 1, got 1.5"),
    (["--scaling", "ntk", "--factor", "0.0001"], None, "--factor", "gives the base b'"),
    (["--scaling", "linear", "--factor", "ten"], None, "--factor", "got 'ten'"),
    (["--scaling", "ntk2"], None, "--scaling", "got 'ntk2'"),
]


def check_bad_input(program, tmpdir):
    for flags, lists, flag, text in BAD:
        r = run(program, ["--dim", "96", "--base", "10000"] + flags, tmpdir, lists)
        lines = r.err.splitlines()
        label = f"bad input {' '.join(flags)}"
        if r.code != 2:
            failures.append(f"{label}: exit {r.code}, expected 2\n  {r.cmd}")
        elif r.out:
            failures.append(f"{label}: wrote to stdout: {r.out[:80]!r}")
        elif len(lines) != 1:
            failures.append(f"{label}: {len(lines)} lines on stderr: {r.err!r}")
        elif f"error: {flag}: " not in lines[0] or text not in lines[0]:
            failures.append(f"{label}: stderr {lines[0]!r} should name {flag} and say {text!r}")


def main():
    args = sys.argv[1:]
    seed = None
    if len(args) >= 2 and args[0] == "--seed":
        seed = int(args[1])
        args = args[2:]
    if not args:
        raise SystemExit(__doc__)
    program = args
    if seed is None:
        seed = int.from_bytes(os.urandom(4), "little")
    print(f"check_scaling: seed {seed} (rerun: check_scaling.py --seed {seed} "
          f"{' '.join(program)})", flush=True)
    random.seed(seed)
    with tempfile.TemporaryDirectory() as tmpdir:
        check_values(program, tmpdir)
        check_bad_input(program, tmpdir)
    for f in failures:
        print("FAIL:", f)
    runs = len(FIXED) + 4 + RUNS_PER_METHOD * len(METHODS)
    print(f"check_scaling: {runs} parameter sets, {numbers_checked} numbers, {len(BAD)} bad "
          f"inputs; {len(failures)} failures (seed {seed})")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
