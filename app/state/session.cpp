#include "state/session.h"

#include <algorithm>
#include <cmath>
#include <nlohmann/json.hpp>
#include <utility>
#include <vector>

#include "io/atomic_file.h"
#include "io/number_format.h"
#include "io/read_file.h"
#include "state/params.h"

namespace rope::app {
namespace {

constexpr const char* kFormat = "rope-lab-session";
// A session without ink is a few kB; ink is about 11 bytes a point (a 20 000-point stroke,
// the longest, is about 220 kB). Larger files are refused before they are read.
constexpr std::uintmax_t kMaxSessionBytes = 16u << 20;

Error session_error(std::string message) {
  return Error{"session", std::move(message)};
}

// "ink": {"PAGE": [{"kind": "pen", "colour": "red", "points": [x0, y0, x1, y1, ...]}, ...]},
// and "anchor": "lesson" or "view" for a stroke on a lesson step (absent: the whole ink area)
nlohmann::ordered_json ink_json(const Ink& ink) {
  nlohmann::ordered_json pages = nlohmann::ordered_json::object();
  for (const auto& [page, strokes] : ink.pages()) {
    nlohmann::ordered_json list = nlohmann::ordered_json::array();
    for (const auto& stroke : strokes) {
      nlohmann::ordered_json xy = nlohmann::ordered_json::array();
      for (const InkPoint& p : stroke->points) {
        xy.push_back(p.x);
        xy.push_back(p.y);
      }
      nlohmann::ordered_json s;
      s["kind"] = stroke->kind == InkKind::pen ? "pen" : "highlighter";
      s["colour"] = ink_colour_name(stroke->colour);
      s["points"] = std::move(xy);
      if (stroke->anchor != InkAnchor::area) s["anchor"] = ink_anchor_name(stroke->anchor);
      list.push_back(std::move(s));
    }
    pages[page] = std::move(list);
  }
  return pages;
}

// The ink of a session file, all or nothing; the message names the page and stroke.
Status ink_from(const nlohmann::json& doc, Ink& out) {
  if (!doc.is_object()) return session_error("\"ink\" must be an object of pages");
  if (doc.size() > kMaxInkPages)
    return session_error("\"ink\" has " + std::to_string(doc.size()) + " pages; at most " +
                         std::to_string(kMaxInkPages));
  Ink ink;
  for (const auto& [page, strokes] : doc.items()) {
    const std::string where = "ink page \"" + page + "\"";
    if (page.empty() || page.size() > 200)
      return session_error("ink page names are 1 to 200 characters");
    if (!strokes.is_array()) return session_error(where + " must be a list of strokes");
    if (strokes.size() > kMaxInkStrokes)
      return session_error(where + " has " + std::to_string(strokes.size()) + " strokes; at most " +
                           std::to_string(kMaxInkStrokes));
    for (std::size_t i = 0; i < strokes.size(); ++i) {
      const nlohmann::json& s = strokes[i];
      const std::string at = where + ", stroke " + std::to_string(i + 1);
      if (!s.is_object()) return session_error(at + " must be an object");
      for (const auto& [key, _] : s.items())
        if (key != "kind" && key != "colour" && key != "points" && key != "anchor")
          return session_error(at + " has an unknown key \"" + key + "\"");
      InkStroke stroke;
      const auto kind = s.find("kind");
      if (kind == s.end() || !kind->is_string() || (*kind != "pen" && *kind != "highlighter"))
        return session_error(at + ": \"kind\" must be \"pen\" or \"highlighter\"");
      stroke.kind = *kind == "pen" ? InkKind::pen : InkKind::highlighter;
      const auto colour = s.find("colour");
      if (colour == s.end() || !colour->is_string() ||
          !ink_colour_from_name(colour->get<std::string>(), stroke.colour))
        return session_error(at + ": \"colour\" must be \"red\", \"blue\", \"green\" or \"text\"");
      if (const auto anchor = s.find("anchor"); anchor != s.end())
        if (!anchor->is_string() || *anchor == "area" ||
            !ink_anchor_from_name(anchor->get<std::string>(), stroke.anchor))
          return session_error(at + ": \"anchor\" must be \"lesson\" or \"view\"");
      const long long lo = ink_min(stroke.anchor), hi = ink_max(stroke.anchor);
      const auto points = s.find("points");
      if (points == s.end() || !points->is_array() || points->empty() || points->size() % 2 != 0 ||
          points->size() > 2 * kMaxInkPoints)
        return session_error(at + ": \"points\" must be a list of x, y pairs, 1 to " +
                             std::to_string(kMaxInkPoints) + " points");
      stroke.points.reserve(points->size() / 2);
      for (std::size_t k = 0; k < points->size(); k += 2) {
        const nlohmann::json& x = (*points)[k];
        const nlohmann::json& y = (*points)[k + 1];
        if (!x.is_number_integer() || !y.is_number_integer() || x.get<long long>() < lo ||
            x.get<long long>() > hi || y.get<long long>() < lo || y.get<long long>() > hi)
          return session_error(at + ": every coordinate must be an integer from " +
                               std::to_string(lo) + " to " + std::to_string(hi));
        stroke.points.push_back(InkPoint{static_cast<std::int32_t>(x.get<long long>()),
                                         static_cast<std::int32_t>(y.get<long long>())});
      }
      ink.add(page, std::move(stroke));
    }
  }
  out = std::move(ink);
  return {};
}

}  // namespace

std::string session_to_json(const Params& params) {
  nlohmann::ordered_json values = nlohmann::ordered_json::object();
  for (const ParamSpec& spec : param_specs()) {
    const std::string text = spec.get(params);
    // no config.json: left out, so that a session without one opens in builds before it
    if (spec.name == std::string_view("config") && text.empty()) continue;
    if (spec.kind == ParamKind::boolean) {
      values[spec.name] = text == "true";
    } else if (auto num = parse_real(spec.name, text);
               num && (spec.kind == ParamKind::integer || spec.kind == ParamKind::real)) {
      double x = num.value();
      // The animation leaves m between integers (465.11047331627805); the file keeps six
      // decimals, so no pointer turns by more than 5·10⁻⁷ rad (θ ≤ 1) between saving and opening.
      if ((spec.name == std::string_view("position") ||
           spec.name == std::string_view("key_position")) &&
          std::fabs(x) < 1e9)
        x = std::round(x * 1e6) / 1e6;
      if (x == std::round(x) && std::fabs(x) < 9e15) {
        values[spec.name] = static_cast<long long>(x);
      } else {
        values[spec.name] = x;  // shortest text that reads back to the same double
      }
    } else {
      values[spec.name] = text;
    }
  }
  nlohmann::ordered_json doc;
  doc["format"] = kFormat;
  // version 2 added the ink; a session without any stays version 1, readable by older builds
  doc["version"] = params.ink.empty() ? 1 : kSessionVersion;
  doc["params"] = std::move(values);
  if (!params.ink.empty()) doc["ink"] = ink_json(params.ink);
  return doc.dump(2) + "\n";
}

Status session_from_json(std::string_view text, Params& params) {
  const nlohmann::json doc = nlohmann::json::parse(text, nullptr, /*allow_exceptions=*/false);
  if (doc.is_discarded()) return session_error("is not valid JSON (truncated or damaged?)");
  if (!doc.is_object()) return session_error("must be a JSON object");
  const auto format = doc.find("format");
  if (format == doc.end() || !format->is_string() || format->get<std::string>() != kFormat)
    return session_error(std::string("is not a RoPE Lab session (\"format\" must be \"") + kFormat +
                         "\")");
  const auto version = doc.find("version");
  if (version == doc.end() || !version->is_number_integer())
    return session_error("has no integer \"version\"");
  // JSON keeps non-negative integers as unsigned: those above 2^63 - 1 would wrap to a negative
  // "invalid version" read as long long (review N14), so a version is compared as it was read.
  const bool is_unsigned = version->is_number_unsigned();
  const auto uv = is_unsigned ? version->get<unsigned long long>() : 0ULL;
  const std::string v_text =
      is_unsigned ? std::to_string(uv) : std::to_string(version->get<long long>());
  const bool newer = is_unsigned && uv > static_cast<unsigned long long>(kSessionVersion);
  if (newer)
    return session_error("was written by a newer RoPE Lab (version " + v_text +
                         "); this build reads version " + std::to_string(kSessionVersion) +
                         " and older");
  if (!is_unsigned || uv < 1) return session_error("has an invalid version " + v_text);
  for (const auto& [key, _] : doc.items())
    if (key != "format" && key != "version" && key != "params" && key != "ink")
      return session_error("has an unknown key \"" + key + "\"");
  const auto values = doc.find("params");
  if (values == doc.end() || !values->is_object()) return session_error("has no \"params\" object");

  Params trial = params;
  trial.ink.clear();  // a session without "ink" has none
  if (const auto ink = doc.find("ink"); ink != doc.end())
    if (auto s = ink_from(*ink, trial.ink); !s) return s;
  // The model preset first, then a config.json (each clears the other: a saved "model": "none"
  // must not clear the config after it; their values are the session's starting point, the
  // session's own values saved beside them then win), then the layer (that layer's values),
  // the others in the file's order.
  std::vector<std::pair<std::string, const nlohmann::json*>> ordered;
  for (const auto& [key, value] : values->items())
    ordered.emplace_back(key, &value);
  const auto rank = [](const std::string& key) {
    return key == "model" ? 0 : key == "config" ? 1 : key == "layer" ? 2 : 3;
  };
  std::stable_sort(ordered.begin(), ordered.end(),
                   [&](const auto& a, const auto& b) { return rank(a.first) < rank(b.first); });
  for (const auto& [key, value_ptr] : ordered) {
    const nlohmann::json& value = *value_ptr;
    if (!find_param(key)) return session_error("has an unknown parameter \"" + key + "\"");
    std::string value_text;
    if (value.is_boolean()) {
      value_text = value.get<bool>() ? "true" : "false";
    } else if (value.is_number()) {
      value_text = format_number(value.get<double>(), NumberStyle::csv);
    } else if (value.is_string()) {
      value_text = value.get<std::string>();
    } else {
      return session_error("parameter \"" + key + "\" must be a number, a string or true/false");
    }
    if (auto s = set_param(trial, key, value_text); !s) {
      // A config.json that moved or changed since the session was saved costs its name on
      // screen, not the session: every value it set is saved beside it and applied next.
      if (key == "config") {
        trial.config = value_text;
        trial.config_preset = {};
        trial.model.clear();
        continue;
      }
      // its layer too: without the file there are no layers to choose from
      if (key == "layer" && !trial.config.empty() && !trial.config_preset.preset) continue;
      return session_error("parameter " + s.error().to_string());
    }
  }
  if (auto s = validate_params(trial); !s)
    return session_error("parameter " + s.error().to_string());
  name_ink_pages_by_dim(trial.ink, trial.dim);
  params = std::move(trial);
  return {};
}

Status save_session(const std::filesystem::path& path, const Params& params) {
  return write_file_atomic(path, session_to_json(params));
}

Status load_session(const std::filesystem::path& path, Params& params) {
  auto text = read_regular_file(path, kMaxSessionBytes);
  if (!text) return text.error();
  if (auto s = session_from_json(text.value(), params); !s)
    return Error{path.string(), s.error().message};
  return {};
}

}  // namespace rope::app
