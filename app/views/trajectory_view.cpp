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
  const plot::Style st = plot::style(env, p.theme);
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

  const CanvasArea area = begin_canvas("trajectory_canvas");
  ImDrawList* dl = area.draw_list;
  const ImVec2 origin = area.origin;
  const ImVec2 size = area.size;
  const bool hovered = area.hovered;
  const ImVec2 mouse = area.mouse;

  // [SECTION] header
  const float pad = std::round(18.0f * s);
  float y = origin.y + pad;
  dl->AddText(f.title, f.title->FontSize, ImVec2(origin.x + pad, y), pal.text,
              "Adding a position vs rotating by it (2D, θ = 1 rad per position)");
  y += f.title->FontSize + 2 * s;
  const std::string l1 = "x = " + vec_text(x) + ",   pos = m = " + format_number(pos, 6) +
                         ",   offset k = " + format_number(k, 6);
  dl->AddText(f.large, f.large->FontSize, ImVec2(origin.x + pad, y), pal.text, l1.c_str());
  y += f.large->FontSize + 10 * s;

  // [SECTION] the two planes, same scale
  const float box_h = 4 * f.large->FontSize + 40 * s;  // read-outs under the planes
  const float bottom = origin.y + size.y - pad - box_h;
  const float panel_w = 0.5f * (size.x - 3 * pad);
  const double rx = std::hypot(x.x, x.y);
  const double extent = std::max(1.0, rx + 1.0) * 1.12;
  const auto plane = [&](int which, const std::vector<Vec2>& path, Vec2 now, Vec2 now_k, ImU32 col,
                         const char* title) -> plot::Frame {
    plot::Axis ax, ay;
    ax.lo = ay.lo = -extent;
    ax.hi = ay.hi = extent;
    ax.label = "x₁";
    ay.label = "x₂";
    ax.ticks = ay.ticks = 4;
    const float title_h = f.large->FontSize + 6 * s;
    const plot::Margins mg = plot::margins(st, ax, ay);
    const float side =
        std::max(40.0f, std::floor(std::min(panel_w - mg.left - mg.right,
                                            bottom - y - title_h - mg.top - mg.bottom)));
    const float x0 = origin.x + pad + static_cast<float>(which) * (panel_w + pad) +
                     0.5f * (panel_w - side - mg.left - mg.right);
    draw_text_centred(dl, f.large, ImVec2(x0 + mg.left + 0.5f * side, y), col, title);
    const ImVec2 r0(x0, y + title_h);
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
    // integer positions as dots, the first few numbered
    const int dots = std::min(p.positions, kMaxDots);
    for (int t = 0; t <= dots; ++t) {
      const Vec2 v =
          (which == 0 ? additive_trajectory : rotary_trajectory)(x, t, 1.0, 1, 1.0).front();
      plot::marker(dl, fr, v.x, v.y, with_alpha(col, 0.6f), 3.0f * s);
      if (t < 7) {
        const ImVec2 q(fr.x.to_px(v.x), fr.y.to_px(v.y));
        dl->AddText(f.body, f.body->FontSize, ImVec2(q.x + 5 * s, q.y - f.body->FontSize - 2 * s),
                    pal.text_dim, std::to_string(t).c_str());
      }
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
  const plot::Frame fa =
      plane(0, path_added, added, added_k, pal.query, "added: x + PEₚₒₛ (circles around x)");
  const plot::Frame fb =
      plane(1, path_rotated, rotated, rotated_k, pal.query, "rotated: R(pos)·x (circle around 0)");
  added_px = ImVec2(fa.x.to_px(added.x), fa.y.to_px(added.y));
  rotated_px = ImVec2(fb.x.to_px(rotated.x), fb.y.to_px(rotated.y));

  // [SECTION] read-outs under the planes
  const auto deg = [](double a) { return format_number(a * 180.0 / kPi, 5) + "°"; };
  plot::Axis probe;
  probe.label = "x₁";
  float by =
      std::max(fa.area_max.y, fb.area_max.y) + plot::margins(st, probe, probe).bottom + 6 * s;
  const float xa = origin.x + pad;
  const float xb = origin.x + pad + panel_w + pad;
  const std::string a1 =
      "|x + PEₚₒₛ| = " + format_number(std::hypot(added.x, added.y), 6) + "   (changes with pos)";
  const std::string a2 = "angle pos → pos+k: " + deg(angle_added) + "   (depends on pos)";
  const std::string b1 =
      "|R(pos)x| = " + format_number(std::hypot(rotated.x, rotated.y), 6) + " = |x|   (kept)";
  const std::string b2 = "angle pos → pos+k: " + deg(angle_rotated) + " = k·θ for every pos";
  dl->AddText(f.large, f.large->FontSize, ImVec2(xa, by), pal.text, a1.c_str());
  dl->AddText(f.large, f.large->FontSize, ImVec2(xb, by), pal.text, b1.c_str());
  by += f.large->FontSize + 2 * s;
  dl->AddText(f.large, f.large->FontSize, ImVec2(xa, by), pal.accent, a2.c_str());
  dl->AddText(f.large, f.large->FontSize, ImVec2(xb, by), pal.accent, b2.c_str());
  by += f.large->FontSize + 10 * s;
  char buf[400];
  std::snprintf(buf, sizeof buf,
                "offset identity:  M(k)·PEₚₒₛ = [[cos k, sin k], [−sin k, cos k]]·%s = %s   "
                "PEₚₒₛ₊ₖ = %s",
                vec_text({pe[0], pe[1]}).c_str(), vec_text(shifted_matrix).c_str(),
                vec_text(shifted_direct).c_str());
  dl->AddText(f.body, f.body->FontSize, ImVec2(xa, by), pal.text, buf);
  by += f.body->FontSize + 2 * s;
  const double err =
      std::hypot(shifted_matrix.x - shifted_direct.x, shifted_matrix.y - shifted_direct.y);
  std::snprintf(buf, sizeof buf,
                "M(k) does not depend on pos: shifting a sinusoidal code is a rotation "
                "(difference %s).  Legend: arrow = pos, ring = pos + k, arc = angle between.",
                format_number(err, 3).c_str());
  dl->AddText(f.body, f.body->FontSize, ImVec2(xa, by), pal.text_dim, buf);

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
