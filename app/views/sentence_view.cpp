#include "views/sentence_view.h"

#include <algorithm>
#include <cmath>
#include <cstdio>

#include "rope/frequencies.h"
#include "rope/random.h"
#include "rope/rotation.h"
#include "state/params.h"
#include "ui/canvas.h"
#include "ui/plot.h"
#include "ui/theme.h"
#include "views/heatmap_scores.h"

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
  const plot::Style st = plot::style(env, p.theme, &drawn);
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
    sd.word_boxes.clear();
    sd.missing = TextBox{};
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

  const CanvasArea area = begin_canvas("sentence_canvas", &drawn);
  ImDrawList* dl = area.draw_list;
  const Pen& pen = area.pen;
  const ImVec2 origin = area.origin;
  const ImVec2 size = area.size;
  const bool hovered = area.hovered;
  const ImVec2 mouse = area.mouse;

  // [SECTION] layout: the text from the top, the verdict at the bottom, the planes between.
  // Six levels, tried in order until the text leaves room for the planes: full size; the words,
  // title and score one font smaller; a one-line note; no title (the lesson names the step);
  // no note and the smallest fonts; the read-outs on two lines and the sentence's name beside
  // its words (the planes may then be left out).
  struct Level {
    ImFont *title, *words, *readout, *score;
    bool long_note, short_note, short_angle, compact;
  };
  const Level levels[] = {{f.title, f.title, f.large, f.title, true, false, false, false},
                          {f.large, f.large, f.large, f.large, true, false, false, false},
                          {f.large, f.large, f.large, f.large, false, true, false, false},
                          {nullptr, f.large, f.large, f.large, false, true, false, false},
                          {nullptr, f.bold, f.body, f.bold, false, false, true, false},
                          {nullptr, f.bold, f.body, f.bold, false, false, true, true}};
  constexpr int kLevels = 6;
  const float pad = std::round(18.0f * s);
  const float x0 = origin.x + pad;
  const float width = std::max(1.0f, size.x - 2 * pad);
  const float bottom = origin.y + size.y - pad;
  const float col_w = std::max(1.0f, 0.5f * (width - pad));
  const std::string title = "Same words, different places: the score depends on the distance only";
  const std::string note = "Word vectors: rope::hash_embedding(word, d = " + std::to_string(p.dim) +
                           ", seed " + std::to_string(p.seed) +
                           ") — a seeded hash of the word, not a trained embedding; q = vector "
                           "of “" +
                           p.query_word + "”, k = vector of “" + p.key_word + "”.";
  const std::string pictures =
      "Pictures: block 0 of Rₘq and Rₙk (θ₀ = 1 rad per position).  Score: (Rₘq)·(Rₙk) over all "
      "d dimensions.";
  const std::string short_note = "q, k: seeded hashes of the words (d = " + std::to_string(p.dim) +
                                 ");  pictures: block 0, θ₀ = 1;  score over all d.";
  const auto pos_text = [](const Side& sd) {
    return nobreak("query m = " + std::to_string(sd.m) + ",") + "  " +
           nobreak("key n = " + std::to_string(sd.n) + ",") + "  " +
           nobreak("n − m = " + std::to_string(sd.n - sd.m));
  };
  const auto angle_text = [](const Side& sd, bool short_form) {
    return std::string(short_form ? "angle (block 0) " : "angle from Rₘq to Rₙk (block 0) ") +
           nobreak("= " + format_number(sd.angle, 6) + " rad");
  };
  const auto score_text = [](const Side& sd) {
    return nobreak("score (Rₘq)·(Rₙk)") + " " + nobreak("= " + format_number(sd.score, 9));
  };

  // Draws (or with a measuring pen only measures) one sentence inside [bx, bx + bw] from by:
  // its words wrapped to the width with their positions, then its read-outs or the
  // missing-word message. Returns the y below it.
  const auto draw_side = [&](const Pen& pn, int side, float bx, float by, float bw,
                             const Level& lv) {
    Side& sd = side == 0 ? a : b;
    ImFont* font = lv.words;
    for (const std::string& w : sd.words)
      if (text_size(font, w).x > bw) font = f.body;
    const float gap = std::round(font->FontSize * 0.4f);
    const float row_h = font->FontSize + f.body->FontSize + 4 * s;
    float wx = bx;
    if (lv.compact) {  // "A" first in the row of words
      wx += pn.text(font, ImVec2(bx, by), pal.text_dim, side == 0 ? "A" : "B").x + 2 * gap;
    } else {
      by +=
          pn.text(f.bold, ImVec2(bx, by), pal.text_dim, side == 0 ? "sentence A" : "sentence B").y +
          4 * s;
    }
    for (std::size_t i = 0; i < sd.words.size(); ++i) {
      const std::string& w = sd.words[i];
      const bool is_q = static_cast<int>(i) == sd.m;
      const bool is_k = static_cast<int>(i) == sd.n;
      const ImU32 col = is_q ? pal.query : (is_k ? pal.key : pal.text);
      const float ww = text_size(font, w).x;
      if (wx > bx && wx + ww > bx + bw) {  // next row
        wx = bx;
        by += row_h;
      }
      if (pn.dl) {
        pn.text(font, ImVec2(wx, by), col, w);
        sd.word_boxes.push_back(TextBox{ImVec2(wx, by), ImVec2(wx + ww, by + font->FontSize), w});
        const std::string index = std::to_string(i);
        const float iw = text_size(f.body, index).x;
        pn.text(f.body, ImVec2(std::round(wx + 0.5f * (ww - iw)), by + font->FontSize),
                pal.text_dim, index);
        if (is_q || is_k)
          pn.dl->AddLine(ImVec2(wx, by + font->FontSize + 1),
                         ImVec2(wx + ww, by + font->FontSize + 1), col,
                         std::max(1.0f, std::round(3.0f * s)));
      }
      wx += ww + gap;
    }
    by += row_h + 4 * s;
    if (sd.m < 0 || sd.n < 0) {
      const std::string missing =
          "“" + (sd.m < 0 ? p.query_word : p.key_word) + "” is not a word of this sentence";
      const float h = pn.wrapped(lv.readout, ImVec2(bx, by), bw, pal.bad, missing);
      if (pn.dl)
        sd.missing = TextBox{ImVec2(bx, by),
                             ImVec2(bx + wrapped_size(lv.readout, missing, bw).x, by + h), missing};
      return by + h;
    }
    if (lv.compact) {
      const std::string line = nobreak("m = " + std::to_string(sd.m) + ",") + "  " +
                               nobreak("n = " + std::to_string(sd.n) + ",") + "  " +
                               nobreak("n − m = " + std::to_string(sd.n - sd.m) + ",") + "  " +
                               nobreak("angle " + format_number(sd.angle, 6) + " rad");
      by += pn.wrapped(lv.readout, ImVec2(bx, by), bw, pal.text, line) + 2 * s;
      return by + pn.wrapped(lv.score, ImVec2(bx, by), bw, pal.text,
                             nobreak("score = " + format_number(sd.score, 9)));
    }
    by += pn.wrapped(lv.readout, ImVec2(bx, by), bw, pal.text, pos_text(sd)) + 2 * s;
    by += pn.wrapped(lv.readout, ImVec2(bx, by), bw, pal.accent, angle_text(sd, lv.short_angle)) +
          2 * s;
    const std::string score = score_text(sd);
    ImFont* sf = fit_font({lv.score, lv.readout}, score, bw, 1);
    return by + pn.wrapped(sf, ImVec2(bx, by), bw, pal.text, score);
  };
  // the read-outs of a side fit a column when no line needs wrapping at the level's sizes
  const auto fits_column = [&](const Side& sd, const Level& lv) {
    ImFont* font = lv.words;
    float w = 0.0f;
    for (const std::string& word : sd.words)
      w += text_size(font, word).x + std::round(font->FontSize * 0.4f);
    if (w - std::round(font->FontSize * 0.4f) > col_w) return false;
    if (sd.m < 0 || sd.n < 0) return true;
    return text_size(lv.readout, pos_text(sd)).x <= col_w &&
           text_size(lv.readout, angle_text(sd, lv.short_angle)).x <= col_w &&
           text_size(lv.score, score_text(sd)).x <= col_w;
  };
  // Header and both sentences; returns the y below them.
  const auto draw_text = [&](const Pen& pn, const Level& lv, bool two_columns) {
    float y = origin.y + pad;
    if (lv.title)
      y += pn.wrapped(fit_font({lv.title, f.large}, title, width, 2), ImVec2(x0, y), width,
                      pal.text, title) +
           2 * s;
    if (lv.long_note) {
      y += pn.wrapped(f.body, ImVec2(x0, y), width, pal.text_dim, note);
      y += pn.wrapped(f.body, ImVec2(x0, y), width, pal.text_dim, pictures);
    }
    if (lv.short_note) y += pn.wrapped(f.body, ImVec2(x0, y), width, pal.text_dim, short_note);
    y += lv.title ? 12 * s : 4 * s;
    if (two_columns)
      return std::max(draw_side(pn, 0, x0, y, col_w, lv),
                      draw_side(pn, 1, x0 + col_w + pad, y, col_w, lv)) +
             10 * s;
    y = draw_side(pn, 0, x0, y, width, lv) + 10 * s;
    return draw_side(pn, 1, x0, y, width, lv) + 10 * s;
  };

  // the verdict's lines and height
  const bool both = a.m >= 0 && a.n >= 0 && b.m >= 0 && b.n >= 0;
  const bool same_distance = both && a.n - a.m == b.n - b.m;
  const ImVec2 lp = plot::label_box_padding(st);
  std::vector<std::string> verdict_lines;
  ImFont* vf = f.large;
  float verdict_h = 0.0f;
  if (both) {
    const std::string verdict =
        same_distance
            ? "same distance n − m → equal scores " +
                  nobreak("(difference " + format_number(std::fabs(a.score - b.score), 3) + ")")
            : "different distances n − m → different scores";
    vf = fit_font({f.large, f.body}, verdict, width - 2 * lp.x, 1);
    verdict_lines = wrap_text(vf, verdict, width - 2 * lp.x);
    verdict_h = vf->FontSize * static_cast<float>(verdict_lines.size()) + 2 * lp.y + 10 * s;
  }
  const float planes_bottom = bottom - verdict_h;

  // the smallest plane worth drawing, with its axes
  plot::Axis probe;
  probe.lo = -1.0;
  probe.hi = 1.0;
  probe.ticks = 4;
  const plot::Margins pm = plot::margins(st, probe, probe);
  const float min_plane = 180.0f * s + pm.top + pm.bottom + f.bold->FontSize + 4 * s;
  const Pen measure{nullptr, nullptr};
  int level = 0;
  for (; level < kLevels - 1; ++level) {
    const Level& lv = levels[level];
    const bool cols = fits_column(a, lv) && fits_column(b, lv);
    if (draw_text(measure, lv, cols) + min_plane <= planes_bottom) break;
  }
  const Level& lv = levels[level];
  stacked = !(fits_column(a, lv) && fits_column(b, lv));
  const float y = draw_text(pen, lv, !stacked);
  {
    float vy = bottom - verdict_h + 10 * s + lp.y;
    for (const std::string& line : verdict_lines) {
      const float lw = text_size(vf, line).x;
      plot::label_box(dl, st, vf, ImVec2(origin.x + size.x - pad - lp.x - lw, vy),
                      same_distance ? pal.good : pal.accent, line);
      vy += vf->FontSize;
    }
  }

  // [SECTION] the planes with the rotated block-0 vectors, one per sentence, in one row
  double extent = 0.1;
  for (int side = 0; side < 2; ++side)
    extent =
        std::max({extent, std::hypot(qm[side].x, qm[side].y), std::hypot(kn[side].x, kn[side].y)});
  extent *= 1.15;
  const float plane_title_h = stacked ? f.bold->FontSize + 4 * s : 0.0f;
  for (int side = 0; side < 2; ++side) {
    const Side& sd = side == 0 ? a : b;
    if (sd.m < 0 || sd.n < 0) continue;
    const float px0 = x0 + static_cast<float>(side) * (col_w + pad);
    plot::Axis ax, ay;
    ax.lo = ay.lo = -extent;
    ax.hi = ay.hi = extent;
    ax.ticks = ay.ticks = 4;
    const plot::Margins mg = plot::margins(st, ax, ay);
    const float room_h = planes_bottom - y - plane_title_h - mg.top - mg.bottom;
    const float side_px = std::floor(std::min(col_w - mg.left - mg.right, room_h));
    if (side_px < 80.0f * s) continue;  // no room: the numbers above say it all
    float py = y;
    if (stacked)
      py += pen.text(f.bold, ImVec2(px0, py), pal.text_dim, side == 0 ? "sentence A" : "sentence B")
                .y +
            4 * s;
    const plot::Frame fr = plot::axes(
        dl, st, ImVec2(px0, py),
        ImVec2(px0 + mg.left + side_px + mg.right, py + mg.top + side_px + mg.bottom), ax, ay);
    const ImVec2 o(fr.x.to_px(0), fr.y.to_px(0));
    const ImVec2 tq(fr.x.to_px(qm[side].x), fr.y.to_px(qm[side].y));
    const ImVec2 tk(fr.x.to_px(kn[side].x), fr.y.to_px(kn[side].y));
    const float thick = std::max(1.0f, std::round(4.0f * s));
    const double aq = std::atan2(qm[side].y, qm[side].x);
    draw_arc(dl, o, 0.3f * side_px * 0.5f, aq, aq + sd.angle, pal.accent,
             std::max(1.0f, std::round(3.0f * s)));
    draw_arrow(dl, o, tq, pal.query, thick, 18 * s);
    draw_arrow(dl, o, tk, pal.key, thick, 18 * s);
    // labels beyond the tips, kept inside the plane and apart from each other
    ImFont* lf = side_px >= 260.0f * s ? f.large : f.body;
    const auto place = [&](ImVec2 tip, const std::string& text) {
      const ImVec2 ts = text_size(lf, text);
      const float gap = 6 * s;
      float lx = tip.x >= o.x ? tip.x + gap : tip.x - gap - ts.x;
      float ly = tip.y <= o.y ? tip.y - ts.y : tip.y;
      lx = std::clamp(lx, fr.area_min.x + gap, std::max(fr.area_min.x, fr.area_max.x - ts.x));
      ly = std::clamp(ly, fr.area_min.y, std::max(fr.area_min.y, fr.area_max.y - ts.y));
      return ImVec4(lx, ly, lx + ts.x, ly + ts.y);
    };
    const std::string lq = "Rₘq “" + p.query_word + "”";
    const std::string lk = "Rₙk “" + p.key_word + "”";
    const ImVec4 bq = place(tq, lq);
    ImVec4 bk = place(tk, lk);
    if (bk.x < bq.z && bq.x < bk.z && bk.y < bq.w && bq.y < bk.w) {  // overlap: move the key's
      const float h = bk.w - bk.y;
      const bool below = bq.w + h <= fr.area_max.y;
      bk.y = below ? bq.w : bq.y - h;
      bk.w = bk.y + h;
    }
    pen.text(lf, ImVec2(bq.x, bq.y), pal.query, lq);
    pen.text(lf, ImVec2(bk.x, bk.y), pal.key, lk);
    if (hovered && fr.contains(mouse)) {
      ImGui::BeginTooltip();
      ImGui::Text("sentence %s: m = %d, n = %d", side == 0 ? "A" : "B", sd.m, sd.n);
      ImGui::Text("block 0 of Rₘq = (%.17g, %.17g)", qm[side].x, qm[side].y);
      ImGui::Text("block 0 of Rₙk = (%.17g, %.17g)", kn[side].x, kn[side].y);
      ImGui::Text("score over d = %d: %.17g", p.dim, sd.score);
      ImGui::EndTooltip();
    }
  }
  dl->PopClipRect();
}

}  // namespace rope::app
