#!/usr/bin/env python3
"""check_models.py — every model preset against its published configuration.

Usage: check_models.py PATH/TO/rope-lab PATH/TO/assets/models.json

PUBLISHED below holds each model's configuration values as the repository records them
(docs/model-presets.md), written here a second time and independently of
assets/models.json. For every preset this script checks

  1. that models.json holds exactly these values (head_dim, rotary dims and meaning, fraction,
     base, contexts, scaling and its parameters, pairing, tag), and that the file has no other
     presets;
  2. that `rope-lab export frequencies --model ID` gives the frequencies computed from them:
       theta_i = base^(-2i/rotary_dim) for the pairs that rotate (rotary_dim = int(head_dim p)
       under neox, the whole head otherwise), 0 for the others; with a scaling method, theta'
       and the attention factor by check_scaling.py's reference (written from the notes on
       context extension, without reference to the C++), on the rotating part of the head;
  3. that `rope-lab models` lists every id with its tag and source, and says what a preset lacks.

Agreement: |a - b| <= 1e-12 |b| for every number (0 and inf exactly). Standard library only.
Exit 0 when everything agrees, 1 otherwise (every mismatch printed).
"""

import csv
import io
import json
import math
import os
import crash_report  # tests/cli/crash_report.py: a crash is printed and kept
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import check_scaling  # noqa: E402  (reference(): the independent scaling formulas)

TOLERANCE = 1e-12

# id: (head_dim, rotary_dims, meaning, fraction, base, context, extended, scaling, pairing, tag)
# pairing: (reference code, transformers); scaling: method and its published parameters.
PUBLISHED = {
    "llama-1-7b": (128, 128, "full", 1.0, 10000.0, 2048, 0, ("none", {}),
                   ("interleaved", "half"), "V"),
    "llama-2-7b": (128, 128, "full", 1.0, 10000.0, 4096, 0, ("none", {}),
                   ("interleaved", "half"), "V"),
    "code-llama-7b": (128, 128, "full", 1.0, 1e6, 16384, 0, ("none", {}),
                      ("interleaved", "half"), "V"),
    "llama-3-8b": (128, 128, "full", 1.0, 500000.0, 8192, 0, ("none", {}),
                   ("interleaved", "half"), "V"),
    "llama-3.1-8b": (128, 128, "full", 1.0, 500000.0, 8192, 131072,
                     ("llama3", {"factor": 8.0, "low_freq_factor": 1.0, "high_freq_factor": 4.0,
                                 "original_context": 8192}),
                     ("interleaved", "half"), "V"),
    "llama-3.2-1b": (64, 64, "full", 1.0, 500000.0, 8192, 131072,
                     ("llama3", {"factor": 32.0, "low_freq_factor": 1.0, "high_freq_factor": 4.0,
                                 "original_context": 8192}),
                     ("interleaved", "half"), "C"),
    "mistral-7b-v0.1": (128, 128, "full", 1.0, 10000.0, 32768, 0, ("none", {}),
                        (None, "half"), "C"),
    "mistral-7b-v0.3": (128, 128, "full", 1.0, 1e6, 32768, 0, ("none", {}), (None, "half"), "C"),
    "qwen2.5-7b": (128, 128, "full", 1.0, 1e6, 32768, 0, ("none", {}), ("half", "half"), "C"),
    "gemma-7b": (256, 256, "full", 1.0, 10000.0, 8192, 0, ("none", {}), ("half", "half"), "C"),
    "gemma-2-9b": (256, 256, "full", 1.0, 10000.0, 8192, 0, ("none", {}), ("half", "half"), "C"),
    "gemma-3-12b-local": (256, 256, "full", 1.0, 10000.0, 131072, 0, ("none", {}),
                          ("half", "half"), "C"),
    "gemma-3-12b-global": (256, 256, "full", 1.0, 1e6, 131072, 0,
                           ("linear", {"factor": 8.0}), ("half", "half"), "C"),
    # the layered preset: with no layer chosen, the global layers' values
    "gemma-3-12b": (256, 256, "full", 1.0, 1e6, 131072, 0,
                    ("linear", {"factor": 8.0}), ("half", "half"), "C"),
    "pythia-6.9b": (128, 32, "neox", 0.25, 10000.0, 2048, 0, ("none", {}), ("half", "half"), "V"),
    "gpt-neox-20b": (96, 24, "neox", 0.25, 10000.0, 2048, 0, ("none", {}), ("half", "half"), "C"),
    "phi-2": (80, 32, "neox", 0.4, 10000.0, 2048, 0, ("none", {}), ("half", "half"), "C"),
    # The LongRoPE lists were not read from the official config.json: the preset lacks them.
    "phi-3-mini-128k": (96, 96, "full", 1.0, 10000.0, 4096, 131072, ("none", {}),
                        ("half", "half"), "V"),
    # The RoPE part of the decoupled head: 64 dims (128 more without RoPE).
    "deepseek-v3": (64, 64, "decoupled", 1.0, 10000.0, 4096, 163840,
                    ("yarn", {"factor": 40.0, "original_context": 4096, "beta_fast": 32.0,
                              "beta_slow": 1.0, "mscale": 1.0, "mscale_all_dim": 1.0}),
                    ("interleaved", "half"), "V"),
    # LongRoPE with the published lists (PHI35_SHORT, PHI35_LONG below, copied a second time from
    # the config.json copies the preset names); factor 32 = 131072 / 4096 sets its attention
    "phi-3.5-mini": (96, 96, "full", 1.0, 10000.0, 4096, 131072,
                     ("longrope", {"factor": 32.0, "original_context": 4096,
                                   "short_factor": "PHI35_SHORT", "long_factor": "PHI35_LONG"}),
                     ("half", "half"), "C"),
    "qwen3-8b": (128, 128, "full", 1.0, 1e6, 40960, 0, ("none", {}), ("half", "half"), "C"),
    "qwen2-vl-7b": (128, 128, "full", 1.0, 1e6, 32768, 0, ("none", {}), ("half", "half"), "C"),
    "qwen2.5-vl-7b": (128, 128, "full", 1.0, 1e6, 128000, 0, ("none", {}), ("half", "half"), "C"),
    "qwen3-vl-8b": (128, 128, "full", 1.0, 5e6, 262144, 0, ("none", {}), ("half", "half"), "C"),
    "gpt-oss-20b": (64, 64, "full", 1.0, 150000.0, 4096, 131072,
                    ("yarn", {"factor": 32.0, "original_context": 4096, "beta_fast": 32.0,
                              "beta_slow": 1.0, "truncate": False}),
                    (None, "half"), "C"),
    "smollm3-3b": (128, 128, "full", 1.0, 5e6, 65536, 0, ("none", {}), (None, "half"), "C"),
    # low = high = 1: the llama3 rule becomes a step at wavelength L
    "llama-4-scout": (128, 128, "full", 1.0, 500000.0, 8192, 10485760,
                      ("llama3", {"factor": 16.0, "low_freq_factor": 1.0, "high_freq_factor": 1.0,
                                  "original_context": 8192}),
                      (None, "half"), "C"),
}

# The multimodal (M-RoPE) presets: mrope_section, the pair layout and the id rule of each model's
# config and transformers code (Qwen2-VL and Qwen2.5-VL: rope_scaling mrope_section [16, 24, 24],
# apply_multimodal_rotary_pos_emb; Qwen3-VL: [24, 20, 20] with mrope_interleaved true).
MROPE = {
    "qwen2-vl-7b": {"section": [16, 24, 24], "layout": "chunked", "rule": "qwen2"},
    "qwen2.5-vl-7b": {"section": [16, 24, 24], "layout": "chunked", "rule": "qwen25",
                      "tokens_per_second": 2},
    "qwen3-vl-8b": {"section": [24, 20, 20], "layout": "interleaved", "rule": "qwen3"},
}

# Models whose layers differ, from their configs and transformers' rules (written here apart from
# models.json's "layers" blocks): the layer count, the kind of layer l, and per kind what differs
# from PUBLISHED: None (the model's values), "nope" (no rotation), or (base, scaling).
LAYERS = {
    # Gemma2: layer_idx even slides (window 4096), the same RoPE everywhere
    "gemma-2-9b": (42, lambda l: "local" if l % 2 == 0 else "global",
                   {"local": None, "global": None}),
    # Gemma3: (l + 1) % 6 != 0 slides with rope_local_base_freq 10000 and no scaling
    "gemma-3-12b": (48, lambda l: "global" if (l + 1) % 6 == 0 else "local",
                    {"local": (10000.0, ("none", {})), "global": None}),
    # gpt-oss: layer_types alternate sliding_attention and full_attention, YaRN everywhere
    "gpt-oss-20b": (24, lambda l: "sliding" if l % 2 == 0 else "full",
                    {"sliding": None, "full": None}),
    # SmolLM3: no_rope_layer_interval 4
    "smollm3-3b": (36, lambda l: "NoPE" if (l + 1) % 4 == 0 else "RoPE",
                   {"RoPE": None, "NoPE": "nope"}),
    # Llama 4 Scout: no_rope_layers [1, 1, 1, 0] x 12, chunked attention in the RoPE layers
    "llama-4-scout": (48, lambda l: "NoPE" if (l + 1) % 4 == 0 else "chunked",
                      {"chunked": None, "NoPE": "nope"}),
}

# Phi-3.5-mini-instruct's LongRoPE divisors, as its config.json writes them (float32 values).
PHI35_SHORT = [
    1.0, 1.0199999809265137, 1.0299999713897705, 1.0299999713897705, 1.0499999523162842,
    1.0499999523162842, 1.0499999523162842, 1.0499999523162842, 1.0499999523162842,
    1.0699999332427979, 1.0999999046325684, 1.1099998950958252, 1.1599998474121094,
    1.1599998474121094, 1.1699998378753662, 1.2899998426437378, 1.339999794960022,
    1.679999828338623, 1.7899998426437378, 1.8199998140335083, 1.8499997854232788,
    1.8799997568130493, 1.9099997282028198, 1.9399996995925903, 1.9899996519088745,
    2.0199997425079346, 2.0199997425079346, 2.0199997425079346, 2.0199997425079346,
    2.0199997425079346, 2.0199997425079346, 2.0299997329711914, 2.0299997329711914,
    2.0299997329711914, 2.0299997329711914, 2.0299997329711914, 2.0299997329711914,
    2.0299997329711914, 2.0299997329711914, 2.0299997329711914, 2.0799996852874756,
    2.0899996757507324, 2.189999580383301, 2.2199995517730713, 2.5899994373321533,
    2.729999542236328, 2.749999523162842, 2.8399994373321533]
PHI35_LONG = [
    1.0800000429153442, 1.1100000143051147, 1.1399999856948853, 1.340000033378601,
    1.5899999141693115, 1.600000023841858, 1.6200000047683716, 2.620000123977661,
    3.2300000190734863, 3.2300000190734863, 4.789999961853027, 7.400000095367432,
    7.700000286102295, 9.09000015258789, 12.199999809265137, 17.670000076293945,
    24.46000099182129, 28.57000160217285, 30.420001983642578, 30.840002059936523,
    32.590003967285156, 32.93000411987305, 42.320003509521484, 44.96000289916992,
    50.340003967285156, 50.45000457763672, 57.55000305175781, 57.93000411987305,
    58.21000289916992, 60.1400032043457, 62.61000442504883, 62.62000274658203,
    62.71000289916992, 63.1400032043457, 63.1400032043457, 63.77000427246094,
    63.93000411987305, 63.96000289916992, 63.970001220703125, 64.02999877929688,
    64.06999969482422, 64.08000183105469, 64.12000274658203, 64.41000366210938,
    64.4800033569336, 64.51000213623047, 64.52999877929688, 64.83999633789062]
LISTS = {"PHI35_SHORT": PHI35_SHORT, "PHI35_LONG": PHI35_LONG}


def published_params(params):
    """The scaling parameters with the named lists in place of their names."""
    return {k: LISTS.get(v, v) if isinstance(v, str) else v for k, v in params.items()}


def as_numbers(v):
    return [float(x) for x in v] if isinstance(v, list) else float(v)

failures = []
checked = 0


def close(a, b):
    if b == 0.0 or math.isinf(b):
        return a == b
    return abs(a - b) <= TOLERANCE * abs(b)


def expected(entry):
    """(theta, theta_scaled, attention) per pair, or theta alone when nothing scales."""
    head, rotary, meaning, p, base, context, _, (method, params), _, _ = entry
    half = head // 2
    rotary_dim = int(head * p) if meaning == "neox" else head
    pairs = rotary_dim // 2
    cfg = dict(check_scaling.DEFAULTS)
    cfg["original_context"] = context
    cfg.update(published_params(params))
    theta, scaled, attention = check_scaling.reference(rotary_dim, base, method, cfg)
    pad = [0.0] * (half - pairs)
    return theta + pad, scaled + pad, attention, method != "none"


def check_file(models):
    global checked
    ids = [m["id"] for m in models]
    if sorted(ids) != sorted(PUBLISHED):
        failures.append(f"models.json ids {ids} differ from the published list {sorted(PUBLISHED)}")
    for m in models:
        want = PUBLISHED.get(m["id"])
        if want is None:
            continue
        head, rotary, meaning, p, base, context, extended, (method, params), pairing, tag = want
        got = (m["head_dim"], m["rotary_dims"], m["rotary_meaning"], m.get("rotary_fraction", 1.0),
               float(m["base"]), m["context"], m.get("extended_context", 0),
               m["scaling"]["method"], m["pairing"].get("reference"), m["pairing"]["transformers"],
               m["tag"])
        exp = (head, rotary, meaning, p, base, context, extended, method, pairing[0], pairing[1],
               tag)
        if got != exp:
            failures.append(f"{m['id']}: models.json has {got}, published {exp}")
        if m.get("mrope") != MROPE.get(m["id"]):
            failures.append(f"{m['id']}: mrope {m.get('mrope')}, published {MROPE.get(m['id'])}")
        extra = {k: as_numbers(v) for k, v in m["scaling"].items() if k != "method"}
        if extra != {k: as_numbers(v) for k, v in published_params(params).items()}:
            failures.append(f"{m['id']}: scaling parameters {extra}, published {params}")
        checked += 1


def check_export(exe, model_id):
    global checked
    proc = crash_report.run([exe, "export", "frequencies", "--model", model_id],
                          capture_output=True, text=True, check=False)
    if proc.returncode != 0 or proc.stderr:
        failures.append(f"{model_id}: exit {proc.returncode}, stderr {proc.stderr!r}")
        return
    rows = list(csv.reader(io.StringIO(proc.stdout)))
    theta, scaled, attention, with_scaling = expected(PUBLISHED[model_id])
    header = rows[0]
    if len(rows) - 1 != len(theta):
        failures.append(f"{model_id}: {len(rows) - 1} rows, expected {len(theta)}")
        return
    for i, row in enumerate(rows[1:]):
        values = dict(zip(header, row))
        if int(values["i"]) != i:
            failures.append(f"{model_id}: row {i} has i = {values['i']}")
        if with_scaling:
            pairs = [("theta", theta[i]), ("theta_scaled", scaled[i]),
                     ("attention_factor", attention)]
        else:
            pairs = [("theta", scaled[i])]
        for column, want in pairs:
            if column not in values:
                failures.append(f"{model_id}: no column {column} in {header}")
                return
            if not close(float(values[column]), want):
                failures.append(f"{model_id}: row {i} {column} = {values[column]}, "
                                f"expected {want!r}")
            checked += 1


def check_layers(exe, models):
    """Each layered preset's layers block against LAYERS, and a layer of every kind exported."""
    global checked
    by_id = {m["id"]: m for m in models}
    for model_id, (count, kind_of, kinds) in LAYERS.items():
        block = by_id.get(model_id, {}).get("layers")
        if block is None:
            failures.append(f"{model_id}: no layers block")
            continue
        period = block["pattern"]
        got = [period[l % len(period)] for l in range(block["count"])]
        want = [kind_of(l) for l in range(count)]
        if got != want:
            failures.append(f"{model_id}: layers {got}, expected {want}")
        for kind in kinds:
            layer = want.index(kind)
            proc = crash_report.run([exe, "export", "frequencies", "--model", model_id,
                                     "--layer", str(layer)],
                                    capture_output=True, text=True, check=False)
            if proc.returncode != 0 or proc.stderr:
                failures.append(f"{model_id} layer {layer}: exit {proc.returncode}, "
                                f"{proc.stderr!r}")
                continue
            rows = list(csv.reader(io.StringIO(proc.stdout)))
            entry = list(PUBLISHED[model_id])
            change = kinds[kind]
            if isinstance(change, tuple):
                entry[4], entry[7] = change
            theta, scaled, attention, with_scaling = expected(tuple(entry))
            if change == "nope":  # nothing rotates: theta_scaled 0 beside the plain theta
                scaled, attention, with_scaling = [0.0] * len(theta), 1.0, True
            header = rows[0]
            for i, row in enumerate(rows[1:]):
                values = dict(zip(header, row))
                if values.get("layer") != str(layer):
                    failures.append(f"{model_id} layer {layer}: row {i} layer {values.get('layer')}")
                pairs = ([("theta", theta[i]), ("theta_scaled", scaled[i]),
                          ("attention_factor", attention)] if with_scaling
                         else [("theta", scaled[i])])
                for column, want_value in pairs:
                    if column not in values or not close(float(values[column]), want_value):
                        failures.append(f"{model_id} layer {layer}: row {i} {column} = "
                                        f"{values.get(column)}, expected {want_value!r}")
                    checked += 1


def check_listing(exe, models):
    proc = crash_report.run([exe, "models"], capture_output=True, text=True, check=False)
    if proc.returncode != 0:
        failures.append(f"rope-lab models: exit {proc.returncode}, {proc.stderr!r}")
        return
    for m in models:
        block = proc.stdout.split("\n" + m["id"] + "  ")
        if len(block) != 2:
            failures.append(f"rope-lab models: no block for {m['id']}")
            continue
        text = block[1].split("\n\n")[0]
        if f"[{m['tag']}:" not in text or m["source"] not in text:
            failures.append(f"rope-lab models: {m['id']} lacks its tag or source: {text!r}")
        if "lacks" in m and "LACKS:" not in text:
            failures.append(f"rope-lab models: {m['id']} does not say what it lacks")


def main():
    exe, path = sys.argv[1], sys.argv[2]
    with open(path, encoding="utf-8") as f:
        models = json.load(f)["models"]
    check_file(models)
    for model_id in PUBLISHED:
        check_export(exe, model_id)
    check_listing(exe, models)
    check_layers(exe, models)
    # The note's example: 25 % of a 128-dim head (Pythia), slowest kept wavelength.
    for model_id, want in (("pythia-6.9b", 2 * math.pi * 10000 ** (30 / 32)),):
        theta = expected(PUBLISHED[model_id])[1][15]
        if not close(2 * math.pi / theta, want):
            failures.append(f"{model_id}: slowest wavelength {2 * math.pi / theta}, want {want}")
    for f in failures:
        print("FAIL:", f)
    print(f"check_models.py: {len(PUBLISHED)} presets, {checked} values checked, "
          f"{len(failures)} mismatches")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
