// raster.cpp — CPU rendering of a DisplayList (raster.h): FreeType coverage, alpha blending.
#include "rope/typeset/raster.h"

#include <stb_image_write.h>

#include <algorithm>
#include <cmath>
#include <cstdio>

namespace rope::typeset {

RgbaImage::RgbaImage(int w, int h, Rgba background)
    : width(std::max(0, w)), height(std::max(0, h)) {
  pixels.resize(static_cast<std::size_t>(width) * static_cast<std::size_t>(height) * 4);
  for (std::size_t i = 0; i < pixels.size(); i += 4) {
    pixels[i] = background.r;
    pixels[i + 1] = background.g;
    pixels[i + 2] = background.b;
    pixels[i + 3] = background.a;
  }
}

Rgba RgbaImage::at(int x, int y) const {
  const std::size_t i = (static_cast<std::size_t>(y) * static_cast<std::size_t>(width) +
                         static_cast<std::size_t>(x)) *
                        4;
  return {pixels[i], pixels[i + 1], pixels[i + 2], pixels[i + 3]};
}

namespace {

// Source-over blend of `c` with extra coverage `cov` (0..1) into pixel (x, y).
void blend(RgbaImage& img, int x, int y, Rgba c, float cov) {
  if (x < 0 || y < 0 || x >= img.width || y >= img.height || cov <= 0) return;
  const float a = std::min(1.0f, cov) * static_cast<float>(c.a) / 255.0f;
  std::uint8_t* p = &img.pixels[(static_cast<std::size_t>(y) * static_cast<std::size_t>(img.width) +
                                 static_cast<std::size_t>(x)) *
                                4];
  auto mix = [a](std::uint8_t dst, std::uint8_t src) {
    return static_cast<std::uint8_t>(
        std::lround(static_cast<float>(dst) * (1 - a) + static_cast<float>(src) * a));
  };
  p[0] = mix(p[0], c.r);
  p[1] = mix(p[1], c.g);
  p[2] = mix(p[2], c.b);
  p[3] = static_cast<std::uint8_t>(std::lround(static_cast<float>(p[3]) * (1 - a) + 255.0f * a));
}

}  // namespace

void render(RgbaImage& image, const DisplayList& list, const MathFont& font, float origin_x,
            float origin_y) {
  // Glyphs of one colour are merged into a coverage layer with max() before blending, so the
  // overlapping parts of a glyph assembly (brace, tall parenthesis) leave no darker seams where
  // their anti-aliased edges overlap.
  std::vector<std::uint8_t> layer;
  GlyphBitmap bm;
  std::vector<bool> done(list.glyphs.size(), false);
  for (std::size_t first = 0; first < list.glyphs.size(); ++first) {
    if (done[first]) continue;
    const Rgba color = list.glyphs[first].color;
    layer.assign(static_cast<std::size_t>(image.width) * static_cast<std::size_t>(image.height), 0);
    int bx0 = image.width, by0 = image.height, bx1 = 0, by1 = 0;  // touched area
    for (std::size_t i = first; i < list.glyphs.size(); ++i) {
      const PlacedGlyph& g = list.glyphs[i];
      if (done[i] || !(g.color == color)) continue;
      done[i] = true;
      // Integer pen position plus a subpixel phase rendered by FreeType.
      const float px = origin_x + g.x, py = origin_y + g.y;
      const float ix = std::floor(px), iy = std::floor(py);
      if (!font.render_glyph(g.glyph, g.size_px, px - ix, py - iy, bm)) continue;
      const int x0 = static_cast<int>(ix) + bm.left, y0 = static_cast<int>(iy) - bm.top;
      // Clip span of assembly parts, in image px (pixel centres inside [lo, hi) are drawn),
      // matching how the GPU rasterises the clipped quads of imgui_draw.cpp.
      float lo = -1e9f, hi = 1e9f;
      if (g.clip == ClipAxis::x) lo = origin_x + g.clip_min, hi = origin_x + g.clip_max;
      if (g.clip == ClipAxis::y) lo = origin_y + g.clip_min, hi = origin_y + g.clip_max;
      for (int y = std::max(0, -y0); y < bm.height && y0 + y < image.height; ++y) {
        const float cy = static_cast<float>(y0 + y) + 0.5f;
        if (g.clip == ClipAxis::y && (cy < lo || cy >= hi)) continue;
        for (int x = std::max(0, -x0); x < bm.width && x0 + x < image.width; ++x) {
          const float cx = static_cast<float>(x0 + x) + 0.5f;
          if (g.clip == ClipAxis::x && (cx < lo || cx >= hi)) continue;
          std::uint8_t& dst = layer[static_cast<std::size_t>((y0 + y) * image.width + x0 + x)];
          dst = std::max(dst, bm.coverage[static_cast<std::size_t>(y * bm.width + x)]);
        }
      }
      bx0 = std::min(bx0, std::max(0, x0));
      by0 = std::min(by0, std::max(0, y0));
      bx1 = std::max(bx1, std::min(image.width, x0 + bm.width));
      by1 = std::max(by1, std::min(image.height, y0 + bm.height));
    }
    for (int y = by0; y < by1; ++y) {
      for (int x = bx0; x < bx1; ++x) {
        const std::uint8_t cov = layer[static_cast<std::size_t>(y * image.width + x)];
        if (cov != 0) blend(image, x, y, color, static_cast<float>(cov) / 255.0f);
      }
    }
  }
  // Rules: whole pixels when the origin is integral; otherwise area coverage per pixel.
  for (const FilledRect& r : list.rects) {
    const float rx0 = origin_x + r.x, ry0 = origin_y + r.y;
    const float rx1 = rx0 + r.w, ry1 = ry0 + r.h;
    for (int y = static_cast<int>(std::floor(ry0)); y < static_cast<int>(std::ceil(ry1)); ++y) {
      const float cy =
          std::min(ry1, static_cast<float>(y + 1)) - std::max(ry0, static_cast<float>(y));
      for (int x = static_cast<int>(std::floor(rx0)); x < static_cast<int>(std::ceil(rx1)); ++x) {
        const float cx =
            std::min(rx1, static_cast<float>(x + 1)) - std::max(rx0, static_cast<float>(x));
        blend(image, x, y, r.color, cx * cy);
      }
    }
  }
}

bool write_png(const RgbaImage& image, const std::string& path) {
  if (image.width <= 0 || image.height <= 0) return false;
  return stbi_write_png(path.c_str(), image.width, image.height, 4, image.pixels.data(),
                        image.width * 4) != 0;
}

}  // namespace rope::typeset
