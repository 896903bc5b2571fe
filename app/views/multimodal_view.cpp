// views/multimodal_view.cpp — M-RoPE: the sequence as text rows, image grids and video frames,
// coloured by the query's score, under a bar of the pairs by axis (multimodal_view.h).
//
// [SECTION] helpers: words, colours, the other layout
// [SECTION] inputs and compute: tokens, ids, axes, scores
// [SECTION] the Layout record: where every token goes, the cell size that fits
// [SECTION] paint: header, pair bars, sequences, colour bar, read-out
// [SECTION] hover: the token under the mouse; a click makes it the query
// [SECTION] Draw and the control panel's part
#include "views/multimodal_view.h"

#include <algorithm>
#include <cmath>
#include <cstdio>

#include "imgui.h"
#include "rope/frequencies.h"
#include "state/actions.h"
#include "state/multimodal_params.h"
#include "state/params.h"
#include "ui/page.h"
#include "ui/param_widgets.h"
#include "ui/plot.h"
#include "ui/theme.h"

namespace rope::app {
namespace {

// [SECTION] helpers: words, colours, the other layout

constexpr int kHeaderLevels = 4;

// The layout drawn beside the state's: chunked and interleaved against each other, VideoRoPE
// against chunked (the layout it rearranges).
MropeLayout other_layout(MropeLayout l) {
  return l == MropeLayout::chunked ? MropeLayout::interleaved : MropeLayout::chunked;
}

const char* layout_words(MropeLayout l) {
  switch (l) {
    case MropeLayout::chunked:
      return "chunked (Qwen2-VL, Qwen2.5-VL)";
    case MropeLayout::interleaved:
      return "interleaved (Qwen3-VL)";
    case MropeLayout::videorope:
      return "VideoRoPE";
  }
  return "?";
}

ImU32 axis_colour(MropeAxis a, const Palette& pal) {
  return a == MropeAxis::t ? pal.accent : a == MropeAxis::h ? pal.query : pal.key;
}

std::string ids_short(const MropePosition& at) {
  const auto n = [](double v) { return format_number(v, NumberStyle::label, 6); };
  return n(at.t) + "," + n(at.h) + "," + n(at.w);
}

// "t: 16 pairs, λ 6.3 … 9.6·10²": an axis's pairs and their fastest and slowest wavelengths.
std::string axis_words(const MultimodalView::Panel& pn, MropeAxis a) {
  int count = 0;
  double fast = 0.0, slow = 0.0;
  for (std::size_t j = 0; j < pn.axes.size(); ++j) {
    if (pn.axes[j] != a) continue;
    if (count == 0) fast = pn.wavelength[j];
    slow = pn.wavelength[j];
    ++count;
  }
  std::string out = std::string(mrope_axis_name(a)) + ": " + std::to_string(count) + " pairs";
  if (count > 0)
    out += ", λ " + format_number(fast, NumberStyle::label, 3) + " … " +
           format_number(slow, NumberStyle::label, 3);
  return nobreak(out);
}

std::string section_words(const MropeSection& s) {
  return "(" + std::to_string(s[0]) + ", " + std::to_string(s[1]) + ", " + std::to_string(s[2]) +
         ")";
}

std::string token_words(const MultimodalView::Model& m, int i) {
  const MropeToken& t = m.tokens[static_cast<std::size_t>(i)];
  const MropeSegment& seg = m.segments[static_cast<std::size_t>(t.segment)];
  std::string where;
  switch (t.kind) {
    case MropeTokenKind::text:
      where = "text";
      break;
    case MropeTokenKind::vision_start:
      where = "<|vision_start|>";
      break;
    case MropeTokenKind::vision_end:
      where = "<|vision_end|>";
      break;
    case MropeTokenKind::timestamp:
      where = "timestamp text";
      break;
    case MropeTokenKind::patch:
      where =
          (seg.kind == MropeSegmentKind::video ? "patch (frame " + std::to_string(t.frame) + ", "
                                               : std::string("patch (")) +
          "row " + std::to_string(t.row) + ", column " + std::to_string(t.column) + ")";
      break;
  }
  return "token " + std::to_string(i) + ": " + where;
}

}  // namespace

// [SECTION] inputs and compute: tokens, ids, axes, scores

MultimodalView::Inputs MultimodalView::inputs_of(const Params& p) {
  Inputs in;
  in.dim = p.dim;
  in.base = p.base;
  in.pairing = p.pairing;
  in.q = effective_vector(p.query, p, false);
  in.k = effective_vector(p.key, p, true);
  in.sequence = p.mm_sequence;
  in.section = p.mm_section;
  in.rule = p.mm_rule;
  in.layout = p.mm_layout;
  in.query = p.mm_query;
  in.tokens_per_second = p.mm_tokens_per_second;
  in.seconds = p.mm_seconds;
  in.compare = p.mm_compare;
  return in;
}

MultimodalView::Model MultimodalView::compute(const Inputs& in) {
  Model m;
  // the state's parameters again, from the cache key: the same functions as the exports
  Params p;
  p.dim = in.dim;
  p.base = in.base;
  p.mm_sequence = in.sequence;
  p.mm_section = in.section;
  p.mm_rule = in.rule;
  p.mm_layout = in.layout;
  p.mm_tokens_per_second = in.tokens_per_second;
  p.mm_seconds = in.seconds;
  auto seq = parse_mm_sequence(in.sequence);
  if (!seq) {
    m.error = seq.error().to_string();
    return m;
  }
  m.segments = std::move(seq).value();
  auto tokens = mm_tokens(p);
  if (!tokens) {
    m.error = tokens.error().to_string();
    return m;
  }
  m.tokens = std::move(tokens).value();
  const int n = static_cast<int>(m.tokens.size());
  m.query = std::clamp(in.query, 0, n - 1);
  m.query_clamped = in.query != m.query;
  const std::vector<MropePosition> at = mrope_token_positions(m.tokens);
  const auto th = frequencies(in.dim, in.base);
  if (!th) {
    m.error = th.error().to_string();
    return m;
  }
  std::vector<MropeLayout> layouts{in.layout};
  if (in.compare) layouts.push_back(other_layout(in.layout));
  for (MropeLayout l : layouts) {
    auto section = mm_section(p, l);
    if (!section) {
      m.error = section.error().to_string();
      m.panels.clear();
      return m;
    }
    Panel pn;
    pn.layout = l;
    pn.section = section.value();
    pn.axes = mrope_pair_axes(in.dim, pn.section, l).value();
    for (double t : th.value())
      pn.wavelength.push_back(wavelength(t));
    auto s = mrope_scores(in.q, in.k, at[static_cast<std::size_t>(m.query)], at, in.base,
                          pn.section, l, in.pairing);
    if (!s) {
      m.error = s.error().to_string();
      m.panels.clear();
      return m;
    }
    pn.score = std::move(s).value();
    m.panels.push_back(std::move(pn));
  }
  m.lo = m.hi = m.panels.front().score.front();
  for (const Panel& pn : m.panels)
    for (double v : pn.score) {
      m.lo = std::min(m.lo, v);
      m.hi = std::max(m.hi, v);
    }
  if (!(m.hi > m.lo)) {  // one colour (q = 0, or one token): a bar around the value
    m.lo -= 0.5;
    m.hi += 0.5;
  }
  if (m.panels.size() == 2)
    for (int i = 0; i < n; ++i) {
      const auto u = static_cast<std::size_t>(i);
      const double gap = std::abs(m.panels[0].score[u] - m.panels[1].score[u]);
      if (gap > m.difference) {
        m.difference = gap;
        m.most_different = i;
      }
    }
  return m;
}

// [SECTION] the Layout record: where every token goes, the cell size that fits

// Token places in cell units inside a panel's sequence area; the cell size in px; the header.
struct MultimodalView::Layout : Page {
  using Page::Page;
  int level = 0;
  float top = 0;        // under the header
  float cell = 0;       // a token's side, px
  float gap = 0;        // between tokens, px
  float bar_h = 0;      // a pair bar
  float caption_h = 0;  // a panel's caption and axis line
  float seq_h = 0;      // a panel's sequence area, px
  float readout_h = 0;
  float colour_bar_w = 0, colour_bar_margin = 0;
  std::vector<ImVec2> unit;      // [token]: top-left in cell units (x across, y down)
  std::vector<int> line;         // [token]: its line of segments
  std::vector<ImVec2> label_at;  // segment captions: in cell units, on label_line
  std::vector<int> label_line;
  std::vector<std::string> labels;
  float label_h = 0;             // a caption row above each line of segments, px
  std::size_t panels_drawn = 0;  // both, or the state's layout alone on a small canvas
  // The top-left of cell-unit point u on line `l`, relative to the sequence area's top, px.
  float y_of(float u, int l) const { return static_cast<float>(l + 1) * label_h + u * cell; }
  std::string readout;
};

namespace {

// Places every token in cell units, segments left to right, wrapping at `width_units`: unit[i]
// is (x, y) in cells, line[i] the line of segments it is on (each line has a caption row above
// it, in px, added by the caller); label_at / label_line: each segment's caption. Returns the
// number of lines; `units_h` gets the cells' height of all lines (half a cell between lines).
template <class LabelUnits>
int place_tokens(const MultimodalView::Model& m, float width_units, std::vector<ImVec2>& unit,
                 std::vector<int>& line, std::vector<ImVec2>& label_at,
                 std::vector<int>& label_line, std::vector<std::string>& labels, float& units_h,
                 LabelUnits&& label_units) {
  unit.assign(m.tokens.size(), ImVec2(0, 0));
  line.assign(m.tokens.size(), 0);
  label_at.clear();
  label_line.clear();
  labels.clear();
  // each segment's box: text in rows of at most 16; an image w + 2 wide (its markers beside);
  // a video's frames side by side, each w + 2 wide (Qwen3-VL's markers are per frame)
  float x = 0, y = 0, line_h = 0;
  int lines = 1;
  std::size_t first = 0;  // the segment's first token
  for (std::size_t s = 0; s < m.segments.size(); ++s) {
    const MropeSegment& seg = m.segments[s];
    std::size_t last = first;
    while (last < m.tokens.size() && m.tokens[last].segment == static_cast<int>(s))
      ++last;
    const std::size_t count = last - first;
    float w = 0, h = 0;
    if (seg.kind == MropeSegmentKind::text) {
      w = static_cast<float>(std::min<std::size_t>(count, 16));
      h = std::ceil(static_cast<float>(count) / 16.0f);
    } else {
      const auto frames = static_cast<float>(seg.grid_t);
      const float frame_w = static_cast<float>(seg.grid_w) + 2.0f;
      w = frames * frame_w + (frames - 1.0f) * 0.5f;
      h = static_cast<float>(seg.grid_h);
    }
    const std::string label =
        seg.kind == MropeSegmentKind::text ? "text"
        : seg.kind == MropeSegmentKind::image
            ? "image " + std::to_string(seg.grid_h) + "×" + std::to_string(seg.grid_w)
            : "video " + std::to_string(seg.grid_t) + "×" + std::to_string(seg.grid_h) + "×" +
                  std::to_string(seg.grid_w);
    // the box is at least as wide as its caption, so captions never run into each other
    const float box_w = std::max(w, label_units(label));
    if (x > 0 && x + box_w > width_units) {  // a new line of segments
      x = 0;
      y += line_h + 0.5f;
      line_h = 0;
      ++lines;
    }
    label_at.emplace_back(x, y);
    label_line.push_back(lines - 1);
    labels.push_back(label);
    const float frame_w = static_cast<float>(seg.grid_w) + 2.0f;
    const float mid = std::floor((static_cast<float>(seg.grid_h) - 1.0f) / 2.0f);
    int text_i = 0;
    for (std::size_t i = first; i < last; ++i) {
      const MropeToken& t = m.tokens[i];
      line[i] = lines - 1;
      const float fx =
          x + static_cast<float>(std::max(t.frame, 0)) * (frame_w + 0.5f);  // its frame's left
      switch (t.kind) {
        case MropeTokenKind::text:
          unit[i] =
              ImVec2(x + static_cast<float>(text_i % 16), y + static_cast<float>(text_i / 16));
          ++text_i;
          break;
        case MropeTokenKind::patch:
          unit[i] = ImVec2(fx + 1.0f + static_cast<float>(t.column), y + static_cast<float>(t.row));
          break;
        case MropeTokenKind::vision_start:
        case MropeTokenKind::timestamp:
          unit[i] = ImVec2(fx, y + mid);
          break;
        case MropeTokenKind::vision_end: {
          // after its frame (Qwen3-VL) or after the last frame
          const int f = t.frame >= 0 ? t.frame : static_cast<int>(seg.grid_t) - 1;
          unit[i] = ImVec2(x + static_cast<float>(f) * (frame_w + 0.5f) + frame_w - 1.0f, y + mid);
          break;
        }
      }
    }
    x += box_w + 1.0f;
    line_h = std::max(line_h, h);
    first = last;
  }
  units_h = y + line_h;
  return lines;
}

// The header: title, the rule of the ids, the layouts' words, the error; returns the y under it.
float header(const Pen& pen, const Page& pg, int level, const Params& p,
             const MultimodalView::Model& m) {
  float y = pg.y0;
  const Fonts& f = pg.f;
  const auto line = [&](ImFont* font, ImU32 colour, const std::string& text) {
    return pen.wrapped(font, ImVec2(pg.x0, y), pg.width, colour, text);
  };
  if (level < 2)
    y += line(level == 0 ? f.title : f.heading, pg.pal.text,
              "Multimodal RoPE: every token has three positions (t, h, w)") +
         2 * pg.s;
  const std::string rule =
      nobreak("text: t = h = w;") + " " + nobreak("an image's patches share t,") + " " +
      nobreak("h and w grow with row and column;") + " " + nobreak("the text after it goes on") +
      " " + nobreak("from the largest id + 1");
  y += line(level == 0 ? f.large : f.body, pg.pal.text, rule) + 2 * pg.s;
  if (level < 3) {
    std::string note = nobreak("d = " + std::to_string(p.dim) + ",") + " " +
                       nobreak("base " + format_number(p.base, NumberStyle::tick) + ";") + " " +
                       nobreak(std::string("ids: ") + mrope_rule_name(p.mm_rule) + " rule;") +
                       "  each token shows the query's score with the key k put there";
    if (m.query_clamped)
      note += ";  query token " + std::to_string(p.mm_query) +
              " is past the sequence: " + "the last token is the query";
    y += line(f.body, pg.pal.text_dim, note);
  }
  if (!m.error.empty()) y += line(f.bold, pg.pal.bad, m.error);
  return y + 8 * pg.s;
}

// A panel's caption: the layout and its section in bold, then each axis's pairs and wavelengths
// in its colour, flowing onto a new line where the next one would pass `right`. Returns the
// height used; a Pen{} only measures.
float caption(const Pen& pen, const Page& pg, const MultimodalView::Panel& pn, float y, float right,
              bool brief) {
  const float line_h = pg.f.bold->FontSize * pg.f.scale + 4 * pg.s;
  // brief (the plainest level): the layout's name and section, each axis's count
  const std::string head =
      brief ? std::string(mrope_layout_name(pn.layout)) + " " + section_words(pn.section)
            : std::string(layout_words(pn.layout)) + ",  mrope_section " +
                  section_words(pn.section) + ":";
  // the head wraps at `right`; the axes flow on the lines under it
  const float head_h = pen.wrapped(pg.f.bold, ImVec2(pg.x0, y), right - pg.x0, pg.pal.text, head);
  float x = pg.x0;
  float h = head_h + 2 * pg.s + line_h;
  for (MropeAxis a : {MropeAxis::t, MropeAxis::h, MropeAxis::w}) {
    const std::string words =
        brief ? nobreak(std::string(mrope_axis_name(a)) + ": " +
                        std::to_string(std::count(pn.axes.begin(), pn.axes.end(), a)))
              : axis_words(pn, a);
    const float w = text_size(pg.f.body, words).x;
    if (x > pg.x0 && x + w > right) {
      x = pg.x0;
      h += line_h;
    }
    pen.text(pg.f.body, ImVec2(x, y + h - line_h + pg.s), axis_colour(a, pg.pal), words);
    x += w + 18 * pg.s;
  }
  return h + 2 * pg.s;
}

}  // namespace

MultimodalView::Layout MultimodalView::layout(const Model& m, const Params& p, const Canvas& canvas,
                                              const ViewEnv& env) {
  const float s = env.scale;
  Layout lay(canvas, env, p.theme);
  lay.colour_bar_w = std::round(20.0f * s);
  lay.colour_bar_margin = plot::colour_bar_margin(lay.st, true);
  std::string full_readout, query_readout;
  if (!m.panels.empty()) {
    const MropeToken& q = m.tokens[static_cast<std::size_t>(m.query)];
    query_readout = nobreak("query " + token_words(m, m.query)) + ",  " +
                    nobreak("(t, h, w) = " + mm_position_words(q.position));
    full_readout = query_readout;
    if (m.most_different >= 0)
      full_readout +=
          ";  " +
          nobreak("layouts differ most at token " + std::to_string(m.most_different) +
                  " (ringed):") +
          " " +
          nobreak(format_number(m.panels[0].score[static_cast<std::size_t>(m.most_different)],
                                NumberStyle::label, 5) +
                  " against " +
                  format_number(m.panels[1].score[static_cast<std::size_t>(m.most_different)],
                                NumberStyle::label, 5));
  }
  lay.panels_drawn = m.panels.size();
  float panels = static_cast<float>(std::max<std::size_t>(lay.panels_drawn, 1));
  const auto fit = [&](int level) {
    lay.level = level;
    lay.top = header(Pen{}, lay, level, p, m);
    // the plainest level keeps the query's line alone
    lay.readout = level + 1 < kHeaderLevels ? full_readout : query_readout;
    lay.readout_h = wrapped_size(lay.f.body, lay.readout, lay.width).y + 10 * s;
    lay.bar_h = std::round((level == 0 ? 20.0f : 14.0f) * s);
    lay.label_h = lay.f.body->FontSize * lay.f.scale + 4 * s;
    // per panel: the caption line (layout, section, axes), the bar, its ends' words
    const float right = lay.x0 + lay.width - lay.colour_bar_w - lay.colour_bar_margin - lay.pad;
    lay.caption_h = 0;
    for (const Panel& pn : m.panels)
      lay.caption_h =
          std::max(lay.caption_h, caption(Pen{}, lay, pn, 0, right, level + 1 == kHeaderLevels));
    const float panel_extra = lay.caption_h + lay.bar_h + lay.label_h + 10 * s + lay.pad;
    const float room_w = lay.width - lay.colour_bar_w - lay.colour_bar_margin - lay.pad;
    const float room_h = (lay.bottom - lay.top - lay.readout_h) / panels - panel_extra;
    // the largest cell (48 px down to 8 px at scale 1) whose wrapped sequence fits; a fuller
    // header only while the cells keep a size the back row reads
    const float least = level == 0 ? 18.0f : level == 1 ? 12.0f : level == 2 ? 10.0f : 4.0f;
    for (float c = 48.0f; c >= least; c -= 2.0f) {
      lay.cell = std::round(c * s);
      lay.gap = std::max(1.0f, std::round(lay.cell * 0.08f));
      float units_h = 0;
      const int lines = place_tokens(
          m, std::floor(room_w / lay.cell), lay.unit, lay.line, lay.label_at, lay.label_line,
          lay.labels, units_h,
          [&](const std::string& t) { return (text_size(lay.f.body, t).x + 4 * s) / lay.cell; });
      lay.seq_h = static_cast<float>(lines) * lay.label_h + units_h * lay.cell;
      if (lay.seq_h <= room_h) return true;
    }
    return false;
  };
  if (!fit(first_fitting(kHeaderLevels, fit)) && lay.panels_drawn > 1) {
    // too small a canvas for both layouts: the state's own alone (the read-out still compares)
    lay.panels_drawn = 1;
    panels = 1.0f;
    fit(first_fitting(kHeaderLevels, fit));
  }
  return lay;
}

// [SECTION] paint: header, pair bars, sequences, colour bar, read-out

void MultimodalView::paint(const Model& m, const Layout& lay, const Canvas& canvas) {
  ImDrawList* dl = canvas.draw_list;
  const float s = lay.s;
  placed_.assign(lay.panels_drawn, std::vector<Placed>(m.tokens.size()));
  float y = lay.top;
  const float bar_right = lay.x0 + lay.width - lay.colour_bar_w - lay.colour_bar_margin - lay.pad;
  float seq_top0 = 0, seq_bottom = 0;
  for (std::size_t pi = 0; pi < lay.panels_drawn; ++pi) {
    const Panel& pn = m.panels[pi];
    y += caption(canvas.pen, lay, pn, y, bar_right, lay.level + 1 == kHeaderLevels);
    // the pair bar: pair 0 (fastest) left; each pair in its axis's colour
    const float bar_w = bar_right - lay.x0;
    const float pw = bar_w / static_cast<float>(pn.axes.size());
    for (std::size_t j = 0; j < pn.axes.size(); ++j) {
      const float x0 = lay.x0 + pw * static_cast<float>(j);
      dl->AddRectFilled(ImVec2(x0, y),
                        ImVec2(x0 + std::max(1.0f, pw - (pw > 4 * s ? s : 0)), y + lay.bar_h),
                        axis_colour(pn.axes[j], lay.pal));
    }
    y += lay.bar_h + 4 * s;
    // under the bar, its ends; the sequence's first caption row shares the line
    std::string fast = "pair 0: fastest";
    std::string slow = "pair " + std::to_string(pn.axes.size() - 1) + ": slowest";
    if (text_size(lay.f.body, fast).x + text_size(lay.f.body, slow).x + 12 * s > bar_w) {
      fast = "fast";
      slow = "slow";
    }
    canvas.pen.text(lay.f.body, ImVec2(lay.x0, y), lay.pal.text_dim, fast);
    canvas.pen.text(lay.f.body, ImVec2(bar_right - text_size(lay.f.body, slow).x, y),
                    lay.pal.text_dim, slow);
    y += lay.label_h + 6 * s;
    // the sequence
    const float top = y;
    if (pi == 0) seq_top0 = top;
    for (std::size_t l = 0; l < lay.labels.size(); ++l)
      canvas.pen.text(lay.f.body,
                      ImVec2(lay.x0 + lay.label_at[l].x * lay.cell,
                             top + lay.y_of(lay.label_at[l].y, lay.label_line[l]) - lay.label_h),
                      lay.pal.text_dim, lay.labels[l]);
    for (std::size_t i = 0; i < m.tokens.size(); ++i) {
      const MropeToken& t = m.tokens[i];
      const ImVec2 a(lay.x0 + lay.unit[i].x * lay.cell, top + lay.y_of(lay.unit[i].y, lay.line[i]));
      const ImVec2 b(a.x + lay.cell - lay.gap, a.y + lay.cell - lay.gap);
      placed_[pi][i] = Placed{a, b};
      const ImU32 fill = plot::colour_map_u32(plot::colour_t(pn.score[i], m.lo, m.hi));
      const bool marker = t.kind == MropeTokenKind::vision_start ||
                          t.kind == MropeTokenKind::vision_end ||
                          t.kind == MropeTokenKind::timestamp;
      dl->AddRectFilled(a, b, fill, marker ? 0.3f * lay.cell : 0.0f);
      // ids inside the cell when they fit at a readable size (12 px at scale 1 or more)
      const std::string ids = ids_short(t.position);
      const float size = std::min(lay.f.body->FontSize * lay.f.scale, 0.34f * lay.cell);
      if (size >= 12.0f * s) {
        const float w = text_size(lay.f.body, ids).x * size / (lay.f.body->FontSize * lay.f.scale);
        if (w <= lay.cell - lay.gap - 2 * s)
          canvas.pen.text(lay.f.body,
                          ImVec2(a.x + (b.x - a.x - w) / 2, a.y + (b.y - a.y - size) / 2),
                          ink_on(fill), ids, size);
      }
    }
    // the query, then the most different token
    const auto ring = [&](int i, ImU32 colour, float grow) {
      if (i < 0) return;
      const Placed& pl = placed_[pi][static_cast<std::size_t>(i)];
      const float t = std::max(2.0f, std::round(3.0f * s));
      dl->AddRect(ImVec2(pl.min.x - grow - t, pl.min.y - grow - t),
                  ImVec2(pl.max.x + grow + t, pl.max.y + grow + t), lay.pal.text, 0, 0, t);
      dl->AddRect(ImVec2(pl.min.x - grow, pl.min.y - grow),
                  ImVec2(pl.max.x + grow, pl.max.y + grow), colour, 0, 0, t);
    };
    ring(m.query, lay.pal.query, 0.0f);
    if (m.most_different != m.query) ring(m.most_different, lay.pal.accent, 0.0f);
    y = top + lay.seq_h + lay.pad;
    seq_bottom = top + lay.seq_h;
  }
  if (!m.panels.empty()) {
    const ImVec2 b0(bar_right + lay.pad, seq_top0);
    plot::colour_bar(dl, lay.st, b0,
                     ImVec2(b0.x + lay.colour_bar_w, std::max(seq_bottom, seq_top0 + 80 * s)), m.lo,
                     m.hi, "score", true);
    canvas.pen.wrapped(lay.f.body, ImVec2(lay.x0, y), lay.width, lay.pal.text, lay.readout);
  }
}

// [SECTION] hover: the token under the mouse; a click makes it the query

void MultimodalView::hover(AppState& state, const Model& m, const Layout& lay,
                           const Canvas& canvas) {
  for (std::size_t pi = 0; pi < placed_.size(); ++pi)
    for (std::size_t i = 0; i < placed_[pi].size(); ++i) {
      const Placed& pl = placed_[pi][i];
      if (canvas.mouse.x < pl.min.x || canvas.mouse.x >= pl.max.x || canvas.mouse.y < pl.min.y ||
          canvas.mouse.y >= pl.max.y)
        continue;
      canvas.draw_list->AddRect(pl.min, pl.max, lay.pal.text, 0, 0,
                                std::max(1.0f, std::round(2.0f * lay.s)));
      const MropeToken& t = m.tokens[i];
      const MropePosition& q = m.tokens[static_cast<std::size_t>(m.query)].position;
      place_tooltip_beside(pl.min, pl.max, 12.0f * lay.s);
      ImGui::BeginTooltip();
      ImGui::TextUnformatted(token_words(m, static_cast<int>(i)).c_str());
      ImGui::Text("(t, h, w) = %s", mm_position_words(t.position).c_str());
      ImGui::Text(
          "offset from the query (Δt, Δh, Δw) = %s",
          mm_position_words({t.position.t - q.t, t.position.h - q.h, t.position.w - q.w}).c_str());
      for (const Panel& pn : m.panels)
        ImGui::Text("score, %s: %s", mrope_layout_name(pn.layout),
                    full_number(pn.score[i]).c_str());
      ImGui::TextDisabled("click: make it the query");
      ImGui::EndTooltip();
      if (ImGui::IsMouseClicked(ImGuiMouseButton_Left))
        if (auto st = change_param(state.params, "mm_query", std::to_string(i)); !st)
          show_notice(state, st.error().to_string(), true);
      return;
    }
}

// [SECTION] Draw and the control panel's part

void MultimodalView::Draw(AppState& state, const ViewEnv& env) {
  const Params& p = state.params;
  const Model& m = model_.get(inputs_of(p), compute);
  const Canvas canvas("multimodal_canvas", &drawn_);
  const Layout lay = layout(m, p, canvas, env);
  header(canvas.pen, lay, lay.level, p, m);
  placed_.clear();
  if (m.panels.empty()) return;
  paint(m, lay, canvas);
  if (canvas.hovered) hover(state, m, lay, canvas);
}

void MultimodalView::DrawControls(AppState& state, const ViewEnv&) {
  Params& p = state.params;
  char buf[256];
  std::snprintf(buf, sizeof buf, "%s", p.mm_sequence.c_str());
  ImGui::TextUnformatted("sequence");
  ImGui::SetNextItemWidth(-1);
  if (ImGui::InputText("##mm_sequence", buf, sizeof buf, ImGuiInputTextFlags_EnterReturnsTrue))
    if (auto st = change_param(p, "mm_sequence", buf); !st)
      show_notice(state, st.error().to_string(), true);
  if (ImGui::IsItemHovered())
    ImGui::SetTooltip("text:N, image:HxW, video:TxHxW separated by commas; Enter applies");
  int layout = static_cast<int>(p.mm_layout);
  ImGui::TextUnformatted("pairs");
  ImGui::SameLine();
  if (ImGui::RadioButton("chunked", &layout, 0)) p.mm_layout = MropeLayout::chunked;
  ImGui::SameLine();
  if (ImGui::RadioButton("interleaved", &layout, 1)) p.mm_layout = MropeLayout::interleaved;
  ImGui::SameLine();
  if (ImGui::RadioButton("VideoRoPE", &layout, 2)) p.mm_layout = MropeLayout::videorope;
  // a section typed for the other layout may not fit this one: back to the model's split
  if (!mm_section(p, p.mm_layout)) p.mm_section = "auto";
  int rule = static_cast<int>(p.mm_rule);
  ImGui::TextUnformatted("ids");
  ImGui::SameLine();
  ImGui::SetNextItemWidth(-1);
  if (ImGui::Combo(
          "##mm_rule", &rule,
          "Qwen2-VL\0Qwen2.5-VL (seconds)\0Qwen2.5-VL (int seconds)\0Qwen3-VL\0VideoRoPE\0"))
    p.mm_rule = static_cast<MropeRule>(rule);
  for (const char* name : {"mm_query", "mm_seconds", "mm_tokens_per_second"}) {
    ImGui::SetNextItemWidth(-1);
    param_slider(p, name);
  }
  ImGui::Checkbox("compare with the other layout", &p.mm_compare);
  // the models' own d, base, section, layout and id rule (assets/models.json: "mrope")
  for (const auto& [label, id] : {std::pair{"Qwen2-VL", "qwen2-vl-7b"},
                                  {"Qwen2.5-VL", "qwen2.5-vl-7b"},
                                  {"Qwen3-VL", "qwen3-vl-8b"}}) {
    if (label != std::string_view("Qwen2-VL")) ImGui::SameLine();
    if (ImGui::Button(label))
      if (auto st = change_param(p, "model", id); !st)
        show_notice(state, st.error().to_string(), true);
  }
}

}  // namespace rope::app
