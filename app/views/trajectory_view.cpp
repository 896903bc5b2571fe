// views/trajectory_view.cpp — added versus rotated, in 2D (trajectory_view.h).
//
// [SECTION] inputs and compute: the current points, the paths
// [SECTION] layout: the header on top, the read-outs at the bottom, the planes between
// [SECTION] paint: header, the two planes, the read-outs
// [SECTION] hover: coordinates under the mouse
#include "views/trajectory_view.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <string>

#include "io/number_format.h"
#include "rope/sinusoidal.h"
#include "state/params.h"
#include "ui/param_widgets.h"
#include "ui/theme.h"

namespace rope::app {
namespace {

constexpr int kMaxDots = 24;       // integer positions marked with dots
constexpr int kNumbered = 7;       // the first few of them numbered, where there is room
constexpr int kPathPositions = 7;  // > 2 pi: the path closes
constexpr int kPerPosition = 12;   // path samples per unit of position (smooth circle)

double angle_between(Vec2 a, Vec2 b) {
  return std::atan2(a.x * b.y - a.y * b.x, a.x * b.x + a.y * b.y);
}

std::string vec_text(Vec2 v) {
  return "(" + format_number(v.x, NumberStyle::label, 6) + ", " +
         format_number(v.y, NumberStyle::label, 6) + ")";
}

// Four levels, tried in order until the planes get a useful size: full size; smaller fonts; no
// title and no second note (the lesson names the step); short read-outs.
struct Level {
  ImFont *title, *head, *readout, *plane_title;
  bool long_text, short_readouts;
};
constexpr int kLevels = 4;
Level level_of(const Fonts& f, int level) {
  const Level levels[kLevels] = {{f.title, f.large, f.large, f.large, true, false},
                                 {f.heading, f.large, f.body, f.body, true, false},
                                 {nullptr, f.large, f.body, f.body, false, false},
                                 {nullptr, f.body, f.body, f.body, false, true}};
  return levels[std::clamp(level, 0, kLevels - 1)];
}

// Heights of a level's parts, and the side of its planes, px.
struct Heights {
  float head = 0.0f, plane_title = 0.0f, readouts = 0.0f, side = 0.0f;
};

// The path's integer positions as dots, the first kNumbered numbered beside their dot where
// the number fits in the plane and clear of the numbers before it and of `avoid`.
// `avoid` are boxes (the arrowhead and the ring at pos + k) that no number may cover.
void paint_dots(ImDrawList* dl, const Pen& pen, const plot::Frame& fr,
                const std::vector<Vec2>& dots, ImU32 col, ImFont* font, ImU32 text_colour, float s,
                const std::vector<ImVec4>& avoid) {
  std::vector<ImVec4> taken = avoid;
  for (std::size_t t = 0; t < dots.size(); ++t) {
    const Vec2 v = dots[t];
    plot::marker(dl, fr, v.x, v.y, with_alpha(col, 0.6f), 3.0f * s);
    if (t >= kNumbered) continue;
    const ImVec2 q(fr.x.to_px(v.x), fr.y.to_px(v.y));
    const std::string label = std::to_string(t);
    const ImVec2 ts = text_size(font, label);
    const ImVec4 box(q.x + 5 * s, q.y - ts.y - 2 * s, q.x + 5 * s + ts.x, q.y - 2 * s);
    bool free = fr.contains(ImVec2(box.x, box.y)) && fr.contains(ImVec2(box.z, box.w));
    const float gap = 4 * s;  // "6" right beside "0" would read as "60"
    for (const ImVec4& o : taken)
      free = free && (box.z + gap <= o.x || o.z + gap <= box.x || box.w <= o.y || o.w <= box.y);
    if (!free) continue;
    taken.push_back(box);
    pen.text(font, ImVec2(box.x, box.y), text_colour, label);
  }
}

}  // namespace

// [SECTION] inputs and compute: the current points, the paths

TrajectoryView::Inputs TrajectoryView::inputs_of(const Params& p) {
  return Inputs{p.point_x, p.point_y, p.position, p.offset};
}

// The current points, the shifted ones, and the offset identity (d = 2, theta = 1).
TrajectoryView::Points TrajectoryView::compute(const Inputs& in) {
  const Vec2 x{in.x, in.y};
  const std::vector<double> th{1.0};
  Points pt;
  pt.added = additive_trajectory(x, in.pos, 1.0, 1).front();
  pt.rotated = rotary_trajectory(x, in.pos, 1.0, 1).front();
  pt.added_k = additive_trajectory(x, in.pos + in.k, 1.0, 1).front();
  pt.rotated_k = rotary_trajectory(x, in.pos + in.k, 1.0, 1).front();
  const std::vector<double> pe = sinusoidal_vector(in.pos, th);
  const std::vector<double> pe_k = sinusoidal_vector(in.pos + in.k, th);
  const std::vector<double> mk = sinusoidal_offset_matrix(in.k, th);
  const std::vector<double> mpe = mat_vec(mk, pe);
  pt.pe = {pe[0], pe[1]};
  pt.shifted_direct = {pe_k[0], pe_k[1]};
  pt.shifted_matrix = {mpe[0], mpe[1]};
  pt.angle_added = angle_between(pt.added, pt.added_k);
  pt.angle_rotated = angle_between(pt.rotated, pt.rotated_k);
  return pt;
}

TrajectoryView::PathInputs TrajectoryView::path_inputs_of(const Params& p) {
  return PathInputs{p.point_x, p.point_y};
}

TrajectoryView::Paths TrajectoryView::compute_paths(const PathInputs& in) {
  const Vec2 x{in.x, in.y};
  Paths ps;
  // theta = 1: both paths are circles, closed after 2 pi positions; longer paths would only
  // retrace them (so the view has no length of its own to set: the heatmap's N is not this)
  const int count = kPathPositions * kPerPosition + 1;
  ps.path[0] = additive_trajectory(x, 0.0, 1.0 / kPerPosition, count);
  ps.path[1] = rotary_trajectory(x, 0.0, 1.0 / kPerPosition, count);
  const int dots = kMaxDots;
  for (int t = 0; t <= dots; ++t) {
    ps.dots[0].push_back(additive_trajectory(x, t, 1.0, 1, 1.0).front());
    ps.dots[1].push_back(rotary_trajectory(x, t, 1.0, 1, 1.0).front());
  }
  return ps;
}

const TrajectoryView::Points& TrajectoryView::points() const {
  static const Points kZero;
  return model_.model() ? *model_.model() : kZero;
}

// [SECTION] layout: the header on top, the read-outs at the bottom, the planes between

struct TrajectoryView::Layout {
  const Fonts& f;
  const Palette& pal;
  plot::Style st;
  float s = 1.0f;
  float pad = 0.0f, x0 = 0.0f, width = 0.0f, top = 0.0f;
  float panel_w = 0.0f;  // one plane's column
  std::string title{}, l1{}, identity{}, identity_short{}, why{};
  std::array<std::string, 4> long_texts{}, short_texts{};  // |added|, angle; |rotated|, angle
  std::array<std::string, 2> titles{};                     // of the planes
  plot::Axis ax{}, ay{};                                   // both planes, the same scale
  plot::Margins mg{};
  Level level{};
  Heights h{};
};

// The header's line, the read-outs (long and short), the offset identity and why it holds, and
// the planes' titles.
void TrajectoryView::write_texts(Layout& lay, const Points& pt, const Params& p) {
  const Vec2 x{p.point_x, p.point_y};
  const double pos = p.position;
  const double k = p.offset;
  lay.title = "Adding a position vs rotating by it (2D, θ = 1 rad per position)";
  lay.l1 = nobreak("x = " + vec_text(x) + ",") + "   " +
           nobreak("pos = m = " + format_number(pos, NumberStyle::label, 6) + ",") + "   " +
           nobreak("offset k = " + format_number(k, NumberStyle::label, 6));
  const auto deg = [](double a) { return format_number(a, NumberStyle::label, 5) + " rad"; };
  const std::string len_a =
      nobreak("|x + PEₚₒₛ|") + " " +
      nobreak("= " + format_number(std::hypot(pt.added.x, pt.added.y), NumberStyle::label, 6));
  const std::string len_b =
      nobreak("|R(pos)x|") + " " +
      nobreak("= " + format_number(std::hypot(pt.rotated.x, pt.rotated.y), NumberStyle::label, 6));
  lay.long_texts = {
      len_a + "   (changes with pos)",
      "angle pos → pos+k: " + nobreak(deg(pt.angle_added)) + "   " + nobreak("(depends on pos)"),
      len_b + " " + nobreak("= |x|") + "   (kept)",
      "angle pos → pos+k: " + nobreak(deg(pt.angle_rotated)) + " " + nobreak("= k·θ") + " " +
          nobreak("for every pos")};
  lay.short_texts = {len_a, "angle " + nobreak(deg(pt.angle_added)), len_b,
                     "angle " + nobreak(deg(pt.angle_rotated) + " = k·θ")};
  lay.identity = "offset identity:  " + nobreak("M(k)·PEₚₒₛ") + " = " +
                 nobreak("[[cos k, sin k], [−sin k, cos k]]") + "·" + nobreak(vec_text(pt.pe)) +
                 " = " + nobreak(vec_text(pt.shifted_matrix)) + "   " +
                 nobreak("PEₚₒₛ₊ₖ = " + vec_text(pt.shifted_direct));
  lay.identity_short = nobreak("M(k)·PEₚₒₛ") + " " + nobreak("= " + vec_text(pt.shifted_matrix)) +
                       " " + nobreak("= PEₚₒₛ₊ₖ");
  const double err = std::hypot(pt.shifted_matrix.x - pt.shifted_direct.x,
                                pt.shifted_matrix.y - pt.shifted_direct.y);
  lay.why = "M(k) does not depend on pos: shifting a sinusoidal code is a rotation (difference " +
            nobreak(format_number(err, NumberStyle::label, 3)) +
            ").  Legend: arrow = pos, ring = pos + k, arc = angle between.";
  lay.titles = {"added: x + PEₚₒₛ (circles around x)", "rotated: R(pos)·x (circle around 0)"};
}

TrajectoryView::Layout TrajectoryView::layout(const Points& pt, const Params& p,
                                              const Canvas& canvas, const ViewEnv& env,
                                              DrawnText* log) {
  Layout lay{*env.fonts, palette(p.theme), plot::style(env, p.theme, log)};
  const Fonts& f = lay.f;
  const float s = lay.s = env.scale;
  const Vec2 x{p.point_x, p.point_y};
  lay.pad = std::round(18.0f * s);
  lay.x0 = canvas.origin.x + lay.pad;
  lay.width = std::max(1.0f, canvas.size.x - 2 * lay.pad);
  lay.top = canvas.origin.y + lay.pad;
  lay.panel_w = std::max(1.0f, 0.5f * (lay.width - lay.pad));
  const float width = lay.width;
  const float panel_w = lay.panel_w;
  // Measured with the widest numbers, so that the planes keep one size (and one scale) while
  // pos moves; the texts with the real numbers are written after the level is chosen.
  Points widest;
  widest.added = widest.rotated = widest.added_k = widest.rotated_k = {-88.8888, -88.8888};
  widest.pe = widest.shifted_direct = widest.shifted_matrix = {-0.888888, -0.888888};
  widest.angle_added = widest.angle_rotated = -8.8888;
  Params probe = p;
  probe.position = -88888.8;
  probe.offset = -88888.8;
  write_texts(lay, widest, probe);
  plot::Axis& ax = lay.ax;
  plot::Axis& ay = lay.ay;
  ax.lo = ay.lo = -std::max(1.0, std::hypot(x.x, x.y) + 1.0) * 1.12;
  ax.hi = ay.hi = -ax.lo;
  if (panel_w >= 320.0f * s) {  // narrow planes keep their room for the data
    ax.label = "x₁";
    ay.label = "x₂";
  }
  ax.ticks = ay.ticks = 4;
  const plot::Margins& mg = lay.mg = plot::margins(lay.st, ax, ay);
  const auto measure = [&](int level) {
    const Level lv = level_of(f, level);
    Heights h;
    h.head = lay.pad + 10 * s;
    if (lv.title)
      h.head +=
          wrapped_size(fit_font({lv.title, f.large}, lay.title, width, 2), lay.title, width).y +
          2 * s;
    h.head += wrapped_size(lv.head, lay.l1, width).y;
    h.plane_title = std::max(wrapped_size(lv.plane_title, lay.titles[0], panel_w).y,
                             wrapped_size(lv.plane_title, lay.titles[1], panel_w).y) +
                    6 * s;
    const auto& t = lv.short_readouts ? lay.short_texts : lay.long_texts;
    h.readouts =
        std::max(
            wrapped_size(lv.readout, t[0], panel_w).y + wrapped_size(lv.readout, t[1], panel_w).y,
            wrapped_size(lv.readout, t[2], panel_w).y + wrapped_size(lv.readout, t[3], panel_w).y) +
        10 * s +
        wrapped_size(f.body, lv.short_readouts ? lay.identity_short : lay.identity, width).y +
        (lv.long_text ? wrapped_size(f.body, lay.why, width).y : 0.0f) + lay.pad;
    h.side = std::floor(
        std::min(panel_w - mg.left - mg.right,
                 canvas.size.y - h.head - h.plane_title - mg.top - mg.bottom - h.readouts - 6 * s));
    return h;
  };
  const int level = first_fitting(kLevels, [&](int l) { return measure(l).side >= 160.0f * s; });
  lay.level = level_of(f, level);
  lay.h = measure(level);
  write_texts(lay, pt, p);
  return lay;
}

// [SECTION] paint: header, the two planes, the read-outs

// The title (at the fuller levels) and x, pos, k; returns the y under them.
float TrajectoryView::paint_header(const Layout& lay, const Pen& pen) {
  const Level& lv = lay.level;
  const float x0 = lay.x0;
  const float width = lay.width;
  float y = lay.top;
  if (lv.title)
    y += pen.wrapped(fit_font({lv.title, lay.f.large}, lay.title, width, 2), ImVec2(x0, y), width,
                     lay.pal.text, lay.title) +
         2 * lay.s;
  y += pen.wrapped(lv.head, ImVec2(x0, y), width, lay.pal.text, lay.l1) + 10 * lay.s;
  return y;
}

// Plane `which` (0 added, 1 rotated) from y: its title, the axes, the whole path over 0 ... N
// faint, the integer positions, and the vectors at pos (bold arrow) and pos + k (thin, with a
// ring) with the angle between them. Returns its frame.
plot::Frame TrajectoryView::paint_plane(const Layout& lay, int which, const Paths& paths, Vec2 now,
                                        Vec2 now_k, double angle, float y, const Canvas& canvas) {
  ImDrawList* dl = canvas.draw_list;
  const Palette& pal = lay.pal;
  const plot::Margins& mg = lay.mg;
  const float s = lay.s;
  const ImU32 col = pal.query;
  const auto w = static_cast<std::size_t>(which);
  ImFont* tf = lay.level.plane_title;
  const float side = std::max(40.0f, lay.h.side);
  const float px0 = lay.x0 + static_cast<float>(which) * (lay.panel_w + lay.pad);
  const float cx = px0 + 0.5f * lay.panel_w;
  float ty = y;
  for (const std::string& line : wrap_text(tf, lay.titles[w], lay.panel_w))
    ty += canvas.pen.centred(tf, ImVec2(cx, ty), col, line).y;
  const ImVec2 r0(px0 + 0.5f * (lay.panel_w - side - mg.left - mg.right), y + lay.h.plane_title);
  const plot::Frame fr = plot::axes(
      dl, lay.st, r0, ImVec2(r0.x + mg.left + side + mg.right, r0.y + mg.top + side + mg.bottom),
      lay.ax, lay.ay);
  plot::hline(dl, fr, 0.0, lay.st.axis, 1.0f);
  plot::vline(dl, fr, 0.0, lay.st.axis, 1.0f);
  const std::vector<Vec2>& path = paths.path[w];
  std::vector<double> px(path.size()), py(path.size());
  for (std::size_t i = 0; i < path.size(); ++i) {
    px[i] = path[i].x;
    py[i] = path[i].y;
  }
  plot::line(dl, fr, px, py, with_alpha(col, 0.35f), std::max(1.0f, std::round(s)));
  const ImVec2 o(fr.x.to_px(0.0), fr.y.to_px(0.0));
  const ImVec2 tk(fr.x.to_px(now_k.x), fr.y.to_px(now_k.y));
  const ImVec2 tn(fr.x.to_px(now.x), fr.y.to_px(now.y));
  const float head = 16 * s;  // the arrowhead (14 px) and the ring (5 px), with a margin
  const std::vector<ImVec4> avoid = {
      ImVec4(tn.x - head, tn.y - head, tn.x + head, tn.y + head),
      ImVec4(tk.x - 8 * s, tk.y - 8 * s, tk.x + 8 * s, tk.y + 8 * s)};
  paint_dots(dl, canvas.pen, fr, paths.dots[w], col, lay.f.body, pal.text_dim, s, avoid);
  dl->AddLine(o, tk, with_alpha(pal.key, 0.9f), std::max(1.0f, std::round(2.0f * s)));
  dl->AddCircle(tk, 5 * s, pal.key, 12, std::max(1.0f, std::round(2.0f * s)));
  draw_arrow(dl, o, tn, col, std::max(1.0f, std::round(3.0f * s)), 14 * s);
  const double a0 = std::atan2(now.y, now.x);
  draw_arc(dl, o, 0.22f * side * 0.5f, a0, a0 + angle, pal.accent,
           std::max(1.0f, std::round(2.0f * s)));
  return fr;
}

// Under the planes: each plane's length and angle, then the offset identity and (at the fuller
// levels) why it holds.
void TrajectoryView::paint_readouts(const Layout& lay, const std::array<plot::Frame, 2>& frames,
                                    const Pen& pen) {
  const Level& lv = lay.level;
  const Palette& pal = lay.pal;
  const float x0 = lay.x0;
  const float panel_w = lay.panel_w;
  float by = std::max(frames[0].area_max.y, frames[1].area_max.y) + lay.mg.bottom + 6 * lay.s;
  const float xb = x0 + panel_w + lay.pad;
  {
    const auto& t = lv.short_readouts ? lay.short_texts : lay.long_texts;
    float ya = by, yb = by;
    ya += pen.wrapped(lv.readout, ImVec2(x0, ya), panel_w, pal.text, t[0]);
    yb += pen.wrapped(lv.readout, ImVec2(xb, yb), panel_w, pal.text, t[2]);
    ya += pen.wrapped(lv.readout, ImVec2(x0, ya), panel_w, pal.accent, t[1]);
    yb += pen.wrapped(lv.readout, ImVec2(xb, yb), panel_w, pal.accent, t[3]);
    by = std::max(ya, yb) + 10 * lay.s;
  }
  by += pen.wrapped(lay.f.body, ImVec2(x0, by), lay.width, pal.text,
                    lv.short_readouts ? lay.identity_short : lay.identity);
  if (lv.long_text) pen.wrapped(lay.f.body, ImVec2(x0, by), lay.width, pal.text_dim, lay.why);
}

// [SECTION] hover: coordinates under the mouse

void TrajectoryView::hover(const Points& pt, const std::array<plot::Frame, 2>& frames, ImVec2 mouse,
                           double pos) {
  for (std::size_t which = 0; which < 2; ++which) {
    const plot::Frame& fr = frames[which];
    if (!fr.contains(mouse)) continue;
    const bool is_added = which == 0;
    const Vec2 v = is_added ? pt.added : pt.rotated;
    ImGui::BeginTooltip();
    ImGui::Text("%s at pos = %s", is_added ? "x + PE_pos" : "R(pos) x", full_number(pos).c_str());
    ImGui::Text("= (%s, %s)", full_number(v.x).c_str(), full_number(v.y).c_str());
    ImGui::Text("length %s", full_number(std::hypot(v.x, v.y)).c_str());
    ImGui::Text("mouse at (%.4g, %.4g)", fr.x.from_px(mouse.x), fr.y.from_px(mouse.y));
    ImGui::EndTooltip();
  }
}

void TrajectoryView::Draw(AppState& state, const ViewEnv& env) {
  const Params& p = state.params;
  const Paths& paths = paths_.get(path_inputs_of(p), compute_paths);
  const Points& pt = model_.get(inputs_of(p), compute);
  const Canvas canvas("trajectory_canvas", &drawn_);  // clip pushed here, popped at every return
  const Layout lay = layout(pt, p, canvas, env, &drawn_);
  const float y = paint_header(lay, canvas.pen);
  const std::array<plot::Frame, 2> frames = {
      paint_plane(lay, 0, paths, pt.added, pt.added_k, pt.angle_added, y, canvas),
      paint_plane(lay, 1, paths, pt.rotated, pt.rotated_k, pt.angle_rotated, y, canvas)};
  frames_ = frames;
  added_px_ = ImVec2(frames[0].x.to_px(pt.added.x), frames[0].y.to_px(pt.added.y));
  rotated_px_ = ImVec2(frames[1].x.to_px(pt.rotated.x), frames[1].y.to_px(pt.rotated.y));
  paint_readouts(lay, frames, canvas.pen);
  if (canvas.hovered) hover(pt, frames, canvas.mouse, p.position);
}

void TrajectoryView::DrawControls(AppState& state, const ViewEnv&) {
  Params& p = state.params;
  ImGui::TextUnformatted("x = (x₁, x₂)");
  ImGui::SetNextItemWidth(-1);
  param_inputs(p, {"point_x", "point_y"});
  ImGui::SetNextItemWidth(-1);
  param_slider(p, "offset");
}

}  // namespace rope::app
