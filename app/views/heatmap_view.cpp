// views/heatmap_view.cpp — the attention score heatmap (heatmap_view.h).
//
// [SECTION] header, wrapped to the width
// [SECTION] the read-out of a panel: a function, measured for the layout and drawn last
// [SECTION] layout: the header's level and where the read-out goes
// [SECTION] panels
// [SECTION] read-out: the hovered cell, else the cell of the current positions
#include "views/heatmap_view.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <string>

#include "state/params.h"
#include "ui/canvas.h"
#include "ui/plot.h"
#include "ui/theme.h"

namespace rope::app {
namespace {

// Matrices cheaper than this many multiply-adds are computed at once (well under a
// millisecond); larger ones go to the worker thread.
constexpr double kInlineCost = 4e6;
constexpr double kFirstWaitSeconds = 3.0;

const char* encoding_title(Encoding e) {
  switch (e) {
    case Encoding::none:
      return "no position encoding";
    case Encoding::sinusoidal:
      return "sinusoidal (added)";
    case Encoding::rope:
      return "RoPE (rotated)";
  }
  return "?";
}

const char* mode_text(ScoreMode m) {
  switch (m) {
    case ScoreMode::raw:
      return "raw scores q′ₘ·k′ₙ";
    case ScoreMode::scaled:
      return "scaled scores q′ₘ·k′ₙ/√d";
    case ScoreMode::softmax:
      return "softmax over each row (attention weights)";
  }
  return "?";
}

std::string content_text(const Params& p) {
  switch (p.content) {
    case Content::shared:
      return "shared content: the same q = " +
             std::string(
                 p.query.preset == VectorPreset::custom
                     ? "custom"
                     : (p.query.preset == VectorPreset::ones
                            ? "all ones"
                            : (p.query.preset == VectorPreset::unit ? "unit" : "seeded random"))) +
             " and k at every position, so only the positions differ";
    case Content::random:
      return "seeded random qₘ, kₙ at every position (seed " + std::to_string(p.seed) + ")";
    case Content::sentence:
      return "the words of sentence B; qₘ = kₘ = hash_embedding(word, d, seed): a seeded hash of "
             "the word, not a trained embedding";
  }
  return "";
}

int cell_index(const plot::Scale& sc, float px, int n) {
  const double v = std::floor(sc.from_px(px) + 0.5);
  if (!(v >= 0.0) || v >= n) return -1;
  return static_cast<int>(v);
}

}  // namespace

const HeatmapScores* HeatmapView::scores(Encoding e) const {
  for (const auto& s : shown)
    if (s.inputs.encoding == e) return &s;
  return nullptr;
}

void HeatmapView::update(const Params& p) {
  std::vector<HeatmapInputs> want;
  if (p.compare) {
    for (Encoding e : {Encoding::none, Encoding::sinusoidal, Encoding::rope})
      want.push_back(heatmap_inputs(p, e));
  } else {
    want.push_back(heatmap_inputs(p, p.encoding));
  }
  const auto accept = [&](std::vector<HeatmapScores> panels_in) {
    shown = std::move(panels_in);
    versions_.clear();
    for (std::size_t i = 0; i < shown.size(); ++i)
      versions_.push_back(next_version_++);
    error.clear();
  };
  if (want != wanted_) {
    wanted_ = want;
    double cost = 0.0;
    for (const auto& in : want)
      cost += heatmap_cost(in);
    if (cost <= kInlineCost) {
      std::vector<HeatmapScores> out;
      for (const auto& in : want) {
        auto r = compute_heatmap_scores(in, 1);
        if (!r) {
          error = r.error().to_string();
          break;
        }
        out.push_back(std::move(r).value());
      }
      if (out.size() == want.size()) accept(std::move(out));
    } else {
      job_.submit(want);
      // Before the first matrix there is no previous picture to keep showing: wait for it (a
      // screenshot or export then shows the matrix, not a "computing" note), up to a bound.
      if (shown.empty()) job_.wait_idle(kFirstWaitSeconds);
    }
  }
  if (auto out = job_.take()) {
    bool current = out->error.empty() && out->panels.size() == wanted_.size();
    for (std::size_t i = 0; current && i < wanted_.size(); ++i)
      current = out->panels[i].inputs == wanted_[i];
    if (!out->error.empty()) error = out->error;
    if (current) accept(std::move(out->panels));
  }
  bool shows_wanted = shown.size() == wanted_.size();
  for (std::size_t i = 0; shows_wanted && i < shown.size(); ++i)
    shows_wanted = shown[i].inputs == wanted_[i];
  computing = !shows_wanted && error.empty();
}

void HeatmapView::Draw(AppState& state, const ViewEnv& env) {
  const Params& p = state.params;
  update(p);
  const Palette& pal = palette(p.theme);
  const plot::Style st = plot::style(env, p.theme, &drawn);
  const float s = env.scale;
  const Fonts& f = *env.fonts;

  const CanvasArea area = begin_canvas("heatmap_canvas", &drawn);
  ImDrawList* dl = area.draw_list;
  const Pen& pen = area.pen;
  const ImVec2 origin = area.origin;
  const ImVec2 size = area.size;
  const bool hovered = area.hovered;
  const ImVec2 mouse = area.mouse;

  // [SECTION] header, wrapped to the width. Four levels, from full size to compact, tried in
  // order until the matrix keeps a useful size (see "layout" below).
  struct Level {
    ImFont *head, *sub;
    bool content, compact_readout;
  };
  const Level levels[] = {{f.title, f.large, true, false},
                          {f.large, f.body, true, false},
                          {f.large, f.body, false, true},
                          {f.bold, f.body, false, true}};
  constexpr int kLevels = 4;
  const float pad = std::round(18.0f * s);
  const float x0 = origin.x + pad;
  const float width = std::max(1.0f, size.x - 2 * pad);
  const int n_shown = shown.empty() ? 0 : shown.front().n;
  const std::string head =
      "Attention scores " + nobreak("S[m][n]:") + "  " +
      nobreak("N = " + std::to_string(p.content == Content::sentence ? n_shown : p.positions) +
              ",") +
      "  " + nobreak("d = " + std::to_string(p.dim) + ",") + "  " +
      nobreak("base = " + plot::tick_label(p.base, false));
  const std::string sub = std::string(mode_text(p.score_mode)) +
                          (p.causal ? ",  causal mask (keys after the query hidden)" : "");
  const std::string msg = !error.empty() ? error
                          : computing    ? "computing the new matrix… (the previous one is shown)"
                                         : "";
  const auto header = [&](const Pen& pn, const Level& lv) {
    float y = origin.y + pad;
    y += pn.wrapped(fit_font({lv.head, f.large}, head, width, 2), ImVec2(x0, y), width, pal.text,
                    head) +
         2.0f * s;
    y += pn.wrapped(lv.sub, ImVec2(x0, y), width, pal.text, sub) + 2.0f * s;
    if (lv.content)
      y += pn.wrapped(f.body, ImVec2(x0, y), width, pal.text_dim, content_text(p)) + 4.0f * s;
    if (!msg.empty())
      y += pn.wrapped(f.bold, ImVec2(x0, y), width, error.empty() ? pal.accent : pal.bad, msg) -
           f.bold->FontSize;
    return y + f.bold->FontSize + 8.0f * s;  // room for that message: the picture does not jump
  };

  // [SECTION] the read-out of a panel: a function, measured for the layout and drawn last
  panels.clear();
  const int count = static_cast<int>(shown.size());
  if (count == 0 || size.x < 50) {
    header(pen, levels[0]);
    dl->PopClipRect();
    return;
  }
  if (env.has_gl && !renderer_) renderer_ = std::make_unique<HeatmapRenderer>();
  const bool single = count == 1;
  const float bar_w = std::round(22.0f * s);
  const float bar_margin = plot::colour_bar_margin(st, !single);
  const float bottom = origin.y + size.y - pad;
  const int m_cell = static_cast<int>(std::lround(std::clamp(p.position, -1.0, 1e6)));
  const int n_cell = static_cast<int>(std::lround(std::clamp(p.key_position, -1.0, 1e6)));

  // The read-out of one panel: the hovered cell, else the cell of the current positions. Right
  // of the matrix, or under it when that leaves the matrix more room. Returns its height; with
  // a measuring pen it only measures.
  const auto cell_text = [&](const HeatmapScores& sc, int m, int n) {
    const float v = sc.s[static_cast<std::size_t>(m) * static_cast<std::size_t>(sc.n) +
                         static_cast<std::size_t>(n)];
    if (std::isinf(v) && v < 0) return std::string("masked (n > m)");
    return format_number(static_cast<double>(v), 9);  // float: 9 digits are all there is
  };
  // the note on the diagonal n - m when it does not fit inside the matrix: under the read-out
  std::string diagonal_note;
  const auto readout = [&](const Pen& pn, const HeatmapScores& sc, float rx, float ry, float rw,
                           int m, int n, bool use_hover, bool compact) {
    const float y0 = ry;
    if (!compact)
      ry += pn.wrapped(f.bold, ImVec2(rx, ry), rw, pal.text_dim,
                       use_hover ? "cell under the mouse" : "cell of the current m, n (framed)") +
            6 * s;
    if (m >= 0 && n >= 0 && m < sc.n && n < sc.n) {
      const std::string l1 =
          nobreak("m = " + std::to_string(m)) + "   " + nobreak("n = " + std::to_string(n));
      const std::string l2 = nobreak("n − m = " + std::to_string(n - m));
      const float w1 = text_size(f.large, l1).x;
      const float gap = 24 * s;
      pn.text(f.large, ImVec2(rx, ry), pal.text, l1);
      if (w1 + gap + text_size(f.large, l2).x <= rw) {
        pn.text(f.large, ImVec2(rx + w1 + gap, ry), pal.accent, l2);
      } else {
        ry += f.large->FontSize + 2 * s;
        pn.text(f.large, ImVec2(rx, ry), pal.accent, l2);
      }
      ry += f.large->FontSize + 2 * s;
      if (!sc.words.empty()) {
        const std::string w = nobreak("“" + sc.words[static_cast<std::size_t>(m)] + "”") + " → " +
                              nobreak("“" + sc.words[static_cast<std::size_t>(n)] + "”");
        ry += pn.wrapped(f.large, ImVec2(rx, ry), rw, pal.text, w) + 2 * s;
      }
      const std::string l3 = nobreak("S = " + cell_text(sc, m, n));
      ry += pn.wrapped(compact ? f.large : fit_font({f.title, f.large}, l3, rw), ImVec2(rx, ry), rw,
                       pal.text, l3) +
            10 * s;
    } else {
      ry += pn.wrapped(f.body, ImVec2(rx, ry), rw, pal.text_dim, "m or n is outside 0 … N−1") +
            10 * s;
    }
    if (sc.inputs.content == Content::shared) {  // the diagonal's line, reserved when measuring
      if (!pn.dl || !diagonal_note.empty())
        ry += pn.wrapped(f.body, ImVec2(rx, ry), rw, pal.accent,
                         pn.dl ? diagonal_note : nobreak("n − m = 0: every cell = 0.000000")) +
              4 * s;
    }
    if (sc.inputs.content == Content::shared && !compact) {
      const char* why = sc.inputs.encoding == Encoding::rope
                            ? "RoPE: S[m][n] = q·R(n−m)k depends on n − m only, so every diagonal "
                              "holds one value."
                            : (sc.inputs.encoding == Encoding::sinusoidal
                                   ? "Sinusoidal: S = q·k + q·PEₙ + k·PEₘ + PEₘ·PEₙ; the middle "
                                     "terms depend on m and n themselves, so diagonals vary."
                                   : "No encoding: every position holds the same q and k, so "
                                     "every score is the same.");
      ry += pn.wrapped(f.body, ImVec2(rx, ry), rw, pal.text_dim, why);
    }
    return ry - y0;
  };

  // [SECTION] layout: the first level whose matrix is at least 240 px at scale 1 (else the
  // level with the largest), and the read-out right of the matrix or under it, whichever leaves
  // the matrix more room
  struct Layout {
    float top = 0.0f, side = 0.0f, readout_w = 0.0f, cells_bottom = 0.0f;
    bool below = false;
  };
  const auto layout_for = [&](const Level& lv) {
    Layout out;
    out.top = header(Pen{}, lv);
    out.cells_bottom = bottom;
    plot::Axis ax, ay;
    ax.label = "key position n";
    ay.label = "query position m";
    ax.lo = ay.lo = -0.5;
    ax.hi = ay.hi = n_shown - 0.5;
    if (!shown.front().words.empty() && n_shown <= 32)
      ax.categories = ay.categories = shown.front().words;
    const plot::Margins mg = plot::margins(st, ax, ay);
    if (!single) {
      out.side = std::min(
          width / static_cast<float>(count) - mg.left - mg.right,
          bottom - out.top - f.large->FontSize - mg.top - mg.bottom - bar_w - bar_margin - pad);
      return out;
    }
    const float extra_w = bar_w + 2.0f * pad + bar_margin;
    const float right_w = std::min(std::round(380.0f * s), 0.45f * width);
    const float side_right = std::min(width - right_w - mg.left - mg.right - extra_w,
                                      bottom - out.top - mg.top - mg.bottom);
    const float below_h =
        readout(Pen{}, shown.front(), 0, 0, width, m_cell, n_cell, false, lv.compact_readout) +
        10 * s;
    const float side_below = std::min(width - mg.left - mg.right - extra_w,
                                      bottom - out.top - below_h - mg.top - mg.bottom);
    out.below = side_below > side_right;
    out.side = std::max(side_right, side_below);
    if (out.below) {
      out.cells_bottom = bottom - below_h;
    } else {
      out.readout_w = right_w;
    }
    return out;
  };
  int level = 0;
  Layout lay = layout_for(levels[0]);
  for (int l = 1; l < kLevels && lay.side < 240.0f * s; ++l) {
    const Layout next = layout_for(levels[l]);
    if (next.side > lay.side) {
      lay = next;
      level = l;
    }
  }
  const Level& lv = levels[level];
  header(pen, lv);
  const float top = lay.top;
  const float readout_w = lay.readout_w;
  const bool readout_below = lay.below;
  const float cells_bottom = lay.cells_bottom;
  const float avail_w = width - readout_w;
  const float panel_w = avail_w / static_cast<float>(count);

  // [SECTION] panels
  const ImU32 masked = pal.panel;
  int hover_panel = -1, hover_m = -1, hover_n = -1;
  float panels_bottom = top;

  for (int i = 0; i < count; ++i) {
    const HeatmapScores& sc = shown[static_cast<std::size_t>(i)];
    const int n = sc.n;
    plot::Axis ax, ay;
    ax.lo = ay.lo = -0.5;
    ax.hi = ay.hi = n - 0.5;
    ax.label = "key position n";
    ay.label = "query position m";
    ax.short_label = "n";
    ay.short_label = "m";
    ax.grid = ay.grid = false;
    ay.down = true;
    if (!sc.words.empty() && n <= 32) ax.categories = ay.categories = sc.words;
    const plot::Margins mg = plot::margins(st, ax, ay);
    float title_h = single ? 0.0f : f.large->FontSize + 6.0f * s;
    const float extra_w = single ? bar_w + 2.0f * pad + bar_margin : 0.0f;
    const float extra_h = single ? 0.0f : bar_w + bar_margin + pad;
    const float side = std::max(
        16.0f, std::floor(std::min(panel_w - mg.left - mg.right - extra_w,
                                   cells_bottom - top - title_h - mg.top - mg.bottom - extra_h)));
    const float px0 = x0 + panel_w * static_cast<float>(i);
    if (!single) {
      const std::string t = encoding_title(sc.inputs.encoding);
      pen.centred(fit_font({f.large, f.body}, t, panel_w), ImVec2(px0 + mg.left + 0.5f * side, top),
                  pal.text, t);
    }
    const ImVec2 r0(px0, top + title_h);
    const ImVec2 r1(px0 + mg.left + side + mg.right, r0.y + mg.top + side + mg.bottom);
    const plot::Frame fr = plot::axes(dl, st, r0, r1, ax, ay);
    panels_bottom = std::max(panels_bottom, r1.y + extra_h);

    // cells: one textured quad
    bool drew = false;
    if (renderer_) {
      drew =
          renderer_->update(i, versions_[static_cast<std::size_t>(i)], sc.s, n, n,
                            static_cast<float>(sc.lo), static_cast<float>(sc.hi), masked,
                            ImVec2(fr.area_max.x - fr.area_min.x, fr.area_max.y - fr.area_min.y));
      if (drew)
        renderer_->add_image(dl, i, fr.area_min, fr.area_max);
      else if (error.empty())
        error = renderer_->error();
    }
    if (!drew) {
      dl->AddRect(fr.area_min, fr.area_max, pal.grid, 0, 0, std::max(1.0f, std::round(s)));
      if (env.has_gl)
        pen.wrapped(f.body, ImVec2(fr.area_min.x + 8 * s, fr.area_min.y + 8 * s),
                    fr.area_max.x - fr.area_min.x - 16 * s, pal.bad,
                    "cells not drawn: see the message above");
    }
    panels.push_back(Panel{sc.inputs.encoding, fr.area_min, fr.area_max, n});

    const float cell = (fr.area_max.x - fr.area_min.x) / static_cast<float>(n);
    const float thick = std::max(1.0f, std::round(2.0f * s));
    // the diagonal n - m = r of the current positions, with shared content
    const double r = std::round(p.key_position - p.position);
    if (sc.inputs.content == Content::shared && std::fabs(r) < n) {
      const int ri = static_cast<int>(r);
      const int m0 = std::max(0, -ri), m1 = std::min(n - 1, n - 1 - ri);
      const ImVec2 a(fr.x.to_px(m0 + ri - 0.5), fr.y.to_px(m0 - 0.5));
      const ImVec2 b(fr.x.to_px(m1 + ri + 0.5), fr.y.to_px(m1 + 0.5));
      dl->AddLine(a, b, with_alpha(pal.accent, 0.9f), thick);
      float vmin = INFINITY, vmax = -INFINITY;
      for (int m = m0; m <= m1; ++m) {
        const float v = sc.s[static_cast<std::size_t>(m) * static_cast<std::size_t>(n) +
                             static_cast<std::size_t>(m + ri)];
        vmin = std::min(vmin, v);
        vmax = std::max(vmax, v);
      }
      std::string note = nobreak("n − m = " + format_number(r, 6) + ":") + " ";
      if (!std::isfinite(vmin) || !std::isfinite(vmax))
        note += "masked";
      else if (vmin == vmax)
        note += nobreak("every cell = " + format_number(static_cast<double>(vmin), 6));
      else
        note += nobreak("varies " + format_number(static_cast<double>(vmin), 4) + " … " +
                        format_number(static_cast<double>(vmax), 4));
      // inside the cells, on one or two lines, beside the diagonal away from the framed cell;
      // under the matrix when it does not fit there
      const ImVec2 lp = plot::label_box_padding(st);
      const float inner = fr.area_max.x - fr.area_min.x - 12 * s - 2 * lp.x;
      ImFont* nf = fit_font({single ? f.large : f.body, f.body}, note, inner, 2);
      const std::vector<std::string> lines = wrap_text(nf, note, inner);
      const ImVec2 ts = wrapped_size(nf, note, inner);
      if (ts.x > inner || ts.y > 0.35f * (fr.area_max.y - fr.area_min.y)) {
        if (single) diagonal_note = note;
      } else {
        const float t =
            m1 > m0 ? std::clamp(static_cast<float>(m_cell - m0) / static_cast<float>(m1 - m0),
                                 0.0f, 1.0f)
                    : 0.5f;
        const float ta = t < 0.5f ? 0.75f : 0.25f;
        const ImVec2 anchor(a.x + (b.x - a.x) * ta, a.y + (b.y - a.y) * ta);
        const float lx =
            std::clamp(anchor.x + 10 * s, fr.area_min.x + 6 * s + lp.x,
                       std::max(fr.area_min.x + 6 * s + lp.x, fr.area_max.x - ts.x - 6 * s - lp.x));
        float ly = std::clamp(anchor.y - ts.y - 10 * s, fr.area_min.y + 6 * s + lp.y,
                              std::max(fr.area_min.y + 6 * s, fr.area_max.y - ts.y - 6 * s - lp.y));
        for (const std::string& line : lines) {
          plot::label_box(dl, st, nf, ImVec2(lx, ly), pal.accent, line);
          ly += nf->FontSize;
        }
      }
    }
    // the cell (m, n) of the current positions
    if (m_cell >= 0 && m_cell < n && n_cell >= 0 && n_cell < n) {
      const ImVec2 c0(fr.x.to_px(n_cell - 0.5), fr.y.to_px(m_cell - 0.5));
      const ImVec2 c1(fr.x.to_px(n_cell + 0.5), fr.y.to_px(m_cell + 0.5));
      const float grow = std::max(0.0f, 6.0f * s - 0.5f * cell);
      dl->AddRect(ImVec2(c0.x - grow, c0.y - grow), ImVec2(c1.x + grow, c1.y + grow), pal.text, 0,
                  0, thick);
    }
    // colour bar
    const std::string bar_label = p.score_mode == ScoreMode::softmax ? "weight" : "score";
    if (single) {
      const ImVec2 b0(fr.area_max.x + 2 * pad, fr.area_min.y);
      plot::colour_bar(dl, st, b0, ImVec2(b0.x + bar_w, fr.area_max.y), sc.lo, sc.hi, bar_label,
                       true);
    } else {
      const ImVec2 b0(fr.area_min.x, r1.y + 4 * s);
      plot::colour_bar(dl, st, b0, ImVec2(fr.area_max.x, b0.y + bar_w), sc.lo, sc.hi, bar_label,
                       false);
    }
    if (hovered && fr.contains(mouse)) {
      hover_panel = i;
      hover_n = cell_index(fr.x, mouse.x, n);
      hover_m = cell_index(fr.y, mouse.y, n);
    }
  }

  // [SECTION] read-out: the hovered cell, else the cell of the current positions
  if (hover_panel >= 0 && hover_m >= 0 && hover_n >= 0) {
    const HeatmapScores& sc = shown[static_cast<std::size_t>(hover_panel)];
    ImGui::BeginTooltip();
    ImGui::PushFont(f.bold);
    ImGui::Text("%s", encoding_title(sc.inputs.encoding));
    ImGui::PopFont();
    ImGui::Text("query m = %d   key n = %d   n − m = %d", hover_m, hover_n, hover_n - hover_m);
    if (!sc.words.empty())
      ImGui::Text("words: “%s” → “%s”", sc.words[static_cast<std::size_t>(hover_m)].c_str(),
                  sc.words[static_cast<std::size_t>(hover_n)].c_str());
    ImGui::Text("S[m][n] = %s", cell_text(sc, hover_m, hover_n).c_str());
    ImGui::TextDisabled("single precision, as drawn; colour range %.6g … %.6g", sc.lo, sc.hi);
    ImGui::EndTooltip();
  }
  if (single) {
    const bool use_hover = hover_panel == 0 && hover_m >= 0 && hover_n >= 0;
    const int m = use_hover ? hover_m : m_cell;
    const int n = use_hover ? hover_n : n_cell;
    if (readout_below) {
      readout(pen, shown.front(), x0, panels_bottom + 10 * s, width, m, n, use_hover,
              lv.compact_readout);
    } else {
      const float rx = origin.x + size.x - pad - readout_w + 10 * s;
      readout(pen, shown.front(), rx, panels.front().cells_min.y, readout_w - 10 * s, m, n,
              use_hover, lv.compact_readout);
    }
  }
  dl->PopClipRect();
}

void HeatmapView::DrawControls(AppState& state, const ViewEnv&) {
  Params& p = state.params;
  int n = p.positions;
  ImGui::SetNextItemWidth(-1);
  if (ImGui::SliderInt("##positions", &n, 8, 4096, "N = %d positions",
                       ImGuiSliderFlags_Logarithmic))
    p.positions = std::clamp(n, 8, 4096);
  ImGui::Checkbox("compare all three encodings", &p.compare);
  if (!p.compare) {
    int e = static_cast<int>(p.encoding);
    ImGui::TextUnformatted("encoding");
    ImGui::SameLine();
    if (ImGui::RadioButton("none", &e, 0)) p.encoding = Encoding::none;
    ImGui::SameLine();
    if (ImGui::RadioButton("sinusoidal", &e, 1)) p.encoding = Encoding::sinusoidal;
    ImGui::SameLine();
    if (ImGui::RadioButton("RoPE", &e, 2)) p.encoding = Encoding::rope;
  }
  int c = static_cast<int>(p.content);
  ImGui::TextUnformatted("content");
  ImGui::SameLine();
  if (ImGui::RadioButton("shared", &c, 0)) p.content = Content::shared;
  ImGui::SameLine();
  if (ImGui::RadioButton("random", &c, 1)) p.content = Content::random;
  ImGui::SameLine();
  if (ImGui::RadioButton("words", &c, 2)) p.content = Content::sentence;
  int mode = static_cast<int>(p.score_mode);
  ImGui::TextUnformatted("scores");
  ImGui::SameLine();
  if (ImGui::RadioButton("raw", &mode, 0)) p.score_mode = ScoreMode::raw;
  ImGui::SameLine();
  if (ImGui::RadioButton("/√d", &mode, 1)) p.score_mode = ScoreMode::scaled;
  ImGui::SameLine();
  if (ImGui::RadioButton("softmax", &mode, 2)) p.score_mode = ScoreMode::softmax;
  ImGui::Checkbox("causal mask", &p.causal);
  if (p.content == Content::sentence) {
    char buf[256];
    std::snprintf(buf, sizeof buf, "%s", p.sentence_b.c_str());
    ImGui::SetNextItemWidth(-1);
    if (ImGui::InputText("##sentence_b", buf, sizeof buf)) {
      Params trial = p;
      if (set_param(trial, "sentence_b", buf).ok()) p = trial;
    }
  }
}

}  // namespace rope::app
