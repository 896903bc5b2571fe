// Tests for rope/mrope.h: M-RoPE position ids, pair layouts, angles and scores.
#include <catch2/catch.hpp>

#include <algorithm>
#include <array>
#include <cmath>
#include <limits>
#include <string>
#include <utility>
#include <vector>

#include "rope/frequencies.h"
#include "rope/mrope.h"
#include "rope/rotation.h"
#include "test_support.h"

using Catch::Matchers::WithinAbs;
using rope::MropeAxis;
using rope::MropeLayout;
using rope::MropePosition;
using rope::MropeRule;
using rope::MropeRuleParams;
using rope::MropeSegment;
using rope::MropeTokenKind;
using rope::Pairing;

namespace {

using Ids = std::vector<std::array<double, 3>>;

Ids ids_of(const std::vector<rope::MropeToken>& tokens) {
  Ids out;
  for (const auto& tok : tokens)
    out.push_back({tok.position.t, tok.position.h, tok.position.w});
  return out;
}

std::vector<rope::MropeToken> positions(const std::vector<MropeSegment>& segments,
                                        const MropeRuleParams& params) {
  auto r = rope::mrope_positions(segments, params);
  REQUIRE(r);
  return r.value();
}

// The t, h, w ids of a run of text tokens starting at `first`.
void add_text(Ids& ids, double first, int count) {
  for (int i = 0; i < count; ++i)
    ids.push_back({first + i, first + i, first + i});
}

// Patches of a grid starting at st (Qwen rules): t = st + time[f], h = st + r, w = st + c.
void add_grid(Ids& ids, double st, const std::vector<double>& time, int rows, int columns) {
  for (const double t : time)
    for (int r = 0; r < rows; ++r)
      for (int c = 0; c < columns; ++c)
        ids.push_back({st + t, st + r, st + c});
}

int count(const std::vector<MropeAxis>& axes, MropeAxis a) {
  int n = 0;
  for (const MropeAxis x : axes)
    n += x == a ? 1 : 0;
  return n;
}

const std::vector<MropeSegment> kTextImageText{MropeSegment::text(3), MropeSegment::image(2, 3),
                                               MropeSegment::text(2)};

}  // namespace

// --- Exact small cases ----------------------------------------------------------------------

TEST_CASE("mrope: names round-trip", "[mrope]") {
  for (const MropeRule r :
       {MropeRule::qwen2_vl, MropeRule::qwen2_5_vl, MropeRule::qwen2_5_vl_int_seconds,
        MropeRule::qwen3_vl, MropeRule::videorope})
    CHECK(rope::parse_mrope_rule(rope::mrope_rule_name(r)) == r);
  for (const MropeLayout l :
       {MropeLayout::chunked, MropeLayout::interleaved, MropeLayout::videorope})
    CHECK(rope::parse_mrope_layout(rope::mrope_layout_name(l)) == l);
  CHECK(std::string(rope::mrope_rule_name(MropeRule::qwen2_5_vl)) == "qwen25");
  CHECK_FALSE(rope::parse_mrope_rule("qwen4"));
  CHECK_FALSE(rope::parse_mrope_layout("Chunked"));
  CHECK(std::string(rope::mrope_axis_name(MropeAxis::w)) == "w");
  CHECK(std::string(rope::mrope_token_kind_name(MropeTokenKind::vision_end)) == "vision_end");
}

TEST_CASE("mrope: text, image, text by hand", "[mrope]") {
  // text:3 -> 0 1 2; <|vision_start|> -> 3; the 2 x 3 image starts at st = 4: t = 4,
  // h = 4 + row, w = 4 + column; its largest id is 6, so <|vision_end|> -> 7; text:2 -> 8 9.
  Ids want;
  add_text(want, 0, 4);
  add_grid(want, 4, {0}, 2, 3);
  add_text(want, 7, 3);
  // An image is the same under every Qwen rule (one temporal grid, time 0).
  for (const MropeRule r : {MropeRule::qwen2_vl, MropeRule::qwen2_5_vl,
                            MropeRule::qwen2_5_vl_int_seconds, MropeRule::qwen3_vl}) {
    const auto tokens = positions(kTextImageText, {r});
    CHECK(ids_of(tokens) == want);
  }
  const auto tokens = positions(kTextImageText, {MropeRule::qwen2_vl});
  REQUIRE(tokens.size() == 13);
  CHECK(tokens[3].kind == MropeTokenKind::vision_start);
  CHECK(tokens[3].segment == 1);
  CHECK(tokens[9].kind == MropeTokenKind::patch);
  CHECK(tokens[9].frame == 0);
  CHECK(tokens[9].row == 1);
  CHECK(tokens[9].column == 2);
  CHECK(tokens[10].kind == MropeTokenKind::vision_end);
  CHECK(tokens[12].kind == MropeTokenKind::text);
  CHECK(tokens[12].segment == 2);
  CHECK(tokens[12].row == -1);

  // VideoRoPE (delta 2): t = st = 4; h = t + row - (2-1)/2 = 4, 5; w = t + column - (3-1)/2
  // = 3, 4, 5; the text after goes on from the largest t + 1 = 5.
  Ids video_rope;
  add_text(video_rope, 0, 4);
  for (int r = 0; r < 2; ++r)
    for (int c = 0; c < 3; ++c)
      video_rope.push_back({4.0, 4.0 + r, 3.0 + c});
  add_text(video_rope, 5, 3);
  CHECK(ids_of(positions(kTextImageText, {MropeRule::videorope})) == video_rope);
}

TEST_CASE("mrope: a 3 x 2 x 2 video under each rule by hand", "[mrope]") {
  // text:1 -> 0, <|vision_start|> -> 1, the video's patches from st = 2.
  const auto seq = [](double seconds) {
    return std::vector<MropeSegment>{MropeSegment::text(1), MropeSegment::video(3, 2, 2, seconds)};
  };
  Ids want;
  SECTION("Qwen2-VL: t = st + frame; largest id 2 + 2 = 4, <|vision_end|> 5") {
    add_text(want, 0, 2);
    add_grid(want, 2, {0, 1, 2}, 2, 2);
    add_text(want, 5, 1);
    CHECK(ids_of(positions(seq(1.0), {MropeRule::qwen2_vl})) == want);
  }
  SECTION("Qwen2.5-VL, 1 s per grid, 2 tokens per second: t = 2, 4, 6") {
    add_text(want, 0, 2);
    add_grid(want, 2, {0, 2, 4}, 2, 2);
    add_text(want, 7, 1);
    CHECK(ids_of(positions(seq(1.0), {MropeRule::qwen2_5_vl, 2})) == want);
    CHECK(ids_of(positions(seq(1.0), {MropeRule::qwen2_5_vl_int_seconds, 2})) == want);
  }
  SECTION("Qwen2.5-VL, 0.5 s per grid: t = 2, 3, 4; cast to int first: all 2") {
    add_text(want, 0, 2);
    add_grid(want, 2, {0, 1, 2}, 2, 2);
    add_text(want, 5, 1);
    CHECK(ids_of(positions(seq(0.5), {MropeRule::qwen2_5_vl, 2})) == want);
    Ids collapsed;
    add_text(collapsed, 0, 2);
    add_grid(collapsed, 2, {0, 0, 0}, 2, 2);
    add_text(collapsed, 4, 1);  // largest id: h = w = 3
    CHECK(ids_of(positions(seq(0.5), {MropeRule::qwen2_5_vl_int_seconds, 2})) == collapsed);
  }
  SECTION("Qwen2.5-VL, 1.5 s per grid: 0, 3, 6 against trunc(1.5) = 1: 0, 2, 4") {
    add_text(want, 0, 2);
    add_grid(want, 2, {0, 3, 6}, 2, 2);
    add_text(want, 9, 1);
    CHECK(ids_of(positions(seq(1.5), {MropeRule::qwen2_5_vl, 2})) == want);
    Ids truncated;
    add_text(truncated, 0, 2);
    add_grid(truncated, 2, {0, 2, 4}, 2, 2);
    add_text(truncated, 7, 1);
    CHECK(ids_of(positions(seq(1.5), {MropeRule::qwen2_5_vl_int_seconds, 2})) == truncated);
  }
  SECTION("Qwen3-VL, 2 timestamp tokens: each frame is its own block after its text") {
    // Per frame: 2 timestamp tokens, <|vision_start|>, 2 x 2 patches at t = st, <|vision_end|>.
    add_text(want, 0, 4);  // text, timestamp x2, vision_start
    add_grid(want, 4, {0}, 2, 2);
    add_text(want, 6, 4);  // vision_end, timestamp x2, vision_start
    add_grid(want, 10, {0}, 2, 2);
    add_text(want, 12, 4);
    add_grid(want, 16, {0}, 2, 2);
    add_text(want, 18, 1);
    MropeRuleParams p{MropeRule::qwen3_vl};
    p.timestamp_tokens = 2;
    const auto tokens = positions(seq(1.0), p);
    CHECK(ids_of(tokens) == want);
    REQUIRE(tokens.size() == 25);
    // 0 text; 1, 2 timestamp; 3 vision_start; 4 ... 7 frame 0; 8 vision_end; 9, 10 timestamp...
    CHECK(tokens[8].kind == MropeTokenKind::vision_end);
    CHECK(tokens[8].frame == 0);
    CHECK(tokens[9].kind == MropeTokenKind::timestamp);
    CHECK(tokens[9].frame == 1);
    CHECK(tokens[12].kind == MropeTokenKind::patch);
    CHECK(tokens[12].frame == 1);
    CHECK(tokens[12].row == 0);
  }
  SECTION("VideoRoPE, delta 2: t = 2, 4, 6 on the diagonal; the text after from 7") {
    add_text(want, 0, 2);
    for (int f = 0; f < 3; ++f)
      for (int r = 0; r < 2; ++r)
        for (int c = 0; c < 2; ++c)  // (2 - 1) / 2 = 0: no shift
          want.push_back({2.0 + 2 * f, 2.0 + 2 * f + r, 2.0 + 2 * f + c});
    add_text(want, 7, 1);
    CHECK(ids_of(positions(seq(1.0), {MropeRule::videorope})) == want);
  }
}

TEST_CASE("mrope: ids follow the models' float32 arithmetic", "[mrope]") {
  // Qwen2.5-VL: trunc(float32(float32(f * s) * tps)). With s = 0.04 s and 5 tokens per second,
  // frame 5 gives float32 0.99999994 -> 0 (exactly 1 in real numbers); s = 2/3, 3 per second:
  // frame 7 gives 14 (double arithmetic gives 13.999999999999998 -> 13).
  const auto video_times = [](double seconds, std::int64_t tps, int frames) {
    const auto tokens =
        positions({MropeSegment::text(1), MropeSegment::video(frames, 1, 1, seconds)},
                  {MropeRule::qwen2_5_vl, tps});
    std::vector<double> t;
    for (const auto& tok : tokens)
      if (tok.kind == MropeTokenKind::patch) t.push_back(tok.position.t - 2.0);
    return t;
  };
  CHECK(video_times(0.04, 5, 8) == std::vector<double>{0, 0, 0, 0, 0, 0, 1, 1});
  CHECK(video_times(2.0 / 3.0, 3, 8) == std::vector<double>{0, 2, 4, 6, 8, 10, 12, 14});
  // VideoRoPE with delta 0.3: t = float32(float32(f * 0.3f) + 2): 2, 2.3f, 2.6f; the text after
  // starts at float32(2.6f + 1) = 3.6f. Values from Python's struct float32 rounding.
  MropeRuleParams p{MropeRule::videorope};
  p.temporal_scale = 0.3;
  const auto tokens =
      positions({MropeSegment::text(1), MropeSegment::video(3, 1, 1), MropeSegment::text(1)}, p);
  REQUIRE(tokens.size() == 7);
  CHECK(tokens[2].position.t == 2.0);
  CHECK(tokens[3].position.t == 2.299999952316284);
  CHECK(tokens[4].position.t == 2.5999999046325684);
  CHECK(tokens[4].position.h == 2.5999999046325684);
  CHECK(tokens[5].position.t == 3.5999999046325684);  // <|vision_end|>
  CHECK(tokens[6].position.w == 4.599999904632568);
}

TEST_CASE("mrope: pair axes of Qwen2-VL, Qwen3-VL and VideoRoPE at d = 128", "[mrope]") {
  auto chunked = rope::mrope_pair_axes(128, {16, 24, 24}, MropeLayout::chunked);
  REQUIRE(chunked);
  const auto& c = chunked.value();
  REQUIRE(c.size() == 64);
  // t: pairs 0 ... 15 (the fastest), h: 16 ... 39, w: 40 ... 63 (only the slowest).
  for (int j = 0; j < 64; ++j) {
    const MropeAxis want = j < 16 ? MropeAxis::t : (j < 40 ? MropeAxis::h : MropeAxis::w);
    CHECK(c[static_cast<std::size_t>(j)] == want);
  }
  CHECK(count(c, MropeAxis::t) == 16);
  CHECK(count(c, MropeAxis::h) == 24);
  CHECK(count(c, MropeAxis::w) == 24);

  auto inter = rope::mrope_pair_axes(128, {24, 20, 20}, MropeLayout::interleaved);
  REQUIRE(inter);
  const auto& in = inter.value();
  // h: 1, 4, ..., 58; w: 2, 5, ..., 59; t: 0, 3, ..., 63 and 61, 62 (past 3 * 20 = 60).
  for (int j = 0; j < 64; ++j) {
    MropeAxis want = MropeAxis::t;
    if (j < 60 && j % 3 == 1) want = MropeAxis::h;
    if (j < 60 && j % 3 == 2) want = MropeAxis::w;
    CHECK(in[static_cast<std::size_t>(j)] == want);
  }
  CHECK(count(in, MropeAxis::t) == 24);
  CHECK(count(in, MropeAxis::h) == 20);
  CHECK(count(in, MropeAxis::w) == 20);
  CHECK(in[1] == MropeAxis::h);
  CHECK(in[58] == MropeAxis::h);
  CHECK(in[59] == MropeAxis::w);
  CHECK(in[61] == MropeAxis::t);
  CHECK(in[62] == MropeAxis::t);

  auto video = rope::mrope_pair_axes(128, {16, 24, 24}, MropeLayout::videorope);
  REQUIRE(video);
  // h, w alternate over the fastest 48 pairs; t has the slowest 16.
  for (int j = 0; j < 64; ++j) {
    const MropeAxis want = j >= 48 ? MropeAxis::t : (j % 2 == 0 ? MropeAxis::h : MropeAxis::w);
    CHECK(video.value()[static_cast<std::size_t>(j)] == want);
  }
}

TEST_CASE("mrope: angles by hand at d = 8", "[mrope]") {
  // d = 8, base 10000: theta = 1, 0.1, 0.01, 0.001. Section (1, 1, 2) chunked: t, h, w, w.
  // At (t, h, w) = (5, 7, 11): 5, 0.7, 0.11, 0.011.
  auto a = rope::mrope_angles(8, 10000.0, {1, 1, 2}, MropeLayout::chunked, {5, 7, 11});
  REQUIRE(a);
  REQUIRE(a.value().size() == 4);
  CHECK(a.value()[0] == 5.0);
  CHECK_THAT(a.value()[1], WithinAbs(0.7, 1e-15));
  CHECK_THAT(a.value()[2], WithinAbs(0.11, 1e-15));
  CHECK_THAT(a.value()[3], WithinAbs(0.011, 1e-16));
  // Interleaved (2, 1, 1): pairs t, h, w, t.
  auto b = rope::mrope_angles(8, 10000.0, {2, 1, 1}, MropeLayout::interleaved, {5, 7, 11});
  REQUIRE(b);
  CHECK(b.value()[0] == 5.0);
  CHECK_THAT(b.value()[1], WithinAbs(0.7, 1e-15));
  CHECK_THAT(b.value()[2], WithinAbs(0.11, 1e-15));
  CHECK_THAT(b.value()[3], WithinAbs(0.005, 1e-16));
  // half_split pairs (x_j, x_{j+4}): x = e_0 + e_4 at t = 5 turns pair 0 by 5 rad.
  const std::vector<double> x{1, 0, 0, 0, 1, 0, 0, 0};
  auto y = rope::mrope_rotate(x, {5, 7, 11}, 10000.0, {1, 1, 2}, MropeLayout::chunked,
                              Pairing::half_split);
  REQUIRE(y);
  CHECK_THAT(y.value()[0], WithinAbs(std::cos(5.0) - std::sin(5.0), 1e-15));
  CHECK_THAT(y.value()[4], WithinAbs(std::sin(5.0) + std::cos(5.0), 1e-15));
  CHECK(y.value()[1] == 0.0);
}

TEST_CASE("mrope: bad input is reported with the parameter and the range", "[mrope]") {
  const auto err = [](const auto& r) { return r.error().to_string(); };
  CHECK(err(rope::mrope_pair_axes(128, {16, 24, 20}, MropeLayout::chunked)) ==
        "mrope_section: must sum to d/2 = 64, got 60 (16,24,20)");
  CHECK(err(rope::mrope_pair_axes(128, {16, -1, 49}, MropeLayout::chunked)) ==
        "mrope_section: entries must be integers from 0 to d/2 = 64, got 16,-1,49");
  // Interleaved: h takes 1, 4, ..., 3 s_h - 2 and w takes 2, 5, ..., 3 s_w - 1; both must fit.
  CHECK(err(rope::mrope_pair_axes(128, {20, 22, 22}, MropeLayout::interleaved)) ==
        "mrope_section: the interleaved layout puts h on pairs 1, 4, ..., 64 (3 * 22 - 2), past "
        "the last pair d/2 - 1 = 63");
  CHECK(err(rope::mrope_pair_axes(128, {21, 22, 21}, MropeLayout::interleaved)) ==
        "mrope_section: the interleaved layout puts h on pairs 1, 4, ..., 64 (3 * 22 - 2), past "
        "the last pair d/2 - 1 = 63");
  CHECK(err(rope::mrope_pair_axes(128, {22, 20, 22}, MropeLayout::interleaved)) ==
        "mrope_section: the interleaved layout puts w on pairs 2, 5, ..., 65 (3 * 22 - 1), past "
        "the last pair d/2 - 1 = 63");
  CHECK(rope::mrope_pair_axes(128, {20, 22, 22}, MropeLayout::chunked));
  // At d/2 = 65, (22, 22, 21) fits exactly: h on 1 ... 64 (3 * 22 - 2), w on 2 ... 62.
  auto fits = rope::mrope_pair_axes(130, {22, 22, 21}, MropeLayout::interleaved);
  REQUIRE(fits);
  CHECK(count(fits.value(), MropeAxis::h) == 22);
  CHECK(count(fits.value(), MropeAxis::w) == 21);
  CHECK(count(fits.value(), MropeAxis::t) == 22);
  CHECK(err(rope::mrope_pair_axes(7, {1, 1, 1}, MropeLayout::chunked)) ==
        "dim: must be an even integer from 2 to 4096, got 7");
  CHECK(err(rope::mrope_angles(8, 1.0, {2, 1, 1}, MropeLayout::chunked, {})) ==
        "base: must be a finite number greater than 1, got 1");
  CHECK(err(rope::mrope_angles(8, 100.0, {2, 1, 1}, MropeLayout::chunked, {0, std::nan(""), 0})) ==
        "position_h: must be a finite number, got nan");

  const std::vector<MropeSegment> none;
  CHECK(err(rope::mrope_positions(none, {})) ==
        "segments: must hold at least one segment, got none");
  CHECK(err(rope::mrope_positions(std::vector{MropeSegment::text(0)}, {})) ==
        "segments: segment 0 (text): length must be an integer from 1 to 65536, got 0");
  CHECK(err(rope::mrope_positions(std::vector{MropeSegment::text(2), MropeSegment::image(2, 0)},
                                  {})) ==
        "segments: segment 1 (image): grid_w must be an integer from 1 to 1024, got 0");
  CHECK(err(rope::mrope_positions(std::vector{MropeSegment::video(2, 2, 2, -1.0)}, {})) ==
        "segments: segment 0 (video): seconds_per_grid must be a finite number from 0 to 3600, "
        "got -1");
  CHECK(err(rope::mrope_positions(std::vector{MropeSegment::image(1024, 1024)}, {})) ==
        "segments: must hold at most 65536 tokens in all; segments 0 ... 0 already hold 1048578");
  MropeRuleParams p;
  p.tokens_per_second = 0;
  CHECK(err(rope::mrope_positions(kTextImageText, p)) ==
        "tokens_per_second: must be an integer from 1 to 1000, got 0");
  p = {};
  p.temporal_scale = std::numeric_limits<double>::infinity();
  CHECK(err(rope::mrope_positions(kTextImageText, p)) ==
        "temporal_scale: must be a finite number greater than 0 and at most 64, got inf");
  p = {};
  p.timestamp_tokens = 65;
  CHECK(err(rope::mrope_positions(kTextImageText, p)) ==
        "timestamp_tokens: must be an integer from 0 to 64, got 65");

  const std::vector<double> q(8, 1.0), k6(6, 1.0);
  CHECK(err(rope::mrope_score(q, k6, {}, {}, 100.0, {2, 1, 1}, MropeLayout::chunked,
                              Pairing::half_split)) ==
        "key: must have 8 entries ([d], as many as the query), got 6");
  CHECK(err(rope::mrope_score(q, q, {}, {0, 0, HUGE_VAL}, 100.0, {2, 1, 1}, MropeLayout::chunked,
                              Pairing::half_split)) == "key_w: must be a finite number, got inf");
  const std::vector<MropePosition> keys{{0, 0, 0}, {1, std::nan(""), 1}};
  CHECK(err(rope::mrope_scores(q, q, {}, keys, 100.0, {2, 1, 1}, MropeLayout::chunked,
                               Pairing::half_split)) ==
        "key_positions: entry 1 has h = nan; ids must be finite");
  // No keys, no scores.
  auto empty =
      rope::mrope_scores(q, q, {}, {}, 100.0, {2, 1, 1}, MropeLayout::chunked, Pairing::half_split);
  REQUIRE(empty);
  CHECK(empty.value().empty());
}

// --- Identities over seeded random inputs ---------------------------------------------------

TEST_CASE("mrope: the score depends only on the per-axis offsets", "[mrope]") {
  for (int i = 0; i < 150; ++i) {
    rope::SplitMix64 rng(rope_test::seed(9100 + i));
    const int half = 3 + static_cast<int>(rng.next() % 62);  // d = 6 ... 128
    const int d = 2 * half;
    const auto layout = static_cast<MropeLayout>(i % 3);
    // A section valid for the layout: s_h, s_w <= half / 3 fits all three.
    const std::int64_t sh =
        static_cast<std::int64_t>(rng.next() % static_cast<unsigned>(half / 3 + 1));
    const std::int64_t sw =
        static_cast<std::int64_t>(rng.next() % static_cast<unsigned>(half / 3 + 1));
    const rope::MropeSection section{half - sh - sw, sh, sw};
    const double base = std::exp(rng.uniform(std::log(2.0), std::log(1e6)));
    const auto pairing = (i % 2 == 0) ? Pairing::half_split : Pairing::interleaved;
    const auto q =
        rope_test::random_vector<double>(static_cast<std::size_t>(d), rope_test::seed(i));
    const auto k =
        rope_test::random_vector<double>(static_cast<std::size_t>(d), rope_test::seed(i + 5000));
    const auto id = [&] { return std::round(rng.uniform(-200.0, 200.0)); };
    const MropePosition a{id(), id(), id()}, b{id(), id(), id()}, shift{id(), id(), id()};
    auto s = rope::mrope_score(q, k, a, b, base, section, layout, pairing);
    // Shift both tokens by the same (dt, dh, dw): the score stays.
    auto shifted = rope::mrope_score(q, k, {a.t + shift.t, a.h + shift.h, a.w + shift.w},
                                     {b.t + shift.t, b.h + shift.h, b.w + shift.w}, base, section,
                                     layout, pairing);
    auto rel = rope::mrope_relative_score(q, k, {b.t - a.t, b.h - a.h, b.w - a.w}, base, section,
                                          layout, pairing);
    const std::vector<MropePosition> keys{b, a, shift};
    auto batch = rope::mrope_scores(q, k, a, keys, base, section, layout, pairing);
    REQUIRE(s);
    REQUIRE(shifted);
    REQUIRE(rel);
    REQUIRE(batch);
    // |q||k| bounds every score; angles up to ~400 rad carry ~400 eps of rounding.
    const double tol = rope_test::tol<double>(rope_test::norm(q) * rope_test::norm(k), d, 800.0);
    CHECK_THAT(shifted.value(), WithinAbs(s.value(), tol));
    CHECK_THAT(rel.value(), WithinAbs(s.value(), tol));
    CHECK_THAT(batch.value()[0], WithinAbs(s.value(), tol));
    auto self = rope::mrope_score(q, k, a, a, base, section, layout, pairing);
    REQUIRE(self);
    CHECK_THAT(batch.value()[1], WithinAbs(self.value(), tol));  // same position: q . k
    CHECK_THAT(self.value(), WithinAbs(rope_test::dot(q, k), tol));
  }
}

TEST_CASE("mrope: on text (t = h = w) every layout is plain 1D RoPE", "[mrope]") {
  // Text tokens have t = h = w = m, so every pair turns by m theta_j whichever axis it listens
  // to: R(m, m, m) = R_m of 1D RoPE (rope/rotation.h).
  for (int i = 0; i < 30; ++i) {
    const int d = 128;
    const auto x = rope_test::random_vector<double>(d, rope_test::seed(i + 700));
    const double m = 17.0 * i;
    const auto th = rope::frequencies(d, 1e6).value();
    std::vector<double> want(d);
    rope::apply_rope<double>(x, want, m, th, Pairing::half_split);
    for (const auto& [section, layout] :
         {std::pair{rope::MropeSection{16, 24, 24}, MropeLayout::chunked},
          std::pair{rope::MropeSection{24, 20, 20}, MropeLayout::interleaved},
          std::pair{rope::MropeSection{16, 24, 24}, MropeLayout::videorope}}) {
      auto y = rope::mrope_rotate(x, {m, m, m}, 1e6, section, layout, Pairing::half_split);
      REQUIRE(y);
      for (std::size_t j = 0; j < want.size(); ++j)
        CHECK_THAT(y.value()[j], WithinAbs(want[j], 1e-12));
    }
  }
}

TEST_CASE("mrope: ids of random sequences keep the block rules", "[mrope]") {
  // Whatever the sequence, under the four Qwen rules: every text-positioned token (text,
  // markers, timestamps) has t = h = w = (the largest id of any token before it) + 1, since each
  // block starts one past the largest id of the block before it and ids only grow.
  for (int i = 0; i < 60; ++i) {
    rope::SplitMix64 rng(rope_test::seed(9500 + i));
    std::vector<MropeSegment> seq;
    const int n = 1 + static_cast<int>(rng.next() % 6);
    for (int s = 0; s < n; ++s) {
      const auto side = [&] { return static_cast<std::int64_t>(1 + rng.next() % 5); };
      switch (rng.next() % 3) {
        case 0:
          seq.push_back(MropeSegment::text(side()));
          break;
        case 1:
          seq.push_back(MropeSegment::image(side(), side()));
          break;
        default:
          seq.push_back(MropeSegment::video(side(), side(), side(), rng.uniform(0, 3)));
      }
    }
    MropeRuleParams p{static_cast<MropeRule>(i % 4)};  // the four Qwen rules
    p.timestamp_tokens = static_cast<std::int64_t>(rng.next() % 4);
    const auto tokens = positions(seq, p);
    double largest = -1.0;
    for (std::size_t j = 0; j < tokens.size(); ++j) {
      const auto& tok = tokens[j];
      if (tok.kind != MropeTokenKind::patch) {
        CHECK(tok.position.t == tok.position.h);
        CHECK(tok.position.h == tok.position.w);
        CHECK(tok.position.t == largest + 1.0);  // text goes on one past everything before
      }
      largest = std::max({largest, tok.position.t, tok.position.h, tok.position.w});
    }
  }
}
