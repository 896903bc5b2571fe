// views/axial_view.cpp — 2D RoPE for images: two grids of axial-RoPE scores (axial_view.h).
//
// [SECTION] helpers: patch words, colours on a cell, the header, the grid axes, titles
// [SECTION] the Layout record; inputs and compute: the two score grids
// [SECTION] layout: the fullest header that leaves the grids room
// [SECTION] paint: header, the two grids, the read-out
// [SECTION] hover: the patch under the mouse
// [SECTION] Draw and the control panel's part (sliders over the parameter table)
#include "views/axial_view.h"

#include <algorithm>
#include <cmath>

#include "imgui.h"
#include "state/params.h"
#include "ui/page.h"
#include "ui/param_widgets.h"
#include "ui/plot.h"
#include "ui/theme.h"

namespace rope::app {
namespace {

// [SECTION] helpers: patch words, colours on a cell, the header, the grid axes, titles

constexpr int kHeaderLevels = 4;

std::string patch_words(Patch p) {
  return nobreak("(" + format_number(p.row, NumberStyle::label, 6) + ", " +
                 format_number(p.column, NumberStyle::label, 6) + ")");
}

bool on_grid(Patch p, int n) {
  return p.row >= 0 && p.column >= 0 && p.row < n && p.column < n;
}

double cell(const AxialView::Panel& pn, int n, int r, int c) {
  return pn.score[static_cast<std::size_t>(r) * static_cast<std::size_t>(n) +
                  static_cast<std::size_t>(c)];
}

// The title (levels 0, 1), the rule (large at level 0, then body), the note (levels 0, 1)
// and the error; returns the y under them. A measuring() pen only measures.
float header(const Pen& pen, const Page& pg, int level, const Params& p, const std::string& error) {
  float y = pg.y0;
  const Fonts& f = pg.f;
  const auto line = [&](ImFont* font, ImU32 colour, const std::string& text) {
    return pen.wrapped(font, ImVec2(pg.x0, y), pg.width, colour, text);
  };
  const std::string rule = nobreak("blocks 0 … d/4−1 turn by") + " $r\\theta_j$, " +
                           nobreak("blocks d/4 … d/2−1 by") + " $c\\theta_j$, " +
                           "$\\theta_j = \\mathrm{base}^{-4j/d}$";
  const int quarter = p.dim / 4;
  const std::string note = nobreak("d = " + std::to_string(p.dim) + ":") + " " +
                           nobreak(std::to_string(quarter) + " blocks follow the row,") + " " +
                           nobreak(std::to_string(quarter) + " the column;") + " " +
                           nobreak("base " + format_number(p.base, NumberStyle::tick) + ";") +
                           "  each patch shows the query's score with the key k put there";
  if (level < 2)
    y += line(level == 0 ? f.title : f.heading, pg.pal.text,
              "2D RoPE for images: patches on a grid") +
         2 * pg.s;
  y += pen.rich_wrapped(level == 0 ? f.large : f.body, ImVec2(pg.x0, y), pg.width, pg.pal.text,
                        rule) +
       2 * pg.s;
  if (level < 2) y += line(f.body, pg.pal.text_dim, note);
  if (!error.empty()) y += line(f.bold, pg.pal.bad, error);
  return y + 8 * pg.s;
}

// The grid's axes; without their titles ("column c", "row r") when `bare`, to leave the cells
// more room on a small canvas (the panel titles and the tooltip still name rows and columns).
plot::Axis column_axis(int n, bool bare) {
  plot::Axis a;
  a.lo = -0.5;
  a.hi = n - 0.5;
  a.label = bare ? "" : "column c";
  a.short_label = bare ? "" : "c";
  a.grid = false;
  a.ticks = std::min(n, 8);
  return a;
}

plot::Axis row_axis(int n, bool bare) {
  plot::Axis a = column_axis(n, bare);
  a.label = bare ? "" : "row r";
  a.short_label = bare ? "" : "r";
  a.down = true;
  return a;
}

// "query at (r1, c1)"; the moved grid's "moved by (dr, dc): query at (r, c)", without the
// query's place when `brief` (the outline shows it).
std::string panel_title(const AxialView::Panel& pn, bool shifted, const Params& p, bool brief) {
  if (!shifted) return "query at " + patch_words(pn.query);
  const std::string moved = "moved by " + patch_words({static_cast<double>(p.shift_row),
                                                       static_cast<double>(p.shift_column)});
  return brief ? moved : moved + ": query at " + patch_words(pn.query);
}

// The read-out under the grids: the key's score before and after the move (without the moved
// grid: before only), and the offset.
std::string readout_text(const AxialView::Panel& a, const AxialView::Panel& b, double before,
                         double after, bool moved) {
  const Patch off{a.key.row - a.query.row, a.key.column - a.query.column};
  const std::string first = nobreak("key at " + patch_words(a.key) + ": score " +
                                    format_number(before, NumberStyle::label, 6));
  if (!moved) return first + "   " + nobreak("key − query = " + patch_words(off));
  return first + "   " +
         nobreak("moved, key at " + patch_words(b.key) + ": score " +
                 format_number(after, NumberStyle::label, 6)) +
         "   " + nobreak("both: key − query = " + patch_words(off));
}

// The grids drawn: the first, and the moved one unless axial_moved is off.
std::size_t shown_panels(std::size_t count, const Params& p) {
  return p.axial_moved ? count : std::min<std::size_t>(count, 1);
}

}  // namespace

// [SECTION] the Layout record; inputs and compute: the two score grids

// Where the parts go: the header's level and height, the panels' title row, the cells' side.
struct AxialView::Layout : Page {
  using Page::Page;
  int level = 0;
  float top = 0;  // under the header
  ImFont* title_font = nullptr;
  ImFont* readout_font = nullptr;
  bool stacked = false;  // the grids one above the other (else side by side)
  float slot_w = 0;      // the width each grid's panel may take (axes and title included)
  float title_w = 0;     // the panels' titles wrap at this width
  float title_h = 0;     // the panels' title row
  float side = 0;        // of each grid of cells, px
  float readout_h = 0;   // under the grids
  plot::Margins mg;      // around each grid's cells, for the ticks and axis labels
  float bar_w = 0, bar_margin = 0;
  std::string readout;
};

AxialView::Inputs AxialView::inputs_of(const Params& p) {
  Inputs in;
  in.dim = p.dim;
  in.n = p.grid_size;
  in.base = p.base;
  in.pairing = p.pairing;
  in.q = effective_vector(p.query, p, false);
  in.k = effective_vector(p.key, p, true);
  in.query_row = p.query_row;
  in.query_column = p.query_column;
  in.key_row = p.key_row;
  in.key_column = p.key_column;
  in.shift_row = p.shift_row;
  in.shift_column = p.shift_column;
  in.moved = p.axial_moved;
  return in;
}

AxialView::Model AxialView::compute(const Inputs& in) {
  Model m;
  m.n = in.n;
  const auto d = [](int v) { return static_cast<double>(v); };
  const Patch q0{d(in.query_row), d(in.query_column)}, k0{d(in.key_row), d(in.key_column)};
  const Patch q1{q0.row + in.shift_row, q0.column + in.shift_column};
  const Patch k1{k0.row + in.shift_row, k0.column + in.shift_column};
  for (const auto& [qp, kp] : {std::pair{q0, k0}, std::pair{q1, k1}}) {
    auto g = axial_score_grid(in.q, in.k, qp, in.n, in.n, in.base, in.pairing);
    if (!g) {
      m.error = g.error().to_string();
      m.panels.clear();
      return m;
    }
    m.panels.push_back(Panel{qp, kp, std::move(g).value(), {}, {}});
  }
  m.key_score = axial_score(in.q, in.k, q0, k0, in.base, in.pairing).value();
  m.shifted_key_score = axial_score(in.q, in.k, q1, k1, in.base, in.pairing).value();
  // the colour scale spans the grids drawn (the moved one only when it is)
  m.lo = m.hi = m.panels.front().score.front();
  for (std::size_t i = 0; i < (in.moved ? m.panels.size() : 1); ++i)
    for (double v : m.panels[i].score) {
      m.lo = std::min(m.lo, v);
      m.hi = std::max(m.hi, v);
    }
  if (!(m.hi > m.lo)) {  // a flat map (q = 0): one colour, a bar around the value
    m.lo -= 0.5;
    m.hi += 0.5;
  }
  for (const Panel& pn : m.panels) {
    std::vector<float>& t = m.texels.emplace_back(pn.score.size());
    std::transform(pn.score.begin(), pn.score.end(), t.begin(),
                   [](double v) { return static_cast<float>(v); });
  }
  return m;
}

const AxialView::Model& AxialView::model() const {
  return model_.model_or_empty();
}

// [SECTION] layout: the fullest header that leaves the grids room

// The fullest header whose grids keep at least 170 px a side (at scale 1); the grids as large as
// the width (two of them, a gap and the colour bar) and the height allow.
AxialView::Layout AxialView::layout(const Model& m, const Params& p, const Canvas& canvas,
                                    const ViewEnv& env) {
  const float s = env.scale;
  Layout lay(canvas, env, p.theme);
  lay.bar_w = std::round(20.0f * s);
  lay.bar_margin = plot::colour_bar_margin(lay.st, true);
  const std::size_t shown = shown_panels(m.panels.size(), p);
  if (m.panels.size() == 2)
    lay.readout =
        readout_text(m.panels[0], m.panels[1], m.key_score, m.shifted_key_score, shown == 2);
  const auto fit = [&](int level) {
    lay.level = level;
    lay.title_font = level == 0 ? lay.f.heading : lay.f.bold;
    lay.readout_font = level == 0 ? lay.f.large : lay.f.body;
    lay.top = header(canvas.pen.measuring(), lay, level, p, m.error);
    const int n = std::max(m.n, 2);
    lay.mg = plot::margins(lay.st, column_axis(n, level >= 2), row_axis(n, level >= 2));
    lay.readout_h = wrapped_size(lay.readout_font, lay.readout, lay.width).y + 10 * s;
    // side by side, or stacked: whichever gives the larger grids (one grid: the whole width)
    const auto side_at = [&](bool stacked) {
      const float bar = lay.pad + lay.bar_w + lay.bar_margin;
      lay.slot_w =
          std::floor(stacked || shown < 2 ? lay.width - bar : (lay.width - 2 * lay.pad - bar) / 2);
      // The titles wrap at the grid's width (the colour bar follows the grids), which depends on
      // the titles' height: a few rounds settle it.
      float side = lay.slot_w;
      for (int round = 0; round < 3; ++round) {
        lay.title_w = std::min(lay.slot_w - lay.mg.left, side + lay.mg.right);
        lay.title_h = 0;
        for (std::size_t i = 0; i < shown; ++i)
          lay.title_h =
              std::max(lay.title_h,
                       wrapped_size(lay.title_font, panel_title(m.panels[i], i == 1, p, level >= 2),
                                    lay.title_w)
                           .y);
        const float frame_h = lay.title_h + 6 * s + lay.mg.top + lay.mg.bottom;
        const float room = lay.bottom - lay.top - lay.readout_h;
        const float high = stacked && shown == 2 ? (room - lay.pad) / 2 - frame_h : room - frame_h;
        side = std::floor(std::min({side, lay.slot_w - lay.mg.left - lay.mg.right, high}));
      }
      return side;
    };
    lay.stacked = side_at(true) > side_at(false);
    lay.side = side_at(lay.stacked);
    return lay.side >= 170.0f * s;
  };
  fit(first_fitting(kHeaderLevels, fit));
  return lay;
}

// [SECTION] paint: header, the two grids, the read-out

// Grid i's cells: with GL one opaque textured quad through the heatmap shader (the cells are
// most of the canvas, and blended rectangles cost a software rasteriser a read of every pixel
// under them); without GL (tests) or when the shaders are missing, one rectangle per cell.
void AxialView::paint_cells(const Model& m, std::size_t i, const plot::Frame& fr, const Layout& lay,
                            const Canvas& canvas, bool has_gl) {
  if (has_gl && !renderer_) renderer_ = std::make_unique<HeatmapRenderer>();
  const int n = m.n;
  if (renderer_ &&
      renderer_->update(static_cast<int>(i), model_.version(), m.texels[i], n, n,
                        static_cast<float>(m.lo), static_cast<float>(m.hi), lay.pal.panel,
                        ImVec2(fr.area_max.x - fr.area_min.x, fr.area_max.y - fr.area_min.y))) {
    renderer_->add_image(canvas.draw_list, static_cast<int>(i), fr.area_min, fr.area_max);
    return;
  }
  const float cell_px = (fr.area_max.x - fr.area_min.x) / static_cast<float>(n);
  for (int r = 0; r < n; ++r)
    for (int c = 0; c < n; ++c) {
      const ImVec2 a(fr.area_min.x + static_cast<float>(c) * cell_px,
                     fr.area_min.y + static_cast<float>(r) * cell_px);
      canvas.draw_list->AddRectFilled(
          a, ImVec2(a.x + cell_px, a.y + cell_px),
          plot::colour_map_u32(plot::colour_t(cell(m.panels[i], n, r, c), m.lo, m.hi)));
    }
}

// The two grids with their axes, titles and outlines, the colour bar and the read-out. Records
// where the cells went in panels_.
void AxialView::paint(const Model& m, const Layout& lay, const Canvas& canvas, const Params& p,
                      bool has_gl) {
  std::vector<Panel>& out = panels_;
  ImDrawList* dl = canvas.draw_list;
  const float s = lay.s;
  const int n = m.n;
  const float cell_px = lay.side / static_cast<float>(n);
  const float panel_w = lay.mg.left + lay.side + lay.mg.right;
  const float panel_h = lay.title_h + 6 * s + lay.mg.top + lay.side + lay.mg.bottom;
  float bottom = lay.top;  // of the lowest panel
  const std::size_t shown = shown_panels(m.panels.size(), p);
  out.assign(m.panels.begin(), m.panels.begin() + static_cast<std::ptrdiff_t>(shown));
  for (std::size_t i = 0; i < shown; ++i) {
    const Panel& pn = m.panels[i];
    const auto fi = static_cast<float>(i);
    const float x_rect = lay.x0 + (lay.stacked ? 0.0f : fi * (lay.slot_w + 2 * lay.pad));
    const float y_title = lay.top + (lay.stacked ? fi * (panel_h + lay.pad) : 0.0f);
    const float y_rect = y_title + lay.title_h + 6 * s;
    bottom = y_title + panel_h;
    canvas.pen.wrapped(lay.title_font, ImVec2(x_rect + lay.mg.left, y_title), lay.title_w,
                       i == 0 ? lay.pal.query : lay.pal.accent,
                       panel_title(pn, i == 1, p, lay.level >= 2));
    const plot::Frame fr =
        plot::axes(dl, lay.st, ImVec2(x_rect, y_rect),
                   ImVec2(x_rect + panel_w, y_rect + lay.mg.top + lay.side + lay.mg.bottom),
                   column_axis(n, lay.level >= 2), row_axis(n, lay.level >= 2));
    out[i].cells_min = fr.area_min;
    out[i].cells_max = fr.area_max;
    const auto cell_min = [&](double r, double c) {
      return ImVec2(fr.area_min.x + static_cast<float>(c) * cell_px,
                    fr.area_min.y + static_cast<float>(r) * cell_px);
    };
    paint_cells(m, i, fr, lay, canvas, has_gl);
    if (cell_px >= 6 * s)  // thin lines between patches: the image is cut into pieces
      for (int k = 1; k < n; ++k) {
        const float t = static_cast<float>(k) * cell_px;
        dl->AddLine(ImVec2(fr.area_min.x + t, fr.area_min.y),
                    ImVec2(fr.area_min.x + t, fr.area_max.y), with_alpha(lay.pal.canvas, 0.5f),
                    1.0f);
        dl->AddLine(ImVec2(fr.area_min.x, fr.area_min.y + t),
                    ImVec2(fr.area_max.x, fr.area_min.y + t), with_alpha(lay.pal.canvas, 0.5f),
                    1.0f);
      }
    // The key patch, then the query patch on top: an outline in the theme's text colour around
    // one in the role's colour, and the letter when the cell has room for it.
    const bool same = pn.query.row == pn.key.row && pn.query.column == pn.key.column;
    const float t = std::max(2.0f, std::round(3.0f * s));
    const auto outline = [&](Patch at, ImU32 colour, const char* letter) {
      if (!on_grid(at, n)) return;
      const ImVec2 a = cell_min(at.row, at.column);
      const ImVec2 b(a.x + cell_px, a.y + cell_px);
      dl->AddRect(ImVec2(a.x - t, a.y - t), ImVec2(b.x + t, b.y + t), lay.pal.text, 0, 0, t);
      dl->AddRect(a, b, colour, 0, 0, t);
      ImFont* font = lay.f.bold;
      if (letter[0] == '\0' || text_size(font, letter).x + 2 * t > 0.5f * cell_px ||
          font->FontSize + 2 * t > cell_px)
        return;
      const ImU32 fill = plot::colour_map_u32(plot::colour_t(
          cell(pn, n, static_cast<int>(at.row), static_cast<int>(at.column)), m.lo, m.hi));
      canvas.pen.text(font, ImVec2(a.x + t + 2 * s, a.y + t + s), ink_on(fill), letter);
    };
    // axial_rectangle: the rectangle through the centres of the query and key patches, and its
    // other two corners (r2, c1) and (r1, c2) outlined in the accent colour (lesson 15: the two
    // pairs of opposite corners add up to the same score)
    if (p.axial_rectangle && pn.query.row != pn.key.row && pn.query.column != pn.key.column) {
      const auto centre = [&](Patch at) {
        const ImVec2 a = cell_min(at.row, at.column);
        return ImVec2(a.x + 0.5f * cell_px, a.y + 0.5f * cell_px);
      };
      const ImVec2 c1 = centre(pn.query), c2 = centre(pn.key);
      const ImVec2 lo(std::min(c1.x, c2.x), std::min(c1.y, c2.y));
      const ImVec2 hi(std::max(c1.x, c2.x), std::max(c1.y, c2.y));
      dl->AddRect(lo, hi, lay.pal.text, 0, 0, t + 2.0f);
      dl->AddRect(lo, hi, lay.pal.accent, 0, 0, t);
      outline({pn.key.row, pn.query.column}, lay.pal.accent, "");
      outline({pn.query.row, pn.key.column}, lay.pal.accent, "");
    }
    outline(pn.key, lay.pal.key, same ? "q k" : "k");
    if (!same) outline(pn.query, lay.pal.query, "q");
  }
  if (!out.empty()) {
    const ImVec2 b0(out.back().cells_max.x + lay.mg.right + lay.pad, out[0].cells_min.y);
    // the bar's title runs along it: the short one when the long one is longer than the bar
    const std::string bar_title = text_size(lay.st.label_font, "score with the query").x <=
                                          out.back().cells_max.y - out[0].cells_min.y
                                      ? "score with the query"
                                      : "score";
    plot::colour_bar(dl, lay.st, b0, ImVec2(b0.x + lay.bar_w, out.back().cells_max.y), m.lo, m.hi,
                     bar_title, true);
    const float y_read = bottom + 10 * s;
    canvas.pen.wrapped(lay.readout_font, ImVec2(lay.x0, y_read), lay.width, lay.pal.text,
                       lay.readout);
  }
}

// [SECTION] hover: the patch under the mouse

// The patch under the mouse: its (r, c), its exact score, and its offset from the query.
void AxialView::hover(const Model& m, const std::vector<Panel>& drawn, const Layout& lay,
                      const Canvas& canvas) {
  for (const Panel& pn : drawn) {
    if (canvas.mouse.x < pn.cells_min.x || canvas.mouse.x >= pn.cells_max.x ||
        canvas.mouse.y < pn.cells_min.y || canvas.mouse.y >= pn.cells_max.y)
      continue;
    const float cell_px = (pn.cells_max.x - pn.cells_min.x) / static_cast<float>(m.n);
    const int c =
        std::clamp(static_cast<int>((canvas.mouse.x - pn.cells_min.x) / cell_px), 0, m.n - 1);
    const int r =
        std::clamp(static_cast<int>((canvas.mouse.y - pn.cells_min.y) / cell_px), 0, m.n - 1);
    const ImVec2 a(pn.cells_min.x + static_cast<float>(c) * cell_px,
                   pn.cells_min.y + static_cast<float>(r) * cell_px);
    canvas.draw_list->AddRect(a, ImVec2(a.x + cell_px, a.y + cell_px), lay.pal.text, 0, 0,
                              std::max(1.0f, std::round(2.0f * lay.s)));
    place_tooltip_beside(a, ImVec2(a.x + cell_px, a.y + cell_px), 12.0f * lay.s);
    ImGui::BeginTooltip();
    ImGui::Text("patch (r, c) = (%d, %d)", r, c);
    ImGui::Text("score with the query at (%.0f, %.0f): %s", pn.query.row, pn.query.column,
                full_number(cell(pn, m.n, r, c)).c_str());
    ImGui::Text("key − query = (%.0f, %.0f)", r - pn.query.row, c - pn.query.column);
    ImGui::EndTooltip();
  }
}

// [SECTION] Draw and the control panel's part (sliders over the parameter table)

void AxialView::Draw(AppState& state, const ViewEnv& env) {
  const Params& p = state.params;
  const Model& m = model_.get(inputs_of(p), compute);
  const MathScope math(env, own_math_);
  const Canvas canvas("axial_canvas", &drawn_, math.pen());  // clip popped at every return
  const Layout lay = layout(m, p, canvas, env);
  header(canvas.pen, lay, lay.level, p, m.error);
  panels_.clear();
  if (m.panels.size() != 2 || lay.side < 2.0f * static_cast<float>(m.n)) return;
  paint(m, lay, canvas, p, env.has_gl);
  if (canvas.hovered) hover(m, panels_, lay, canvas);
}

void AxialView::DrawControls(AppState& state, const ViewEnv&) {
  Params& p = state.params;
  for (const char* param : {"grid_size", "query_row", "query_column", "key_row", "key_column",
                            "shift_row", "shift_column"}) {
    ImGui::SetNextItemWidth(-1);
    param_slider(p, param);
  }
  ImGui::Checkbox("the moved grid", &p.axial_moved);
  ImGui::Checkbox("the rectangle of query and key", &p.axial_rectangle);
  if (ImGui::Button("ViT setting (d 64, base 100)")) {
    (void)set_param_value(p, "dim", 64);  // through the table: typed q, k fit the new d
    p.base = 100.0;
  }
  if (p.dim % 4 != 0) ImGui::TextDisabled("axial RoPE needs d a multiple of 4");
}

}  // namespace rope::app
