#include "shell/commands.h"

#include <algorithm>
#include <utility>

#include "io/number_format.h"
#include "shell/export_dialog.h"
#include "shell/platform.h"
#include "shell/shortcuts.h"
#include "state/models.h"
#include "state/params.h"

namespace rope::app {

std::string fold_for_matching(std::string_view text) {
  std::string out;
  out.reserve(text.size());
  for (std::size_t i = 0; i < text.size(); ++i) {
    if (text.substr(i, 2) == "×") {  // "4×" is typed "4x"
      out += 'x';
      ++i;
      continue;
    }
    const char c = text[i];
    out += c >= 'A' && c <= 'Z' ? static_cast<char>(c - 'A' + 'a') : c;
  }
  return out;
}

namespace {

// [SECTION] words

// The words of a text, folded: split at spaces and the punctuation that joins names in titles
// (":", "=", "·", "(", ")", ",", "/", "…", "↔", "→"). '-', '.' and '_' stay inside a word, so
// "3.1", "theta-bf16" and "key_position" are one word each (the typed word must begin it).
std::vector<std::string> words_of(std::string_view text) {
  std::string t = fold_for_matching(text);
  for (const char* sep : {"·", "…", "↔", "→", "÷"}) {
    const std::string s = sep;
    for (std::size_t at = t.find(s); at != std::string::npos; at = t.find(s, at))
      t.replace(at, s.size(), " ");
  }
  std::vector<std::string> words;
  std::string w;
  for (char c : t) {
    if (c == ' ' || c == ':' || c == '=' || c == '(' || c == ')' || c == ',' || c == '/') {
      if (!w.empty()) words.push_back(std::move(w));
      w.clear();
    } else {
      w += c;
    }
  }
  if (!w.empty()) words.push_back(std::move(w));
  return words;
}

// Sets the words of `c`: its title's, then the others'.
void set_words(Command& c, std::initializer_list<std::string_view> more) {
  c.words = words_of(c.title);
  c.title_words = c.words.size();
  for (std::string_view m : more)
    for (std::string& w : words_of(m))
      c.words.push_back(std::move(w));
}

// Typed words split at spaces, as typed (a value keeps its case: a sentence, a file name).
std::vector<std::string> typed_words(std::string_view line) {
  std::vector<std::string> out;
  std::string w;
  for (char c : line) {
    if (c == ' ' || c == '\t') {
      if (!w.empty()) out.push_back(std::move(w));
      w.clear();
    } else {
      w += c;
    }
  }
  if (!w.empty()) out.push_back(std::move(w));
  return out;
}

bool is_number(const std::string& text) {
  return parse_real("value", text).ok();
}

// [SECTION] the commands

std::string with_spaces(std::string_view name) {
  std::string s(name);
  std::replace(s.begin(), s.end(), '_', ' ');
  return s;
}

void add_views(std::vector<Command>& out) {
  for (ViewId v : all_views()) {
    Command c;
    c.id = std::string("view:") + view_name(v);
    c.title = std::string("View: ") + view_title(v);
    c.key = view_key(v);
    c.detail = std::string("--view ") + view_name(v);
    set_words(c, {view_name(v)});
    c.run = [v](CommandTarget& t, const std::string&) -> Status {
      t.state.params.view = v;
      return {};
    };
    out.push_back(std::move(c));
  }
}

void add_lessons(std::vector<Command>& out, lessons::Library& library) {
  const std::vector<lessons::LoadedLesson>& all = library.lessons();
  for (std::size_t i = 0; i < all.size(); ++i) {
    const lessons::Lesson& l = all[i].lesson;
    if (!all[i].usable()) continue;
    const int number = static_cast<int>(i) + 1;
    const std::string name =
        "Lesson " + std::to_string(number) + " · " + (l.title.empty() ? l.id : l.title);
    const auto go = [i](int step) {
      return [i, step](CommandTarget& t, const std::string&) -> Status {
        t.state.params.view = ViewId::derivation;
        t.library.go_to(t.state.params, static_cast<int>(i), step);
        return {};
      };
    };
    Command c;
    c.id = "lesson:" + l.id;
    c.title = name;
    c.key = lesson_key(number);
    c.detail = std::to_string(l.steps.size()) + (l.steps.size() == 1 ? " step" : " steps") +
               (all[i].own ? " · yours" : "");
    set_words(c, {l.id, "derivation"});
    c.run = go(1);
    out.push_back(std::move(c));
    for (std::size_t s = 0; s < l.steps.size(); ++s) {
      const int step = static_cast<int>(s) + 1;
      Command sc;
      sc.id = "lesson:" + l.id + ":" + std::to_string(step);
      sc.title = "Lesson " + std::to_string(number) + " · step " + std::to_string(step) + ": " +
                 l.steps[s].title;
      sc.detail = l.title;
      set_words(sc, {l.id});
      sc.run = go(step);
      out.push_back(std::move(sc));
    }
  }
}

void add_models(std::vector<Command>& out) {
  const ModelLibrary& lib = model_library();
  const auto choose = [](std::string id) {
    return [id](CommandTarget& t, const std::string&) {
      return change_param(t.state.params, "model", id);
    };
  };
  for (const ModelPreset& m : lib.presets) {
    Command c;
    c.id = "model:" + m.id;
    c.title = "Model: " + m.name + " (" + m.tag + ")";
    c.detail = "d = " + std::to_string(m.head_dim) + " · base " +
               format_number(m.base, NumberStyle::label, 6) + " · scaling " + m.scaling_method +
               (m.notes.empty() ? "" : " · " + m.notes);
    set_words(c, {m.id, "preset"});
    c.run = choose(m.id);
    out.push_back(std::move(c));
  }
  Command none;
  none.id = "model:none";
  none.title = "Model: none (no preset)";
  none.detail = "the values stay; only the preset's name goes";
  set_words(none, {"preset"});
  none.run = choose("none");
  out.push_back(std::move(none));
}

void add_shortcuts(std::vector<Command>& out, const AppState& state) {
  const bool derivation = state.params.view == ViewId::derivation;
  for (const Shortcut& row : shortcut_table()) {
    if (row.command.empty()) continue;
    if (row.in == InView::derivation && !derivation) continue;  // the lesson's own keys
    Command c;
    c.id = "key:" + row.command;
    c.title = row.command;
    c.key = key_name(row);
    c.detail = in_browser() && !row.in_browser.empty() ? row.in_browser : row.description;
    set_words(c, {row.description});
    const Shortcut* r = &row;  // the table lives as long as the program
    c.run = [r](CommandTarget& t, const std::string&) -> Status {
      run_shortcut(*r, t.state, t.library, t.history, t.export_dialog);
      return {};
    };
    out.push_back(std::move(c));
  }
}

// A picture at 1×, 2×, 4× in one go: the export dialog opens with that scale and exports at once
// (its progress and its result show as from the dialog's own Export button).
void add_exports(std::vector<Command>& out) {
  for (int scale : {1, 2, 4}) {
    Command c;
    c.id = "export:" + std::to_string(scale);
    c.title = "Export picture at " + std::to_string(scale) + "× now";
    c.detail = "a PNG of the window at " + std::to_string(scale) +
               "× the pixels, into the screenshot folder";
    set_words(c, {"png screenshot slide"});
    c.run = [scale](CommandTarget& t, const std::string&) -> Status {
      if (!t.export_dialog) return Error{"export", "no export dialog here"};
      t.export_dialog->export_now(t.state, scale);
      return {};
    };
    out.push_back(std::move(c));
  }
}

// The parameter a number typed after a choice sets: "yarn 16" is the method and its factor.
const char* value_after_choice(std::string_view name) {
  return name == "scaling" ? "factor" : nullptr;
}

// Parameters the palette reaches another way: the view, the model and the lesson have their own
// commands with titles; presentation and playing are F5 and Space.
bool offered_elsewhere(std::string_view name) {
  return name == "view" || name == "model" || name == "lesson" || name == "presentation" ||
         name == "playing";
}

void add_params(std::vector<Command>& out, const Params& now) {
  for (const ParamSpec& spec : param_specs()) {
    const std::string name = spec.name;
    if (offered_elsewhere(name)) continue;
    const std::string shown = with_spaces(name);
    const std::string current = spec.get(now);
    const std::string help = spec.help ? spec.help : "";
    // tried on a copy while typing, and run on the state: the same change_param
    const auto set = [name](Params& p, const std::string& value) {
      return change_param(p, name, value);
    };
    const auto run_on_state = [](auto try_on) {
      return [try_on](CommandTarget& t, const std::string& value) -> Status {
        Params p = t.state.params;
        if (auto s = try_on(p, value); !s) return s;
        t.state.params = std::move(p);
        return {};
      };
    };
    if (spec.kind == ParamKind::choice || spec.kind == ParamKind::boolean) {
      std::vector<std::string> choices = spec.kind == ParamKind::boolean
                                             ? std::vector<std::string>{"true", "false"}
                                             : param_choices(spec);
      const char* then = value_after_choice(name);
      for (const std::string& choice : choices) {
        Command c;
        c.id = "param:" + name + "=" + choice;
        const std::string said =
            spec.kind == ParamKind::boolean ? (choice == "true" ? "on" : "off") : choice;
        c.title = shown + " = " + said;
        c.detail = help + (current == choice ? " · now" : "");
        if (then) c.detail += std::string(" · a number after it sets the ") + then;
        set_words(c, {name, help});
        c.value = then ? CommandValue::optional : CommandValue::none;
        if (then) c.value_name = then;
        c.try_on = [name, choice, then](Params& p, const std::string& value) -> Status {
          const Params before = p;
          Status s = change_param(p, name, choice);
          if (s && then && !value.empty()) s = change_param(p, then, value);
          if (!s) p = before;
          return s;
        };
        c.run = run_on_state(c.try_on);
        out.push_back(std::move(c));
      }
      continue;
    }
    Command c;
    c.id = "param:" + name;
    c.title = shown + " = …";
    c.detail = "now " + current + " · " + param_allowed(spec) + (help.empty() ? "" : " · " + help);
    // a value command matches its name only: its help's words would eat the typed value
    set_words(c, {name});
    c.value = spec.kind == ParamKind::integer || spec.kind == ParamKind::real ? CommandValue::number
                                                                              : CommandValue::text;
    c.try_on = set;
    c.run = run_on_state(set);
    out.push_back(std::move(c));
  }
}

// [SECTION] matching

// How well one typed word fits a command: the index of the word it begins (-1: none) and points.
struct WordFit {
  int at = -1;
  int points = 0;
};

WordFit fit(const Command& c, const std::string& typed, int after) {
  WordFit best;
  for (std::size_t i = 0; i < c.words.size(); ++i) {
    const std::string& w = c.words[i];
    if (w.compare(0, typed.size(), typed) != 0) continue;
    int points = w.size() == typed.size() ? 3 : 2;
    if (i < c.title_words) ++points;
    if (static_cast<int>(i) > after) ++points;  // in the typed order
    if (points > best.points) best = WordFit{static_cast<int>(i), points};
  }
  return best;
}

bool in_recent(const AppState& state, const std::string& id, std::size_t* rank) {
  const auto& r = state.recent_commands;
  const auto it = std::find(r.begin(), r.end(), id);
  if (it == r.end()) return false;
  *rank = static_cast<std::size_t>(it - r.begin());
  return true;
}

}  // namespace

std::vector<Command> build_commands(const AppState& state, lessons::Library& library) {
  std::vector<Command> out;
  add_views(out);
  add_lessons(out, library);
  add_models(out);
  add_shortcuts(out, state);
  add_exports(out);
  add_params(out, state.params);
  return out;
}

std::vector<CommandMatch> match_commands(const std::vector<Command>& commands,
                                         std::string_view line, const AppState& state) {
  const std::vector<std::string> typed = typed_words(line);
  struct Ranked {
    CommandMatch m;
    bool runnable;
    double coverage;  // the share of the title's words matched: "dark" is more of "theme = dark"
    std::size_t recent;
  };
  std::vector<Ranked> found;
  for (std::size_t i = 0; i < commands.size(); ++i) {
    const Command& c = commands[i];
    CommandMatch m;
    m.index = i;
    m.title = c.title;
    std::vector<std::string> rest;
    int matched = 0, after = -1, in_title = 0;
    for (const std::string& t : typed) {
      // a command that takes a number takes a typed number as it: "base 16" is not "16" matched
      // against the help's words
      if ((c.value == CommandValue::number || c.value == CommandValue::optional) && is_number(t)) {
        rest.push_back(t);
        continue;
      }
      const WordFit f = fit(c, fold_for_matching(t), after);
      if (f.at < 0) {
        rest.push_back(t);
        continue;
      }
      m.score += f.points;
      after = f.at;
      if (static_cast<std::size_t>(f.at) < c.title_words) ++in_title;
      ++matched;
    }
    if (!typed.empty() && matched == 0) continue;
    for (std::size_t k = 0; k < rest.size(); ++k)
      m.value += (k ? " " : "") + rest[k];
    if (!m.value.empty() && c.value == CommandValue::none) continue;
    if (c.value == CommandValue::number && !m.value.empty() && !is_number(m.value)) continue;
    if (c.value == CommandValue::optional && !m.value.empty() && !is_number(m.value)) continue;
    if (c.value == CommandValue::number || c.value == CommandValue::text) {
      if (m.value.empty()) {
        m.problem = "type a value after the name (" + c.detail + ")";
      } else {
        const std::size_t dots = m.title.rfind("…");
        if (dots != std::string::npos) m.title.replace(dots, std::string("…").size(), m.value);
      }
    } else if (c.value == CommandValue::optional && !m.value.empty()) {
      m.title += ", " + c.value_name + " = " + m.value;
    }
    if (c.try_on && m.problem.empty()) {
      Params copy = state.params;
      if (auto s = c.try_on(copy, m.value); !s) m.problem = s.error().to_string();
    }
    std::size_t rank = kMaxRecentCommands;
    in_recent(state, c.id, &rank);
    const double coverage =
        c.title_words ? static_cast<double>(in_title) / static_cast<double>(c.title_words) : 0.0;
    found.push_back(Ranked{std::move(m), false, coverage, rank});
    found.back().runnable = found.back().m.problem.empty();
  }
  // stable: equal ranks keep build_commands' order
  std::stable_sort(found.begin(), found.end(), [](const Ranked& a, const Ranked& b) {
    if (a.runnable != b.runnable) return a.runnable;
    if (a.m.score != b.m.score) return a.m.score > b.m.score;
    if (a.coverage != b.coverage) return a.coverage > b.coverage;
    return a.recent < b.recent;
  });
  std::vector<CommandMatch> out;
  out.reserve(found.size());
  for (Ranked& r : found)
    out.push_back(std::move(r.m));
  return out;
}

Status run_command(const Command& command, const CommandMatch& match, CommandTarget& target) {
  if (!match.problem.empty()) return Error{command.title, match.problem};
  if (auto s = command.run(target, match.value); !s) return s;
  auto& r = target.state.recent_commands;
  r.erase(std::remove(r.begin(), r.end(), command.id), r.end());
  r.insert(r.begin(), command.id);
  if (r.size() > kMaxRecentCommands) r.resize(kMaxRecentCommands);
  return {};
}

}  // namespace rope::app
