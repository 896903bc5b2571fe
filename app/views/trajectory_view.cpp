#include "views/trajectory_view.h"

#include <algorithm>
#include <cmath>
#include <cstdio>

#include "rope/sinusoidal.h"
#include "state/params.h"
#include "ui/canvas.h"
#include "ui/plot.h"
#include "ui/theme.h"

namespace rope::app {
namespace {

constexpr int kMaxDots = 24;       // integer positions marked with dots
constexpr int kPathPositions = 7;  // > 2 pi: the path closes
constexpr int kPerPosition = 12;   // path samples per unit of position (smooth circle)

double angle_between(Vec2 a, Vec2 b) {
  return std::atan2(a.x * b.y - a.y * b.x, a.x * b.x + a.y * b.y);
}

std::string vec_text(Vec2 v) {
  return "(" + format_number(v.x, 6) + ", " + format_number(v.y, 6) + ")";
}

}  // namespace

void TrajectoryView::DrawControls(AppState& state, const ViewEnv&) {
  Params& p = state.params;
  ImGui::TextUnformatted("x = (x₁, x₂)");
  double xy[2] = {p.point_x, p.point_y};
  ImGui::SetNextItemWidth(-1);
  if (ImGui::InputScalarN("##x", ImGuiDataType_Double, xy, 2, nullptr, nullptr, "%.4g")) {
    if (std::isfinite(xy[0]) && std::fabs(xy[0]) <= 1e6) p.point_x = xy[0];
    if (std::isfinite(xy[1]) && std::fabs(xy[1]) <= 1e6) p.point_y = xy[1];
  }
  float k = static_cast<float>(p.offset);
  ImGui::SetNextItemWidth(-1);
  if (ImGui::SliderFloat("##offset", &k, -10.0f, 10.0f, "offset k = %.2f"))
    p.offset = static_cast<double>(k);
  int n = p.positions;
  ImGui::SetNextItemWidth(-1);
  if (ImGui::SliderInt("##positions", &n, 8, 4096, "path over positions 0 … %d",
                       ImGuiSliderFlags_Logarithmic))
    p.positions = std::clamp(n, 8, 4096);
}

void TrajectoryView::Draw(AppState& state, const ViewEnv& env) {
  const Params& p = state.params;
  const Palette& pal = palette(p.theme);
  const plot::Style st = plot::style(env, p.theme, &drawn);
  const float s = env.scale;
  const Fonts& f = *env.fonts;
  const Vec2 x{p.point_x, p.point_y};
  const double pos = p.position;
  const double k = p.offset;

  if (cached_x != x.x || cached_y != x.y || cached_n != p.positions) {
    cached_x = x.x;
    cached_y = x.y;
    cached_n = p.positions;
    // theta = 1: both paths are circles, closed after 2 pi positions; longer paths would only
    // retrace them
    const int count = std::min(p.positions, kPathPositions) * kPerPosition + 1;
    path_added = additive_trajectory(x, 0.0, 1.0 / kPerPosition, count);
    path_rotated = rotary_trajectory(x, 0.0, 1.0 / kPerPosition, count);
  }
  // the current points, the shifted ones, and the offset identity (d = 2, theta = 1)
  const std::vector<double> th{1.0};
  added = additive_trajectory(x, pos, 1.0, 1).front();
  rotated = rotary_trajectory(x, pos, 1.0, 1).front();
  const Vec2 added_k = additive_trajectory(x, pos + k, 1.0, 1).front();
  const Vec2 rotated_k = rotary_trajectory(x, pos + k, 1.0, 1).front();
  const std::vector<double> pe = sinusoidal_vector(pos, th);
  const std::vector<double> pe_k = sinusoidal_vector(pos + k, th);
  const std::vector<double> mk = sinusoidal_offset_matrix(k, th);
  const std::vector<double> mpe = mat_vec(mk, pe);
  shifted_direct = {pe_k[0], pe_k[1]};
  shifted_matrix = {mpe[0], mpe[1]};
  angle_added = angle_between(added, added_k);
  angle_rotated = angle_between(rotated, rotated_k);

  const CanvasArea area = begin_canvas("trajectory_canvas", &drawn);
  ImDrawList* dl = area.draw_list;
  const Pen& pen = area.pen;
  const ImVec2 origin = area.origin;
  const ImVec2 size = area.size;
  const bool hovered = area.hovered;
  const ImVec2 mouse = area.mouse;

  // [SECTION] layout. The header on top, the read-outs at the bottom, the two planes (square,
  // side by side) in between. Four levels, tried in order until the planes get a useful size:
  // full size; smaller fonts; no title and no second note (the lesson names the step); short
  // read-outs.
  struct Level {
    ImFont *title, *head, *readout, *plane_title;
    bool long_text, short_readouts;
  };
  const Level levels[] = {{f.title, f.large, f.large, f.large, true, false},
                          {f.large, f.large, f.body, f.body, true, false},
                          {nullptr, f.large, f.body, f.body, false, false},
                          {nullptr, f.body, f.body, f.body, false, true}};
  constexpr int kLevels = 4;
  const float pad = std::round(18.0f * s);
  const float x0 = origin.x + pad;
  const float width = std::max(1.0f, size.x - 2 * pad);
  const float panel_w = std::max(1.0f, 0.5f * (width - pad));
  const std::string title = "Adding a position vs rotating by it (2D, θ = 1 rad per position)";
  const std::string l1 = nobreak("x = " + vec_text(x) + ",") + "   " +
                         nobreak("pos = m = " + format_number(pos, 6) + ",") + "   " +
                         nobreak("offset k = " + format_number(k, 6));
  const auto deg = [](double a) { return format_number(a * 180.0 / kPi, 5) + "°"; };
  const std::string len_a =
      nobreak("|x + PEₚₒₛ|") + " " + nobreak("= " + format_number(std::hypot(added.x, added.y), 6));
  const std::string len_b = nobreak("|R(pos)x|") + " " +
                            nobreak("= " + format_number(std::hypot(rotated.x, rotated.y), 6));
  const std::string long_texts[4] = {
      len_a + "   (changes with pos)",
      "angle pos → pos+k: " + nobreak(deg(angle_added)) + "   " + nobreak("(depends on pos)"),
      len_b + " " + nobreak("= |x|") + "   (kept)",
      "angle pos → pos+k: " + nobreak(deg(angle_rotated)) + " " + nobreak("= k·θ") + " " +
          nobreak("for every pos")};
  const std::string short_texts[4] = {len_a, "angle " + nobreak(deg(angle_added)), len_b,
                                      "angle " + nobreak(deg(angle_rotated) + " = k·θ")};
  const std::string identity = "offset identity:  " + nobreak("M(k)·PEₚₒₛ") + " = " +
                               nobreak("[[cos k, sin k], [−sin k, cos k]]") + "·" +
                               nobreak(vec_text({pe[0], pe[1]})) + " = " +
                               nobreak(vec_text(shifted_matrix)) + "   " +
                               nobreak("PEₚₒₛ₊ₖ = " + vec_text(shifted_direct));
  const std::string identity_short = nobreak("M(k)·PEₚₒₛ") + " " +
                                     nobreak("= " + vec_text(shifted_matrix)) + " " +
                                     nobreak("= PEₚₒₛ₊ₖ");
  const double err =
      std::hypot(shifted_matrix.x - shifted_direct.x, shifted_matrix.y - shifted_direct.y);
  const std::string why =
      "M(k) does not depend on pos: shifting a sinusoidal code is a rotation (difference " +
      nobreak(format_number(err, 3)) +
      ").  Legend: arrow = pos, ring = pos + k, arc = angle between.";
  const std::string titles[2] = {"added: x + PEₚₒₛ (circles around x)",
                                 "rotated: R(pos)·x (circle around 0)"};
  plot::Axis ax, ay;
  ax.lo = ay.lo = -std::max(1.0, std::hypot(x.x, x.y) + 1.0) * 1.12;
  ax.hi = ay.hi = -ax.lo;
  if (panel_w >= 320.0f * s) {  // narrow planes keep their room for the data
    ax.label = "x₁";
    ay.label = "x₂";
  }
  ax.ticks = ay.ticks = 4;
  const plot::Margins mg = plot::margins(st, ax, ay);
  // heights of a level's parts, and the side of its planes
  struct Heights {
    float head, plane_title, readouts, side;
  };
  const auto measure = [&](const Level& lv) {
    Heights h;
    h.head = pad + 10 * s;
    if (lv.title)
      h.head +=
          wrapped_size(fit_font({lv.title, f.large}, title, width, 2), title, width).y + 2 * s;
    h.head += wrapped_size(lv.head, l1, width).y;
    h.plane_title = std::max(wrapped_size(lv.plane_title, titles[0], panel_w).y,
                             wrapped_size(lv.plane_title, titles[1], panel_w).y) +
                    6 * s;
    const std::string* t = lv.short_readouts ? short_texts : long_texts;
    h.readouts =
        std::max(
            wrapped_size(lv.readout, t[0], panel_w).y + wrapped_size(lv.readout, t[1], panel_w).y,
            wrapped_size(lv.readout, t[2], panel_w).y + wrapped_size(lv.readout, t[3], panel_w).y) +
        10 * s + wrapped_size(f.body, lv.short_readouts ? identity_short : identity, width).y +
        (lv.long_text ? wrapped_size(f.body, why, width).y : 0.0f) + pad;
    h.side =
        std::floor(std::min(panel_w - mg.left - mg.right, size.y - h.head - h.plane_title - mg.top -
                                                              mg.bottom - h.readouts - 6 * s));
    return h;
  };
  int level = 0;
  for (; level < kLevels - 1; ++level)
    if (measure(levels[level]).side >= 160.0f * s) break;
  const Level& lv = levels[level];
  const Heights hs = measure(lv);

  // [SECTION] header
  float y = origin.y + pad;
  if (lv.title)
    y += pen.wrapped(fit_font({lv.title, f.large}, title, width, 2), ImVec2(x0, y), width, pal.text,
                     title) +
         2 * s;
  y += pen.wrapped(lv.head, ImVec2(x0, y), width, pal.text, l1) + 10 * s;

  // [SECTION] the two planes, same scale
  ImFont* tf = lv.plane_title;
  const float title_h = hs.plane_title;
  const auto plane = [&](int which, const std::vector<Vec2>& path, Vec2 now, Vec2 now_k,
                         ImU32 col) -> plot::Frame {
    const float side = std::max(40.0f, hs.side);
    const float px0 = x0 + static_cast<float>(which) * (panel_w + pad);
    const float cx = px0 + 0.5f * panel_w;
    float ty = y;
    for (const std::string& line : wrap_text(tf, titles[which], panel_w))
      ty += pen.centred(tf, ImVec2(cx, ty), col, line).y;
    const ImVec2 r0(px0 + 0.5f * (panel_w - side - mg.left - mg.right), y + title_h);
    const plot::Frame fr = plot::axes(
        dl, st, r0, ImVec2(r0.x + mg.left + side + mg.right, r0.y + mg.top + side + mg.bottom), ax,
        ay);
    plot::hline(dl, fr, 0.0, st.axis, 1.0f);
    plot::vline(dl, fr, 0.0, st.axis, 1.0f);
    // the whole path over 0 ... N, faint
    std::vector<double> px(path.size()), py(path.size());
    for (std::size_t i = 0; i < path.size(); ++i) {
      px[i] = path[i].x;
      py[i] = path[i].y;
    }
    plot::line(dl, fr, px, py, with_alpha(col, 0.35f), std::max(1.0f, std::round(s)));
    // integer positions as dots, the first few numbered where the number has room
    const int dots = std::min(p.positions, kMaxDots);
    std::vector<ImVec4> taken;
    for (int t = 0; t <= dots; ++t) {
      const Vec2 v =
          (which == 0 ? additive_trajectory : rotary_trajectory)(x, t, 1.0, 1, 1.0).front();
      plot::marker(dl, fr, v.x, v.y, with_alpha(col, 0.6f), 3.0f * s);
      if (t >= 7) continue;
      const ImVec2 q(fr.x.to_px(v.x), fr.y.to_px(v.y));
      const std::string label = std::to_string(t);
      const ImVec2 ts = text_size(f.body, label);
      const ImVec4 box(q.x + 5 * s, q.y - ts.y - 2 * s, q.x + 5 * s + ts.x, q.y - 2 * s);
      bool free = fr.contains(ImVec2(box.x, box.y)) && fr.contains(ImVec2(box.z, box.w));
      const float gap = 4 * s;  // "6" right beside "0" would read as "60"
      for (const ImVec4& o : taken)
        free = free && (box.z + gap <= o.x || o.z + gap <= box.x || box.w <= o.y || o.w <= box.y);
      if (!free) continue;
      taken.push_back(box);
      pen.text(f.body, ImVec2(box.x, box.y), pal.text_dim, label);
    }
    // the vector at pos + k (thin) and at pos (bold arrow)
    const ImVec2 o(fr.x.to_px(0.0), fr.y.to_px(0.0));
    const ImVec2 tk(fr.x.to_px(now_k.x), fr.y.to_px(now_k.y));
    const ImVec2 tn(fr.x.to_px(now.x), fr.y.to_px(now.y));
    dl->AddLine(o, tk, with_alpha(pal.key, 0.9f), std::max(1.0f, std::round(2.0f * s)));
    dl->AddCircle(tk, 5 * s, pal.key, 12, std::max(1.0f, std::round(2.0f * s)));
    draw_arrow(dl, o, tn, col, std::max(1.0f, std::round(3.0f * s)), 14 * s);
    const double a0 = std::atan2(now.y, now.x);
    draw_arc(dl, o, 0.22f * side * 0.5f, a0, a0 + angle_between(now, now_k), pal.accent,
             std::max(1.0f, std::round(2.0f * s)));
    return fr;
  };
  const plot::Frame fa = plane(0, path_added, added, added_k, pal.query);
  const plot::Frame fb = plane(1, path_rotated, rotated, rotated_k, pal.query);
  added_px = ImVec2(fa.x.to_px(added.x), fa.y.to_px(added.y));
  rotated_px = ImVec2(fb.x.to_px(rotated.x), fb.y.to_px(rotated.y));

  // [SECTION] read-outs under the planes
  float by = std::max(fa.area_max.y, fb.area_max.y) + mg.bottom + 6 * s;
  const float xb = x0 + panel_w + pad;
  {
    const std::string* t = lv.short_readouts ? short_texts : long_texts;
    float ya = by, yb = by;
    ya += pen.wrapped(lv.readout, ImVec2(x0, ya), panel_w, pal.text, t[0]);
    yb += pen.wrapped(lv.readout, ImVec2(xb, yb), panel_w, pal.text, t[2]);
    ya += pen.wrapped(lv.readout, ImVec2(x0, ya), panel_w, pal.accent, t[1]);
    yb += pen.wrapped(lv.readout, ImVec2(xb, yb), panel_w, pal.accent, t[3]);
    by = std::max(ya, yb) + 10 * s;
  }
  by += pen.wrapped(f.body, ImVec2(x0, by), width, pal.text,
                    lv.short_readouts ? identity_short : identity);
  if (lv.long_text) pen.wrapped(f.body, ImVec2(x0, by), width, pal.text_dim, why);

  // [SECTION] hover: coordinates under the mouse
  for (const plot::Frame* fr : {&fa, &fb}) {
    if (!hovered || !fr->contains(mouse)) continue;
    const bool is_added = fr == &fa;
    const Vec2 v = is_added ? added : rotated;
    ImGui::BeginTooltip();
    ImGui::Text("%s at pos = %.17g", is_added ? "x + PE_pos" : "R(pos) x", pos);
    ImGui::Text("= (%.17g, %.17g)", v.x, v.y);
    ImGui::Text("length %.17g", std::hypot(v.x, v.y));
    ImGui::Text("mouse at (%.4g, %.4g)", fr->x.from_px(mouse.x), fr->y.from_px(mouse.y));
    ImGui::EndTooltip();
  }
  dl->PopClipRect();
}

}  // namespace rope::app
