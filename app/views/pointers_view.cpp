// views/pointers_view.cpp — the rotating pointers (pointers_view.h).
//
// [SECTION] read-out: positions and the two equal scores, wrapped to the width
// [SECTION] dials
// [SECTION] hover read-out with full precision
#include "views/pointers_view.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <string>

#include "rope/frequencies.h"
#include "rope/rotation.h"
#include "state/params.h"
#include "ui/canvas.h"
#include "ui/theme.h"

namespace rope::app {
namespace {

// Block i of x under a pairing, as a 2D vector (see rope/conventions.h).
Vec2 block(const std::vector<double>& x, int i, Pairing pairing) {
  const auto half = x.size() / 2;
  const auto u = static_cast<std::size_t>(i);
  if (pairing == Pairing::interleaved) return {x[2 * u], x[2 * u + 1]};
  return {x[u], x[u + half]};
}

double dot(const std::vector<double>& a, const std::vector<double>& b) {
  double s = 0.0;
  for (std::size_t j = 0; j < a.size(); ++j)
    s += a[j] * b[j];
  return s;
}

// Wraps an angle to (-pi, pi].
double wrap(double a) {
  a = std::remainder(a, kTwoPi);
  return a <= -kPi ? a + kTwoPi : a;
}

std::string position_text(double v) {
  if (v == std::round(v)) return format_number(v, 12);
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.2f", std::fabs(v));
  return (v < 0 ? "−" : "") + std::string(buf);
}

struct Grid {
  int cols = 1, rows = 1;
  float cell = 0.0f;
};

// The column count (at most max_cols) that makes the largest square cells for `n` dials in a
// w x h area, when every row also needs label_h px of labels.
Grid best_grid(int n, float w, float h, int max_cols, float label_h) {
  Grid best;
  for (int c = 1; c <= std::min(n, std::max(1, max_cols)); ++c) {
    const int r = (n + c - 1) / c;
    const float cell = std::min(w / static_cast<float>(c), h / static_cast<float>(r) - label_h);
    if (cell > best.cell) best = {c, r, cell};
  }
  return best;
}

}  // namespace

void PointersView::update_blocks(const Params& p) {
  Blocks& b = blocks;
  if (b.dim == p.dim && b.base == p.base && b.pairing == p.pairing && b.query == p.query &&
      b.key == p.key && b.seed == p.seed)
    return;
  auto th = frequencies(p.dim, p.base);
  if (!th) return;  // params are validated on entry; keep the last good picture otherwise
  b.dim = p.dim;
  b.base = p.base;
  b.pairing = p.pairing;
  b.query = p.query;
  b.key = p.key;
  b.seed = p.seed;
  b.thetas = std::move(th).value();
  b.q = effective_vector(p.query, p, false);
  b.k = effective_vector(p.key, p, true);
  const int half = p.dim / 2;
  b.q_norm.assign(static_cast<std::size_t>(half), 0.0);
  b.q_angle = b.k_norm = b.k_angle = b.q_norm;
  b.max_norm = 0.0;
  for (int i = 0; i < half; ++i) {
    const auto u = static_cast<std::size_t>(i);
    const Vec2 qb = block(b.q, i, p.pairing);
    const Vec2 kb = block(b.k, i, p.pairing);
    b.q_norm[u] = std::hypot(qb.x, qb.y);
    b.k_norm[u] = std::hypot(kb.x, kb.y);
    b.q_angle[u] = std::atan2(qb.y, qb.x);
    b.k_angle[u] = std::atan2(kb.y, kb.x);
    b.max_norm = std::max({b.max_norm, b.q_norm[u], b.k_norm[u]});
  }
  if (b.max_norm <= 0.0) b.max_norm = 1.0;
  scored = false;
}

void PointersView::update_score(const Params& p) {
  if (scored && scored_m == p.position && scored_n == p.key_position) return;
  const auto d = blocks.q.size();
  std::vector<double> qm(d), kn(d), kr(d);
  apply_rope<double>(blocks.q, qm, p.position, blocks.thetas, blocks.pairing);
  apply_rope<double>(blocks.k, kn, p.key_position, blocks.thetas, blocks.pairing);
  apply_rope<double>(blocks.k, kr, p.key_position - p.position, blocks.thetas, blocks.pairing);
  score = dot(qm, kn);
  relative = dot(blocks.q, kr);
  scored_m = p.position;
  scored_n = p.key_position;
  scored = true;
}

void PointersView::Draw(AppState& state, const ViewEnv& env) {
  const Params& p = state.params;
  update_blocks(p);
  update_score(p);
  const Palette& pal = palette(p.theme);
  const float s = env.scale;
  const Fonts& f = *env.fonts;

  const CanvasArea area = begin_canvas("pointers_canvas", &drawn);
  ImDrawList* dl = area.draw_list;
  const Pen& pen = area.pen;
  const ImVec2 origin = area.origin;
  const ImVec2 size = area.size;
  const bool hovered = area.hovered;
  const ImVec2 mouse = area.mouse;

  // [SECTION] read-out: positions and the two equal scores, wrapped to the width
  const float pad = 18.0f * s;
  const float width = std::max(1.0f, size.x - 2 * pad);
  const float xa = origin.x + pad;
  float y = origin.y + pad;
  const std::string line1 = nobreak("m = " + position_text(p.position)) + "      " +
                            nobreak("n = " + position_text(p.key_position)) + "      " +
                            nobreak("n − m = " + position_text(p.key_position - p.position));
  ImFont* head = fit_font({f.title, f.large}, line1, width, 1);
  y += pen.wrapped(head, ImVec2(xa, y), width, pal.text, line1) + 4.0f * s;
  const std::string a = nobreak("(Rₘq)·(Rₙk) = " + format_number(score, 6));
  const std::string b = nobreak("q·(Rₙ₋ₘk) = " + format_number(relative, 6));
  ImFont* big = fit_font({f.large, f.body}, a, width);
  const float wa = text_size(big, a).x;
  const float wb = text_size(big, b).x;
  const float gap_ab = 40.0f * s;
  pen.text(big, ImVec2(xa, y), pal.query, a);
  const bool ab_one_line = wa + gap_ab + wb <= width;
  if (!ab_one_line) y += big->FontSize + 2.0f * s;
  pen.text(big, ImVec2(ab_one_line ? xa + wa + gap_ab : xa, y), pal.key, b);
  y += big->FontSize + 4.0f * s;
  const int half = p.dim / 2;
  const std::string info = nobreak("d = " + std::to_string(p.dim) + " (" + std::to_string(half) +
                                   (half == 1 ? " block)" : " blocks)")) +
                           "    " + nobreak("base = " + format_number(p.base, 8)) + "    " +
                           nobreak("θᵢ = base^(−2i/d)");
  y += pen.wrapped(f.body, ImVec2(xa, y), width, pal.text_dim, info) + 14.0f * s;

  // legend: a column at the top right when the read-out leaves room, else its items flow in
  // rows under the read-out
  {
    const ImU32 demo = frequency_colour(0, 1, p.theme);
    const char* kLabels[] = {"query Rₘq (solid)", "key Rₙk (ring)", "angle between them"};
    float label_w = 0.0f;
    for (const char* l : kLabels)
      label_w = std::max(label_w, text_size(f.body, l).x);
    const float item_w = 46.0f * s + label_w;
    const float item_gap = 24.0f * s;
    float readout_w = ab_one_line ? wa + gap_ab + wb : std::max(wa, wb);
    for (const std::string& l : wrap_text(head, line1, width))
      readout_w = std::max(readout_w, text_size(head, l).x);
    const bool column = readout_w + item_w + 3 * pad <= size.x;
    float lx = column ? origin.x + size.x - pad - item_w : xa;
    float ly = column ? origin.y + pad : y;
    const float row_h = f.body->FontSize + 6 * s;
    for (int item = 0; item < 3; ++item) {
      const float w = 46.0f * s + text_size(f.body, kLabels[item]).x;
      if (!column && lx > xa && lx + w > xa + width) {  // next row
        lx = xa;
        ly += row_h;
      }
      const float mid = ly + 0.5f * f.body->FontSize;
      if (item == 0) {
        draw_arrow(dl, ImVec2(lx, mid), ImVec2(lx + 34 * s, mid), demo, std::round(3 * s),
                   11.0f * s);
      } else if (item == 1) {
        dl->AddLine(ImVec2(lx, mid), ImVec2(lx + 28 * s, mid), demo, std::round(2 * s));
        dl->AddCircle(ImVec2(lx + 31 * s, mid), 5.0f * s, demo, 16, std::round(2 * s));
      } else {
        draw_arc(dl, ImVec2(lx + 4 * s, mid + 6 * s), 14.0f * s, 0.2, 1.4, pal.accent,
                 std::round(2.5f * s));
      }
      pen.text(f.body, ImVec2(lx + 46 * s, ly), pal.text, kLabels[item]);
      if (column) {
        ly += row_h;
      } else {
        lx += w + item_gap;
      }
    }
    if (!column) y = ly + row_h + 8.0f * s;
  }

  // [SECTION] dials
  const float area_x = origin.x + pad;
  const float area_y = y;
  const float area_w = size.x - 2 * pad;
  const float area_h = origin.y + size.y - pad - area_y;
  tips.assign(static_cast<std::size_t>(half), Tip{});
  if (area_w < 10 || area_h < 10) {
    dl->PopClipRect();
    return;
  }

  const double m = p.position;
  const double n = p.key_position;
  const double trail = p.trails ? p.trail_length : 0.0;
  int hovered_block = -1;

  bool label_one_line = true;  // set by the dial layout below
  const auto draw_block = [&](int i, ImVec2 c, float r, bool labels, bool circle_layout) {
    const auto u = static_cast<std::size_t>(i);
    const double th = blocks.thetas[u];
    const ImU32 col = frequency_colour(i, half, p.theme);
    const float rq = r * static_cast<float>(blocks.q_norm[u] / blocks.max_norm);
    const float rk = r * static_cast<float>(blocks.k_norm[u] / blocks.max_norm);
    const double aq = blocks.q_angle[u] + m * th;
    const double ak = blocks.k_angle[u] + n * th;
    // Whole-pixel widths: ImGui draws those as textured anti-aliased lines (one quad per
    // segment) instead of geometric fringes, several times fewer vertices for the rasteriser.
    const float thick = std::round(std::clamp(r * 0.05f, 1.0f * s, 4.0f * s));
    const float thin = std::max(1.0f, std::round(thick * 0.5f));

    // trail of the query tip over [m - trail, m], fading in four bands; more than one turn is
    // drawn as one turn. About one segment per 5 px of arc.
    if (trail > 0.0 && rq > 0.0f) {
      const double span = std::min(trail * th, kTwoPi * 0.999);
      // Small dials (d in the hundreds) get one band of a few segments: at 25 px a fade is
      // invisible, and the rasteriser's cost is per triangle.
      const bool small = r < 40.0f * s;
      const int bands = small ? 1 : 4;
      // about one segment per 5 px, within a budget of ~6000 trail points for all blocks
      const int budget =
          small ? (span > kPi ? 12 : 6)
                : std::clamp(6000 / std::max(1, half * bands), 2, static_cast<int>(16.0f * s));
      const int per_band = std::clamp(static_cast<int>(span * static_cast<double>(rq) /
                                                       (5.0 * static_cast<double>(s)) / bands) +
                                          1,
                                      1, budget);
      const bool full_turn = span >= kTwoPi * 0.99;
      const Fonts::Ring* baked = full_turn ? f.ring_for(rq) : nullptr;
      const bool ring = baked != nullptr;
      if (ring) {  // a whole turn on a small dial: a baked ring (ui/theme.h)
        dl->AddImage(ImGui::GetIO().Fonts->TexID, ImVec2(c.x - rq, c.y - rq),
                     ImVec2(c.x + rq, c.y + rq), baked->uv0, baked->uv1, with_alpha(col, 0.5f));
      }
      for (int band = 0; band < (ring ? 0 : bands); ++band) {
        const double b0 = aq - span * (1.0 - static_cast<double>(band) / bands);
        const double b1 = aq - span * (1.0 - static_cast<double>(band + 1) / bands);
        for (int k = 0; k <= per_band; ++k)
          dl->PathLineTo(polar(c, rq, b0 + (b1 - b0) * k / per_band));
        const float alpha =
            small ? 0.5f : 0.15f + 0.6f * static_cast<float>(band + 1) / static_cast<float>(bands);
        dl->PathStroke(with_alpha(col, alpha), 0, thin);
      }
      // integer positions on the trail
      const double first = std::ceil(m - trail);
      if (r >= 30.0f * s && std::floor(m) - first < 64.0) {
        for (double t = first; t <= m; t += 1.0)
          dl->AddCircleFilled(polar(c, rq, blocks.q_angle[u] + t * th), thick + 1.0f,
                              with_alpha(col, 0.85f), thick >= 4.0f ? 0 : 8);  // 0: by size
      }
    }
    // angle between the pointers
    if (r >= 32.0f * s && rq > 0.0f && rk > 0.0f) {  // on smaller dials it is a smudge
      const double delta = wrap(ak - aq);
      draw_arc(dl, c, r * 0.32f, aq, aq + delta, pal.accent, thin,
               std::clamp(static_cast<int>(r * 0.32f), 12, 96));
      if (r >= 90.0f * s && !circle_layout) {  // big dials: name the angle beside its arc
        // a narrow arc has no room beside it: the label goes opposite, across the centre
        const bool narrow = std::fabs(delta) < 0.6;
        const double label_angle = aq + 0.5 * delta + (narrow ? kPi : 0.0);
        const ImVec2 lp = polar(c, r * 0.32f + 14.0f * s, label_angle);
        const std::string label = format_number(delta, 3) + " rad";
        const ImVec2 ts = text_size(f.body, label);
        const float dx = static_cast<float>(std::cos(label_angle));
        pen.text(f.body, ImVec2(lp.x - 0.5f * ts.x * (1.0f - dx), lp.y - 0.5f * ts.y), pal.accent,
                 label);
      }
    }
    // key: thin line with a ring at the tip; query: solid arrow. On small dials the filled
    // shapes (arrowhead, key dot) skip their anti-aliased fringe: a few pixels across, they
    // look the same, and the rasteriser draws one triangle instead of seven.
    const ImVec2 tk = polar(c, rk, ak);
    const ImVec2 tq = polar(c, rq, aq);
    const ImDrawListFlags flags = dl->Flags;
    if (r < 32.0f * s) dl->Flags &= ~ImDrawListFlags_AntiAliasedFill;
    if (rk > 0.0f) {
      dl->AddLine(c, tk, col, thin);
      if (r >= 32.0f * s) {
        dl->AddCircle(tk, std::max(3.0f * s, thick * 1.5f), col, r >= 60.0f * s ? 16 : 8, thin);
      } else {  // small dials: a dot reads as the key's tip and costs a fraction of a ring
        dl->AddCircleFilled(tk, std::max(2.0f * s, thick), col, 6);
      }
    }
    if (rq > 0.0f) {
      draw_arrow(dl, c, tq, col, thick, std::max(6.0f * s, thick * 3.2f));
    } else {
      dl->AddCircleFilled(c, thick, col, 12);
    }
    dl->Flags = flags;
    tips[u] = Tip{c, tq, tk, r};

    if (hovered && std::hypot(mouse.x - c.x, mouse.y - c.y) <= r) hovered_block = i;
    if (!labels) return;
    if (circle_layout) {
      const ImVec2 lp = polar(c, rq + 16.0f * s, aq);
      pen.centred(f.body, ImVec2(lp.x, lp.y - 0.5f * f.body->FontSize), col, std::to_string(i));
      return;
    }
    float ly = c.y + r + 8.0f * s;
    pen.centred(f.bold, ImVec2(c.x, ly), col, "i = " + std::to_string(i));
    ly += f.bold->FontSize;
    const std::string t = "θ = " + format_number(th, 3);
    const std::string w = "λ = " + format_number(wavelength(th), 3);
    if (label_one_line) {
      pen.centred(f.body, ImVec2(c.x, ly), pal.text, t + "   " + w);
    } else {
      pen.centred(f.body, ImVec2(c.x, ly), pal.text, t);
      pen.centred(f.body, ImVec2(c.x, ly + f.body->FontSize), pal.text_dim, w);
    }
  };

  if (p.layout == PointerLayout::circle) {
    const float r = 0.46f * std::min(area_w, area_h);
    const ImVec2 c(area_x + 0.5f * area_w, area_y + 0.5f * area_h);
    dl->AddCircle(c, r, pal.grid, std::clamp(static_cast<int>(r / 1.5f), 128, 512), 1.5f * s);
    dl->AddLine(ImVec2(c.x - r, c.y), ImVec2(c.x + r, c.y), with_alpha(pal.grid, 0.6f), 1.0f * s);
    dl->AddLine(ImVec2(c.x, c.y - r), ImVec2(c.x, c.y + r), with_alpha(pal.grid, 0.6f), 1.0f * s);
    for (int i = half - 1; i >= 0; --i)
      draw_block(i, c, r, half <= 24, true);
  } else {
    // room for "i = …" and θ, λ on two lines; they share one line when the cells are wide
    const float label_h = f.bold->FontSize + 2.0f * f.body->FontSize + 10.0f * s;
    Grid g = best_grid(half, area_w, area_h, half, 0.0f);
    float r = 0.5f * g.cell - 10.0f * s;
    bool labels = false;
    if (r >= 48.0f * s) {  // room for two label lines under each dial, if the dials stay large
      // labels need about 130 px per column ("θ = 0.00075")
      const int max_cols = static_cast<int>(area_w / (130.0f * s));
      const Grid gl = best_grid(half, area_w, area_h, max_cols, label_h);
      const float rl = 0.5f * gl.cell - 10.0f * s;
      if (rl >= 40.0f * s) {
        g = gl;
        r = rl;
        labels = true;
      }
    }
    r = std::max(r, 2.0f);
    const float cell_h = 2.0f * r + 20.0f * s + (labels ? label_h : 0.0f);
    const float cell_w = std::max(2.0f * r + 20.0f * s, area_w / static_cast<float>(g.cols));
    label_one_line = cell_w >= 250.0f * s;
    const float grid_w = cell_w * static_cast<float>(g.cols);
    const float grid_h = cell_h * static_cast<float>(g.rows);
    const float x0 = area_x + 0.5f * (area_w - grid_w);
    const float y0 = area_y + std::max(0.0f, 0.5f * (area_h - grid_h));
    // segments by the radius in pixels, so a 4x export has round rims too
    const int segs = std::clamp(static_cast<int>(r / 1.5f), 12, 256);
    for (int i = 0; i < half; ++i) {
      const int col = i % g.cols;
      const int row = i / g.cols;
      const ImVec2 c(x0 + cell_w * (static_cast<float>(col) + 0.5f),
                     y0 + cell_h * static_cast<float>(row) + 10.0f * s + r);
      if (const Fonts::Ring* baked = f.ring_for(r)) {  // small dials: a baked ring, one quad
        dl->AddImage(ImGui::GetIO().Fonts->TexID, ImVec2(c.x - r, c.y - r),
                     ImVec2(c.x + r, c.y + r), baked->uv0, baked->uv1, pal.grid);
      } else {
        dl->AddCircle(c, r, pal.grid, segs, std::max(1.0f, std::round(1.5f * s)));
      }
      draw_block(i, c, r, labels, false);
    }
  }

  // [SECTION] hover read-out with full precision
  if (hovered_block >= 0) {
    const auto u = static_cast<std::size_t>(hovered_block);
    const double th = blocks.thetas[u];
    ImGui::BeginTooltip();
    ImGui::PushFont(f.bold);
    ImGui::Text(
        "block i = %d  (coordinates %s)", hovered_block,
        p.pairing == Pairing::interleaved
            ? (std::to_string(2 * hovered_block) + ", " + std::to_string(2 * hovered_block + 1))
                  .c_str()
            : (std::to_string(hovered_block) + ", " + std::to_string(hovered_block + half))
                  .c_str());
    ImGui::PopFont();
    ImGui::Text("θᵢ = %.17g rad per position", th);
    ImGui::Text("wavelength 2π/θᵢ = %.17g positions", wavelength(th));
    ImGui::Text("m·θᵢ = %.17g rad", m * th);
    ImGui::Text("(n−m)·θᵢ = %.17g rad", (n - m) * th);
    ImGui::Text("|qᵢ| = %.17g   |kᵢ| = %.17g", blocks.q_norm[u], blocks.k_norm[u]);
    ImGui::EndTooltip();
  }
  dl->PopClipRect();
}

void PointersView::DrawControls(AppState& state, const ViewEnv&) {
  Params& p = state.params;
  int layout = p.layout == PointerLayout::circle ? 1 : 0;
  if (ImGui::RadioButton("one dial per block", &layout, 0)) p.layout = PointerLayout::dials;
  ImGui::SameLine();
  if (ImGui::RadioButton("shared circle", &layout, 1)) p.layout = PointerLayout::circle;
  ImGui::Checkbox("Trails", &p.trails);
  if (p.trails) {
    ImGui::SameLine();
    ImGui::SetNextItemWidth(-1);
    float len = static_cast<float>(p.trail_length);
    if (ImGui::SliderFloat("##trail", &len, 0.0f, 50.0f, "%.0f positions"))
      p.trail_length = static_cast<double>(len);
  }

  const auto vector_editor = [&](const char* label, VectorChoice& choice, bool is_key) {
    ImGui::PushID(label);
    static const char* kNames[] = {"unit first component", "all ones", "seeded random", "custom"};
    int preset = static_cast<int>(choice.preset);
    ImGui::SetNextItemWidth(-1);
    if (ImGui::Combo("##preset", &preset, kNames, 4)) {
      if (preset == static_cast<int>(VectorPreset::custom)) {
        choice.values = effective_vector(choice, p, is_key);
      }
      choice.preset = static_cast<VectorPreset>(preset);
    }
    if (ImGui::TreeNode("values", "edit the %d values", p.dim)) {
      std::vector<double> v = effective_vector(choice, p, is_key);
      ImGui::BeginChild("vals", ImVec2(0, static_cast<float>(std::min(8, p.dim)) *
                                              ImGui::GetFrameHeightWithSpacing()));
      bool changed = false;
      for (int j = 0; j < p.dim; ++j) {
        ImGui::PushID(j);
        ImGui::SetNextItemWidth(-1);
        char item[16];
        std::snprintf(item, sizeof item, "[%d]", j);
        changed |= ImGui::InputDouble(item, &v[static_cast<std::size_t>(j)], 0.1, 1.0, "%.6g");
        ImGui::PopID();
      }
      ImGui::EndChild();
      if (changed) {
        bool finite = true;
        for (double x : v)
          finite = finite && std::isfinite(x) && std::fabs(x) <= 1e6;
        if (finite) choice = VectorChoice{VectorPreset::custom, v};
      }
      ImGui::TreePop();
    }
    ImGui::PopID();
  };
  ImGui::Spacing();
  ImGui::TextUnformatted("Query q");
  vector_editor("query", p.query, false);
  ImGui::TextUnformatted("Key k");
  vector_editor("key", p.key, true);
}

}  // namespace rope::app
