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
  const plot::Style st = plot::style(env, p.theme);
  const float s = env.scale;
  const Fonts& f = *env.fonts;

  const CanvasArea area = begin_canvas("heatmap_canvas");
  ImDrawList* dl = area.draw_list;
  const ImVec2 origin = area.origin;
  const ImVec2 size = area.size;
  const bool hovered = area.hovered;
  const ImVec2 mouse = area.mouse;

  // [SECTION] header
  const float pad = std::round(18.0f * s);
  float y = origin.y + pad;
  const int n_shown = shown.empty() ? 0 : shown.front().n;
  {
    char head[200];
    std::snprintf(head, sizeof head, "Attention scores S[m][n]:  N = %d,  d = %d,  base = %s",
                  p.content == Content::sentence ? n_shown : p.positions, p.dim,
                  plot::tick_label(p.base, false).c_str());
    dl->AddText(f.title, f.title->FontSize, ImVec2(origin.x + pad, y), pal.text, head);
    y += f.title->FontSize + 2.0f * s;
    const std::string sub = std::string(mode_text(p.score_mode)) +
                            (p.causal ? ",  causal mask (keys after the query hidden)" : "");
    dl->AddText(f.large, f.large->FontSize, ImVec2(origin.x + pad, y), pal.text, sub.c_str());
    y += f.large->FontSize + 2.0f * s;
    dl->AddText(f.body, f.body->FontSize, ImVec2(origin.x + pad, y), pal.text_dim,
                content_text(p).c_str());
    y += f.body->FontSize + 4.0f * s;
    if (computing || !error.empty()) {
      const std::string msg =
          !error.empty() ? error : "computing the new matrix… (the previous one is shown)";
      dl->AddText(f.bold, f.bold->FontSize, ImVec2(origin.x + pad, y),
                  error.empty() ? pal.accent : pal.bad, msg.c_str());
    }
    y += f.bold->FontSize + 8.0f * s;
  }

  // [SECTION] panels
  panels.clear();
  const int count = static_cast<int>(shown.size());
  if (count == 0 || size.x < 50 || origin.y + size.y - y < 50) {
    dl->PopClipRect();
    return;
  }
  if (env.has_gl && !renderer_) renderer_ = std::make_unique<HeatmapRenderer>();
  const bool single = count == 1;
  const float readout_w = single ? std::round(380.0f * s) : 0.0f;
  const float bar_w = std::round(22.0f * s);
  const float bar_margin = plot::colour_bar_margin(st, !single);
  const float avail_w = size.x - 2 * pad - readout_w;
  const float panel_w = avail_w / static_cast<float>(count);
  const float top = y;
  const float bottom = origin.y + size.y - pad;

  const ImU32 masked = pal.panel;
  const int m_cell = static_cast<int>(std::lround(std::clamp(p.position, -1.0, 1e6)));
  const int n_cell = static_cast<int>(std::lround(std::clamp(p.key_position, -1.0, 1e6)));
  int hover_panel = -1, hover_m = -1, hover_n = -1;

  for (int i = 0; i < count; ++i) {
    const HeatmapScores& sc = shown[static_cast<std::size_t>(i)];
    const int n = sc.n;
    plot::Axis ax, ay;
    ax.lo = ay.lo = -0.5;
    ax.hi = ay.hi = n - 0.5;
    ax.label = "key position n";
    ay.label = "query position m";
    ax.grid = ay.grid = false;
    ay.down = true;
    if (!sc.words.empty() && n <= 32) ax.categories = ay.categories = sc.words;
    const plot::Margins mg = plot::margins(st, ax, ay);
    float title_h = single ? 0.0f : f.large->FontSize + 6.0f * s;
    const float extra_w = single ? bar_w + 2.0f * pad + bar_margin : 0.0f;
    const float extra_h = single ? 0.0f : bar_w + bar_margin + pad;
    const float side = std::max(
        16.0f, std::floor(std::min(panel_w - mg.left - mg.right - extra_w,
                                   bottom - top - title_h - mg.top - mg.bottom - extra_h)));
    const float x0 = origin.x + pad + panel_w * static_cast<float>(i);
    if (!single) {
      const std::string t = encoding_title(sc.inputs.encoding);
      draw_text_centred(dl, f.large, ImVec2(x0 + mg.left + 0.5f * side, top), pal.text, t);
    }
    const ImVec2 r0(x0, top + title_h);
    const ImVec2 r1(x0 + mg.left + side + mg.right, r0.y + mg.top + side + mg.bottom);
    const plot::Frame fr = plot::axes(dl, st, r0, r1, ax, ay);

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
        dl->AddText(f.body, f.body->FontSize, ImVec2(fr.area_min.x + 8 * s, fr.area_min.y + 8 * s),
                    pal.bad, "cells not drawn: see the message above");
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
      std::string note = "n − m = " + format_number(r, 6) + ": ";
      if (!std::isfinite(vmin) || !std::isfinite(vmax))
        note += "masked";
      else if (vmin == vmax)
        note += "every cell = " + format_number(static_cast<double>(vmin), 6);
      else
        note += "varies " + format_number(static_cast<double>(vmin), 4) + " … " +
                format_number(static_cast<double>(vmax), 4);
      ImFont* nf = single ? f.large : f.body;
      const ImVec2 ts = nf->CalcTextSizeA(nf->FontSize, 1e9f, 0, note.c_str());
      const float lx = std::clamp(0.5f * (a.x + b.x) + 10 * s, fr.area_min.x + 6 * s,
                                  fr.area_max.x - ts.x - 8 * s);
      const float ly = std::clamp(0.5f * (a.y + b.y) - ts.y - 10 * s, fr.area_min.y + 6 * s,
                                  fr.area_max.y - ts.y - 6 * s);
      plot::label_box(dl, st, nf, ImVec2(lx, ly), pal.accent, note);
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
  const auto cell_text = [&](const HeatmapScores& sc, int m, int n) {
    const float v = sc.s[static_cast<std::size_t>(m) * static_cast<std::size_t>(sc.n) +
                         static_cast<std::size_t>(n)];
    if (std::isinf(v) && v < 0) return std::string("masked (n > m)");
    return format_number(static_cast<double>(v), 9);  // float: 9 digits are all there is
  };
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
    const HeatmapScores& sc = shown.front();
    const Panel& pn = panels.front();
    float rx = origin.x + size.x - pad - readout_w + 10 * s;
    float ry = pn.cells_min.y;
    const bool use_hover = hover_panel == 0 && hover_m >= 0 && hover_n >= 0;
    const int m = use_hover ? hover_m : m_cell;
    const int n = use_hover ? hover_n : n_cell;
    dl->AddText(f.bold, f.bold->FontSize, ImVec2(rx, ry), pal.text_dim,
                use_hover ? "cell under the mouse" : "cell of the current m, n (framed)");
    ry += f.bold->FontSize + 6 * s;
    if (m >= 0 && n >= 0 && m < sc.n && n < sc.n) {
      const std::string l1 = "m = " + std::to_string(m) + "   n = " + std::to_string(n);
      dl->AddText(f.large, f.large->FontSize, ImVec2(rx, ry), pal.text, l1.c_str());
      ry += f.large->FontSize + 2 * s;
      const std::string l2 = "n − m = " + std::to_string(n - m);
      dl->AddText(f.large, f.large->FontSize, ImVec2(rx, ry), pal.accent, l2.c_str());
      ry += f.large->FontSize + 2 * s;
      if (!sc.words.empty()) {
        const std::string w = "“" + sc.words[static_cast<std::size_t>(m)] + "” → “" +
                              sc.words[static_cast<std::size_t>(n)] + "”";
        dl->AddText(f.large, f.large->FontSize, ImVec2(rx, ry), pal.text, w.c_str());
        ry += f.large->FontSize + 2 * s;
      }
      const std::string l3 = "S = " + cell_text(sc, m, n);
      dl->AddText(f.title, f.title->FontSize, ImVec2(rx, ry), pal.text, l3.c_str());
      ry += f.title->FontSize + 10 * s;
    } else {
      dl->AddText(f.body, f.body->FontSize, ImVec2(rx, ry), pal.text_dim,
                  "m or n is outside 0 … N−1");
      ry += f.body->FontSize + 10 * s;
    }
    if (sc.inputs.content == Content::shared) {
      const char* why = sc.inputs.encoding == Encoding::rope
                            ? "RoPE: S[m][n] = q·R(n−m)k depends on n − m only, so every diagonal "
                              "holds one value."
                            : (sc.inputs.encoding == Encoding::sinusoidal
                                   ? "Sinusoidal: S = q·k + q·PEₙ + k·PEₘ + PEₘ·PEₙ; the middle "
                                     "terms depend on m and n themselves, so diagonals vary."
                                   : "No encoding: every position holds the same q and k, so "
                                     "every score is the same.");
      dl->AddText(f.body, f.body->FontSize, ImVec2(rx, ry), pal.text_dim, why, nullptr,
                  readout_w - 20 * s);
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
