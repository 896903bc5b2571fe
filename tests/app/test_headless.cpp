// Every view drawn without any GL context: ImGui builds its draw lists for two frames (a new
// auto-sized window draws nothing on its first).
#include <catch2/catch.hpp>

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <fstream>
#include <string>

#define GLFW_INCLUDE_NONE
#include <GLFW/glfw3.h>

#include <string_view>

#include "shell/frame.h"
#include "state/params.h"
#include "ui/ui_context.h"
#include "view_harness.h"

using namespace rope::app;

namespace {

// Vertices of the last frame that the views drew themselves: those of the main canvas window
// and, for the derivation view, its lesson panel (windows "Canvas" and "Lesson" of
// shell/frame.cpp, and their child windows), without the menu bar, the control panel and any
// overlay. 0 when no such window was drawn.
int view_vertices() {
  const ImDrawData* dd = ImGui::GetDrawData();
  int vertices = 0;
  for (int i = 0; i < dd->CmdListsCount; ++i) {
    const ImDrawList* dl = dd->CmdLists[i];
    const std::string_view owner = dl->_OwnerName ? dl->_OwnerName : "";
    if (owner == "Canvas" || owner.starts_with("Canvas/") || owner == "Lesson" ||
        owner.starts_with("Lesson/"))
      vertices += dl->VtxBuffer.Size;
  }
  return vertices;
}

// Runs `frames` frames; returns the vertices the views drew in the last one (view_vertices).
int run_frames(UiContext& ui, AppState& state, Views& views, int frames) {
  int vertices = 0;
  for (int f = 0; f < frames; ++f) {
    view_test::run_frame(ui, state, views);
    vertices = view_vertices();
  }
  return vertices;
}

// Presses a key for one frame (GLFW key codes, as in the window).
void press(UiContext& ui, AppState& state, Views& views, int key, bool shift = false,
           bool ctrl = false) {
  ImGuiIO& io = ImGui::GetIO();
  io.KeysDown[key] = true;
  io.KeyShift = shift;
  io.KeyCtrl = ctrl;
  run_frames(ui, state, views, 1);
  io.KeysDown[key] = false;
  io.KeyShift = io.KeyCtrl = false;
  run_frames(ui, state, views, 1);
}

}  // namespace

TEST_CASE("every available view draws headless in both themes and at several scales",
          "[app][headless]") {
  UiContext ui(false);
  for (ViewId v : all_views()) {
    for (Theme theme : {Theme::dark, Theme::light}) {
      for (double scale : {1.0, 2.0}) {
        AppState state;
        state.params.view = v;
        state.params.theme = theme;
        state.params.ui_scale = scale;
        Views views;
        INFO(view_name(v) << " theme " << theme_name(theme) << " scale " << scale);
        // measured: 684 (sinusoidal at scale 2) to 5042 (pointers at scale 1) vertices of the
        // views' own; one line of a title is about 160, the menu bar and panel about 650 to 2300
        CHECK(run_frames(ui, state, views, 2) > 400);
      }
    }
  }
}

// Survive: still a picture a lecturer can read. One pointer pair per shown block, every tip a
// finite point on its dial; the canvas text inside the canvas and free of NaN; a finite score
// that equals q.(R_{n-m} k), the identity the read-out demonstrates.
TEST_CASE("the pointers view survives extreme parameters", "[app][headless]") {
  UiContext ui(false);
  for (const int dim : {2, 512, 4096}) {
    for (const char* pos : {"0", "-1e9", "1e9", "3.75"}) {
      for (const char* layout : {"dials", "circle"}) {
        AppState state;
        Views views;
        REQUIRE(set_param(state.params, "dim", std::to_string(dim)).ok());
        REQUIRE(set_param(state.params, "position", pos).ok());
        REQUIRE(set_param(state.params, "base", "1.0000001").ok());
        REQUIRE(set_param(state.params, "layout", layout).ok());
        INFO("dim " << dim << " position " << pos << " layout " << layout);
        run_frames(ui, state, views, 2);
        const PointersView& v = views.pointers;
        const DrawnText& d = v.drawn();
        REQUIRE(v.tips().size() == std::min<std::size_t>(static_cast<std::size_t>(dim / 2),
                                                         PointersView::kMaxShownBlocks));
        for (const PointersView::Tip& t : v.tips()) {
          REQUIRE(std::isfinite(t.radius));
          CHECK(t.radius > 0.0f);
          for (const ImVec2 p : {t.centre, t.query, t.key}) {
            REQUIRE((std::isfinite(p.x) && std::isfinite(p.y)));
            CHECK(p.x >= d.canvas_min.x - 1);
            CHECK(p.x <= d.canvas_max.x + 1);
            CHECK(p.y >= d.canvas_min.y - 1);
            CHECK(p.y <= d.canvas_max.y + 1);
          }
        }
        REQUIRE_FALSE(d.boxes.empty());
        for (const TextBox& b : d.boxes) {
          INFO("'" << b.text << "'");
          CHECK(view_test::inside(b, d));
          CHECK_FALSE(view_test::shows_nan(b.text));
        }
        REQUIRE(std::isfinite(v.score()));
        CHECK(v.score() == Approx(v.relative()).epsilon(1e-6).margin(1e-6));
      }
    }
  }
}

// Above d = 512 (the slider's maximum) the view draws blocks 0 ... 255 and says so on the
// canvas; up to 512 it draws every block and says nothing. The score stays over all d.
TEST_CASE("the pointers view at large d draws the first 256 blocks and says so",
          "[app][headless]") {
  UiContext ui(false);
  for (const int dim : {8, 512, 514, 4096}) {
    for (const char* layout : {"dials", "circle"}) {
      AppState state;
      Views views;
      REQUIRE(set_param(state.params, "dim", std::to_string(dim)).ok());
      REQUIRE(set_param(state.params, "layout", layout).ok());
      REQUIRE(set_param(state.params, "query", "ones").ok());
      REQUIRE(set_param(state.params, "key", "ones").ok());
      INFO("d = " << dim << ", " << layout);
      run_frames(ui, state, views, 2);
      const PointersView& v = views.pointers;
      const auto blocks = static_cast<std::size_t>(dim / 2);
      CHECK(v.tips().size() == std::min<std::size_t>(blocks, 256));
      // the canvas's text, its lines joined and no-break spaces read as spaces
      std::string text;
      for (const TextBox& b : v.drawn().boxes)
        text += b.text + " ";
      for (std::size_t at; (at = text.find("\u00A0")) != std::string::npos;)
        text.replace(at, 2, " ");
      const auto notice = text.find("showing blocks 0–255 of " + std::to_string(blocks) + ":");
      CHECK((notice != std::string::npos) == (dim > 512));
      // q = k = all ones at m = 0, n = 4: the score is sum_i 2 cos(4 theta_i) over all blocks
      double want = 0.0;
      for (int i = 0; i < dim / 2; ++i)
        want += 2.0 * std::cos(4.0 * std::pow(10000.0, -2.0 * i / dim));
      CHECK(v.score() == Approx(want).epsilon(1e-12));
    }
  }
}

TEST_CASE("the score read-out equals q.(R_{n-m} k), and shifting both leaves it unchanged",
          "[app][headless]") {
  UiContext ui(false);
  AppState state;
  Views views;
  REQUIRE(set_param(state.params, "query", "random").ok());
  REQUIRE(set_param(state.params, "key", "random").ok());
  state.params.position = 3;
  state.params.key_position = 10;
  run_frames(ui, state, views, 2);
  const double before = views.pointers.score();
  CHECK(before == Approx(views.pointers.relative()).epsilon(1e-12));
  press(ui, state, views, GLFW_KEY_RIGHT, false, /*ctrl=*/true);  // shift both by +1
  CHECK(state.params.position == 4);
  CHECK(state.params.key_position == 11);
  CHECK(views.pointers.score() == Approx(before).epsilon(1e-12));
}

TEST_CASE("keyboard shortcuts move the state as documented", "[app][headless][keys]") {
  UiContext ui(false);
  AppState state;
  Views views;
  run_frames(ui, state, views, 2);
  press(ui, state, views, GLFW_KEY_RIGHT);
  CHECK(state.params.position == 1);
  press(ui, state, views, GLFW_KEY_RIGHT, /*shift=*/true);
  CHECK(state.params.position == 11);
  press(ui, state, views, GLFW_KEY_LEFT);
  CHECK(state.params.position == 10);
  press(ui, state, views, GLFW_KEY_UP);
  CHECK(state.params.key_position == 5);
  press(ui, state, views, GLFW_KEY_SPACE);
  CHECK(state.params.playing);
  press(ui, state, views, GLFW_KEY_SPACE);
  CHECK_FALSE(state.params.playing);
  const double speed = state.params.speed;
  press(ui, state, views, GLFW_KEY_EQUAL);
  CHECK(state.params.speed > speed);
  press(ui, state, views, GLFW_KEY_T);
  CHECK(state.params.theme == Theme::light);
  press(ui, state, views, GLFW_KEY_F12);
  CHECK(state.request_screenshot);
  press(ui, state, views, GLFW_KEY_F1);
  CHECK(state.show_shortcuts);
}

TEST_CASE("playing advances the position by speed * time", "[app][headless]") {
  AppState state;
  state.params.playing = true;
  state.params.speed = 2.0;
  advance_animation(state, 0.25);
  CHECK(state.params.position == Approx(0.5));
  state.params.playing = false;
  advance_animation(state, 0.25);
  CHECK(state.params.position == Approx(0.5));
}

TEST_CASE("F5 enters presentation mode and Esc leaves it, restoring theme, scale and panel",
          "[app][headless][keys]") {
  UiContext ui(false);
  AppState state;
  Views views;
  state.params.ui_scale = 1.0;
  run_frames(ui, state, views, 2);
  press(ui, state, views, GLFW_KEY_F5);
  update_presentation(state);
  CHECK(state.params.presentation);
  CHECK(state.params.theme == Theme::light);
  CHECK(state.params.ui_scale >= 1.5);
  CHECK_FALSE(state.show_controls);
  press(ui, state, views, GLFW_KEY_ESCAPE);
  update_presentation(state);
  CHECK_FALSE(state.params.presentation);
  CHECK(state.params.theme == Theme::dark);
  CHECK(state.params.ui_scale == 1.0);
  CHECK(state.show_controls);
}

TEST_CASE("a missing UI font falls back to ImGui's built-in font with a warning",
          "[app][headless]") {
  ImGuiContext* ctx = ImGui::CreateContext();
  ImGuiIO& io = ImGui::GetIO();
  const Fonts f = load_fonts(*io.Fonts, 1.0f, "/nonexistent/fonts");
  REQUIRE(f.body != nullptr);
  REQUIRE(f.title != nullptr);
  CHECK_THAT(f.warning, Catch::Contains("not found"));
  unsigned char* pixels = nullptr;
  int w = 0, h = 0;
  io.Fonts->GetTexDataAsRGBA32(&pixels, &w, &h);
  CHECK(w > 0);
  io.DisplaySize = ImVec2(800, 600);
  io.BackendFlags |= ImGuiBackendFlags_RendererHasVtxOffset;
  AppState state;
  Views views;
  for (int frame = 0; frame < 2; ++frame) {
    ImGui::NewFrame();
    draw_frame(state, views, ViewEnv{&f, false, 1.0f});
    ImGui::Render();
  }
  CHECK(ImGui::GetDrawData()->TotalVtxCount > 0);
  ImGui::DestroyContext(ctx);
  const Fonts good = [] {
    ImGuiContext* c = ImGui::CreateContext();
    Fonts r = load_fonts(*ImGui::GetIO().Fonts, 1.0f);
    ImGui::DestroyContext(c);
    return r;
  }();
  CHECK(good.warning.empty());  // fonts-dejavu-core is installed by scripts/deps.sh
}

TEST_CASE("a damaged UI font falls back like a missing one, naming the file", "[app][headless]") {
  // The first 4 KiB of the real DejaVu Sans, then zeros: FreeType may open the file, but its
  // glyphs cannot load; random bytes are not a font at all. Neither may reach ImGui's atlas.
  const auto dir = std::filesystem::temp_directory_path() / "rope-lab-damaged-fonts";
  std::filesystem::create_directories(dir);
  const std::string font = std::string(kDefaultFontDir) + "/DejaVuSans.ttf";
  std::string real(std::filesystem::file_size(font), '\0');
  std::ifstream(font, std::ios::binary)
      .read(real.data(), static_cast<std::streamsize>(real.size()));
  REQUIRE(real.size() > 100000);
  for (const std::string& content :
       {real.substr(0, 4096) + std::string(real.size() - 4096, '\0'), std::string(20000, '\x5a')}) {
    for (const char* name : {"DejaVuSans.ttf", "DejaVuSans-Bold.ttf"})
      std::ofstream(dir / name, std::ios::binary) << content;
    ImGuiContext* ctx = ImGui::CreateContext();
    const Fonts f = load_fonts(*ImGui::GetIO().Fonts, 1.0f, dir.string());
    CHECK_THAT(f.warning, Catch::Contains((dir / "DejaVuSans.ttf").string()));
    CHECK_THAT(f.warning, Catch::Contains("built-in font"));
    REQUIRE(f.body != nullptr);
    unsigned char* pixels = nullptr;
    int w = 0, h = 0;
    ImGui::GetIO().Fonts->GetTexDataAsRGBA32(&pixels, &w, &h);
    CHECK(w > 0);
    ImGui::DestroyContext(ctx);
  }
  std::filesystem::remove_all(dir);
}
