// tests/app/lecturer.h — the state's property test (issue 28; classroom review D1, D2): a simulated
// lecturer who does whatever a lecturer can, in any order — parameters set through the table
// (what widgets, keys, flags and lesson lines all go through), model presets, lesson steps
// entered, undo and redo, sessions loaded — and the property every state must keep: it
// validates, saves as a session that reloads to the same session, and its view exports its
// numbers (the dataset `rope-lab export` would build) without an error, or says the view has
// none. A value the table refuses leaves the state as it was.
//
// Two drivers share it: tests/app/test_state_property.cpp (seeded sequences in the test suite)
// and tests/fuzz/fuzz_state.cpp (libFuzzer's bytes as the choices, for as long as one likes).
//
// Usage:
//   std::mt19937_64 rng(seed);
//   static rope::lessons::Library lessons;
//   Lecturer who([&] { return rng(); }, lessons);
//   who.act();
//   if (std::string broken = property_broken(who); !broken.empty()) report(broken);
#pragma once

#include <cmath>
#include <cstdint>
#include <functional>
#include <string>
#include <utility>
#include <vector>

#include "export/datasets.h"
#include "export/view_data.h"
#include "lessons/library.h"
#include "state/actions.h"
#include "state/app_state.h"
#include "state/history.h"
#include "state/models.h"
#include "state/params.h"
#include "state/session.h"

namespace rope::app::testing {

class Lecturer {
 public:
  // `next`: where the choices come from (a seeded generator, or a fuzzer's bytes); `library`:
  // the lessons, loaded once and shared by every lecturer of a run (loading checks every step)
  Lecturer(std::function<std::uint64_t()> next, rope::lessons::Library& library)
      : next_(std::move(next)), library_(library) {}

  AppState state;
  std::vector<std::string> log;  // what was done, for the failure message
  std::string failure;           // set when an action broke the property on its own

  // One action chosen at random.
  void act() {
    const int kind = pick(0, 99);
    if (kind < 55) {
      set_a_parameter();
    } else if (kind < 65) {
      choose_a_model();
    } else if (kind < 75) {
      enter_a_lesson_step();
    } else if (kind < 83) {
      undo_or_redo();
    } else if (kind < 90) {
      load_a_session();
    } else {
      type_a_vector();
    }
    history_.observe(state.params, true);
    sessions_.push_back(session_to_json(state.params));
  }

 private:
  // lo ... hi; the modulo's bias is of no concern for a test
  int pick(int lo, int hi) {
    const auto span = static_cast<std::uint64_t>(hi - lo) + 1;
    return lo + static_cast<int>(next_() % span);
  }
  double uniform(double lo, double hi) {  // lo ... hi from the top 53 bits
    return lo + (hi - lo) * static_cast<double>(next_() >> 11) * 0x1.0p-53;
  }
  void fail(const std::string& what) {
    if (failure.empty()) failure = what;
  }

  // Sets `name` to `text` as a widget or key does (change_param); a refused value must leave
  // the state as it was.
  void set(const std::string& name, const std::string& text) {
    log.push_back(name + "=" + text);
    const Params before = state.params;
    if (!change_param(state.params, name, text).ok() && !(state.params == before))
      fail("a refused " + log.back() + " changed the state");
  }

  void set_a_parameter() {
    const auto specs = param_specs();
    const ParamSpec& spec =
        specs[static_cast<std::size_t>(pick(0, static_cast<int>(specs.size()) - 1))];
    const std::string name = spec.name;
    switch (spec.kind) {
      case ParamKind::boolean:
        set(name, pick(0, 1) != 0 ? "true" : "false");
        return;
      case ParamKind::integer:
      case ParamKind::real: {
        const ParamRange& r = spec.range;
        if (pick(0, 9) == 0) {  // what a typo or a broken flag gives: refused, nothing changes
          const char* bad[] = {"nan", "inf", "-1e308", "abc", "", "1e400", "0x10"};
          set(name, bad[pick(0, 6)]);
          return;
        }
        double v = r.logarithmic ? std::exp(uniform(std::log(r.slider_min), std::log(r.slider_max)))
                                 : uniform(r.slider_min, r.slider_max);
        if (spec.kind == ParamKind::integer) v = std::round(v);
        log.push_back(name + "~" + format_number(v, NumberStyle::csv));
        (void)set_param_value(state.params, name, v);  // as a slider or a key sets it
        return;
      }
      case ParamKind::choice: {
        if (name == "model") return choose_a_model();
        std::vector<std::string> words = param_choices(spec);
        if (name == "show_view")  // "any view but derivation"
          for (ViewId v : all_views())
            if (v != ViewId::derivation) words.emplace_back(view_name(v));
        if (words.empty()) return;
        set(name, words[static_cast<std::size_t>(pick(0, static_cast<int>(words.size()) - 1))]);
        return;
      }
      case ParamKind::vector:
        if (name == "query" || name == "key") return type_a_vector();
        // the LongRoPE lists: empty, d/2 numbers, or a wrong count (refused)
        if (pick(0, 2) == 0) return set(name, "");
        return set(name, numbers(state.params.dim / 2 + (pick(0, 3) == 0 ? 1 : 0), 1.0, 8.0));
      case ParamKind::text:
        return;  // file names, sentences and the lesson: other tests; lessons below
    }
  }

  std::string numbers(int count, double lo, double hi) {
    std::string s;
    for (int i = 0; i < count; ++i)
      s += (i ? "," : "") + format_number(uniform(lo, hi), NumberStyle::csv);
    return s;
  }

  // A typed q or k: mostly d numbers, sometimes a count for another d (a typo), refused
  void type_a_vector() {
    const std::string which = pick(0, 1) ? "query" : "key";
    const int kind = pick(0, 5);
    if (kind == 0) return set(which, "ones");
    if (kind == 1) return set(which, "random");
    if (kind == 2) return set(which, "unit");
    const int count = kind == 3 ? pick(1, 8) : state.params.dim;
    if (count > 4096) return;
    set(which, numbers(count, -2.0, 2.0));  // another count than d: refused
  }

  void choose_a_model() {
    const ModelLibrary& lib = model_library();
    const int i = pick(-1, static_cast<int>(lib.presets.size()) - 1);
    set("model", i < 0 ? std::string("none") : lib.presets[static_cast<std::size_t>(i)].id);
  }

  void enter_a_lesson_step() {
    const auto& all = library_.lessons();
    if (all.empty()) return;
    const int index = pick(0, static_cast<int>(all.size()) - 1);
    const int steps = static_cast<int>(all[static_cast<std::size_t>(index)].lesson.steps.size());
    const int step = pick(1, std::max(1, steps));
    log.push_back("lesson " + all[static_cast<std::size_t>(index)].lesson.id + " step " +
                  std::to_string(step));
    library_.go_to(state.params, index, step);
    library_.enter(state);
  }

  void undo_or_redo() {
    const bool undo = pick(0, 2) != 0;
    log.push_back(undo ? "undo" : "redo");
    if (auto p = undo ? history_.undo(state.params) : history_.redo(state.params))
      restore_params(state, *p);
  }

  void load_a_session() {
    if (sessions_.empty()) return;
    const std::size_t i = static_cast<std::size_t>(pick(0, static_cast<int>(sessions_.size()) - 1));
    log.push_back("load session " + std::to_string(i));
    Params loaded = state.params;
    if (const Status s = session_from_json(sessions_[i], loaded); !s)
      return fail("a saved session did not load: " + s.error().to_string());
    state.params = loaded;
  }

  std::function<std::uint64_t()> next_;
  History history_;
  rope::lessons::Library& library_;
  std::vector<std::string> sessions_;  // every state so far, as saved
};

// What the state after the last action breaks of the property ("" when nothing): the
// lecturer's own finding first, then validation, the session round trip and the view's export.
inline std::string property_broken(const Lecturer& who) {
  if (!who.failure.empty()) return who.failure;
  const Params& p = who.state.params;
  if (const Status valid = validate_params(p); !valid)
    return "the state does not validate: " + valid.error().to_string();
  const std::string saved = session_to_json(p);
  Params reloaded;
  if (const Status loaded = session_from_json(saved, reloaded); !loaded)
    return "the saved session does not load: " + loaded.error().to_string();
  if (session_to_json(reloaded) != saved) return "the session does not reload to itself";
  const auto e = view_export(p);
  if (!e) {  // "this view has no data export" is not a state error; anything else is
    return e.error().parameter == "view" ? std::string()
                                         : "the view's export is refused: " + e.error().to_string();
  }
  const DatasetSpec* spec = find_dataset(e.value().dataset);
  if (!spec) return "no dataset " + e.value().dataset;
  const auto table = build_dataset(*spec, e.value().args);
  if (!table) return e.value().command() + " -> " + table.error().to_string();
  return {};
}

// The actions so far, for a failure's message.
inline std::string trail(const Lecturer& who) {
  std::string t;
  for (const std::string& a : who.log)
    t += a + "; ";
  return t;
}

}  // namespace rope::app::testing
