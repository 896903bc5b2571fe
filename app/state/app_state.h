// state/app_state.h — the one struct the whole app reads and writes.
//
// Everything a person can set — from a widget, a flag, a session file or a lesson step — is a
// field of Params, reachable by one snake_case name (flag --key-position, JSON and lesson key
// key_position) through state/params.h. AppState adds what is not a parameter: the animation
// clock, transient notices, and requests the frame code hands to the platform layer.
//
// Usage: one AppState lives in the window (or offscreen) driver and is passed by reference to
// the frame function and every view. Views never keep a copy; they cache derived buffers keyed
// by the fields they read.
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "io/read_file.h"
#include "rope/attention.h"
#include "rope/conventions.h"
#include "rope/mrope.h"
#include "rope/rotation.h"
#include "state/ink.h"
#include "state/precision_params.h"
#include "state/scaling_params.h"
#include "state/view_list.h"

namespace rope::app {

#define ROPE_LAB_VIEW_ID(id, type, name, title) id,
enum class ViewId { ROPE_LAB_VIEWS(ROPE_LAB_VIEW_ID) };
#undef ROPE_LAB_VIEW_ID
#define ROPE_LAB_VIEW_COUNT(id, type, name, title) +1
inline constexpr int kViewCount = 0 ROPE_LAB_VIEWS(ROPE_LAB_VIEW_COUNT);
#undef ROPE_LAB_VIEW_COUNT
enum class VectorPreset { unit, ones, random, custom };
enum class PointerLayout { dials, circle };
enum class Content { shared, random, sentence };
// cosine: 1 + cos(q'_m, k'_n), Su's similarity for linear attention (never negative)
enum class ScoreMode { raw, scaled, softmax, cosine };
enum class Theme { dark, light };

// A query or key vector as the lecturer chose it. The effective d-vector is derived
// (state/params.h: effective_vector) so that changing d never loses the choice.
struct VectorChoice {
  VectorPreset preset = VectorPreset::unit;
  std::vector<double> values;  // used when preset == custom; padded with 0 / cut to d
  bool operator==(const VectorChoice&) const = default;
};

struct ModelPreset;  // state/models.h

// The preset a config.json was read as (state/hf_config.h), kept to name the model and list what
// changed since. Two states with the same `config` path are equal whatever this holds: after a
// session is reloaded it is read again (or missing, when the file is gone).
struct ConfigPresetRef {
  std::shared_ptr<const ModelPreset> preset;
  bool operator==(const ConfigPresetRef&) const { return true; }
};

struct Params {
  ViewId view = ViewId::pointers;

  // The model preset chosen last (state/models.h), by id; empty: none. Choosing one sets the
  // RoPE parameters below; they may be changed afterwards (the screen lists what changed).
  std::string model;
  // Or the model's config.json read last (state/hf_config.h), by path; empty: none. Choosing a
  // preset clears it, reading a config clears `model`.
  std::string config;
  ConfigPresetRef config_preset;  // null when the file could not be read again (a session)
  // The model's layer shown (state/models.h: ModelLayers), 0 ... layers - 1; -1: none, the
  // preset's top-level values. Choosing one applies that layer's values; choosing a model or a
  // config resets it.
  int layer = -1;

  // RoPE
  int dim = 16;               // head dimension d, even, 2 ... 4096 (the pointers view shows <= 512)
  double base = 10000.0;      // theta_i = base^(-2i/d), > 1
  double position = 0.0;      // query position m (real: animation moves smoothly between integers)
  double key_position = 4.0;  // key position n
  Pairing pairing = Pairing::interleaved;
  VectorChoice query{VectorPreset::ones, {}};
  VectorChoice key{VectorPreset::ones, {}};
  std::uint64_t seed = 1;  // for every seeded random vector

  // pointers view
  PointerLayout layout = PointerLayout::dials;
  bool trails = true;
  double trail_length = 6.0;  // positions behind m drawn as a trail
  // also draw q and k rotated with the precision view's formats (precision.formats), emulated
  bool emulate_precision = false;
  // lesson 4's polar form: each pointer's length and its turn from position 0, labelled
  bool polar = false;

  // animation: m advances by speed positions per second while playing
  bool playing = false;
  double speed = 1.0;

  // heatmap view
  int positions = 64;  // N, 8 ... 4096
  // heatmap: the positions shown are 0, s, 2s, … (N of them, s apart), so a matrix of at most
  // 4096 rows reaches past any model's context (review D8); 1 ... 1024. Sentence content is
  // its words and ignores it.
  int stride = 1;
  Encoding encoding = Encoding::rope;
  bool compare = false;  // none / sinusoidal / rope side by side
  Content content = Content::shared;
  ScoreMode score_mode = ScoreMode::raw;
  bool causal = false;
  // Masks of a model's layer (rope::ScoreTransform): keys m - n >= window hidden (sliding-window
  // layers), keys in another chunk of `chunk` positions hidden (Llama 4); 0: off. Tokens.
  std::int64_t attention_window = 0;
  std::int64_t attention_chunk = 0;
  bool linear_sums = false;   // linear attention's shared sums instead of the N x N matrix
  bool linear_reuse = false;  // with linear_sums: every query's numerator from the one S
  // with sentence content: sentence A and sentence B side by side, the query's token framed in
  // both (lesson 1: a permutation moves token m of A to T - 1 - m of the reversed B)
  bool sentence_pair = false;
  // heatmap: the scores of the fastest or the slowest quarter of the pairs only (rope::PairBand)
  PairBand pair_band = PairBand::all;
  // heatmap: one diagonal's RoPE scores against q·k instead of the matrix (random content)
  bool diagonal_fit = false;

  // decay and spectrum views
  int max_distance = 256;  // R
  int context_length = 4096;
  double compare_base = 500000.0;  // decay: overlay with this base (0: no overlay)
  int compare_dim = 128;           // decay: overlay with this d (0: no overlay)
  bool mean_score = false;         // decay: overlay the mean score of seeded random q, k
  bool partial_compare = true;     // spectrum, p < 1: the other meaning of p drawn beside

  // axial view (2D RoPE for images, rope/axial.h): a grid_size x grid_size grid of patches; the
  // query patch (row, column) whose scores colour the grid, the key patch of the read-out, and
  // the shift (rows, columns) applied to both in the second panel. Rows count down from 0 at the
  // top, columns across from 0 at the left, in patches.
  int grid_size = 8;
  int query_row = 2, query_column = 3;
  int key_row = 5, key_column = 1;
  int shift_row = 2, shift_column = 3;
  bool axial_moved = true;       // the second panel, both patches moved by the shift
  bool axial_rectangle = false;  // the query and key patches' rectangle and its other corners

  // multimodal view (M-RoPE, rope/mrope.h; state/multimodal_params.h): the sequence of text,
  // images and videos as segments, the id rule and pair layout, the layout's section ("auto": the
  // model's split scaled to d; or "t,h,w"), the query token (index into the sequence), seconds
  // per temporal grid of every video, Qwen2.5-VL's tokens per second, and whether the other
  // layout (chunked <-> interleaved) is drawn beside.
  std::string mm_sequence = "text:3,image:4x6,text:3";
  MropeRule mm_rule = MropeRule::qwen2_vl;
  MropeLayout mm_layout = MropeLayout::chunked;
  std::string mm_section = "auto";
  int mm_query = 12;
  double mm_seconds = 1.0;
  int mm_tokens_per_second = 2;
  bool mm_compare = true;

  // sinusoidal view: its own figure size (as in "Attention Is All You Need" figures)
  int pe_positions = 128;  // rows: positions 0 ... pe_positions-1
  int pe_dim = 256;        // columns: dimensions 0 ... pe_dim-1 (even)
  // a learned table of this many rows instead of the formula (0: off): one vector per position
  // 0 ... L-1 (seeded values stand in for trained ones), none past it
  int learned_positions = 0;
  bool pe_add_ones = false;  // plot x + PE_pos, x = (1, ..., 1), under the table instead of PE_m

  // trajectory view
  double point_x = 1.0, point_y = 1.0;  // the 2D vector x
  double offset = 1.0;                  // k in PE_{pos+k} = M(k) PE_pos

  // sentence view
  std::string sentence_a = "Python is love";
  std::string sentence_b = "Coding in Python is love";
  std::string query_word = "Python";
  std::string key_word = "love";

  // precision view: the formats of RoPE's four cast points (state/precision_params.h)
  PrecisionParams precision;

  // lessons
  std::string lesson;                   // lesson id (file stem), empty: none chosen
  int step = 1;                         // step within the lesson, counted from 1 as on screen
  ViewId show_view = ViewId::pointers;  // derivation: the view drawn beside the lesson

  // presentation
  Theme theme = Theme::dark;
  double ui_scale = 1.0;  // multiplies every pixel size, 0.5 ... 4
  bool presentation = false;

  // context extension (state/scaling_params.h): the scaling method and its parameters, and the
  // extension view's mode; method none leaves every θ as it is
  ExtensionParams extension;

  // What the lecturer drew with the pen and the highlighter, per page (state/ink.h). Not a
  // parameter of the table: no flag or lesson key sets it; sessions save it beside "params",
  // and an undo step takes back a stroke like any other change.
  Ink ink;

  bool operator==(const Params&) const = default;  // undo (state/history.h) compares states
};

// A message shown in the window for a few seconds (saved screenshot path, or an error).
struct Notice {
  std::string text;
  bool is_error = false;
  double shown_at = -1.0;  // seconds on the app clock; < 0: nothing to show
};

struct AppState {
  Params params;

  // clock
  double time = 0.0;      // seconds since start, advanced by the driver each frame
  double frame_dt = 0.0;  // seconds since the previous frame

  Notice notice;

  // requests from the frame code to the driver (window or offscreen); cleared when handled
  bool keep_drawing = false;  // work in progress (a recompute, an upload): draw the next frame
                              // at once instead of waiting for input; cleared every frame
  bool request_quit = false;
  bool request_screenshot = false;
  bool show_shortcuts = false;
  bool show_about = false;
  // The command palette (Ctrl + K, shell/command_palette.h): open, what is typed in it (a
  // picture's --palette sets it), and the ids of the commands last run from it, newest first
  // (they come first in its list; this run only).
  bool show_palette = false;
  std::string palette_query;
  std::vector<std::string> recent_commands;
  // A lesson step's hidden answer (`reveal:` in a lesson): the V key asks the derivation view to
  // show it (views/derivation_view.h); reveal_all shows every step's answer at once (pictures).
  bool reveal_requested = false;
  bool reveal_all = false;
  // Files the picture needed and could not get (a shader, the lessons folder, the math font),
  // each a message naming the file and where it was looked for; the views report them
  // (report_problem, state/actions.h). The picture commands exit 1 on them instead of writing a
  // picture with the message inside; the window prints each once and goes on.
  std::vector<std::string> problems;

  // sessions: the dialog is open when session_dialog != none; session_path is the last file
  // opened or saved (the dialog starts there). open_config: the same dialog reads a model's
  // config.json (File ▸ Open model config), from config_path, never from session_path (a later
  // Ctrl + S must not write a session over the model's file).
  enum class SessionDialog { none, save, open, open_config } session_dialog = SessionDialog::none;
  std::string config_path;
  // File ▸ Export picture / animation (shell/export_dialog.h); none: the dialog is closed (an
  // export already running goes on and reports with a notice).
  enum class ExportDialog { none, picture, animation } export_dialog = ExportDialog::none;
  // The lesson step whose `show:` state was applied last. Entering another step applies that
  // step's state; opening a session sets these to its own step, so its values are kept.
  std::string applied_lesson;
  int applied_step = 0;
  std::string session_path;
  // What the file at stamped_path was when this window last opened or saved it: a save to the
  // same path first checks that nothing else (another window, a sync client) wrote it since,
  // and asks instead of replacing it (session_conflict: the save dialog offers overwrite,
  // reload or another name).
  FileStamp session_stamp;
  std::string stamped_path;
  bool session_conflict = false;
  std::vector<std::string> recent_sessions;  // newest first; kept in state/settings.h's file
  // Quitting with changes no session holds asks first (state/actions.h: ask_to_quit; the
  // question is shell/dialogs.h's quit dialog). saved: the state last saved, opened, or shown
  // by the window's first frames; empty: nothing to lose (offscreen, tests).
  std::optional<Params> saved;
  bool confirm_quit = false;     // the question is on screen
  bool quit_after_save = false;  // "Save, then quit": the session dialog quits once it saved
  bool show_controls = true;
  bool show_menu = true;                // false for pictures of the canvas alone (--canvas-only)
  bool transparent_background = false;  // pictures for slides: the canvas is see-through
  bool fullscreen = false;              // F11; presentation mode is always full screen
  // The presenter window beside the main one (F6, View menu, --presenter; shell/presenter.h):
  // the step's notes, its hidden answer and the next step, for the lecturer's eyes only.
  bool show_presenter = false;

  // The pen, highlighter, laser pointer or eraser in the lecturer's hand (shell/ink_layer.h);
  // none: the mouse works the views. Not saved: a session opens with the mouse free.
  enum class InkTool { none, pen, highlighter, laser, eraser } ink_tool = InkTool::none;
  InkColour ink_colour = InkColour::red;  // the pen's colour (W again: the next one)

  // What presentation mode changed, to put back when it ends (shell/frame.cpp).
  struct BeforePresentation {
    bool active = false;
    Theme theme = Theme::dark;
    double ui_scale = 1.0;
    bool show_controls = true;
    bool show_menu = true;  // presentation swaps the menu bar for the slim bar at the bottom
  } before_presentation;
};

}  // namespace rope::app
