#include "views/sentence_view.h"

#include <algorithm>
#include <cmath>
#include <cstdio>

#include "render/heatmap_scores.h"
#include "rope/frequencies.h"
#include "rope/random.h"
#include "rope/rotation.h"
#include "state/params.h"
#include "ui/canvas.h"
#include "ui/plot.h"
#include "ui/theme.h"

namespace rope::app {
namespace {

int find_word(const std::vector<std::string>& words, const std::string& w) {
  for (std::size_t i = 0; i < words.size(); ++i)
    if (words[i] == w) return static_cast<int>(i);
  return -1;
}

double dot(const std::vector<double>& x, const std::vector<double>& y) {
  double s = 0.0;
  for (std::size_t i = 0; i < x.size() && i < y.size(); ++i)
    s += x[i] * y[i];
  return s;
}

Vec2 block0(const std::vector<double>& v, Pairing pairing) {
  if (v.size() < 2) return {};
  return pairing == Pairing::interleaved ? Vec2{v[0], v[1]} : Vec2{v[0], v[v.size() / 2]};
}

bool text_field(const char* id, std::string& value, Params& p, const char* name) {
  char buf[256];
  std::snprintf(buf, sizeof buf, "%s", value.c_str());
  ImGui::SetNextItemWidth(-1);
  if (!ImGui::InputText(id, buf, sizeof buf)) return false;
  Params trial = p;
  if (!set_param(trial, name, buf).ok()) return false;
  p = trial;
  return true;
}

}  // namespace

void SentenceView::DrawControls(AppState& state, const ViewEnv&) {
  Params& p = state.params;
  ImGui::TextUnformatted("sentence A");
  text_field("##sentence_a", p.sentence_a, p, "sentence_a");
  ImGui::TextUnformatted("sentence B");
  text_field("##sentence_b", p.sentence_b, p, "sentence_b");
  ImGui::TextUnformatted("query word");
  text_field("##query_word", p.query_word, p, "query_word");
  ImGui::TextUnformatted("key word");
  text_field("##key_word", p.key_word, p, "key_word");
  const auto words = sentence_words(p.sentence_a);
  ImGui::TextDisabled("click a word of A: left = query, right = key");
  for (std::size_t i = 0; i < words.size() && i < 24; ++i) {
    if (i % 4 != 0) ImGui::SameLine();
    ImGui::PushID(static_cast<int>(i));
    if (ImGui::SmallButton(words[i].c_str())) p.query_word = words[i];
    if (ImGui::IsItemClicked(ImGuiMouseButton_Right)) p.key_word = words[i];
    ImGui::PopID();
  }
}

void SentenceView::Draw(AppState& state, const ViewEnv& env) {
  const Params& p = state.params;
  const Palette& pal = palette(p.theme);
  const plot::Style st = plot::style(env, p.theme);
  const float s = env.scale;
  const Fonts& f = *env.fonts;

  // [SECTION] the numbers: embeddings, positions, rotated vectors, scores
  const auto thetas = frequencies(p.dim, p.base);
  const std::vector<double> q = hash_embedding(p.query_word, p.dim, p.seed);
  const std::vector<double> k = hash_embedding(p.key_word, p.dim, p.seed);
  Vec2 qm[2], kn[2];
  for (int side = 0; side < 2; ++side) {
    Side& sd = side == 0 ? a : b;
    sd.words = sentence_words(side == 0 ? p.sentence_a : p.sentence_b);
    sd.m = find_word(sd.words, p.query_word);
    sd.n = find_word(sd.words, p.key_word);
    sd.score = 0.0;
    sd.angle = 0.0;
    if (sd.m < 0 || sd.n < 0 || !thetas) continue;
    std::vector<double> rq(q.size()), rk(k.size());
    apply_rope<double>(q, rq, sd.m, thetas.value(), p.pairing);
    apply_rope<double>(k, rk, sd.n, thetas.value(), p.pairing);
    sd.score = dot(rq, rk);
    qm[side] = block0(rq, p.pairing);
    kn[side] = block0(rk, p.pairing);
    sd.angle = std::remainder(
        std::atan2(kn[side].y, kn[side].x) - std::atan2(qm[side].y, qm[side].x), kTwoPi);
  }

  const CanvasArea area = begin_canvas("sentence_canvas");
  ImDrawList* dl = area.draw_list;
  const ImVec2 origin = area.origin;
  const ImVec2 size = area.size;
  const bool hovered = area.hovered;
  const ImVec2 mouse = area.mouse;

  const float pad = std::round(18.0f * s);
  float y = origin.y + pad;
  dl->AddText(f.title, f.title->FontSize, ImVec2(origin.x + pad, y), pal.text,
              "Same words, different places: the score depends on the distance only");
  y += f.title->FontSize + 2 * s;
  const std::string note =
      "Word vectors: rope::hash_embedding(word, d = " + std::to_string(p.dim) + ", seed " +
      std::to_string(p.seed) +
      ") — a seeded hash of the word, not a trained embedding; q = vector of “" + p.query_word +
      "”, k = vector of “" + p.key_word + "”.";
  dl->AddText(f.body, f.body->FontSize, ImVec2(origin.x + pad, y), pal.text_dim, note.c_str());
  y += f.body->FontSize + 2 * s;
  dl->AddText(f.body, f.body->FontSize, ImVec2(origin.x + pad, y), pal.text_dim,
              "Pictures: block 0 of Rₘq and Rₙk (θ₀ = 1 rad per position).  Score: (Rₘq)·(Rₙk) "
              "over all d dimensions.");
  y += f.body->FontSize + 14 * s;

  // [SECTION] one column per sentence: the words, the rotated block-0 vectors, the numbers
  const float col_w = 0.5f * (size.x - 3 * pad);
  const float bottom = origin.y + size.y - pad;
  double extent = 0.1;
  for (int side = 0; side < 2; ++side)
    extent =
        std::max({extent, std::hypot(qm[side].x, qm[side].y), std::hypot(kn[side].x, kn[side].y)});
  extent *= 1.15;
  for (int side = 0; side < 2; ++side) {
    const Side& sd = side == 0 ? a : b;
    const float x0 = origin.x + pad + static_cast<float>(side) * (col_w + pad);
    float cy = y;
    dl->AddText(f.bold, f.bold->FontSize, ImVec2(x0, cy), pal.text_dim,
                side == 0 ? "sentence A" : "sentence B");
    cy += f.bold->FontSize + 4 * s;
    // words with their positions; query and key words coloured
    float wx = x0;
    for (std::size_t i = 0; i < sd.words.size(); ++i) {
      const std::string& w = sd.words[i];
      const bool is_q = static_cast<int>(i) == sd.m;
      const bool is_k = static_cast<int>(i) == sd.n;
      const ImU32 col = is_q ? pal.query : (is_k ? pal.key : pal.text);
      ImFont* font = f.title;
      const float ww = font->CalcTextSizeA(font->FontSize, 1e9f, 0, w.c_str()).x;
      if (wx + ww > x0 + col_w) break;
      dl->AddText(font, font->FontSize, ImVec2(wx, cy), col, w.c_str());
      draw_text_centred(dl, f.body, ImVec2(wx + 0.5f * ww, cy + font->FontSize), pal.text_dim,
                        std::to_string(i));
      if (is_q || is_k)
        dl->AddLine(ImVec2(wx, cy + font->FontSize + 1), ImVec2(wx + ww, cy + font->FontSize + 1),
                    col, std::max(1.0f, std::round(3.0f * s)));
      wx += ww + f.title->FontSize * 0.4f;
    }
    cy += f.title->FontSize + f.body->FontSize + 12 * s;
    if (sd.m < 0 || sd.n < 0) {
      const std::string missing =
          "“" + (sd.m < 0 ? p.query_word : p.key_word) + "” is not a word of this sentence";
      dl->AddText(f.large, f.large->FontSize, ImVec2(x0, cy), pal.bad, missing.c_str());
      continue;
    }
    const std::string pos_text = "query m = " + std::to_string(sd.m) +
                                 ",  key n = " + std::to_string(sd.n) +
                                 ",  n − m = " + std::to_string(sd.n - sd.m);
    dl->AddText(f.large, f.large->FontSize, ImVec2(x0, cy), pal.text, pos_text.c_str());
    cy += f.large->FontSize + 2 * s;
    char buf[160];
    std::snprintf(buf, sizeof buf, "angle from Rₘq to Rₙk (block 0) = %s rad",
                  format_number(sd.angle, 6).c_str());
    dl->AddText(f.large, f.large->FontSize, ImVec2(x0, cy), pal.accent, buf);
    cy += f.large->FontSize + 2 * s;
    std::snprintf(buf, sizeof buf, "score (Rₘq)·(Rₙk) = %s", format_number(sd.score, 9).c_str());
    dl->AddText(f.title, f.title->FontSize, ImVec2(x0, cy), pal.text, buf);
    cy += f.title->FontSize + 8 * s;

    // the plane with the two rotated block-0 vectors
    plot::Axis ax, ay;
    ax.lo = ay.lo = -extent;
    ax.hi = ay.hi = extent;
    ax.ticks = ay.ticks = 4;
    const plot::Margins mg = plot::margins(st, ax, ay);
    const float side_px = std::max(
        40.0f, std::floor(std::min(col_w - mg.left - mg.right, bottom - cy - mg.top - mg.bottom)));
    const plot::Frame fr = plot::axes(
        dl, st, ImVec2(x0, cy),
        ImVec2(x0 + mg.left + side_px + mg.right, cy + mg.top + side_px + mg.bottom), ax, ay);
    const ImVec2 o(fr.x.to_px(0), fr.y.to_px(0));
    const ImVec2 tq(fr.x.to_px(qm[side].x), fr.y.to_px(qm[side].y));
    const ImVec2 tk(fr.x.to_px(kn[side].x), fr.y.to_px(kn[side].y));
    const float thick = std::max(1.0f, std::round(4.0f * s));
    const double aq = std::atan2(qm[side].y, qm[side].x);
    draw_arc(dl, o, 0.3f * side_px * 0.5f, aq, aq + sd.angle, pal.accent,
             std::max(1.0f, std::round(3.0f * s)));
    draw_arrow(dl, o, tq, pal.query, thick, 18 * s);
    draw_arrow(dl, o, tk, pal.key, thick, 18 * s);
    dl->AddText(f.large, f.large->FontSize, ImVec2(tq.x + 6 * s, tq.y), pal.query,
                ("Rₘq  “" + p.query_word + "”").c_str());
    dl->AddText(f.large, f.large->FontSize, ImVec2(tk.x + 6 * s, tk.y), pal.key,
                ("Rₙk  “" + p.key_word + "”").c_str());
    if (hovered && fr.contains(mouse)) {
      ImGui::BeginTooltip();
      ImGui::Text("sentence %s: m = %d, n = %d", side == 0 ? "A" : "B", sd.m, sd.n);
      ImGui::Text("block 0 of Rₘq = (%.17g, %.17g)", qm[side].x, qm[side].y);
      ImGui::Text("block 0 of Rₙk = (%.17g, %.17g)", kn[side].x, kn[side].y);
      ImGui::Text("score over d = %d: %.17g", p.dim, sd.score);
      ImGui::EndTooltip();
    }
  }
  // the verdict
  if (a.m >= 0 && a.n >= 0 && b.m >= 0 && b.n >= 0) {
    const bool same_distance = a.n - a.m == b.n - b.m;
    const double diff = std::fabs(a.score - b.score);
    const std::string verdict = same_distance ? "same distance n − m → equal scores (difference " +
                                                    format_number(diff, 3) + ")"
                                              : "different distances n − m → different scores";
    const ImVec2 ts = f.large->CalcTextSizeA(f.large->FontSize, 1e9f, 0, verdict.c_str());
    plot::label_box(dl, st, f.large, ImVec2(origin.x + size.x - pad - ts.x, bottom - ts.y),
                    same_distance ? pal.good : pal.accent, verdict);
  }
  dl->PopClipRect();
}

}  // namespace rope::app
