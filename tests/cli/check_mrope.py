#!/usr/bin/env python3
"""check_mrope.py — rope/mrope.h against the models' own algorithms, rewritten here.

Usage: check_mrope.py PATH/TO/mrope_dump [--seed N] [--runs N]

mrope_dump prints, for one sequence, every token's (t, h, w) ids, its d/2 angles and the score of
a query token against a key at its position (see tests/core/mrope_dump.cpp). This script rebuilds
all of it with the standard library only, the way the models' Python code does, not the way
mrope.cpp does:

  ids      A token list is built as the processor builds input_ids (<|vision_start|>, pads,
           <|vision_end|>; Qwen3-VL: "<t seconds>" text before each frame), then scanned as
           get_rope_index scans it (transformers modeling_qwen2_vl.py, modeling_qwen2_5_vl.py,
           modeling_qwen3_vl.py; VideoRoPE's get_t_scale_rope_index in modeling_videorope.py):
           count images and videos after <|vision_start|>, find each with list.index, append a
           text block arange(text_len) + st_idx and a vision block, st_idx from the last
           block's max. float32 tensor arithmetic is emulated with struct (round to binary32
           after every operation), where the models use float tensors.
  angles   inv_freq = 1 / base^(2j/d); one angle table per axis, duplicated to d entries as
           torch.cat((freqs, freqs)); then the model's own selection: cos.split(section * 2) and
           chunk i from axis i % 3 (apply_multimodal_rotary_pos_emb), strided slices
           freqs_t[offset:3 s:3] (apply_interleaved_mrope), or VideoRoPE's loop over
           [s_h + s_w, s_t] * 2 reversed (apply_m_modify_multimodal_rotary_pos_emb).
  scores   q * cos + rotate_half(q) * sin for half pairing (rotate_every_two for interleaved),
           for the query's and the key's angles, then the dot product.

Agreement: ids exactly; angles |a - b| <= 1e-12 |b|; scores |a - b| <= 1e-12 |q| |k| max(1, A)
where A is the largest angle of the two tokens (an angle agreeing to 1e-12 relative moves a
cosine by up to A 1e-12). The fixed cases run first, then random sequences, rules and layouts
from a seed printed at the start (pass --seed to repeat a run). Sections the models cannot use
must make the driver fail with exit status 2 and one "mrope_dump: error: mrope_section: ..." line.
Exit status 0 when everything agrees, 1 otherwise (every mismatch is printed).
"""

import argparse
import csv
import io
import math
import random
import struct
import sys
import time

import crash_report  # tests/cli/crash_report.py: a crash is printed and kept

TOLERANCE = 1e-12
failures = []
checked = 0

# Token ids of the Qwen2-VL family's config (image_token_id ...); TEXT and TIME stand for any
# other token.
TEXT, TIME = 1, 2
VISION_START, VISION_END, IMAGE, VIDEO = 151652, 151653, 151655, 151656
SPATIAL_MERGE = 2  # vision_config.spatial_merge_size


def f32(x):
    """x rounded to binary32, as a float32 tensor holds it."""
    return struct.unpack("<f", struct.pack("<f", x))[0]


# --- Ids ------------------------------------------------------------------------------------


def build_inputs(segments, rule, timestamp_tokens):
    """input_ids, image_grid_thw, video_grid_thw (before the spatial merge), second_per_grid_ts."""
    ids, images, videos, seconds = [], [], [], []
    for seg in segments:
        kind = seg[0]
        if kind == "text":
            ids += [TEXT] * seg[1]
        elif kind == "image":
            _, h, w = seg
            ids += [VISION_START] + [IMAGE] * (h * w) + [VISION_END]
            images.append((1, h * SPATIAL_MERGE, w * SPATIAL_MERGE))
        else:
            _, t, h, w, s = seg
            if rule == "qwen3":
                # Qwen3VLProcessor, per frame: "<x.x seconds>", <|vision_start|>, pads,
                # <|vision_end|>
                for _ in range(t):
                    ids += [TIME] * timestamp_tokens + [VISION_START] + [VIDEO] * (h * w)
                    ids += [VISION_END]
            else:
                ids += [VISION_START] + [VIDEO] * (t * h * w) + [VISION_END]
            videos.append((t, h * SPATIAL_MERGE, w * SPATIAL_MERGE))
            seconds.append(s)
    return ids, images, videos, seconds


def get_rope_index(input_tokens, image_grid_thw, video_grid_thw, second_per_grid_ts, rule,
                   tokens_per_second, scale):
    """[[t...], [h...], [w...]] for one sequence, following the models' get_rope_index."""
    if rule == "qwen3":
        # videos become one-frame grids: repeat_interleave by T, then T = 1
        video_grid_thw = [(1, h, w) for (t, h, w) in video_grid_thw for _ in range(t)]
    starts = [i for i, x in enumerate(input_tokens) if x == VISION_START]
    after = [input_tokens[i + 1] for i in starts]
    image_nums, video_nums = after.count(IMAGE), after.count(VIDEO)
    blocks = []  # llm_pos_ids_list: each [t_list, h_list, w_list]
    st = 0
    image_index = video_index = 0
    remain_images, remain_videos = image_nums, video_nums

    def next_st_idx():
        if not blocks:
            return 0
        if rule == "videorope":  # llm_pos_ids_list[-1][0].max() + 1, a float32 tensor
            return f32(max(blocks[-1][0]) + 1)
        return max(max(row) for row in blocks[-1]) + 1

    def text_block(n, st_idx):
        if rule == "videorope" and blocks:  # arange + float32 st_idx
            ids = [f32(i + st_idx) for i in range(n)]
        else:
            ids = [i + st_idx for i in range(n)]
        return [ids, list(ids), list(ids)]

    for _ in range(image_nums + video_nums):
        ed_image = (input_tokens.index(IMAGE, st) if IMAGE in input_tokens and remain_images > 0
                    else len(input_tokens) + 1)
        ed_video = (input_tokens.index(VIDEO, st) if VIDEO in input_tokens and remain_videos > 0
                    else len(input_tokens) + 1)
        if ed_image < ed_video:
            t, h, w = image_grid_thw[image_index]
            second_per_grid_t = 0
            image_index += 1
            remain_images -= 1
            ed = ed_image
        else:
            t, h, w = video_grid_thw[video_index]
            # Qwen2.5-VL: second_per_grid_ts[video_index] (Qwen3-VL's split list has no seconds)
            second_per_grid_t = (second_per_grid_ts[video_index]
                                 if video_index < len(second_per_grid_ts) else 1.0)
            video_index += 1
            remain_videos -= 1
            ed = ed_video
        gt, gh, gw = t, h // SPATIAL_MERGE, w // SPATIAL_MERGE
        text_len = ed - st
        st_idx = next_st_idx()
        blocks.append(text_block(text_len, st_idx))

        frames = list(range(gt))
        if rule == "qwen25":
            # time_tensor = expanded_range * second_per_grid_t * tokens_per_second, float32,
            # then .long()
            t_index = [int(f32(f32(f * f32(second_per_grid_t)) * tokens_per_second))
                       for f in frames]
        elif rule == "qwen25_int":
            # second_per_grid_t cast to the int64 dtype of arange first
            t_index = [f * int(f32(second_per_grid_t)) * tokens_per_second for f in frames]
        else:
            t_index = frames
        tl, hl, wl = [], [], []
        if rule == "videorope":
            for f in frames:
                tf = f32(f32(f32(f * f32(scale)) + text_len) + st_idx)
                for r in range(gh):
                    for c in range(gw):
                        tl.append(tf)
                        hl.append(f32(r - (gh - 1) // 2 + tf))
                        wl.append(f32(c - (gw - 1) // 2 + tf))
        else:
            for f in frames:
                for r in range(gh):
                    for c in range(gw):
                        tl.append(t_index[f] + text_len + st_idx)
                        hl.append(r + text_len + st_idx)
                        wl.append(c + text_len + st_idx)
        blocks.append([tl, hl, wl])
        st = ed + gt * gh * gw

    if st < len(input_tokens):
        blocks.append(text_block(len(input_tokens) - st, next_st_idx()))
    return [sum((b[axis] for b in blocks), []) for axis in range(3)]


# --- Angles and scores ----------------------------------------------------------------------


def pair_angles(position, dim, base, section, layout):
    """The d/2 angles of one token, selected from three per-axis tables as the model does."""
    half = dim // 2
    inv_freq = [1.0 / base ** (2 * j / dim) for j in range(half)]
    freqs = [[position[axis] * f for f in inv_freq] for axis in range(3)]
    if layout == "chunked":
        emb = [row + row for row in freqs]  # torch.cat((freqs, freqs), dim=-1)
        out, index = [], 0
        for i, size in enumerate(list(section) * 2):  # cos.split(mrope_section * 2)
            out += emb[i % 3][index:index + size]
            index += size
        assert index == dim
    elif layout == "interleaved":
        freqs_t = list(freqs[0])
        for axis, offset in ((1, 1), (2, 2)):
            idx = range(half)[offset:section[axis] * 3:3]  # slice(offset, length, 3)
            for j in idx:
                freqs_t[j] = freqs[axis][j]
        out = freqs_t + freqs_t
    else:  # videorope
        emb = [row + row for row in freqs]
        sections = ([section[0], section[1] + section[2]] * 2)[::-1]
        out, index = [], 0
        for i, size in enumerate(sections):
            if i % 2 == 0:
                for j in range(size):
                    out.append(emb[1 if j % 2 == 0 else 2][index])
                    index += 1
            else:
                out += emb[0][index:index + size]
                index += size
    if out[:half] != out[half:]:
        raise AssertionError("the two halves of the cos table differ")
    return out[:half]


def rotate(x, angles, pairing):
    half = len(angles)
    if pairing == "half":
        cos = [math.cos(a) for a in angles] * 2
        sin = [math.sin(a) for a in angles] * 2
        rot = [-v for v in x[half:]] + x[:half]  # rotate_half
    else:
        cos = [math.cos(a) for a in angles for _ in (0, 1)]
        sin = [math.sin(a) for a in angles for _ in (0, 1)]
        rot = [v for i in range(half) for v in (-x[2 * i + 1], x[2 * i])]
    return [x[i] * cos[i] + rot[i] * sin[i] for i in range(len(x))]


def section_ok(dim, section, layout):
    half = dim // 2
    if any(s < 0 or s > half for s in section) or sum(section) != half:
        return False
    # interleaved: h's pairs 1, 4, ... and w's 2, 5, ... must all exist (rope/mrope.h)
    return layout != "interleaved" or all(
        section[k] == 0 or 3 * section[k] - 3 + k < half for k in (1, 2))


# --- Driver ---------------------------------------------------------------------------------


def segment_spec(segments):
    out = []
    for seg in segments:
        if seg[0] == "text":
            out.append(f"text:{seg[1]}")
        elif seg[0] == "image":
            out.append(f"image:{seg[1]}x{seg[2]}")
        else:
            out.append(f"video:{seg[1]}x{seg[2]}x{seg[3]}@{seg[4]!r}")
    return ",".join(out)


def close(a, b, scale=None):
    if scale is None:
        return abs(a - b) <= TOLERANCE * abs(b)
    return abs(a - b) <= TOLERANCE * scale


def check(exe, case):
    global checked
    segments, rule, dim, base, section, layout = (case[k] for k in (
        "segments", "rule", "dim", "base", "section", "layout"))
    pairing, tps, stamps, scale = (case[k] for k in (
        "pairing", "tokens_per_second", "timestamp_tokens", "temporal_scale"))
    cmd = [*exe, "--segments", segment_spec(segments), "--rule", rule, "--dim", str(dim),
           "--base", repr(base), "--section", ",".join(map(str, section)), "--layout", layout,
           "--pairing", pairing, "--tokens-per-second", str(tps), "--timestamp-tokens",
           str(stamps), "--temporal-scale", repr(scale), "--seed", str(case["seed"])]
    if case.get("query") is not None:
        cmd += ["--query", str(case["query"])]
    label = " ".join(cmd[len(exe):])
    proc = crash_report.run(cmd, capture_output=True, text=True, check=False)
    if not section_ok(dim, section, layout):
        ok = (proc.returncode == 2 and not proc.stdout and proc.stderr.count("\n") == 1 and
              proc.stderr.startswith("mrope_dump: error: mrope_section: "))
        if not ok:
            failures.append(f"{label}: expected an mrope_section error, got exit "
                            f"{proc.returncode}, stderr {proc.stderr!r}")
        checked += 1
        return
    if proc.returncode != 0 or proc.stderr:
        failures.append(f"{label}: exit {proc.returncode}, stderr {proc.stderr!r}")
        return
    rows = list(csv.reader(io.StringIO(proc.stdout)))
    q = [float(v) for v in rows[0][1:]]
    k = [float(v) for v in rows[1][1:]]
    query = int(rows[3][1])
    tokens = rows[5:]
    if rows[0][0] != "q" or rows[1][0] != "k" or rows[3][0] != "query" or rows[4][0] != "token":
        failures.append(f"{label}: unexpected layout of the output")
        return

    input_ids, images, videos, seconds = build_inputs(segments, rule, stamps)
    ids = get_rope_index(input_ids, images, videos, seconds, rule, tps, scale)
    if len(tokens) != len(input_ids):
        failures.append(f"{label}: {len(tokens)} tokens, expected {len(input_ids)}")
        return
    # The axis each pair reads: its angle at (t, h, w) = (1, 2, 3) over its angle at (1, 1, 1).
    probe = pair_angles((1.0, 2.0, 3.0), dim, base, section, layout)
    unit = pair_angles((1.0, 1.0, 1.0), dim, base, section, layout)
    want_axes = ["thw"[round(p / u) - 1] for p, u in zip(probe, unit)]
    if rows[2][1:] != want_axes:
        failures.append(f"{label}: axes {rows[2][1:]}, expected {want_axes}")

    angles = [pair_angles((ids[0][i], ids[1][i], ids[2][i]), dim, base, section, layout)
              for i in range(len(input_ids))]
    rq = rotate(q, angles[query], pairing)
    norm = math.sqrt(sum(v * v for v in q)) * math.sqrt(sum(v * v for v in k))
    for i, row in enumerate(tokens):
        got_ids = [float(row[6]), float(row[7]), float(row[8])]
        want_ids = [float(ids[axis][i]) for axis in range(3)]
        if got_ids != want_ids:
            failures.append(f"{label}: token {i} ids {got_ids}, expected {want_ids}")
            if len(failures) > 40:
                return
            continue
        got_angles = [float(v) for v in row[10:]]
        if len(got_angles) != dim // 2 or not all(
                close(a, b) for a, b in zip(got_angles, angles[i])):
            failures.append(f"{label}: token {i} angles differ")
            continue
        want = sum(a * b for a, b in zip(rq, rotate(k, angles[i], pairing)))
        largest = max([1.0] + [abs(a) for a in angles[i] + angles[query]])
        if not close(float(row[9]), want, norm * largest):
            failures.append(f"{label}: token {i} score {row[9]}, expected {want!r}")
        checked += 1


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("exe", nargs="+", help="the program and its first words")
    parser.add_argument("--seed", type=int, default=None)
    parser.add_argument("--runs", type=int, default=60)
    args = parser.parse_args()
    seed = args.seed if args.seed is not None else time.time_ns() % 2**32
    print(f"check_mrope.py: seed {seed} (repeat with --seed {seed})")
    rng = random.Random(seed)

    def case(segments, rule, dim=8, base=10000.0, section=(1, 1, 2), layout="chunked", **kw):
        c = {"segments": segments, "rule": rule, "dim": dim, "base": base, "section": section,
             "layout": layout, "pairing": "half", "tokens_per_second": 2, "timestamp_tokens": 0,
             "temporal_scale": 2.0, "seed": 7, "query": None}
        c.update(kw)
        return c

    # Hand-checked values first: the Qwen2-VL docstring's 3 x 2 x 2 video, after its
    # <|vision_start|> at 0, has t 1 1 1 1 2 2 2 2 3 3 3 3 and the text after it starts at 5.
    ids = get_rope_index(*build_inputs([("video", 3, 2, 2, 1.0)], "qwen2", 0)[:4], "qwen2", 2, 2.0)
    if ids[0] != [0] + [1] * 4 + [2] * 4 + [3] * 4 + [4] or ids[1][1:5] != [1, 1, 2, 2]:
        failures.append(f"independent Qwen2-VL ids of the docstring video: {ids}")
    # Qwen2.5-VL's docstring: 25 tokens per second, 2 s per grid: temporal steps of 50.
    ids = get_rope_index(*build_inputs([("video", 3, 2, 2, 2.0)], "qwen25", 0)[:4], "qwen25", 25,
                         2.0)
    if ids[0][1:13] != [1] * 4 + [51] * 4 + [101] * 4 or ids[0][13] != 102:
        failures.append(f"independent Qwen2.5-VL ids of the docstring video: {ids}")

    # Fixed cases: every rule on the same sequences, the models' head settings, and edges.
    mixed = [("text", 3), ("image", 2, 3), ("text", 2), ("video", 3, 2, 2, 0.5), ("text", 1)]
    fixed = []
    for rule in ("qwen2", "qwen25", "qwen25_int", "qwen3", "videorope"):
        fixed.append(case(mixed, rule, timestamp_tokens=3))
        fixed.append(case(mixed, rule, dim=128, base=1e6, section=(16, 24, 24)))
        fixed.append(case(mixed, rule, dim=128, base=5e6, section=(24, 20, 20),
                          layout="interleaved", pairing="half", timestamp_tokens=5))
        fixed.append(case(mixed, rule, dim=128, base=1e6, section=(16, 24, 24),
                          layout="videorope", pairing="interleaved", query=4))
    for seconds, tps in ((2 / 3, 3), (0.04, 5), (1.5, 2), (0.0, 2), (7.25, 25)):
        for rule in ("qwen25", "qwen25_int"):
            fixed.append(case([("text", 1), ("video", 12, 1, 2, seconds)], rule,
                              tokens_per_second=tps))
    for scale in (0.3, 0.7, 1.0, 1.7, 64.0):
        fixed.append(case([("text", 2), ("image", 5, 4), ("video", 6, 3, 3, 1.0), ("text", 3)],
                          "videorope", temporal_scale=scale, layout="videorope",
                          section=(2, 1, 1)))
    fixed.append(case([("image", 1, 1)], "qwen2", dim=2, base=2.0, section=(1, 0, 0)))
    fixed.append(case([("text", 5)], "qwen3", dim=6, section=(1, 1, 1), layout="interleaved"))
    # Sections the models cannot use, or that this header refuses: the driver must say so.
    fixed.append(case(mixed, "qwen2", dim=128, section=(16, 24, 20)))
    fixed.append(case(mixed, "qwen3", dim=128, section=(20, 22, 22), layout="interleaved"))
    fixed.append(case(mixed, "qwen3", dim=128, section=(22, 20, 22), layout="interleaved"))
    fixed.append(case(mixed, "qwen3", dim=130, section=(22, 22, 21), layout="interleaved"))
    fixed.append(case(mixed, "videorope", dim=8, section=(0, 5, -1), layout="videorope"))
    for c in fixed:
        check(args.exe, c)

    # Random sequences, rules, layouts and heads.
    for run in range(args.runs):
        segments = []
        for _ in range(rng.randint(1, 6)):
            kind = rng.choice(["text", "image", "video"])
            if kind == "text":
                segments.append(("text", rng.randint(1, 6)))
            elif kind == "image":
                segments.append(("image", rng.randint(1, 7), rng.randint(1, 7)))
            else:
                seconds = rng.choice([1.0, 0.5, 2 / rng.randint(1, 30), round(rng.uniform(0, 4), 3),
                                      rng.uniform(0, 4)])
                segments.append(("video", rng.randint(1, 6), rng.randint(1, 5), rng.randint(1, 5),
                                 seconds))
        half = rng.randint(3, 96)
        layout = rng.choice(["chunked", "interleaved", "videorope"])
        sh, sw = rng.randint(0, (half + 1) // 3), rng.randint(0, half // 3)
        section = (half - sh - sw, sh, sw)
        if rng.random() < 0.1:  # now and then an unusable one
            section = (section[0] + rng.choice([-1, 1]), sh, sw)
        c = case(segments, rng.choice(["qwen2", "qwen25", "qwen25_int", "qwen3", "videorope"]),
                 dim=2 * half, base=math.exp(rng.uniform(math.log(2.0), math.log(1e7))),
                 section=section, layout=layout, pairing=rng.choice(["half", "interleaved"]),
                 tokens_per_second=rng.choice([1, 2, 4, 25, rng.randint(1, 1000)]),
                 timestamp_tokens=rng.randint(0, 6),
                 temporal_scale=rng.choice([2.0, 1.0, 0.5, rng.uniform(0.05, 8.0)]),
                 seed=rng.randint(0, 2**31))
        check(args.exe, c)

    for f in failures:
        print("FAIL:", f)
    print(f"check_mrope.py: {checked} tokens or cases checked, {len(failures)} mismatches")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
