#!/usr/bin/env python3
"""check_precision.py — recompute the low-precision RoPE emulation independently and compare.

Usage:
  check_precision.py PATH/TO/precision_dump
      all checks: every 16-bit pattern, >= 100 000 random doubles per format, emulated angles
  check_precision.py --angles-only COMMAND...
      only the angle checks, running COMMAND --dim ... (e.g. `rope-lab export precision`)

The reference here uses the standard library only:
  fp16  struct.pack('<e', x): CPython rounds a double to binary16 once, to nearest, ties to even.
        It raises OverflowError where IEEE 754 gives inf (|x| >= 65520); that becomes +-inf here.
  fp32  struct.pack('<f', x): the C cast (float)x; OverflowError -> +-inf as above.
  bf16  written by hand below, from the double's own bits: sign, exponent and the 53-bit
        significand as a Python integer, rounded with integer division to 8 significant bits,
        ties to even. Rounding to fp32 first and then to bf16 is wrong for doubles (it rounds
        twice: 1 + 2^-8 + 2^-30 becomes the tie 1 + 2^-8 in fp32, which then ties down to 1).
        The same routine, given binary16's and binary32's parameters, must agree with struct on
        every input: that checks the routine itself before it is trusted with bf16.
  angles  theta_i as transformers builds inv_freq in fp32 (exponent 2i/d, base**exponent, 1/x,
        each rounded to fp32), cast to the theta format; the position cast to its format; their
        product (exact in double) rounded to the format they multiply in (the wider; fp32 for
        bf16 with fp16), then cast to the angle format; cos / sin of that, cast to the trig
        format. With the theta format fp64, theta_i = base**(-2i/d) in double.

Agreement: bits must be identical (NaN: both NaN, same sign). Angles: every value that was
rounded to a format below fp64 (angle, cos, sin) must be identical; exact_angle within 1e-12
relative (absolute floor 1e-12); wrapped_error within 1e-12 * max(1, |exact_angle|) modulo 2 pi
(it is a difference of two large numbers). NaN where the other has NaN.
Exit status 0 when everything agrees, 1 otherwise (the first mismatches are printed).
"""

import csv
import io
import math
import random
import struct
import crash_report  # tests/cli/crash_report.py: a crash is printed and kept
import sys

SEED = 20240611
failures = []
checked = 0


def fail(message):
    failures.append(message)


# --- formats -----------------------------------------------------------------------------------

# name: (p significant bits, w exponent bits, emin of normals)
FORMATS = {"fp16": (11, 5, -14), "bf16": (8, 8, -126), "fp32": (24, 8, -126)}


def double_parts(x):
    """(sign, significand, exponent) with |x| = significand * 2**exponent, from the bits."""
    (b,) = struct.unpack("<Q", struct.pack("<d", x))
    sign = b >> 63
    biased = (b >> 52) & 0x7FF
    fraction = b & ((1 << 52) - 1)
    if biased == 0:
        return sign, fraction, -1074, biased
    return sign, fraction | (1 << 52), biased - 1075, biased


def round_by_hand(x, name):
    """Bits of the value of format `name` nearest to x: round to nearest, ties to even."""
    p, w, emin = FORMATS[name]
    sign, sig, exp, biased = double_parts(x)
    sign_bit = sign << (w + p - 1)
    all_ones = ((1 << w) - 1) << (p - 1)
    if biased == 0x7FF:
        return sign_bit | all_ones | ((1 << (p - 2)) if sig != (1 << 52) else 0)
    if sig == 0:
        return sign_bit
    top = sig.bit_length() - 1 + exp  # floor(log2 |x|)
    q = max(top, emin) - (p - 1)  # the value's quantum is 2**q
    if exp >= q:
        n = sig << (exp - q)
    else:
        unit = 1 << (q - exp)
        n, rest = divmod(sig, unit)
        if 2 * rest > unit or (2 * rest == unit and n % 2 == 1):
            n += 1
    if n == 0:
        return sign_bit
    if n == 1 << p:  # rounding carried into the next binade
        n >>= 1
        q += 1
    if n >= 1 << (p - 1):
        field = q + (p - 1) - emin + 1
        if field >= (1 << w) - 1:
            return sign_bit | all_ones
        return sign_bit | (field << (p - 1)) | (n - (1 << (p - 1)))
    return sign_bit | n  # subnormal: q is emin - (p - 1)


def struct_bits(x, name):
    code = {"fp16": "<e", "fp32": "<f"}[name]
    unsigned = {"fp16": "<H", "fp32": "<I"}[name]
    p, w, _ = FORMATS[name]
    try:
        (b,) = struct.unpack(unsigned, struct.pack(code, x))
    except OverflowError:
        b = (((1 << w) - 1) << (p - 1)) | ((1 << (w + p - 1)) if x < 0 else 0)
    return b


def reference_bits(x, name):
    return round_by_hand(x, "bf16") if name == "bf16" else struct_bits(x, name)


def decode(bits, name):
    if name == "fp16":
        return struct.unpack("<e", struct.pack("<H", bits))[0]
    if name == "bf16":  # the top half of an fp32
        return struct.unpack("<f", struct.pack("<I", bits << 16))[0]
    return struct.unpack("<f", struct.pack("<I", bits))[0]


def is_nan_bits(bits, name):
    p, w, _ = FORMATS[name]
    all_ones = ((1 << w) - 1) << (p - 1)
    return (bits & all_ones) == all_ones and (bits & ((1 << (p - 1)) - 1)) != 0


def same_bits(a, b, name):
    if is_nan_bits(a, name) or is_nan_bits(b, name):
        p, w, _ = FORMATS[name]
        return is_nan_bits(a, name) and is_nan_bits(b, name) and (a >> (w + p - 1)) == (
            b >> (w + p - 1)
        )
    return a == b


def round_to(name, x):
    if name == "fp64":
        return x
    return decode(reference_bits(x, name), name)


# --- inputs --------------------------------------------------------------------------------------


def random_doubles(name, count, rng):
    """Random doubles around every interesting part of format `name`."""
    p, w, emin = FORMATS[name]
    emax = (1 << (w - 1)) - 1
    largest = (2.0 - 2.0 ** (1 - p)) * 2.0**emax
    out = [0.0, -0.0, math.inf, -math.inf, math.nan, -math.nan, largest, -largest]
    out += [largest + 2.0 ** (emax - p), math.nextafter(largest + 2.0 ** (emax - p), 0.0)]
    out += [2.0 ** (emin - p + 1), 2.0 ** (emin - p), 3 * 2.0 ** (emin - p)]
    inf_bits = ((1 << w) - 1) << (p - 1)
    while len(out) < count:
        kind = rng.randrange(6)
        if kind == 0:  # anywhere across the format's exponents, including beyond both ends
            x = math.ldexp(1.0 + rng.random(), rng.randint(emin - p - 3, emax + 2))
        elif kind in (1, 2):  # exactly halfway between two neighbours, or one double off it
            b = rng.randrange(0, inf_bits - 1)  # b + 1 is at most the largest finite value
            a, c = decode(b, name), decode(b + 1, name)
            x = a + (c - a) / 2
            if kind == 2:
                x = math.nextafter(x, math.inf if rng.random() < 0.5 else 0.0)
        elif kind == 3:  # a value of the format itself
            x = decode(rng.randrange(0, inf_bits), name)
        elif kind == 4:  # near the overflow threshold
            x = largest + 2.0 ** (emax - p) * rng.uniform(0.99, 1.01)
        else:  # any 64-bit pattern: NaNs, infinities, double subnormals, huge and tiny values
            x = struct.unpack("<d", struct.pack("<Q", rng.getrandbits(64)))[0]
        if rng.random() < 0.5:
            x = -x
        out.append(x)
    return out


def as_text(x):
    """x exactly, in a form strtod reads (float.hex drops the sign of NaN)."""
    if math.isnan(x):
        return "-nan" if math.copysign(1.0, x) < 0 else "nan"
    return x.hex()


def run(cmd, stdin_text=None):
    proc = crash_report.run(cmd, input=stdin_text, capture_output=True, text=True, check=False)
    if proc.returncode != 0 or proc.stderr:
        raise SystemExit(f"FAIL: {' '.join(cmd)} exited {proc.returncode}: {proc.stderr}")
    return proc.stdout


# --- checks --------------------------------------------------------------------------------------


def self_check(rng):
    """The hand-written rounding, given fp16 / fp32 parameters, agrees with struct."""
    global checked
    for name in ("fp16", "fp32"):
        for x in random_doubles(name, 100000, rng):
            checked += 1
            a, b = round_by_hand(x, name), struct_bits(x, name)
            if not same_bits(a, b, name):
                fail(f"self-check {name}: {x!r}: by hand {a:#x}, struct {b:#x}")
    # A double-rounding case: through fp32 this would give 0x3f80.
    if round_by_hand(1.0 + 2.0**-8 + 2.0**-30, "bf16") != 0x3F81:
        fail("self-check bf16: 1 + 2^-8 + 2^-30 must round up to 0x3f81")


def check_patterns(dump):
    global checked
    for name in ("fp16", "bf16"):
        rows = run([dump, "bits", "--format", name]).splitlines()
        if len(rows) != 65536:
            fail(f"bits {name}: {len(rows)} lines, expected 65536")
            continue
        for b, row in enumerate(rows):
            checked += 1
            bits_text, value_text, back_text = row.split(",")
            value = float(value_text)
            want = decode(b, name)
            if int(bits_text) != b:
                fail(f"bits {name}: line {b} is for pattern {bits_text}")
            elif math.isnan(want):
                if not math.isnan(value) or not is_nan_bits(int(back_text), name):
                    fail(f"bits {name} {b:#06x}: NaN pattern gave {value_text}, {back_text}")
            elif value != want or math.copysign(1, value) != math.copysign(1, want):
                fail(f"bits {name} {b:#06x}: value {value_text}, expected {want!r}")
            elif int(back_text) != reference_bits(want, name) or int(back_text) != b:
                fail(f"bits {name} {b:#06x}: back {back_text}")


def check_random_rounding(dump, rng):
    global checked
    for name in ("fp16", "bf16", "fp32"):
        xs = random_doubles(name, 100000, rng)
        out = run([dump, "round", "--format", name], "\n".join(map(as_text, xs)) + "\n")
        lines = out.splitlines()
        if len(lines) != len(xs):
            fail(f"round {name}: {len(lines)} lines for {len(xs)} inputs")
            continue
        bad = 0
        for x, line in zip(xs, lines):
            checked += 1
            got, want = int(line, 16), reference_bits(x, name)
            if not same_bits(got, want, name):
                bad += 1
                if bad <= 10:
                    fail(f"round {name}: {x!r} ({x.hex()}): got {got:#x}, expected {want:#x}")
        if bad > 10:
            fail(f"round {name}: {bad} mismatches in all")


def fp32_theta(i, d, base):
    exponent = round_to("fp32", (2 * i) / d)
    power = round_to("fp32", round_to("fp32", base) ** exponent)
    return round_to("fp32", 1.0 / power)


def multiply_format(fmt):
    """The format position * theta is computed in: torch's promotion of the two tensors."""
    a, b = fmt["position"], fmt["theta"]
    if a == b:
        return a
    if "fp64" in (a, b):
        return "fp64"
    return "fp32"


def expected_angles(d, base, positions, fmt):
    rows = []
    for m in positions:
        mp = round_to(fmt["position"], m)
        for i in range(d // 2):
            exact_theta = base ** (-2.0 * i / d)
            if fmt["theta"] == "fp64":
                theta = exact_theta
            else:
                theta = round_to(fmt["theta"], fp32_theta(i, d, base))
            exact = m * exact_theta
            # multiplied in the wider factor format (torch promotes bf16 with fp16 to fp32),
            # then cast to the angle format: two roundings when the angle format is narrower
            angle = round_to(fmt["angle"], round_to(multiply_format(fmt), mp * theta))
            if math.isfinite(angle):
                err = math.remainder(angle - exact, 2 * math.pi)
                c = round_to(fmt["trig"], math.cos(angle))
                s = round_to(fmt["trig"], math.sin(angle))
            else:
                err = c = s = math.nan
            rows.append([m, i, exact, angle, err, c, s])
    return rows


def agree(got, want, how, scale):
    """how: "exact" (identical), "close" (1e-12 relative), "wrapped" (1e-12 * max(1, scale)
    modulo 2 pi, scale = |exact_angle|)."""
    if math.isnan(want) or math.isnan(got):
        return math.isnan(want) and math.isnan(got)
    if how == "exact" or math.isinf(want) or math.isinf(got):
        return got == want
    if how == "wrapped":
        return abs(math.remainder(got - want, 2 * math.pi)) <= 1e-12 * max(1.0, scale)
    return abs(got - want) <= 1e-12 * max(1.0, abs(want))


def check_angles(command, rng):
    global checked
    header = ["position", "pair", "exact_angle", "angle", "wrapped_error", "cos", "sin"]
    names = ["fp64", "fp32", "bf16", "fp16"]
    presets = [
        ("fp32", "fp32", "fp32", "fp32"),
        ("bf16", "bf16", "bf16", "bf16"),
        ("fp16", "fp16", "fp16", "fp16"),
        ("fp32", "bf16", "fp32", "fp32"),
        ("fp32", "fp32", "fp32", "bf16"),
        ("fp64", "fp64", "fp64", "fp64"),
    ]
    runs = [(32, 10000.0, [1857, 256, 257, 15962], p) for p in presets]
    for _ in range(24):
        formats = tuple(rng.choice(names) for _ in range(4))
        d = 2 * rng.randint(1, 64)
        base = math.exp(rng.uniform(math.log(2.0), math.log(1e6)))
        positions = [round(10 ** rng.uniform(0, 7)) for _ in range(12)]
        positions += [256, 257, 2049, 65504, 65519, 65520, -3, 0]
        positions += [rng.uniform(-1e4, 1e4)]  # a non-integer position
        runs.append((d, base, positions, formats))
    runs.append((128, 1e6, None, ("bf16", "fp32", "fp32", "fp32")))  # --range
    for d, base, positions, formats in runs:
        fmt = dict(zip(["position", "theta", "angle", "trig"], formats))
        args = ["--dim", str(d), "--base", repr(base)]
        if positions is None:
            args += ["--range", "15950:15970"]
            positions = list(range(15950, 15971))
        else:
            args += ["--positions", ",".join(repr(float(p)) for p in positions)]
        args += ["--position-format", fmt["position"], "--theta-format", fmt["theta"]]
        args += ["--angle-format", fmt["angle"], "--trig-format", fmt["trig"]]
        label = f"angles d={d} base={base!r} {'/'.join(formats)}"
        rows = list(csv.reader(io.StringIO(run(command + args))))
        if not rows or rows[0] != header:
            fail(f"{label}: header {rows[:1]}")
            continue
        want_rows = expected_angles(d, base, [float(p) for p in positions], fmt)
        if len(rows) - 1 != len(want_rows):
            fail(f"{label}: {len(rows) - 1} rows, expected {len(want_rows)}")
            continue
        how = [
            "exact",
            "exact",
            "close",
            "exact" if fmt["angle"] != "fp64" else "close",
            "wrapped",
            "exact" if fmt["trig"] != "fp64" else "close",
            "exact" if fmt["trig"] != "fp64" else "close",
        ]
        bad = 0
        for r, (got_row, want) in enumerate(zip(rows[1:], want_rows)):
            got = [float(v) for v in got_row]
            for c in range(len(header)):
                checked += 1
                if not agree(got[c], want[c], how[c], abs(want[2])):
                    bad += 1
                    if bad <= 5:
                        fail(f"{label}: row {r} {header[c]}: got {got[c]!r}, expected {want[c]!r}")
        if bad > 5:
            fail(f"{label}: {bad} mismatches in all")


def main(argv):
    rng = random.Random(SEED)
    if len(argv) >= 3 and argv[1] == "--angles-only":
        check_angles(argv[2:], rng)
    elif len(argv) == 2:
        self_check(rng)
        check_patterns(argv[1])
        check_random_rounding(argv[1], rng)
        check_angles([argv[1], "angles"], rng)
    else:
        raise SystemExit(__doc__)
    for f in failures[:40]:
        print("FAIL:", f)
    print(f"{checked} values checked, {len(failures)} failures")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
