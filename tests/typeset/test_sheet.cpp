// test_sheet.cpp — renders the whole corpus into one "equation sheet" PNG (written into the
// test's working directory) and checks its content: ink inside every equation's box, none far
// outside it, red ink only where the source had an error.
#include <catch2/catch.hpp>

#include <algorithm>
#include <chrono>
#include <cstdio>

#include "rope/typeset/raster.h"
#include "test_support.h"

using namespace rope::typeset;

namespace {

bool is_dark(Rgba p) {
  return p.r < 128 && p.g < 128 && p.b < 128;
}
bool is_red(Rgba p) {
  return p.r > 150 && p.g < 110 && p.b < 110;
}

}  // namespace

TEST_CASE("equation sheet renders the corpus with ink inside each box", "[sheet]") {
  const MathFont* font = test::font();
  REQUIRE(font != nullptr);
  constexpr float kPx = 26.0f;  // em size, px
  constexpr int kMargin = 24;   // px between bands and at the left edge
  struct Placed {
    std::string name;
    Typeset t;
    int x = 0, baseline = 0;
  };
  std::vector<Placed> placed;
  int y = kMargin, width = 0;
  for (const auto& eq : test::corpus()) {
    Placed p{eq.name, typeset(eq.tex, test::corpus_values(), *font, {.font_px = kPx}), kMargin, 0};
    p.baseline = y + static_cast<int>(std::ceil(p.t.list.height));
    y = p.baseline + static_cast<int>(std::ceil(p.t.list.depth)) + kMargin;
    width = std::max(width, kMargin * 2 + static_cast<int>(std::ceil(p.t.list.width)));
    placed.push_back(std::move(p));
  }
  RgbaImage sheet(width, y, Rgba{255, 255, 255, 255});
  for (std::size_t i = 0; i < placed.size(); ++i) {
    const Placed& p = placed[i];
    render(sheet, p.t.list, *font, static_cast<float>(p.x), static_cast<float>(p.baseline));
  }
  REQUIRE(write_png(sheet, "typeset_sheet.png"));
  // One PNG per equation too (typeset_sheet_NN.png), for reviewing details at full size.
  for (std::size_t i = 0; i < placed.size(); ++i) {
    const Placed& p = placed[i];
    RgbaImage one(static_cast<int>(std::ceil(p.t.list.width)) + 2 * kMargin,
                  static_cast<int>(std::ceil(p.t.list.height + p.t.list.depth)) + 2 * kMargin,
                  Rgba{255, 255, 255, 255});
    render(one, p.t.list, *font, kMargin, kMargin + std::ceil(p.t.list.height));
    char name[64];
    std::snprintf(name, sizeof name, "typeset_sheet_%02zu.png", i + 1);
    CHECK(write_png(one, name));
  }
  std::printf("wrote typeset_sheet.png (%d x %d)\n", sheet.width, sheet.height);

  for (const Placed& p : placed) {
    INFO(p.name);
    const int x0 = p.x, x1 = p.x + static_cast<int>(std::ceil(p.t.list.width));
    const int y0 = p.baseline - static_cast<int>(std::ceil(p.t.list.height));
    const int y1 = p.baseline + static_cast<int>(std::ceil(p.t.list.depth));
    const bool expect_error = p.name.find("error") != std::string::npos;
    const bool expect_red = expect_error || p.name.find("color") != std::string::npos;
    CHECK(p.t.diagnostics.empty() != expect_error);
    int dark_inside = 0, red_inside = 0, ink_outside = 0;
    const int slack = 4;  // px: antialiasing and side bearings beyond the box
    const int band_top = y0 - kMargin / 2, band_bottom = y1 + kMargin / 2;
    for (int yy = std::max(0, band_top); yy < std::min(sheet.height, band_bottom); ++yy) {
      for (int xx = 0; xx < sheet.width; ++xx) {
        const Rgba c = sheet.at(xx, yy);
        const bool inside = xx >= x0 && xx < x1 && yy >= y0 && yy < y1;
        const bool near =
            xx >= x0 - slack && xx < x1 + slack && yy >= y0 - slack && yy < y1 + slack;
        if (inside && is_dark(c)) ++dark_inside;
        if (inside && is_red(c)) ++red_inside;
        if (!near && (c.r < 200 || c.g < 200 || c.b < 200)) ++ink_outside;
      }
    }
    CHECK(dark_inside > 20);
    CHECK(ink_outside == 0);
    CHECK((red_inside > 10) == expect_red);
  }
}

// Not run by default (tag [.bench]), and not a test: speed is measured, never asserted. Prints the
// time of one parse + layout while a live value changes, as a slider moving does (about 1 ms or
// less keeps dragging smooth).
TEST_CASE("re-layout time of a typical equation", "[.bench][sheet]") {
  const MathFont* font = test::font();
  REQUIRE(font != nullptr);
  // eq02 (softmax, typical) and eq07 (the 7x7 block-diagonal matrix, the largest).
  for (std::size_t index : {std::size_t{1}, std::size_t{6}}) {
    const test::CorpusEquation& eq = test::corpus()[index];
    Values v = test::corpus_values();
    const int kRuns = 200;
    std::size_t glyphs = 0;
    const auto t0 = std::chrono::steady_clock::now();
    for (int i = 0; i < kRuns; ++i) {
      v["theta0"] = std::to_string(i);  // a slider moving
      glyphs += typeset(eq.tex, v, *font, {.font_px = 24}).list.glyphs.size();
    }
    const double ms =
        std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count() /
        kRuns;
    std::printf("parse + layout of %s: %.3f ms (%zu glyphs)\n", eq.name.c_str(), ms,
                glyphs / kRuns);
  }
}
