#!/usr/bin/env python3
"""check_mm_export.py — `rope-lab export multimodal` against check_mrope.py's independent M-RoPE.

Usage: check_mm_export.py PATH/TO/rope-lab [--seed N] [--runs N]

The export (app/export/datasets.h: multimodal) writes one row per token of --mm-sequence:
token,kind,segment,frame,row,column,t,h,w,score,score_other,offset_t,offset_h,offset_w. This
script rebuilds every column with the standard library only:

  ids       check_mrope.py's build_inputs + get_rope_index (the models' get_rope_index rewritten,
            float32 emulated), with the app's constants: every video's seconds per grid is
            --mm-seconds, Qwen3-VL's timestamps have 0 tokens, VideoRoPE's delta is 2.
  kind ...  the tokens each segment becomes (rope/mrope.h: CONVENTIONS), written out here: kind
            0 text, 1 <|vision_start|>, 2 <|vision_end|>, 4 patch; frame, row, column of a patch
            (an image's frame 0), -1 elsewhere except the markers around a Qwen3-VL frame, which
            carry the frame.
  sections  "auto" as state/multimodal_params.h defines it (chunked and videorope: t = d/8, h =
            ceil(rest/2), w = floor(rest/2); interleaved: h = w = floor((d/2) 20/64), t the
            rest); the other layout (interleaved beside chunked, chunked beside the others)
            always takes its auto section.
  scores    check_mrope.py's pair_angles (the models' own pair selection) and rotate, the query
            token --mm-query clamped to the last token, q and k typed (or unit / ones).
  presets   qwen2-vl-7b, qwen2.5-vl-7b and qwen3-vl-8b with the values of their published
            configurations, written here again (not read from models.json).

Agreement: ids, kinds, places and offsets exactly; scores |a - b| <= 1e-12 |q| |k| max(1, A), A
the largest angle of the two tokens (check_mrope.py's tolerance). A section the layout cannot
use must give exit 2 and one "rope-lab: error: --mm-section: ..." line, nothing on stdout.
Fixed cases first, then random ones from a seed printed at the start (--seed repeats a run).
Exit status 0 when everything agrees, 1 otherwise (every mismatch is printed).
"""

import argparse
import csv
import io
import math
import os
import random
import sys
import time

sys.dont_write_bytecode = True  # no __pycache__ in the source tree
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import check_mrope  # noqa: E402  (the independent ids, angles and rotations)
import crash_report  # noqa: E402  tests/cli/crash_report.py: a crash is printed and kept

COLUMNS = ["token", "kind", "segment", "frame", "row", "column", "t", "h", "w", "score",
           "score_other", "offset_t", "offset_h", "offset_w"]
TEXT, VISION_START, VISION_END, PATCH = 0, 1, 2, 4
failures = []
checked = 0

# The presets' multimodal settings, from their config.json (rope_theta, head_dim, rope_scaling's
# mrope_section / mrope_interleaved) and the ids code of their model: d, base, pairing, rule,
# layout, section, tokens_per_second.
PRESETS = {
    "qwen2-vl-7b": (128, 1e6, "half", "qwen2", "chunked", (16, 24, 24), 2),
    "qwen2.5-vl-7b": (128, 1e6, "half", "qwen25", "chunked", (16, 24, 24), 2),
    "qwen3-vl-8b": (128, 5e6, "half", "qwen3", "interleaved", (24, 20, 20), 2),
}


def auto_section(dim, layout):
    pairs = dim // 2
    if layout == "interleaved":
        hw = pairs * 20 // 64
        return (pairs - 2 * hw, hw, hw)
    t = dim // 8
    rest = pairs - t
    return (t, (rest + 1) // 2, rest // 2)


def expected_places(segments, rule):
    """(kind, segment, frame, row, column) of every token, in order."""
    out = []
    for i, seg in enumerate(segments):
        if seg[0] == "text":
            out += [(TEXT, i, -1, -1, -1)] * seg[1]
            continue
        t, h, w = (1, seg[1], seg[2]) if seg[0] == "image" else seg[1:4]
        per_frame = seg[0] == "video" and rule == "qwen3"
        if not per_frame:
            out.append((VISION_START, i, -1, -1, -1))
        for f in range(t):
            if per_frame:
                out.append((VISION_START, i, f, -1, -1))
            out += [(PATCH, i, f, r, c) for r in range(h) for c in range(w)]
            if per_frame:
                out.append((VISION_END, i, f, -1, -1))
        if not per_frame:
            out.append((VISION_END, i, -1, -1, -1))
    return out


def vector_text(v):
    return v if isinstance(v, str) else ",".join(repr(x) for x in v)


def vector_values(v, dim):
    if v == "ones":
        return [1.0] * dim
    if v == "unit":
        return [1.0] + [0.0] * (dim - 1)
    return list(v)


def sequence_text(segments):
    out = []
    for seg in segments:
        if seg[0] == "text":
            out.append(f"text:{seg[1]}")
        elif seg[0] == "image":
            out.append(f"image:{seg[1]}x{seg[2]}")
        else:
            out.append(f"video:{seg[1]}x{seg[2]}x{seg[3]}")
    return ",".join(out)


def check(exe, c):
    """One export: c has segments, rule, layout, section ("auto" or a tuple), dim, base, pairing,
    query, key (lists, "ones" or "unit"), mm_query, seconds, tokens_per_second, and optionally
    model (the flags it sets are then left out unless `extra` names them)."""
    global checked
    model = c.get("model")
    cmd = [exe, "export", "multimodal", "--mm-sequence", sequence_text(c["segments"]),
           "--mm-query", str(c["mm_query"]), "--mm-seconds", repr(c["seconds"]),
           "--query", vector_text(c["query"]), "--key", vector_text(c["key"])]
    if model:
        cmd += ["--model", model]
        dim, base, pairing, rule, layout, section, tps = PRESETS[model]
        section_text = ",".join(map(str, section))
    else:
        dim, base, pairing, rule, layout = (c[k] for k in ("dim", "base", "pairing", "rule",
                                                           "layout"))
        section, tps = c["section"], c["tokens_per_second"]
        section_text = section if section == "auto" else ",".join(map(str, section))
        cmd += ["--dim", str(dim), "--base", repr(base), "--pairing", pairing, "--mm-rule", rule,
                "--mm-layout", layout, "--mm-section", section_text,
                "--mm-tokens-per-second", str(tps)]
    if section == "auto":
        section = auto_section(dim, layout)
    label = " ".join(cmd[1:])
    proc = crash_report.run(cmd, capture_output=True, text=True, check=False)
    checked += 1
    if not check_mrope.section_ok(dim, section, layout):
        ok = (proc.returncode == 2 and not proc.stdout and proc.stderr.count("\n") == 1 and
              proc.stderr.startswith("rope-lab: error: --mm-section: "))
        if not ok:
            failures.append(f"{label}: expected an --mm-section error, got exit "
                            f"{proc.returncode}, stderr {proc.stderr!r}")
        return
    if proc.returncode != 0 or proc.stderr:
        failures.append(f"{label}: exit {proc.returncode}, stderr {proc.stderr!r}")
        return
    rows = list(csv.reader(io.StringIO(proc.stdout)))
    if rows[0] != COLUMNS:
        failures.append(f"{label}: header {rows[0]}")
        return
    rows = rows[1:]

    segments = [s if s[0] != "video" else (*s, c["seconds"]) for s in c["segments"]]
    input_ids, images, videos, seconds = check_mrope.build_inputs(segments, rule, 0)
    ids = check_mrope.get_rope_index(input_ids, images, videos, seconds, rule, tps, 2.0)
    places = expected_places(c["segments"], rule)
    n = len(input_ids)
    if len(rows) != n or len(places) != n:
        failures.append(f"{label}: {len(rows)} rows, expected {n} tokens ({len(places)} places)")
        return
    other = "interleaved" if layout == "chunked" else "chunked"
    other_section = auto_section(dim, other)
    q, k = vector_values(c["query"], dim), vector_values(c["key"], dim)
    norm = math.sqrt(sum(v * v for v in q)) * math.sqrt(sum(v * v for v in k))
    query = min(c["mm_query"], n - 1)
    at = [(ids[0][i], ids[1][i], ids[2][i]) for i in range(n)]

    def angles(i, sec, lay):
        return check_mrope.pair_angles(at[i], dim, base, sec, lay)

    rq = check_mrope.rotate(q, angles(query, section, layout), pairing)
    rq_other = check_mrope.rotate(q, angles(query, other_section, other), pairing)
    for i, row in enumerate(rows):
        if len(failures) > 40:
            return
        got = [float(v) for v in row]
        want_front = [float(i), *map(float, places[i]), *map(float, at[i])]
        if got[:9] != want_front:
            failures.append(f"{label}: token {i}: {row[:9]}, expected {want_front}")
            continue
        want_offsets = [float(at[i][a] - at[query][a]) for a in range(3)]
        if got[11:] != want_offsets:
            failures.append(f"{label}: token {i}: offsets {row[11:]}, expected {want_offsets}")
        for col, rotated, sec, lay in ((9, rq, section, layout),
                                       (10, rq_other, other_section, other)):
            a_key, a_query = angles(i, sec, lay), angles(query, sec, lay)
            want = sum(x * y for x, y in zip(rotated, check_mrope.rotate(k, a_key, pairing)))
            largest = max([1.0] + [abs(a) for a in a_key + a_query])
            if not abs(got[col] - want) <= check_mrope.TOLERANCE * norm * largest:
                failures.append(f"{label}: token {i}: {COLUMNS[col]} {row[col]}, "
                                f"expected {want!r}")


def random_vector(rng, dim):
    return [rng.gauss(0.0, 1.0) * rng.choice([1.0, 1e-3, 1e3]) for _ in range(dim)]


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("exe")
    parser.add_argument("--seed", type=int, default=None)
    parser.add_argument("--runs", type=int, default=60)
    args = parser.parse_args()
    seed = args.seed if args.seed is not None else time.time_ns() % 2**32
    print(f"check_mm_export.py: seed {seed} (repeat with --seed {seed})")
    rng = random.Random(seed)

    def case(segments, rule="qwen2", layout="chunked", section="auto", dim=8, **kw):
        c = {"segments": segments, "rule": rule, "layout": layout, "section": section,
             "dim": dim, "base": 10000.0, "pairing": "interleaved", "query": "ones",
             "key": "ones", "mm_query": 0, "seconds": 1.0, "tokens_per_second": 2}
        c.update(kw)
        return c

    mixed = [("text", 3), ("image", 2, 3), ("text", 2), ("video", 3, 2, 2), ("text", 1)]
    fixed = []
    for rule in ("qwen2", "qwen25", "qwen25_int", "qwen3", "videorope"):
        for layout in ("chunked", "interleaved", "videorope"):
            fixed.append(case(mixed, rule, layout, mm_query=5, seconds=0.5,
                              query=random_vector(rng, 8), key=random_vector(rng, 8)))
        fixed.append(case(mixed, rule, "chunked", (1, 2, 1), pairing="half", mm_query=999))
        fixed.append(case(mixed, rule, "interleaved", "auto", dim=128, base=5e6, query="unit",
                          key=random_vector(rng, 128), mm_query=20, seconds=2 / 3,
                          tokens_per_second=25))
    # the app's limits: a 32 x 32 image, a 16-frame video, a single token
    fixed.append(case([("image", 32, 32), ("video", 16, 1, 2)], "qwen25", seconds=0.04,
                      tokens_per_second=5, mm_query=1000))
    fixed.append(case([("text", 1)], "qwen3", "interleaved", dim=2, mm_query=2047))
    fixed.append(case([("image", 1, 1)], "videorope", "videorope", dim=2, base=2.0))
    # sections the layout cannot use
    fixed.append(case(mixed, "qwen2", "chunked", (1, 1, 1)))
    fixed.append(case(mixed, "qwen3", "interleaved", (20, 22, 22), dim=128))
    # the presets, with the sequence, vectors and query given beside them
    for model in PRESETS:
        fixed.append(case(mixed, model=model, query=random_vector(rng, 128),
                          key=random_vector(rng, 128), mm_query=9, seconds=0.5))
    for c in fixed:
        check(args.exe, c)

    for _ in range(args.runs):
        segments = []
        for _ in range(rng.randint(1, 6)):
            kind = rng.choice(["text", "image", "video"])
            if kind == "text":
                segments.append(("text", rng.randint(1, 6)))
            elif kind == "image":
                segments.append(("image", rng.randint(1, 7), rng.randint(1, 7)))
            else:
                segments.append(("video", rng.randint(1, 6), rng.randint(1, 5), rng.randint(1, 5)))
        half = rng.randint(1, 96)
        layout = rng.choice(["chunked", "interleaved", "videorope"])
        if rng.random() < 0.4:
            section = "auto"
        else:
            sh, sw = rng.randint(0, (half + 1) // 3), rng.randint(0, half // 3)
            section = (half - sh - sw, sh, sw)
            if rng.random() < 0.1 and section[0] > 0:  # now and then an unusable one
                section = (section[0] + rng.choice([-1, 1]), sh, sw)
        vectors = [rng.choice(["ones", "unit", random_vector(rng, 2 * half)]) for _ in range(2)]
        n = len(expected_places(segments, "qwen3"))  # an upper bound on the token count
        c = case(segments, rng.choice(["qwen2", "qwen25", "qwen25_int", "qwen3", "videorope"]),
                 layout, section, dim=2 * half,
                 base=math.exp(rng.uniform(math.log(2.0), math.log(1e7))),
                 pairing=rng.choice(["half", "interleaved"]), query=vectors[0], key=vectors[1],
                 mm_query=rng.randint(0, n + 3),
                 seconds=rng.choice([1.0, 0.5, 2 / rng.randint(1, 30), rng.uniform(0, 4)]),
                 tokens_per_second=rng.choice([1, 2, 4, 25, rng.randint(1, 1000)]))
        check(args.exe, c)

    for f in failures:
        print("FAIL:", f)
    print(f"check_mm_export.py: {checked} exports checked, {len(failures)} mismatches")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
