// views/sentence_view.cpp — the sentence demo (sentence_view.h).
//
// [SECTION] inputs and compute: positions, rotated vectors, scores
// [SECTION] layout: the text from the top, the verdict at the bottom, the planes between
// [SECTION] paint: the sentences, the verdict, the planes
// [SECTION] hover
#include "views/sentence_view.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <optional>
#include <tuple>
#include <vector>

#include "io/number_format.h"
#include "rope/frequencies.h"
#include "rope/random.h"
#include "rope/rotation.h"
#include "state/params.h"
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

// Block 0 of v under a pairing, as a 2D vector (rope::pair_indices).
Vec2 block0(const std::vector<double>& v, Pairing pairing) {
  const PairIndices pi = pair_indices(0, static_cast<int>(v.size()), pairing);
  if (pi.first < 0) return {};
  return {v[static_cast<std::size_t>(pi.first)], v[static_cast<std::size_t>(pi.second)]};
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

// [SECTION] layout: the text from the top, the verdict at the bottom, the planes between

// Six levels, tried in order until the text leaves room for the planes: full size; the words,
// title and score one font smaller; a one-line note; no title (the lesson names the step); no
// note and the smallest fonts; the read-outs on two lines and the sentence's name beside its
// words (the planes may then be left out).
struct Level {
  ImFont *title, *words, *readout, *score;
  bool long_note, short_note, short_angle, compact;
};
constexpr int kLevels = 6;
std::array<Level, kLevels> levels(const Fonts& f) {
  return {{{f.title, f.title, f.large, f.title, true, false, false, false},
           {f.heading, f.large, f.large, f.large, true, false, false, false},
           {f.heading, f.large, f.large, f.large, false, true, false, false},
           {nullptr, f.large, f.large, f.large, false, true, false, false},
           {nullptr, f.bold, f.body, f.bold, false, false, true, false},
           {nullptr, f.bold, f.body, f.bold, false, false, true, true}}};
}

// Where things go, px, and the texts: the header and both sentences from the top (at the
// chosen level, in two columns or stacked), the verdict at the bottom, the planes between.
struct Layout {
  const Fonts& f;
  const Palette& pal;
  plot::Style st;
  float s = 1.0f;
  float pad = 0.0f, x0 = 0.0f, width = 0.0f, bottom = 0.0f, top = 0.0f, right = 0.0f;
  float col_w = 0.0f;  // one of the two columns
  std::string title{}, note{}, pictures{}, short_note{};
  std::string query_word{}, key_word{};
  Level level{};
  bool stacked = false;  // sentence B under A
  // the verdict: "same distance n − m → equal scores …", right-aligned at the bottom
  bool both = false, same_distance = false;
  std::vector<std::string> verdict_lines{};
  ImFont* verdict_font = nullptr;
  float verdict_h = 0.0f;
  float planes_bottom = 0.0f;
};

std::string pos_text(const SentenceView::Side& sd) {
  return nobreak("query m = " + std::to_string(sd.m) + ",") + "  " +
         nobreak("key n = " + std::to_string(sd.n) + ",") + "  " +
         nobreak("n − m = " + std::to_string(sd.n - sd.m));
}
std::string angle_text(const SentenceView::Side& sd, bool short_form) {
  return std::string(short_form ? "angle (block 0) " : "angle from Rₘq to Rₙk (block 0) ") +
         nobreak("= " + format_number(sd.angle, NumberStyle::label, 6) + " rad");
}
std::string score_text(const SentenceView::Side& sd) {
  return nobreak("score (Rₘq)·(Rₙk)") + " " +
         nobreak("= " + format_number(sd.score, NumberStyle::label, 9));
}

// The read-outs of a side fit a column when no line needs wrapping at the level's sizes.
bool fits_column(const SentenceView::Side& sd, const Level& lv, float col_w) {
  ImFont* font = lv.words;
  float w = 0.0f;
  for (const std::string& word : sd.words)
    w += text_size(font, word).x + std::round(font->FontSize * 0.4f);
  if (w - std::round(font->FontSize * 0.4f) > col_w) return false;
  if (sd.m < 0 || sd.n < 0) return true;
  return text_size(lv.readout, pos_text(sd)).x <= col_w &&
         text_size(lv.readout, angle_text(sd, lv.short_angle)).x <= col_w &&
         text_size(lv.score, score_text(sd)).x <= col_w;
}

// One sentence inside [bx, bx + bw] from by: its words wrapped to the width with their
// positions, then its read-outs or the missing-word message. Returns the y below it. With a
// measuring pen it only measures; otherwise it records where the words went in `out`.
float paint_side(const Layout& lay, const SentenceView::Side& sd, int side, const Level& lv,
                 const Pen& pn, float bx, float by, float bw, SentenceView::SideText* out) {
  const Fonts& f = lay.f;
  const Palette& pal = lay.pal;
  const float s = lay.s;
  ImFont* font = lv.words;
  for (const std::string& w : sd.words)
    if (text_size(font, w).x > bw) font = f.body;
  const float gap = std::round(font->FontSize * 0.4f);
  const float row_h = font->FontSize + f.body->FontSize + 4 * s;
  float wx = bx;
  if (lv.compact) {  // "A" first in the row of words
    wx += pn.text(font, ImVec2(bx, by), pal.text_dim, side == 0 ? "A" : "B").x + 2 * gap;
  } else {
    by += pn.text(f.bold, ImVec2(bx, by), pal.text_dim, side == 0 ? "sentence A" : "sentence B").y +
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
      if (out)
        out->word_boxes.push_back(TextBox{ImVec2(wx, by), ImVec2(wx + ww, by + font->FontSize), w});
      const std::string index = std::to_string(i);
      const float iw = text_size(f.body, index).x;
      pn.text(f.body, ImVec2(std::round(wx + 0.5f * (ww - iw)), by + font->FontSize), pal.text_dim,
              index);
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
        "“" + (sd.m < 0 ? lay.query_word : lay.key_word) + "” is not a word of this sentence";
    const float h = pn.wrapped(lv.readout, ImVec2(bx, by), bw, pal.bad, missing);
    if (pn.dl && out)
      out->missing = TextBox{ImVec2(bx, by),
                             ImVec2(bx + wrapped_size(lv.readout, missing, bw).x, by + h), missing};
    return by + h;
  }
  if (lv.compact) {
    const std::string line =
        nobreak("m = " + std::to_string(sd.m) + ",") + "  " +
        nobreak("n = " + std::to_string(sd.n) + ",") + "  " +
        nobreak("n − m = " + std::to_string(sd.n - sd.m) + ",") + "  " +
        nobreak("angle " + format_number(sd.angle, NumberStyle::label, 6) + " rad");
    by += pn.wrapped(lv.readout, ImVec2(bx, by), bw, pal.text, line) + 2 * s;
    return by + pn.wrapped(lv.score, ImVec2(bx, by), bw, pal.text,
                           nobreak("score = " + format_number(sd.score, NumberStyle::label, 9)));
  }
  by += pn.wrapped(lv.readout, ImVec2(bx, by), bw, pal.text, pos_text(sd)) + 2 * s;
  by += pn.wrapped(lv.readout, ImVec2(bx, by), bw, pal.accent, angle_text(sd, lv.short_angle)) +
        2 * s;
  const std::string score = score_text(sd);
  ImFont* sf = fit_font({lv.score, lv.readout}, score, bw, 1);
  return by + pn.wrapped(sf, ImVec2(bx, by), bw, pal.text, score);
}

// The header and both sentences at level `lv`; returns the y below them. With a measuring pen
// (and no `out`) it only measures.
float paint_text(const Layout& lay, const std::array<SentenceView::Side, 2>& sides, const Level& lv,
                 bool two_columns, const Pen& pn, std::array<SentenceView::SideText, 2>* out) {
  const Fonts& f = lay.f;
  const Palette& pal = lay.pal;
  const float s = lay.s;
  const float x0 = lay.x0;
  const float width = lay.width;
  const auto side = [&](int i, float bx, float by, float bw) {
    return paint_side(lay, sides[static_cast<std::size_t>(i)], i, lv, pn, bx, by, bw,
                      out ? &(*out)[static_cast<std::size_t>(i)] : nullptr);
  };
  float y = lay.top;
  if (lv.title)
    y += pn.wrapped(fit_font({lv.title, f.large}, lay.title, width, 2), ImVec2(x0, y), width,
                    pal.text, lay.title) +
         2 * s;
  if (lv.long_note) {
    y += pn.wrapped(f.body, ImVec2(x0, y), width, pal.text_dim, lay.note);
    y += pn.wrapped(f.body, ImVec2(x0, y), width, pal.text_dim, lay.pictures);
  }
  if (lv.short_note) y += pn.wrapped(f.body, ImVec2(x0, y), width, pal.text_dim, lay.short_note);
  y += lv.title ? 12 * s : 4 * s;
  if (two_columns)
    return std::max(side(0, x0, y, lay.col_w), side(1, x0 + lay.col_w + lay.pad, y, lay.col_w)) +
           10 * s;
  y = side(0, x0, y, width) + 10 * s;
  return side(1, x0, y, width) + 10 * s;
}

Layout layout(const std::array<SentenceView::Side, 2>& sides, const Params& p, const Canvas& canvas,
              const ViewEnv& env, DrawnText* log) {
  Layout lay{*env.fonts, palette(p.theme), plot::style(env, p.theme, log)};
  const Fonts& f = lay.f;
  const float s = lay.s = env.scale;
  const SentenceView::Side& a = sides[0];
  const SentenceView::Side& b = sides[1];
  lay.pad = std::round(18.0f * s);
  lay.x0 = canvas.origin.x + lay.pad;
  lay.width = std::max(1.0f, canvas.size.x - 2 * lay.pad);
  lay.bottom = canvas.origin.y + canvas.size.y - lay.pad;
  lay.top = canvas.origin.y + lay.pad;
  lay.right = canvas.origin.x + canvas.size.x - lay.pad;
  lay.col_w = std::max(1.0f, 0.5f * (lay.width - lay.pad));
  lay.title = "Same words, different places: the score depends on the distance only";
  lay.note = "Word vectors: a seeded hash of each word (d = " + std::to_string(p.dim) + ", seed " +
             std::to_string(p.seed) + "), not a trained embedding; q = vector of “" + p.query_word +
             "”, k = vector of “" + p.key_word + "”.";
  lay.pictures =
      "Pictures: block 0 of Rₘq and Rₙk (θ₀ = 1 rad per position).  Score: (Rₘq)·(Rₙk) over all "
      "d dimensions.";
  lay.short_note = "q, k: seeded hashes of the words (d = " + std::to_string(p.dim) +
                   ");  pictures: block 0, θ₀ = 1;  score over all d.";
  lay.query_word = p.query_word;
  lay.key_word = p.key_word;

  // the verdict's lines and height
  lay.both = a.m >= 0 && a.n >= 0 && b.m >= 0 && b.n >= 0;
  lay.same_distance = lay.both && a.n - a.m == b.n - b.m;
  const ImVec2 lp = plot::label_box_padding(lay.st);
  lay.verdict_font = f.large;
  if (lay.both) {
    const std::string verdict =
        lay.same_distance
            ? "same distance n − m → equal scores " +
                  nobreak("(difference " +
                          format_number(std::fabs(a.score - b.score), NumberStyle::label, 3) + ")")
            : "different distances n − m → different scores";
    lay.verdict_font = fit_font({f.large, f.body}, verdict, lay.width - 2 * lp.x, 1);
    lay.verdict_lines = wrap_text(lay.verdict_font, verdict, lay.width - 2 * lp.x);
    lay.verdict_h = lay.verdict_font->FontSize * static_cast<float>(lay.verdict_lines.size()) +
                    2 * lp.y + 10 * s;
  }
  lay.planes_bottom = lay.bottom - lay.verdict_h;

  // the first level whose text leaves room for the smallest plane worth drawing, with its axes
  plot::Axis probe;
  probe.lo = -1.0;
  probe.hi = 1.0;
  probe.ticks = 4;
  const plot::Margins pm = plot::margins(lay.st, probe, probe);
  const float min_plane = 180.0f * s + pm.top + pm.bottom + f.bold->FontSize + 4 * s;
  const std::array<Level, kLevels> lv = levels(f);
  const auto columns = [&](const Level& l) {
    return fits_column(a, l, lay.col_w) && fits_column(b, l, lay.col_w);
  };
  const int level = first_fitting(kLevels, [&](int i) {
    const Level& l = lv[static_cast<std::size_t>(i)];
    return paint_text(lay, sides, l, columns(l), Pen{}, nullptr) + min_plane <= lay.planes_bottom;
  });
  lay.level = lv[static_cast<std::size_t>(level)];
  lay.stacked = !columns(lay.level);
  return lay;
}

// [SECTION] paint: the sentences, the verdict, the planes

// The verdict's lines in label boxes, right-aligned above the bottom.
void paint_verdict(const Layout& lay, ImDrawList* dl) {
  const ImVec2 lp = plot::label_box_padding(lay.st);
  ImFont* vf = lay.verdict_font;
  float vy = lay.bottom - lay.verdict_h + 10 * lay.s + lp.y;
  for (const std::string& line : lay.verdict_lines) {
    const float lw = text_size(vf, line).x;
    plot::label_box(dl, lay.st, vf, ImVec2(lay.right - lp.x - lw, vy),
                    lay.same_distance ? lay.pal.good : lay.pal.accent, line);
    vy += vf->FontSize;
  }
}

// Labels near the two tips, inside the plane, off both arrows and the angle's arc (radius
// arc_r around the origin o, from angle arc_a0 to arc_a1), and apart from each other: for each
// label, of the eight places around its tip the first that covers nothing, else the one covering
// least. As boxes (x0, y0, x1, y1), the query's first.
std::array<ImVec4, 2> place_labels(const plot::Frame& fr, ImVec2 o, ImVec2 tq, ImVec2 tk,
                                   ImVec2 size_q, ImVec2 size_k, float arc_r, double arc_a0,
                                   double arc_a1, float s) {
  const float gap = 6 * s;
  std::vector<ImVec2> ink;  // points of the arrows, every 3 px
  for (const ImVec2 tip : {tq, tk}) {
    const float len = std::hypot(tip.x - o.x, tip.y - o.y);
    const int n = std::max(1, static_cast<int>(len / (3 * s)));
    for (int i = 0; i <= n; ++i) {
      const float t = static_cast<float>(i) / static_cast<float>(n);
      ink.emplace_back(o.x + t * (tip.x - o.x), o.y + t * (tip.y - o.y));
    }
  }
  // and of the angle's arc, as draw_arc strokes it
  const int arc_n = std::max(
      2, static_cast<int>(std::fabs(arc_a1 - arc_a0) * static_cast<double>(arc_r / (3 * s))));
  for (int i = 0; i <= arc_n; ++i)
    ink.push_back(polar(o, arc_r, arc_a0 + (arc_a1 - arc_a0) * i / arc_n));
  const auto covered = [&](const ImVec4& b, const ImVec4* other) {
    int c = 0;
    for (const ImVec2& p : ink)
      c += p.x >= b.x - 2 * s && p.x <= b.z + 2 * s && p.y >= b.y - 2 * s && p.y <= b.w + 2 * s;
    if (other && b.x < other->z && other->x < b.z && b.y < other->w && other->y < b.w) c += 1000;
    return c;
  };
  const auto place = [&](ImVec2 tip, ImVec2 ts, const ImVec4* other) {
    // outward first: the side of the tip away from the origin
    const float sx = tip.x >= o.x ? 1.0f : -1.0f, sy = tip.y <= o.y ? -1.0f : 1.0f;
    const auto box = [&](float dx, float dy) {  // dx, dy in {-1, 0, 1}: where, from the tip
      float lx = dx > 0 ? tip.x + gap : dx < 0 ? tip.x - gap - ts.x : tip.x - 0.5f * ts.x;
      float ly = dy > 0 ? tip.y + gap : dy < 0 ? tip.y - gap - ts.y : tip.y - 0.5f * ts.y;
      lx = std::clamp(lx, fr.area_min.x + gap, std::max(fr.area_min.x, fr.area_max.x - ts.x));
      ly = std::clamp(ly, fr.area_min.y, std::max(fr.area_min.y, fr.area_max.y - ts.y));
      return ImVec4(lx, ly, lx + ts.x, ly + ts.y);
    };
    const std::array<ImVec2, 8> order = {ImVec2(sx, sy),  ImVec2(sx, 0),   ImVec2(0, sy),
                                         ImVec2(-sx, sy), ImVec2(sx, -sy), ImVec2(0, -sy),
                                         ImVec2(-sx, 0),  ImVec2(-sx, -sy)};
    std::vector<ImVec4> boxes;
    for (const ImVec2& d : order)
      boxes.push_back(box(d.x, d.y));
    // then the plane's corners, the tip's side first: far from the tip, but clear (the colour
    // and a leader line say whose it is)
    const float cx0 = fr.area_min.x + gap, cx1 = fr.area_max.x - gap - ts.x;
    const float cy0 = fr.area_min.y + gap, cy1 = fr.area_max.y - gap - ts.y;
    for (const ImVec2& c : {ImVec2(sx > 0 ? cx1 : cx0, sy < 0 ? cy0 : cy1),
                            ImVec2(sx > 0 ? cx1 : cx0, sy < 0 ? cy1 : cy0),
                            ImVec2(sx > 0 ? cx0 : cx1, sy < 0 ? cy0 : cy1),
                            ImVec2(sx > 0 ? cx0 : cx1, sy < 0 ? cy1 : cy0)})
      boxes.emplace_back(c.x, c.y, c.x + ts.x, c.y + ts.y);
    ImVec4 best = boxes[0];
    int best_cost = covered(best, other);
    for (std::size_t i = 1; i < boxes.size() && best_cost > 0; ++i) {
      const int c = covered(boxes[i], other);
      if (c < best_cost) {
        best = boxes[i];
        best_cost = c;
      }
    }
    return best;
  };
  const ImVec4 bq = place(tq, size_q, nullptr);
  const ImVec4 bk = place(tk, size_k, &bq);
  return {bq, bk};
}

// One plane per sentence with both words, in one row under the text (y), the same scale for
// both: block 0 of R_m q and R_n k as arrows, the angle between them, the words' labels.
// Returns the frames drawn (none where a word is missing or there is no room).
std::array<std::optional<plot::Frame>, 2> paint_planes(
    const Layout& lay, const std::array<SentenceView::Side, 2>& sides, float y,
    const Canvas& canvas) {
  const Fonts& f = lay.f;
  const Palette& pal = lay.pal;
  const float s = lay.s;
  ImDrawList* dl = canvas.draw_list;
  const Pen& pen = canvas.pen;
  std::array<std::optional<plot::Frame>, 2> frames;
  double extent = 0.1;
  for (const SentenceView::Side& sd : sides)
    extent = std::max({extent, std::hypot(sd.q0.x, sd.q0.y), std::hypot(sd.k0.x, sd.k0.y)});
  extent *= 1.15;
  const float plane_title_h = lay.stacked ? f.bold->FontSize + 4 * s : 0.0f;
  for (int side = 0; side < 2; ++side) {
    const SentenceView::Side& sd = sides[static_cast<std::size_t>(side)];
    if (sd.m < 0 || sd.n < 0) continue;
    const float px0 = lay.x0 + static_cast<float>(side) * (lay.col_w + lay.pad);
    plot::Axis ax, ay;
    ax.lo = ay.lo = -extent;
    ax.hi = ay.hi = extent;
    ax.ticks = ay.ticks = 4;
    const plot::Margins mg = plot::margins(lay.st, ax, ay);
    const float room_h = lay.planes_bottom - y - plane_title_h - mg.top - mg.bottom;
    const float side_px = std::floor(std::min(lay.col_w - mg.left - mg.right, room_h));
    if (side_px < 80.0f * s) continue;  // no room: the numbers above say it all
    float py = y;
    if (lay.stacked)
      py += pen.text(f.bold, ImVec2(px0, py), pal.text_dim, side == 0 ? "sentence A" : "sentence B")
                .y +
            4 * s;
    const plot::Frame fr = plot::axes(
        dl, lay.st, ImVec2(px0, py),
        ImVec2(px0 + mg.left + side_px + mg.right, py + mg.top + side_px + mg.bottom), ax, ay);
    const ImVec2 o(fr.x.to_px(0), fr.y.to_px(0));
    const ImVec2 tq(fr.x.to_px(sd.q0.x), fr.y.to_px(sd.q0.y));
    const ImVec2 tk(fr.x.to_px(sd.k0.x), fr.y.to_px(sd.k0.y));
    const float thick = std::max(1.0f, std::round(4.0f * s));
    const double aq = std::atan2(sd.q0.y, sd.q0.x);
    const float arc_r = 0.3f * side_px * 0.5f;
    draw_arc(dl, o, arc_r, aq, aq + sd.angle, pal.accent, std::max(1.0f, std::round(3.0f * s)));
    draw_arrow(dl, o, tq, pal.query, thick, 18 * s);
    draw_arrow(dl, o, tk, pal.key, thick, 18 * s);
    ImFont* lf = side_px >= 260.0f * s ? f.large : f.body;
    const std::string lq = "Rₘq “" + lay.query_word + "”";
    const std::string lk = "Rₙk “" + lay.key_word + "”";
    const auto [bq, bk] = place_labels(fr, o, tq, tk, text_size(lf, lq), text_size(lf, lk), arc_r,
                                       aq, aq + sd.angle, s);
    // a label that had to leave its tip gets a thin leader to it
    for (const auto& [b, tip, colour] :
         {std::tuple{bq, tq, pal.query}, std::tuple{bk, tk, pal.key}}) {
      const ImVec2 near(std::clamp(tip.x, b.x, b.z), std::clamp(tip.y, b.y, b.w));
      if (std::hypot(near.x - tip.x, near.y - tip.y) > 20 * s)
        dl->AddLine(near, tip, with_alpha(colour, 0.6f), std::max(1.0f, std::round(s)));
    }
    pen.text(lf, ImVec2(bq.x, bq.y), pal.query, lq);
    pen.text(lf, ImVec2(bk.x, bk.y), pal.key, lk);
    frames[static_cast<std::size_t>(side)] = fr;
  }
  return frames;
}

// [SECTION] hover

// The exact numbers of the sentence whose plane is under the mouse.
void hover(const std::array<SentenceView::Side, 2>& sides,
           const std::array<std::optional<plot::Frame>, 2>& frames, ImVec2 mouse, int dim) {
  for (int side = 0; side < 2; ++side) {
    const auto& fr = frames[static_cast<std::size_t>(side)];
    if (!fr || !fr->contains(mouse)) continue;
    const SentenceView::Side& sd = sides[static_cast<std::size_t>(side)];
    ImGui::BeginTooltip();
    ImGui::Text("sentence %s: m = %d, n = %d", side == 0 ? "A" : "B", sd.m, sd.n);
    ImGui::Text("block 0 of Rₘq = (%s, %s)", full_number(sd.q0.x).c_str(),
                full_number(sd.q0.y).c_str());
    ImGui::Text("block 0 of Rₙk = (%s, %s)", full_number(sd.k0.x).c_str(),
                full_number(sd.k0.y).c_str());
    ImGui::Text("score over d = %d: %s", dim, full_number(sd.score).c_str());
    ImGui::EndTooltip();
  }
}

}  // namespace

// [SECTION] inputs and compute: positions, rotated vectors, scores

SentenceView::Inputs SentenceView::inputs_of(const Params& p) {
  return Inputs{p.dim,        p.base,       p.pairing,    p.seed,
                p.sentence_a, p.sentence_b, p.query_word, p.key_word};
}

SentenceView::Model SentenceView::compute(const Inputs& in) {
  Model md;
  const auto thetas = frequencies(in.dim, in.base);
  const std::vector<double> q = hash_embedding(in.query_word, in.dim, in.seed);
  const std::vector<double> k = hash_embedding(in.key_word, in.dim, in.seed);
  for (int side = 0; side < 2; ++side) {
    Side& sd = md.sides[static_cast<std::size_t>(side)];
    sd.words = sentence_words(side == 0 ? in.sentence_a : in.sentence_b);
    sd.m = find_word(sd.words, in.query_word);
    sd.n = find_word(sd.words, in.key_word);
    if (sd.m < 0 || sd.n < 0 || !thetas) continue;
    std::vector<double> rq(q.size()), rk(k.size());
    apply_rope<double>(q, rq, sd.m, thetas.value(), in.pairing);
    apply_rope<double>(k, rk, sd.n, thetas.value(), in.pairing);
    sd.score = dot(rq, rk);
    sd.q0 = block0(rq, in.pairing);
    sd.k0 = block0(rk, in.pairing);
    sd.angle = std::remainder(std::atan2(sd.k0.y, sd.k0.x) - std::atan2(sd.q0.y, sd.q0.x), kTwoPi);
  }
  return md;
}

const SentenceView::Model& SentenceView::model() const {
  return model_.model_or_empty();
}

void SentenceView::Draw(AppState& state, const ViewEnv& env) {
  const Params& p = state.params;
  const Model& m = model_.get(inputs_of(p), compute);
  const Canvas canvas("sentence_canvas", &drawn_);  // clip pushed here, popped at every return
  const Layout lay = layout(m.sides, p, canvas, env, &drawn_);
  stacked_ = lay.stacked;
  text_ = {};
  const float y = paint_text(lay, m.sides, lay.level, !lay.stacked, canvas.pen, &text_);
  paint_verdict(lay, canvas.draw_list);
  const auto frames = paint_planes(lay, m.sides, y, canvas);
  if (canvas.hovered) hover(m.sides, frames, canvas.mouse, p.dim);
}

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

}  // namespace rope::app
